"""The dealer page's web application (Starlette; served by uvicorn through
services/page_server.py):

    /            the page (static HTML, CSS and vanilla JS shipped in static/)
    /round.json  the round in play as the page shows it (desk.py's `desk_json`), with the link
    /events      server-sent events (services/page_routes.py): `update` {"seq", "kind", "at",
                 "desk"} with id = journal seq, and `link`
    /static/...  the page's files

It only reads: there is no route that takes a command or writes anything.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from starlette.applications import Starlette

from services.dealer.stream import DeskStream
from services.page_routes import page_app

STATIC = Path(__file__).resolve().parent / "static"


def create_app(stream: DeskStream, on_ready: Callable[[], None] | None = None) -> Starlette:
    return page_app(stream, static=STATIC, snapshot_path="/round.json", what="dealer page", on_ready=on_ready)
