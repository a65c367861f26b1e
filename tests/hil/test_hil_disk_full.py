"""A full disk under the real daemon: its journal on a real 4 MiB tmpfs (mounted for the test:
the tests run as root; skipped, saying why, where mount is not allowed), filled to ENOSPC by
a filler file while the table deals.

The daemon stops dealing safely: the input that could not be journaled is not acted on, the
round shows held on the lamps ("no more bets" slow blink, "error" fast blink), STATUS= and
`tablectl status` say the disk is full, the watchdog goes on (a restart would not free
space), and it retries from a timer. Once the filler goes, what waited lands in order and
the table deals on; the chain verifies. Stopped while the disk is full, it exits 1 saying so."""
from __future__ import annotations

import os
import re
import signal
import time

import pytest

from simulation.rig.full_disk import CannotMount, fill, small_tmpfs

pytestmark = pytest.mark.hil
WAIT = 20.0  # guards against hanging, never a measure of speed
WATCHDOG_USEC = 400_000


@pytest.fixture
def small_disk():
    try:
        with small_tmpfs("4m") as mount_point:
            yield mount_point
    except CannotMount as error:
        pytest.skip(f"{error}; tests/controller/journal/test_journal_disk_full.py covers the journal's side")


UNMAPPED_BUTTON = 60  # in no game's map: each press is journaled (a device and an error record)


def press_until_full(rig) -> int:
    """Press the unmapped button until the daemon says the disk is full (SQLite first fills the
    WAL space it already has); returns the presses made."""
    for presses in range(1, 5000):
        rig.panel.command("click", button=UNMAPPED_BUTTON)
        if rig.notify.wait_for_or_none(lambda m: "the disk is full" in m.fields.get("STATUS", ""), 0.05):
            return presses
    raise AssertionError("the daemon never found the disk full")


def waiting_inputs(rig, count: int) -> dict:
    """The journal's part of status once `count` inputs wait, held by the committer or queued
    behind it (or WAIT has passed). How they split depends on how the panel's frames fell into
    reactor turns: a press and its release read together are handled (and held) together."""
    deadline = time.monotonic() + WAIT
    while (sum((journal := rig.status()["daemon"]["journal"])[k] for k in ("queued", "waiting")) < count
           and time.monotonic() < deadline):  # 3 of 4 waits out WAIT, then is checked
        time.sleep(0.05)
    return journal


def full_disk_rig(start_rig, disk: str, seed: int):
    return start_rig("fortune6", seed=seed, watchdog_usec=WATCHDOG_USEC,
                     config={"journal": {"path": f"{disk}/journal.sqlite"}})


def test_a_full_disk_holds_the_table_and_it_deals_on_once_space_returns(start_rig, small_disk):
    rig = full_disk_rig(start_rig, small_disk, seed=12)
    rig.new_shoe()
    assert rig.play_round()["event"] == "result"
    head = rig.status()["daemon"]["journal"]["records"]
    filler = fill(small_disk)
    rig.notify.mark()
    press_until_full(rig)
    said = [m for m in rig.notify.messages if "the disk is full" in m.fields.get("STATUS", "")][0]
    assert said.fields["STATUS"].startswith("the disk is full: the table is held until space is freed · fortune6")
    written = rig.status()["daemon"]["journal"]["records"]  # answered at once, not behind the waiting inputs

    mark = rig.events.mark()
    rig.panel.command("click", button=rig.button_id("place_bets"))  # waits behind the press that could not be written
    held = rig.wait_lamps({"no_more_bets": "slow", "error": "fast"})
    assert held["bets_open"] == "off"  # the press was not acted on
    journal = waiting_inputs(rig, 4)  # the panel's click reaches the daemon in its own time on a busy machine
    assert journal["records"] == written > head  # nothing more was written
    # the place_bets click's press and release behind the unmapped click that found the disk
    # full (its press and release; or its release alone, when the press still fitted): none written
    assert journal["waiting"] >= 1 and journal["waiting"] + journal["queued"] in (3, 4)
    assert "the disk is full" in journal["full"] and "nothing of it was written" in journal["full"]
    assert rig.events.find("command", after=mark) is None and rig.events.find("round_opened", after=mark) is None
    rig.notify.mark()
    pings = [m for _ in range(3) for m in rig.notify.wait_for(lambda m: m.is_ping, WAIT) if m.is_ping]
    assert len(pings) == 3  # the watchdog goes on: the daemon holds as it must
    assert '"event":"journal_full"' in rig.daemon.output()

    os.unlink(filler)
    answer = rig.events.wait_for("command", after=mark, source="panel", command="place_bets", timeout=WAIT)
    assert answer["ok"]
    rig.wait_lamps({"bets_open": "on", "error": "off", "no_more_bets": "off"})
    assert rig.status()["daemon"]["journal"]["full"] is None
    assert rig.press("no_more_bets")["ok"]
    assert rig.finish_round()["event"] == "result"
    assert rig.stop_daemon() == 0
    assert rig.verify().ok


def test_stopped_while_the_disk_is_full_it_exits_1_saying_so(start_rig, small_disk):
    rig = full_disk_rig(start_rig, small_disk, seed=13)
    rig.new_shoe()
    fill(small_disk)
    press_until_full(rig)
    assert rig.stop_daemon(signal.SIGTERM) == 1
    output = rig.daemon.output()
    assert re.search(r"stopping while the disk is full, \d+ inputs not journaled are dropped", output)
    assert not os.path.exists(rig.socket_path)
