"""What a page's web server (the scoreboard, the dealer page) holds for clients that never
finish a request, and how much it logs about them.

uvicorn bounds a request's headers (h11's incomplete event size) and closes an idle
keep-alive connection, but a connection that sends half a request line and waits is kept for
ever, and every one is a file descriptor: enough of them and accept() fails, and asyncio logs
that failure (with its traceback) every time it retries. So:

- `BoundedH11Protocol` (uvicorn's h11 protocol, handed to uvicorn as `http=`) closes a
  connection whose request headers are not complete HEADER_TIMEOUT_S after it connected (or
  after it began its next request), and closes at once any connection beyond MAX_CONNECTIONS;
  uvicorn's own `limit_concurrency` answers 503 at the cap.
- `RateLimitedLog` lets through one log line of a kind every LOG_EVERY_S and counts the rest
  (asyncio's "socket.accept() out of system resource", uvicorn's "Exceeded concurrency limit.",
  the closes above).
- the units' LimitNOFILE= (systemd/tablectl-scoreboard.service, tablectl-dealer.service) leaves
  room for the cap and the journal.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_CONNECTIONS = 128  # open at once: the table's displays and a few phones use a handful
BACKLOG = 128  # connections the kernel queues before we accept them
HEADER_TIMEOUT_S = 10.0  # a request's headers must be complete this long after it began
HEADER_BYTES = 16 * 1024  # a request's line and headers, at most (h11's incomplete event size)
KEEP_ALIVE_S = 5  # an idle connection between requests is closed after this
LOG_EVERY_S = 10.0  # one log line of a kind this often at most

log = logging.getLogger("page.http")


def uvicorn_limits() -> dict[str, Any]:
    """uvicorn.Config's arguments that bound what clients hold."""
    return {"http": BoundedH11Protocol, "limit_concurrency": MAX_CONNECTIONS, "backlog": BACKLOG,
            "timeout_keep_alive": KEEP_ALIVE_S, "h11_max_incomplete_event_size": HEADER_BYTES}


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a cap on connections and a deadline for request headers."""

    max_connections = MAX_CONNECTIONS
    header_timeout_s = HEADER_TIMEOUT_S
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            log.warning("connection closed: %d connections already open (the cap)", self.max_connections)
            transport.abort()
            return
        self._watch_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def _watch_headers(self) -> None:
        """Armed while the client owes us a request line and headers (h11: IDLE), else not."""
        if self.transport.is_closing():
            self._cancel_header_timer()
        elif self.conn.their_state is h11.IDLE:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(self.header_timeout_s, self._headers_too_slow)
        else:
            self._cancel_header_timer()

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            log.warning("connection closed: its request was not complete within %g s", self.header_timeout_s)
            self.transport.close()


class RateLimitedLog(logging.Filter):
    """One record of a kind (its logger and the first line of its message) every `every_s`;
    the next one let through says how many were left out."""

    def __init__(self, every_s: float = LOG_EVERY_S) -> None:
        super().__init__()
        self.every_s = every_s
        self._kinds: dict[tuple[str, str], tuple[float, int]] = {}  # kind -> (last let through, left out since)

    def filter(self, record: logging.LogRecord) -> bool:
        kind = (record.name, str(record.msg).split("\n", 1)[0][:200])
        now = time.monotonic()
        last, left_out = self._kinds.get(kind, (-self.every_s, 0))
        if now - last < self.every_s:
            self._kinds[kind] = (last, left_out + 1)
            return False
        if len(self._kinds) > 1000:  # kinds are few; a flood of distinct ones must not grow this
            self._kinds.clear()
        self._kinds[kind] = (now, 0)
        if left_out:
            record.msg = f"{record.msg} ({left_out} more like it in the last {now - last:.0f} s not logged)"
        return True


def limit_logs(every_s: float = LOG_EVERY_S) -> RateLimitedLog:
    """Rate-limit the loggers that a flood of clients makes write: asyncio's, uvicorn's, ours."""
    limit = RateLimitedLog(every_s)
    for name in ("asyncio", "uvicorn.error", log.name):
        logging.getLogger(name).addFilter(limit)
    return limit
