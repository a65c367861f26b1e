"""The scoreboard's web application (Starlette; served by uvicorn, see server.py):

    /            the board (static HTML, CSS and vanilla JS shipped in static/)
    /roads.json  the current shoe: the roads as `tablectl roads --json` prints them, plus the
                 game, shoe, round, last result with both hands' cards, counts, voids, the round
                 in progress ("live") and the daemon's link
    /events      server-sent events (services/page_routes.py, stream.py): `update` with id =
                 journal seq, and `link`; a Last-Event-ID longer than a seq (19 digits) is a 400
    /game-labels.js  the games' own words for the board (their counts, in every language the
                 board speaks), from each game's table profile, added to static/labels.js's LABELS
    /static/...  the page's files

It only reads: there is no route that takes a command or writes anything.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.page_routes import NO_CACHE, page_app
from services.scoreboard.board import game_labels_script
from services.scoreboard.stream import BoardStream

STATIC = Path(__file__).resolve().parent / "static"


def create_app(stream: BoardStream, on_ready: Callable[[], None] | None = None) -> Starlette:
    labels_script = game_labels_script()

    async def game_labels(request: Request) -> Response:
        return Response(labels_script, media_type="text/javascript", headers=NO_CACHE)

    return page_app(stream, static=STATIC, snapshot_path="/roads.json", what="board", on_ready=on_ready,
                    extra=[Route("/game-labels.js", game_labels)])
