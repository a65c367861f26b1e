"""The pit's memory under a flood: a pit (in-process, against a real Mosquitto) that has not
stored what it received holds at most INBOX_MESSAGES messages; the rest waits at the broker,
and every record arrives once it goes on."""
from __future__ import annotations

import json
import threading

import pytest

from controller.journal import Journal
from services.broker import BrokerSettings
from services.pit import Pit
from services.pit.pit import INBOX_MESSAGES
from simulation.floor import publish, wait_until
from simulation.mosquitto import mosquitto_path, needs_mosquitto_reason

pytestmark = pytest.mark.skipif(mosquitto_path() is None, reason=needs_mosquitto_reason)
WAIT = 30
MESSAGES = 3 * INBOX_MESSAGES


def test_a_pit_that_falls_behind_holds_no_more_than_its_inbox_and_loses_nothing(tmp_path, broker, pit_db_url):
    mq = broker()
    with Journal(tmp_path / "journal.sqlite") as journal:
        records = [journal.append("note", {"n": n}) for n in range(MESSAGES)]
    pit = Pit(BrokerSettings(mq.url, "tablectl-pit-inbox", insecure=True), "tablectl", pit_db_url)
    pit.link.start()  # receiving, but nothing is stored yet (no step)
    try:
        messages = [("tablectl/s1/t1/record", json.dumps({"site": "s1", "table": "t1", **r.to_json()}).encode())
                    for r in records]
        wait_until(pit.link.connected.is_set, WAIT, "the pit connected")

        def subscribed() -> bool:  # the first record, sent until it comes through (again: dropped as a redelivery)
            publish(mq.port, messages[:1])
            threading.Event().wait(0.2)
            return not pit.inbox.empty()

        wait_until(subscribed, WAIT, "the pit subscribed")
        publish(mq.port, messages[1:])
        wait_until(lambda: pit.inbox.full(), WAIT, "the inbox full")
        threading.Event().wait(1.0)
        assert pit.inbox.qsize() == INBOX_MESSAGES  # the other messages wait at the broker

        def stored_all() -> bool:  # the pit goes on: one step at a time
            pit.step(0.1)
            return pit.store.chains["s1/t1"].through == MESSAGES

        wait_until(stored_all, WAIT, "every record stored, in order")
        assert [r.seq for r in pit.store.records("s1/t1")] == list(range(1, MESSAGES + 1))
    finally:
        pit.close()
