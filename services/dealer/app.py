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
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from services.dealer.stream import DeskStream
from services.page_routes import NO_CACHE, events_endpoint, following

STATIC = Path(__file__).resolve().parent / "static"


def create_app(stream: DeskStream, on_ready: Callable[[], None] | None = None) -> Starlette:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=NO_CACHE)

    async def round_json(request: Request) -> Response:
        return JSONResponse(stream.snapshot(), headers=NO_CACHE)

    routes = [
        Route("/", page),
        Route("/round.json", round_json),
        Route("/events", events_endpoint(stream)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=following(stream, "dealer page", on_ready))
