"""`Feed`: the table's journal to the floor's MQTT broker, nothing lost or doubled.

    journal ──JournalFollower──▶ messages ──paho (QoS 1)──▶ broker
                                    ▲                           │ PUBACK per message id
              cursor file ◀── AckWindow ◀───────────────────────┘

A thread of the follower's reads the journal in batches of at most follow.BATCH records; the
caller of `run` publishes them in order (what was waiting, several records to a `record`
message; a record found alone, on its own) with their summaries. The broker's PUBACKs arrive
on the network thread and move the window's cursor over every record all of whose messages
are acknowledged. The cursor is written to its file at most
every CURSOR_EVERY_S (and at the end), so it always lags what the broker holds: after a
broker outage, a network cut, a crash of the feed or a reboot the feed resumes from it, and
what it sends twice carries the same seq and hash for consumers to drop.

Outages are logged when they begin (`broker_lost`, with the records held back) and end
(`broker_back`: how long, how many held back); while the broker stays away the feed reads
no further than its window and says so every OUTAGE_LOG_EVERY_S.
"""
from __future__ import annotations

import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import structlog

from controller import bounded_json
from controller.config import Config
from controller.journal import JournalError, Record, iter_records, open_readonly
from services.broker import BrokerLink, BrokerSettings
from services.feed.cursor import Cursor, check_cursor_directory, load_cursor, save_cursor
from services.feed.messages import (
    REPLAY_MAX,
    Topics,
    encode,
    irregularity_message,
    record_message,
    records_message,
    round_message,
)
from services.feed.rounds import RoundTracker
from services.feed.window import AckWindow, Message
from services.follow import JournalFollower, Link

log = structlog.get_logger("feed")

CURSOR_EVERY_S = 0.2  # the cursor file is rewritten (fsync) at most this often
STATUS_EVERY_S = 5.0  # the status line is refreshed this often while anything changes
OUTAGE_LOG_EVERY_S = 60.0
RETRY_REFUSED_S = 5.0  # a message the broker refused (PUBACK with an error) is sent again after this
FOLLOW_POLL_S = 0.25
FOLLOW_QUEUE = 2  # batches read ahead of the sender (each at most follow.BATCH records)
REPLAY_CHUNK = 500  # records sent again per pass of the feed's loop
MESSAGE_BYTES = 128 * 1024  # a `record` message holding several records stays under this
REPLAY_REQUEST_BYTES = 1024  # a replay request is {"from": SEQ, "to": SEQ}: anything longer is not one
RECEIVE_PACKET_BYTES = 64 * 1024  # our MQTT Maximum Packet Size: the broker drops a larger replay request
RECORD_OVERHEAD = 400  # bytes of a record's message besides its payload (seq, times, hashes), at most
PACKET_OVERHEAD = 1024  # bytes of an MQTT PUBLISH besides its payload (topic, properties), at most


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class FeedError(Exception):
    """The feed cannot start: its configuration is incomplete or its files cannot be used."""


def feed_settings(config: Config) -> BrokerSettings:
    feed = config.feed
    if not feed.broker:
        raise FeedError("feed.broker is not set: give the floor's broker (mqtts://host:port) in [feed]")
    if not feed.table:
        raise FeedError("feed.table is not set: give this table's id in [feed]")
    return BrokerSettings(url=feed.broker, client_id=f"tablectl-feed-{feed.site}-{feed.table}", ca=feed.ca,
                          cert=feed.client_cert, key=feed.client_key, username=feed.username,
                          password_file=feed.password_file, insecure=feed.insecure)


class Feed:
    def __init__(self, config: Config, *, window: int = 1000, follow_poll_s: float = FOLLOW_POLL_S) -> None:
        self.config = config
        self.topics = Topics(config.feed.prefix, config.feed.site, config.feed.table)
        settings = feed_settings(config)
        self.state_path = config.feed.state
        cursor = load_cursor(self.state_path)
        check_cursor_directory(self.state_path)
        self.saved = cursor
        self.window = AckWindow(cursor, limit=window)
        self.per_message = min(config.feed.records_per_message, window)
        self.follower = JournalFollower(config.journal.path, config.control.socket, since=cursor.seq,
                                        since_hash=cursor.hash, poll_s=follow_poll_s)
        self.rounds = RoundTracker(self._journal)
        self.link = BrokerLink(settings, info=log.info, warn=log.warning, on_up=self._up, on_down=self._down,
                               will=(self.topics.topic("status"), self._status_payload("offline", will=True)),
                               subscriptions=[self.topics.topic("replay")], max_inflight=window,
                               receive_packet_bytes=RECEIVE_PACKET_BYTES)
        self.link.client.on_publish = self.window.on_publish
        self.link.client.on_message = self._replay_asked
        self._conn: sqlite3.Connection | None = None
        self.head = cursor.seq  # the journal's last record, as last seen
        self.daemon: Link | None = None
        self.replays: deque[tuple[int, int]] = deque()
        self._status_due = True
        self._status_at = 0.0
        self._status_seen: tuple = ()
        self._saved_at = 0.0
        self._down_since: float | None = None
        self._down_logged = 0.0
        self._up_since = utc_now()

    # ------------------------------------------------------------------ the feed's thread
    def run(self, stop: threading.Event) -> None:
        log.info("feed_started", journal=self.config.journal.path, broker=self.link.settings.url,
                 topics=self.topics.topic("#"), cursor=self.window.acked.seq)
        self.link.start()
        # The follower runs on a thread of its own and hands batches of records over through a
        # queue of FOLLOW_QUEUE batches: this thread wakes at least every 0.1 s for the cursor,
        # status and replays, and a full window holds the follower back (it reads no further
        # than it may send), so the feed's memory stays the same however long the backlog.
        items: queue.Queue[list[Record] | Link] = queue.Queue(maxsize=FOLLOW_QUEUE)
        follower = threading.Thread(target=self._follow, args=(items, stop), name="follow", daemon=True)
        follower.start()
        try:
            while not stop.is_set():
                try:
                    item = items.get(timeout=0.1)
                except queue.Empty:
                    self._housekeeping()
                    continue
                if isinstance(item, Link):
                    self._daemon_link(item)
                else:
                    self._send(item, stop)
                self._housekeeping()
        finally:
            follower.join(5.0)
            self.close()

    def _follow(self, items: queue.Queue, stop: threading.Event) -> None:
        for item in self.follower.batches(stop):
            while not stop.is_set():
                try:
                    items.put(item, timeout=0.25)
                    break
                except queue.Full:
                    continue

    def _send(self, records: list[Record], stop: threading.Event) -> None:
        """Publish the records in order: several to a `record` message while a backlog waits
        (up to records_per_message and MESSAGE_BYTES), one found alone on its own, and
        the `round`/`irregularity` summaries of results, voids and irregularities."""
        for chunk in self._chunks(records):
            while not self.window.wait_for_room(0.25, len(chunk)):
                self._housekeeping()
                if stop.is_set():
                    return
            messages: list[Message] = [(self.topics.topic("record"), self._records_payload(chunk))]
            for record in chunk:
                messages += self._summaries(record)
            self.head = max(self.head, chunk[-1].seq)
            self.window.register(chunk[-1].seq, chunk[-1].hash, [(self.link.publish(t, p).mid, (t, p)) for t, p in messages],
                                 records=len(chunk))

    def _records_payload(self, chunk: list[Record]) -> bytes:
        """A `record` message: one record in the single form, several in the batch form."""
        return record_message(self.topics, chunk[0]) if len(chunk) == 1 else records_message(self.topics, chunk)

    def _chunks(self, records: list[Record]) -> Iterator[list[Record]]:
        """The records in runs that fit one message: at most records_per_message, and at most
        the bytes the broker takes (MESSAGE_BYTES, or less if it said so when we connected)."""
        most = min(MESSAGE_BYTES, self.link.max_packet_bytes - PACKET_OVERHEAD)
        chunk: list[Record] = []
        size = 0
        for record in records:
            length = len(record.payload_text) + RECORD_OVERHEAD
            if chunk and (len(chunk) == self.per_message or size + length > most):
                yield chunk
                chunk, size = [], 0
            chunk.append(record)
            size += length
        if chunk:
            yield chunk

    def _summaries(self, record: Record) -> list[Message]:
        """The `round` and `irregularity` messages of a record, if it has any."""
        messages: list[Message] = []
        view = self.rounds.apply(record)
        if view is not None and record.kind in ("result", "void"):
            messages.append((self.topics.topic("round"),
                             round_message(self.topics, record, view, self.rounds.superseded(record))))
            self._status_due = True
        if record.kind == "irregularity":
            messages.append((self.topics.topic("irregularity"), irregularity_message(self.topics, record)))
        if record.kind in ("round_opened", "bets_closed", "settled", "irregularity", "round_resumed"):
            self._status_due = True
        return messages

    def _daemon_link(self, link: Link) -> None:
        self.daemon = link
        if link.journal_error:
            log.error("journal_unreadable", journal=self.config.journal.path, reason=link.journal_error,
                      cursor=self.window.acked.seq)
        else:
            log.info("daemon_online" if link.online else "daemon_offline", journal=self.config.journal.path)
        self._status_due = True

    def _housekeeping(self) -> None:
        now = time.monotonic()
        acked = self.window.acked
        if acked != self.saved and now - self._saved_at >= CURSOR_EVERY_S:
            self._save(acked)
        self._send_again_what_was_refused()
        self._replay()
        if self.link.connected.is_set():
            seen = (acked.seq, self.head)
            if self._status_due or (seen != self._status_seen and now - self._status_at >= STATUS_EVERY_S):
                self._publish_status()
        elif self._down_since is not None and now - self._down_logged >= OUTAGE_LOG_EVERY_S:
            self._down_logged = now
            log.warning("broker_still_away", broker=self.link.settings.url, for_s=round(now - self._down_since),
                        held_back=self._held_back())

    def _save(self, cursor: Cursor) -> None:
        try:
            save_cursor(self.state_path, cursor)
        except OSError as error:
            log.error("cursor_not_saved", path=self.state_path, reason=str(error), cursor=cursor.seq)
            return
        self.saved, self._saved_at = cursor, time.monotonic()

    def _send_again_what_was_refused(self) -> None:
        for seq, mid, (topic, payload), reason in self.window.take_refused():
            log.error("broker_refused_message", topic=topic, seq=seq, reason=reason,
                      note=f"sent again in {RETRY_REFUSED_S:g} s; the cursor waits")
            timer = threading.Timer(RETRY_REFUSED_S, self._republish, (seq, mid, topic, payload))
            timer.daemon = True
            timer.start()

    def _republish(self, seq: int, old_mid: int, topic: str, payload: bytes) -> None:
        self.window.replace(seq, old_mid, (self.link.publish(topic, payload).mid, (topic, payload)))

    # ------------------------------------------------------------------ status
    def _held_back(self) -> int:
        try:
            row = self._journal().execute("SELECT max(seq) FROM records").fetchone()
            self.head = max(self.head, row[0] or 0)
        except (JournalError, sqlite3.Error):
            pass
        return max(0, self.head - self.window.acked.seq)

    def _status_payload(self, state: str, will: bool = False, reason: str | None = None) -> bytes:
        message: dict[str, Any] = {"site": self.topics.site, "table": self.topics.table, "state": state,
                                   "game": self.config.game, "at": None if will else utc_now()}
        if will:
            message["reason"] = "the feed's connection to the broker was lost (its last will)"
            return encode(message)
        held_back = self._held_back()
        message.update(since=self._up_since if state == "online" else message["at"], reason=reason,
                       daemon=None if self.daemon is None else ("online" if self.daemon.online else "offline"),
                       journal_error=self.daemon.journal_error if self.daemon else None,
                       **self.rounds.state(), journal_seq=self.head, acked_seq=self.window.acked.seq,
                       held_back=held_back)
        return encode(message)

    def _publish_status(self) -> None:
        payload = self._status_payload("online")
        info = self.link.publish(self.topics.topic("status"), payload, retain=True)
        self.window.register(None, "", [(info.mid, (self.topics.topic("status"), payload))])
        self._status_due, self._status_at = False, time.monotonic()
        self._status_seen = (self.window.acked.seq, self.head)

    # ------------------------------------------------------------------ the network thread
    def _up(self, session_present: bool) -> None:
        self._up_since = utc_now()
        if self._down_since is None:
            log.info("broker_connected", broker=self.link.settings.url, session_present=session_present,
                     cursor=self.window.acked.seq, held_back=max(0, self.head - self.window.acked.seq))
        else:
            log.info("broker_back", broker=self.link.settings.url, outage_s=round(time.monotonic() - self._down_since, 3),
                     held_back=max(0, self.head - self.window.acked.seq), in_flight=self.window.in_flight(),
                     session_present=session_present)
        self._down_since = None
        self._status_due = True

    def _down(self, reason: str) -> None:
        held_back = max(0, self.head - self.window.acked.seq)
        if self._down_since is None:
            self._down_since = self._down_logged = time.monotonic()
            log.warning("broker_lost", broker=self.link.settings.url, reason=reason, held_back=held_back,
                        cursor=self.window.acked.seq)
        elif reason != getattr(self, "_last_reason", None):
            log.warning("broker_unreachable", broker=self.link.settings.url, reason=reason, held_back=held_back)
        self._last_reason = reason

    def _replay_asked(self, client: Any, userdata: Any, message: Any) -> None:
        """`{"from": A, "to": B}` on our replay topic: send records A..B again (up to REPLAY_MAX)."""
        expected = 'expected {"from": SEQ, "to": SEQ} with 1 <= from <= to'
        try:
            asked = bounded_json.loads(message.payload, max_bytes=REPLAY_REQUEST_BYTES, max_depth=2)
            first, last = asked["from"], asked["to"]
            if type(first) is not int or type(last) is not int or not 1 <= first <= last:
                raise ValueError(expected)
        except (ValueError, KeyError, TypeError) as error:  # BoundedJSONError is a ValueError
            reason = f"{error}; {expected}" if isinstance(error, bounded_json.BoundedJSONError) else expected
            log.warning("replay_request_ignored", topic=message.topic, payload=bytes(message.payload[:200]).decode(errors="replace"),
                        reason=reason)
            return
        self.replays.append((first, min(last, first + REPLAY_MAX - 1)))

    def _replay(self) -> None:
        """Send again the records a consumer asked for (only those the broker acknowledged
        already; later ones are on their way)."""
        while self.replays and self.window.in_flight() < self.window.limit // 2:
            first, last = self.replays.popleft()
            last = min(last, self.window.acked.seq)
            if first > last:
                continue
            upto = min(last, first + REPLAY_CHUNK - 1)
            try:
                records = list(iter_records(self._journal(), first - 1, upto))
            except (JournalError, sqlite3.Error) as error:
                log.error("replay_failed", first=first, last=upto, reason=str(error))
                return
            topic = self.topics.topic("record")
            sent = [(self.link.publish(topic, payload).mid, (topic, payload))
                    for payload in (self._records_payload(chunk) for chunk in self._chunks(records))]
            self.window.register(None, "", sent)
            log.info("replayed", first=first, last=upto, records=len(records))
            if upto < last:
                self.replays.appendleft((upto + 1, last))

    # ------------------------------------------------------------------ helpers
    def _journal(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = open_readonly(self.config.journal.path)
        return self._conn

    def close(self) -> None:
        deadline = time.monotonic() + 2.0
        while self.window.in_flight() and self.link.connected.is_set() and time.monotonic() < deadline:
            time.sleep(0.01)  # let the last acknowledgements in before the cursor is written
        acked = self.window.acked
        self.link.stop(final=(self.topics.topic("status"), self._status_payload("offline", reason="the feed stopped")))
        if acked != self.saved:
            self._save(acked)
        if self._conn is not None:
            self._conn.close()
        log.info("feed_stopped", cursor=self.window.acked.seq, held_back=self._held_back())
