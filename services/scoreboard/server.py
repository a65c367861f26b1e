"""Run the scoreboard: bind the listening socket, follow the journal, serve the board
(services/page_server.py: uvicorn until SIGTERM or SIGINT, READY=1 under systemd once the board
has caught up, clients bounded by services/http_limits.py)."""
from __future__ import annotations

import socket
from dataclasses import dataclass

from services.follow import POLL_S
from services.page_server import listening_socket, serve_page
from services.scoreboard.app import create_app
from services.scoreboard.stream import BoardStream

__all__ = ["ScoreboardSettings", "listening_socket", "serve"]


@dataclass(frozen=True)
class ScoreboardSettings:
    journal_path: str
    socket_path: str
    game: str
    listen: str = "127.0.0.1:8080"
    lang: str = "en"
    table_name: str = ""
    poll_s: float = POLL_S


def serve(settings: ScoreboardSettings, sock: socket.socket) -> int:
    """Serve on `sock` until stopped; 0 after SIGTERM/SIGINT, 1 if following the journal failed."""
    stream = BoardStream(settings.journal_path, settings.socket_path, game=settings.game,
                         table_name=settings.table_name, lang=settings.lang, poll_s=settings.poll_s)
    return serve_page("scoreboard", lambda ready: create_app(stream, on_ready=ready), stream, sock)
