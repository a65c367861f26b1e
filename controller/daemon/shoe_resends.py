"""At start-up: the shoe's last cards as the journal holds them, so that a card the shoe sends
again after a crash is recognised as a resend (drivers/shoe.py, `remember`).

The daemon acknowledges a card only once its record is durable (PROTOCOL.md §9). A crash
between that commit and the ack leaves the card in the shoe's queue: the shoe sends it again to
the next daemon, byte for byte. Its record is in the journal, so the new driver starts with the
cards of the shoe's current boot that the journal holds last (up to drivers.shoe.REPEAT_WINDOW),
and the boot they belong to: a repeat of one of them is DrawRepeated (journaled only), never
a second card.
"""
from __future__ import annotations

import json

from controller.daemon.sessions import SESSION_UP
from controller.journal import Journal
from drivers.shoe import REPEAT_WINDOW
from firmware_bridge.messages import CardRead

SCAN_RECORDS = 5000  # device records looked at, newest first: a few rounds' worth, read in milliseconds
SESSION_EVENTS = tuple(SESSION_UP.values())  # the `device` records of a session that came up


def cards_heard_last(journal: Journal, device: str = "shoe") -> tuple[int | None, list[CardRead]]:
    """(the shoe's boot id in its last journaled session, the cards of that boot journaled last,
    oldest first). (None, []) when the journal says nothing of the shoe."""
    rows = journal.connection.execute(
        "SELECT payload FROM records WHERE kind = 'device' ORDER BY seq DESC LIMIT ?", (SCAN_RECORDS,))
    boot_id: int | None = None
    cards: list[CardRead] = []
    for (text,) in rows:
        payload = json.loads(text)
        if payload.get("device") != device:
            continue
        event = payload.get("event")
        if event == "CardDrawn" and len(cards) < REPEAT_WINDOW:
            cards.append(CardRead(payload["code"], payload["draw_counter"], payload["device_time"],
                                  double_draw=payload["double_draw"], misread=payload["misread"]))
        elif event in SESSION_EVENTS:
            if boot_id is None:
                boot_id = payload["hello"]["boot_id"]
            if event == SESSION_UP["rebooted"] or payload["hello"]["boot_id"] != boot_id:
                break  # cards before it are of an earlier boot: the shoe never sends those again
    return boot_id, cards[::-1]
