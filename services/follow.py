"""Follow a table's journal from a cursor: every record in order, as the daemon commits it.

The journal is the only source: records are read read-only by sequence number, so nothing is
missed or doubled whatever happens to the connection. The daemon's event stream on the
control socket is only the wake-up: the daemon commits a record before it publishes the
event about it, so after any event the new records are already readable. While the socket
is not there (the daemon stopped or restarting) the journal is polled every `poll_s`, and
the link state is reported.

    follower = JournalFollower(journal_path, socket_path, since=cursor)
    for item in follower.items(stop):        # a threading.Event ends it
        if isinstance(item, Record): ...     # the next record, seq = cursor + 1
        elif isinstance(item, Link): ...     # daemon online/offline, journal readable or not
    for item in follower.batches(stop):      # the same, records in lists of at most `batch`
        if isinstance(item, list): ...       # the next records in order (a backlog: several)

Memory stays the same however long the backlog: the journal is read `batch` records at a
time, and the next batch only when the caller asks for it (a generator), so a caller that
hands batches on through a bounded queue holds at most that queue's worth.

The follower keeps the last record's hash: if the record at that sequence number later
reads differently (the journal was replaced or rewritten), `Link.journal_error` says so and
no record is delivered from that file.

The event stream is read through services/event_stream.py: a line longer than
MAX_EVENT_LINE, nested too deeply or not JSON is not parsed; it is logged
(`event_line_refused`), the connection is dropped and made again, and the journal is read
as after any event.
"""
from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import structlog

from controller.journal import JournalError, Record, iter_records, open_readonly
from services.event_stream import EventStream, EventStreamError

log = structlog.get_logger("follow")

POLL_S = 1.0  # journal polled this often while the daemon's socket is not there
BATCH = 500  # records read (and delivered) at a time while catching up


@dataclass(frozen=True)
class Link:
    """The follower's view of the table: is the daemon's event stream there, and can the
    journal be read (None when it can)."""
    online: bool
    journal_error: str | None = None


class JournalFollower:
    def __init__(self, journal_path: str, socket_path: str, *, since: int = 0, since_hash: str | None = None,
                 poll_s: float = POLL_S, batch: int = BATCH) -> None:
        if batch < 1:
            raise ValueError(f"batch {batch}: at least one record at a time")
        self.journal_path = journal_path
        self.socket_path = socket_path
        self.cursor = since  # the last record delivered
        self.cursor_hash = since_hash  # its hash, when known
        self.poll_s = poll_s
        self.batch = batch
        self._client: EventStream | None = None
        self._link: Link | None = None
        self._conn: sqlite3.Connection | None = None
        self._inode: int | None = None

    # ------------------------------------------------------------------ reading
    def read_new(self) -> tuple[list[Record], str | None]:
        """The next records after the cursor, at most `batch` (advancing the cursor), and the
        journal's problem if any. Fewer than `batch`: the journal has no more for now."""
        try:
            conn = self._open()
            if self.cursor and self.cursor_hash is not None:
                anchor = list(iter_records(conn, self.cursor - 1, self.cursor))
                if not anchor or anchor[0].hash != self.cursor_hash:
                    self._close()
                    return [], (f"{self.journal_path}: record {self.cursor} is no longer the one already read "
                                f"(the journal was replaced or rewritten)")
            found = list(iter_records(conn, self.cursor, self.cursor + self.batch))
        except JournalError as error:
            self._close()
            return [], str(error)
        except sqlite3.Error as error:  # a damaged file, found mid-read
            self._close()
            return [], f"{self.journal_path}: cannot read the journal: {error}"
        if found:
            self.cursor, self.cursor_hash = found[-1].seq, found[-1].hash
        return found, None

    def _open(self) -> sqlite3.Connection:
        """The read-only connection, opened again when the file was replaced (a new inode)."""
        try:
            inode = os.stat(self.journal_path).st_ino
        except OSError:
            self._close()
            raise JournalError(f"no journal at {self.journal_path}") from None
        if self._conn is None or inode != self._inode:
            self._close()
            self._conn, self._inode = open_readonly(self.journal_path), inode
        return self._conn

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # ------------------------------------------------------------------ following
    def items(self, stop: threading.Event) -> Iterator[Record | Link]:
        """Records as they are committed, and a Link whenever the link state changes, until
        `stop` is set. Starts with a Link, then every record after the cursor."""
        for item in self.batches(stop):
            if isinstance(item, Link):
                yield item
            else:
                yield from item

    def batches(self, stop: threading.Event) -> Iterator[list[Record] | Link]:
        """As `items`, the records in lists of one to `batch` in order: what the journal held
        when read. A full batch is followed at once by the next read (a backlog); otherwise
        the follower waits for the daemon's next event (or polls)."""
        while not stop.is_set():
            online = self._connect()
            records, problem = self.read_new()
            yield from self._link_if_changed(Link(online, problem))
            if records:
                yield records
            if len(records) == self.batch:
                continue  # more is waiting: read on without waiting for an event
            if online:
                if not self._wait_for_event():
                    self._disconnect()
            else:
                stop.wait(self.poll_s)
        self.close()

    def _link_if_changed(self, link: Link) -> Iterator[Link]:
        if link != self._link:
            self._link = link
            yield link

    def _connect(self) -> bool:
        if self._client is not None:
            return True
        try:
            self._client = EventStream(self.socket_path, timeout=self.poll_s)
        except EventStreamError:
            return False
        return True

    def _wait_for_event(self) -> bool:
        """Wait up to poll_s for the daemon to publish something; False when the stream ended.
        A timeout reads the journal anyway: a record journaled without an event is not held
        back longer than poll_s."""
        assert self._client is not None
        try:
            if self._client.next_event(self.poll_s) is None:
                return False
            while self._client.next_event(0) is not None:  # a burst: one read serves it all
                pass
            return False
        except TimeoutError:
            return True
        except EventStreamError as error:
            log.warning("event_line_refused", socket=self.socket_path, reason=str(error),
                        note="the connection is made again; the journal is read meanwhile")
            return False
        except OSError:
            return False

    def close(self) -> None:
        self._disconnect()
        self._close()

    def _disconnect(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
