"""Run the scoreboard: bind the listening socket, follow the journal, serve the board with
uvicorn until SIGTERM or SIGINT (uvicorn's own handlers: a graceful stop; open event
streams are closed by sse-starlette). With NOTIFY_SOCKET (systemd Type=notify) READY=1 is
sent once the board has caught up and the socket listens. What clients may hold (connections,
time to send a request's headers) is bounded by limits.py."""
from __future__ import annotations

import signal
import socket
import sys
from dataclasses import dataclass

import structlog
import uvicorn

from controller.config.schema import split_listen
from controller.sdnotify import Notifier
from services.follow import POLL_S
from services.scoreboard.app import create_app
from services.scoreboard.limits import limit_logs, uvicorn_limits
from services.scoreboard.stream import BoardStream

log = structlog.get_logger("scoreboard")
GRACEFUL_STOP_S = 3


@dataclass(frozen=True)
class ScoreboardSettings:
    journal_path: str
    socket_path: str
    game: str
    listen: str = "127.0.0.1:8080"
    lang: str = "en"
    table_name: str = ""
    poll_s: float = POLL_S


def listening_socket(listen: str) -> socket.socket:
    """The bound, listening socket (OSError when the address is taken or not ours)."""
    host, port = split_listen(listen)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(settings: ScoreboardSettings, sock: socket.socket) -> int:
    """Serve on `sock` until stopped; 0 after SIGTERM/SIGINT, 1 if following the journal failed."""
    url = url_of(sock)
    stream = BoardStream(settings.journal_path, settings.socket_path, game=settings.game,
                         table_name=settings.table_name, lang=settings.lang, poll_s=settings.poll_s)
    notifier = Notifier.from_environment(unset=True)

    def ready() -> None:
        print(f"tablectl scoreboard: serving {url} (journal {settings.journal_path})", flush=True)
        log.info("serving", url=url, journal=settings.journal_path, socket=settings.socket_path)
        notifier.ready(status=f"serving {url}")

    limit_logs()  # a flood of clients must not flood the log
    server = uvicorn.Server(uvicorn.Config(create_app(stream, on_ready=ready), log_config=None, access_log=False,
                                           lifespan="on", timeout_graceful_shutdown=GRACEFUL_STOP_S, **uvicorn_limits()))
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
        print(f"tablectl scoreboard: {stream.failure}", file=sys.stderr)
        return 1
    return 0
