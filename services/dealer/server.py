"""Run the dealer page: follow the journal, serve the page on the socket given
(services/page_server.py: uvicorn until SIGTERM or SIGINT, READY=1 under systemd once the page
has caught up, clients bounded by services/http_limits.py)."""
from __future__ import annotations

import socket

from services.dealer.app import create_app
from services.dealer.stream import DeskStream
from services.follow import POLL_S
from services.page_server import serve_page


def serve(journal_path: str, socket_path: str, game: str, sock: socket.socket, poll_s: float = POLL_S) -> int:
    """Serve on `sock` until stopped; 0 after SIGTERM/SIGINT, 1 if following the journal failed."""
    stream = DeskStream(journal_path, socket_path, game=game, poll_s=poll_s)
    return serve_page("dealer", lambda ready: create_app(stream, on_ready=ready), stream, sock)
