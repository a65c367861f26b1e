"""Serve a page (the scoreboard, the dealer page) on a socket we bind ourselves: uvicorn until
SIGTERM or SIGINT (uvicorn's own handlers: a graceful stop; open event streams are closed by
sse-starlette). With NOTIFY_SOCKET (systemd Type=notify) READY=1 is sent once the page's fold
has caught up and the socket listens. What clients may hold (connections, time to send a
request's headers) is bounded by http_limits.py."""
from __future__ import annotations

import signal
import socket
import sys
from collections.abc import Callable

import structlog
import uvicorn
from starlette.applications import Starlette

from controller.config.schema import split_listen
from controller.sdnotify import Notifier
from services.fold_stream import FoldStream
from services.http_limits import BACKLOG, limit_logs, uvicorn_limits

log = structlog.get_logger("page_server")
GRACEFUL_STOP_S = 3


def listening_socket(listen: str) -> socket.socket:
    """The bound, listening socket for `ADDRESS:PORT` (OSError when the address is taken or not ours)."""
    host, port = split_listen(listen)
    return bound_socket(host, port)


def bound_socket(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve_page(name: str, make_app: Callable[[Callable[[], None]], Starlette], stream: FoldStream,
               sock: socket.socket) -> int:
    """Serve `make_app(on_ready)` on `sock` until stopped: 0 after SIGTERM/SIGINT, 1 if
    following the journal failed. `name` is the command's (`scoreboard`, `dealer`): the line
    printed once ready, `tablectl NAME: serving URL (journal PATH)`, and the log's."""
    url = url_of(sock)
    notifier = Notifier.from_environment(unset=True)

    def ready() -> None:
        print(f"tablectl {name}: serving {url} (journal {stream.journal_path})", flush=True)
        log.info("serving", page=name, url=url, journal=stream.journal_path, socket=stream.socket_path)
        notifier.ready(status=f"serving {url}")

    limit_logs()  # a flood of clients must not flood the log
    server = uvicorn.Server(uvicorn.Config(make_app(ready), log_config=None, access_log=False, lifespan="on",
                                           timeout_graceful_shutdown=GRACEFUL_STOP_S, **uvicorn_limits()))
    stream.on_failure = lambda why: setattr(server, "should_exit", True)
    # uvicorn stops gracefully on SIGTERM/SIGINT, then raises the signal again under the handler
    # it found: with these it is a plain return, and a stop by signal exits 0 like the daemon.
    previous = {sig: signal.signal(sig, lambda number, frame: None) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        notifier.stopping()
        notifier.close()
        sock.close()
    if stream.failure:
        print(f"tablectl {name}: {stream.failure}", file=sys.stderr)
        return 1
    return 0
