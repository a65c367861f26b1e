"""The routes every page (the scoreboard, the dealer page) serves the same way: its fold caught
up before anything is served (the lifespan), `/` its static page, its JSON snapshot, `/events`,
the server-sent events of its `FoldStream` (a Last-Event-ID longer than a seq, 19 digits, is a
400), and `/static`: `page_app` builds such an app."""
from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

from sse_starlette.event import ServerSentEvent
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from services.fold_stream import BadLastEventId, FoldStream, last_event_id

PING_S = 15  # a comment line this often keeps idle connections (and proxies) open
NO_CACHE = {"Cache-Control": "no-store"}


def following(stream: FoldStream, what: str, on_ready: Callable[[], None] | None
              ) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    """The app's lifespan: the stream has caught up with the journal before anything is served
    (RuntimeError naming `what` when it could not), and is stopped last."""
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await stream.start()
        if stream.failure:
            raise RuntimeError(f"the {what} could not be built from the journal: {stream.failure}")
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            await stream.stop()

    return lifespan


def events_endpoint(stream: FoldStream) -> Callable[[Request], Awaitable[Response]]:
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

    return events


def page_app(stream: FoldStream, *, static: Path, snapshot_path: str, what: str,
             on_ready: Callable[[], None] | None = None, extra: Sequence[BaseRoute] = ()) -> Starlette:
    """A page's app: `/` (static/index.html), `snapshot_path` (the stream's snapshot as JSON),
    `extra` routes, `/events` and `/static/...`; read-only: no route takes a command."""

    async def page(request: Request) -> Response:
        return FileResponse(static / "index.html", headers=NO_CACHE)

    async def as_json(request: Request) -> Response:
        return JSONResponse(stream.snapshot(), headers=NO_CACHE)

    routes = [Route("/", page), Route(snapshot_path, as_json), *extra, Route("/events", events_endpoint(stream)),
              Mount("/static", StaticFiles(directory=static), name="static")]
    return Starlette(routes=routes, lifespan=following(stream, what, on_ready))
