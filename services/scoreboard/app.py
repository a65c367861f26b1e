"""The scoreboard's web application (Starlette; served by uvicorn, see server.py):

    /            the board (static HTML, CSS and vanilla JS shipped in static/)
    /roads.json  the current shoe: the roads as `tablectl roads --json` prints them, plus the
                 game, shoe, round, last result with both hands' cards, counts, voids, the round
                 in progress ("live") and the daemon's link
    /events      server-sent events (stream.py): `update` with id = journal seq, and `link`;
                 a Last-Event-ID longer than a seq (19 digits) is a 400
    /game-labels.js  the games' own words for the board (their counts, in every language the
                 board speaks), from each game's table profile, added to static/labels.js's LABELS
    /static/...  the page's files

It only reads: there is no route that takes a command or writes anything.
"""
from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from sse_starlette.event import ServerSentEvent
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from services.scoreboard.board import game_labels_script
from services.scoreboard.stream import BadLastEventId, BoardStream, last_event_id

STATIC = Path(__file__).resolve().parent / "static"
PING_S = 15  # a comment line this often keeps idle connections (and proxies) open
NO_CACHE = {"Cache-Control": "no-store"}


def create_app(stream: BoardStream, on_ready: Callable[[], None] | None = None) -> Starlette:
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await stream.start()  # the board has caught up with the journal before anything is served
        if stream.failure:
            raise RuntimeError(f"the board could not be built from the journal: {stream.failure}")
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            await stream.stop()

    async def board_page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=NO_CACHE)

    async def roads_json(request: Request) -> Response:
        return JSONResponse(stream.snapshot(), headers=NO_CACHE)

    labels_script = game_labels_script()

    async def game_labels(request: Request) -> Response:
        return Response(labels_script, media_type="text/javascript", headers=NO_CACHE)

    async def events(request: Request) -> Response:
        try:
            last = last_event_id(request.headers.get("last-event-id"))
        except BadLastEventId as error:
            return PlainTextResponse(f"Last-Event-ID: {error}\n", status_code=400, headers=NO_CACHE)
        first, display = stream.connect(last)

        async def feed() -> AsyncIterator[ServerSentEvent]:
            try:
                for event in first:
                    yield event
                while not (display.dropped and display.queue.empty()):
                    yield await display.queue.get()
            finally:
                stream.disconnect(display)

        return EventSourceResponse(feed(), ping=PING_S, headers=NO_CACHE)

    routes = [
        Route("/", board_page),
        Route("/roads.json", roads_json),
        Route("/game-labels.js", game_labels),
        Route("/events", events),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
