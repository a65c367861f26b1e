"""`Pit`: every table's records from the floor's broker into the pit's database, checked,
and the floor's view kept up to date.

    broker ──paho (QoS 1, persistent session)──▶ inbox ──▶ PitStore (SQLite or PostgreSQL) ──▶ views ──▶ terminal / JSON lines
                     ◀── PUBACK after the commit ─┘          │ gap
                     ──▶ PREFIX/SITE/TABLE/replay ◀──────────┘ (the feed sends those records again)

One thread (the caller of `run`) owns the database and the views; the network thread only
queues messages. A batch of messages is committed before any of them is acknowledged to the
broker (paho's manual ack), so a pit killed mid-batch gets them again from its session.
Records missing at the pit (a gap, or fewer than the table's status says it journaled) are
asked for again on the table's `replay` topic.
"""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import structlog

from services.broker import BrokerLink, BrokerSettings
from services.feed.messages import REPLAY_MAX, encode, split_topic
from services.pit.decode import MESSAGE_BYTES, Arrival, NotOurs, parse, records_of
from services.pit.floor import TableView
from services.pit.meters import PitMeters
from services.pit.store import Alarm, PitStore, utc_now

log = structlog.get_logger("pit")

INBOX_MESSAGES = 200  # messages received and not yet stored at most (the pit's memory); also our MQTT Receive Maximum
PACKET_BYTES = 2 * MESSAGE_BYTES  # our MQTT Maximum Packet Size: larger ones the broker drops, not sends
BATCH_RECORDS = 5000  # records committed (and their messages acknowledged) together, about
REPLAY_AFTER_S = 2.0  # records missing this long are asked for again
REPLAY_EVERY_S = 5.0  # and again this often while they stay missing
Emit = Callable[[dict], None]


class Pit:
    def __init__(self, settings: BrokerSettings, prefix: str, db_path: str, *, emit: Emit | None = None) -> None:
        self.prefix = prefix
        self.store = PitStore(db_path)
        self.meters = PitMeters(self.store.conn, lambda table, record, why: log.warning(
            "meters_skipped", table=table, seq=record.seq, kind=record.kind, reason=why))
        self.emit = emit or (lambda line: None)
        self.views: dict[str, TableView] = {}
        self.inbox: queue.Queue[Any] = queue.Queue(maxsize=INBOX_MESSAGES)
        self.link = BrokerLink(settings, info=log.info, warn=log.warning, on_up=self._up,
                               subscriptions=[f"{prefix}/+/+/record", f"{prefix}/+/+/status"], manual_ack=True,
                               receive_maximum=INBOX_MESSAGES, receive_packet_bytes=PACKET_BYTES)
        self.link.client.on_message = self._arrived
        self.changed: set[str] = set()
        self.ignored = 0
        self._emitted: dict[str, dict] = {}
        # table -> (the range missing, first seen, last asked, the end of that request when the feed's
        # limit (REPLAY_MAX) cut it short, else 0)
        self._missing: dict[str, tuple[tuple[int, int], float, float, int]] = {}
        self._rebuild_views()

    def _arrived(self, client: Any, userdata: Any, message: Any) -> None:
        """On the network thread: into the inbox, waiting while it is full. The broker should
        send no more than our Receive Maximum unacknowledged, but not every one keeps to it
        (Mosquitto 2.0.11 sends more after each acknowledgement): waiting here holds the rest
        back in the broker's queue (TCP's flow control) and keeps the pit's memory bounded."""
        item = (self.link.generation, message)
        while not self.link.stop_event.is_set():
            try:
                self.inbox.put(item, timeout=0.25)
                return
            except queue.Full:
                continue
        # stopping: not acknowledged, so the broker sends it again to the next session

    def _up(self, session_present: bool) -> None:
        log.info("broker_connected", broker=self.link.settings.url, session_present=session_present,
                 subscribed=f"{self.prefix}/+/+/record, status")

    # ------------------------------------------------------------------ the pit's thread
    def run(self, stop: threading.Event, on_idle: Callable[[], None] | None = None) -> None:
        log.info("pit_started", database=self.store.path, broker=self.link.settings.url, prefix=self.prefix)
        self.link.start()
        try:
            while not stop.is_set():
                self.step(0.1)
                if on_idle is not None:
                    on_idle()
        finally:
            self.close()

    def step(self, timeout: float) -> int:
        """Take what arrived (waiting up to `timeout`), commit it, acknowledge it; returns how
        many messages."""
        try:
            batch = [self.inbox.get(timeout=timeout)]
        except queue.Empty:
            self._ask_for_missing()
            return 0
        records = self._handle(batch[0][1])
        while records < BATCH_RECORDS:
            try:
                batch.append(self.inbox.get_nowait())
            except queue.Empty:
                break
            records += self._handle(batch[-1][1])
        self.store.commit()
        for generation, message in batch:
            # a message of an earlier connection is redelivered by the session: its id is stale
            if message.qos and generation == self.link.generation:
                self.link.client.ack(message.mid, message.qos)
        self._emit_changes()
        self._ask_for_missing()
        return len(batch)

    def _handle(self, message: Any) -> int:
        """Store and check what the message holds; how many records it held."""
        where = split_topic(message.topic, self.prefix)
        try:
            if where is None:
                raise NotOurs("not a topic of ours (PREFIX/SITE/TABLE/record or status)")
            body = parse(message.payload)
            if not isinstance(body, dict) or body.get("site") != where[0] or body.get("table") != where[1]:
                raise NotOurs("not a JSON object naming the site and table of its topic")
            table = f"{where[0]}/{where[1]}"
            if where[2] != "record":
                self._status(table, body)
                return 0
            arrivals = records_of(body, message.payload)
        except NotOurs as error:
            self._ignored(message, str(error))
            return 0
        for arrival in arrivals:
            if isinstance(arrival, NotOurs):
                self._ignored(message, str(arrival))
            else:
                self._record(table, arrival)
        return len(arrivals)

    def _ignored(self, message: Any, reason: str) -> None:
        self.ignored += 1
        log.warning("message_ignored", topic=message.topic, reason=reason,
                    payload=bytes(message.payload[:120]).decode(errors="replace"), ignored=self.ignored)

    def _record(self, table: str, arrival: Arrival) -> None:
        outcome = self.store.add(table, arrival.record, arrival.hash_ok)
        view = self._view(table)
        if outcome.replaced:  # the table's own records took the place of forged ones: fold its view again
            view = self.views[table] = TableView(table, link=view.link, link_since=view.link_since,
                                                 link_reason=view.link_reason, daemon=view.daemon, table_seq=view.table_seq,
                                                 alarms=view.alarms)
            self._fold(table, view)
            chain = self.store.chains[table]
            self.meters.rebuild(table, (r for r in self.store.records(table) if r.seq <= chain.through))
        else:
            for joined in outcome.in_order:  # this record, and those stored earlier that now follow on
                view.apply(joined, arrival.payload if joined is arrival.record else None)
                self.meters.add(table, joined)
        self._trust(table, view)
        for alarm in outcome.raised:
            view.alarms += 1
            log.error("alarm", **alarm.to_json())
            self.emit({"type": "alarm", **alarm.to_json()})
        for alarm in outcome.cleared:
            view.alarms -= 1
            log.info("alarm_cleared", **alarm.to_json())
            self.emit({"type": "alarm_cleared", **alarm.to_json()})
        self.changed.add(table)

    def _status(self, table: str, status: dict) -> None:
        self._view(table).apply_status(status, utc_now())
        self.store.set_status(table, status)
        if status.get("state") == "offline":
            log.warning("table_offline", table=table, reason=status.get("reason"), held_back=self._view(table).held_back)
        self.changed.add(table)

    def _view(self, table: str) -> TableView:
        view = self.views.get(table)
        if view is None:
            view = self.views[table] = TableView(table)
        return view

    def _emit_changes(self) -> None:
        for table in sorted(self.changed):
            now = self.views[table].to_json()
            if self._emitted.get(table) != now:
                self._emitted[table] = now
                self.emit({"type": "table", **now})
        self.changed.clear()

    # ------------------------------------------------------------------ records asked for again
    def _ask_for_missing(self) -> None:
        now = time.monotonic()
        for table, view in self.views.items():
            wanted = self.store.missing(table)
            if wanted is None and view.table_seq > view.records:
                wanted = (view.records + 1, view.table_seq)  # the tail: journaled at the table, not here
            if wanted is None:
                self._missing.pop(table, None)
                continue
            seen, first_seen, asked, asked_upto = self._missing.get(table, (wanted, now, 0.0, 0))
            if seen[0] != wanted[0]:
                first_seen = now  # progress: wait again before asking
            self._missing[table] = (wanted, first_seen, asked, asked_upto)
            # a feed sends at most REPLAY_MAX a request: once those are here, the rest is asked for at once
            answered = bool(asked_upto) and wanted[0] > asked_upto
            if answered or (now - first_seen >= REPLAY_AFTER_S and now - asked >= REPLAY_EVERY_S):
                site, name = table.split("/", 1)
                self.link.publish(f"{self.prefix}/{site}/{name}/replay", encode({"from": wanted[0], "to": wanted[1]}))
                upto = wanted[0] + REPLAY_MAX - 1
                self._missing[table] = (wanted, first_seen, now, upto if upto < wanted[1] else 0)
                log.info("replay_asked", table=table, first=wanted[0], last=wanted[1])

    # ------------------------------------------------------------------ startup and end
    def _trust(self, table: str, view: TableView) -> None:
        enrolment = self.store.enrolled.get(table)
        view.enrolled = None if enrolment is None else enrolment.key_id
        view.verified = self.store.verified.get(table, (0, ""))[0]

    def _fold(self, table: str, view: TableView) -> None:
        """The view from the stored records: from the last round opened on."""
        chain = self.store.chains.get(table)
        start = self.store.conn.execute(
            "SELECT max(seq) FROM records WHERE table_id = ? AND kind = 'round_opened'", (table,)).fetchone()[0]
        if chain is not None:
            for record in self.store.records(table, (start or 1) - 1):
                if record.seq > chain.through:
                    break
                view.apply(record)
            view.records = chain.through

    def _rebuild_views(self) -> None:
        statuses = self.store.statuses()
        self.store.load_enrolled()
        for table in self.store.tables():
            view = self._view(table)
            self._fold(table, view)
            self._trust(table, view)
            if table in statuses:
                view.apply_status(statuses[table], utc_now())
            view.alarms = len(self.store.alarms(table, open_only=True))
            self._emitted[table] = view.to_json()

    def alarms(self) -> list[Alarm]:
        return self.store.alarms(open_only=True)

    def close(self) -> None:
        self.link.stop()
        self.store.close()
        log.info("pit_stopped", database=self.store.path, tables=len(self.views), duplicates_dropped=self.store.duplicates,
                 ignored=self.ignored)
