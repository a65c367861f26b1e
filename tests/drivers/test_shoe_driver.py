"""ShoeDriver against the real simulator process (firmware_bridge.sim.shoe) over a real pty.

The driver reports raw facts; what the daemon's session owner makes of them (lost once,
restored, rebooted, which status fields changed) is read from the records it journals
(`sink.journaled`, tests/drivers/conftest.py)."""
from __future__ import annotations

import pytest

from drivers.events import CardDrawn, DrawRepeated, LinkDown, SessionUp, ShoeStatusHeard
from drivers.reconnect import Backoff
from drivers.shoe import ShoeDriver
from firmware_bridge.messages import CardRead, ShoeStatus
from games.cards import parse_card

CARDS = "9h 8d As Kc 2s 3h 4d 5c 6s 7h"
CODES = [parse_card(c).code for c in CARDS.split()]
FAST = dict(backoff=Backoff(0.01, 2.0, 0.1))


@pytest.fixture
def shoe(sim, sink):
    """A scripted shoe simulator and a connected driver."""
    process = sim("shoe", "--cards", CARDS, "--cut-card", "8")
    driver = ShoeDriver(process.link, sink, reactor=sink.reactor, **FAST).start()
    sink.wait_for(SessionUp)
    sink.wait_for(ShoeStatusHeard)
    yield process, driver
    driver.close()


def drawn(sink, count):
    return [(e.code, e.draw_counter) for e in sink.wait_for(CardDrawn, count)]


def test_connect_status_and_cards_in_order(shoe, sink):
    process, driver = shoe
    connected = sink.journaled("DeviceConnected")[0]
    assert connected["device"] == "shoe" and connected["hello"]["boot_id"] == process.ready["boot_id"]
    first_status = sink.journaled("ShoeStatusChanged")[0]
    assert first_status["present"] and not first_status["door_open"] and first_status["draw_counter"] == 0
    assert set(first_status["changed"]) == {"present", "door_open", "cut_card", "empty"}
    process.command("draw", n=4)
    assert drawn(sink, 4) == list(zip(CODES[:4], range(1, 5)))
    card = sink.of(CardDrawn)[0]
    assert not card.double_draw and not card.misread and card.device_time >= 0


def test_duplicated_frame_delivers_the_card_once(shoe, sink):
    process, _ = shoe
    process.command("fault", kind="duplicate")
    process.command("draw", n=2)
    assert drawn(sink, 2) == list(zip(CODES[:2], [1, 2]))
    process.command("draw")  # a later card proves nothing else was queued behind the copy
    assert drawn(sink, 3)[2] == (CODES[2], 3)
    assert len(sink.of(CardDrawn)) == 3 and not sink.of(DrawRepeated)
    assert process.command("state")["faults_applied"]["duplicate"] == 1


@pytest.mark.parametrize("fault", ["drop", "bad_crc"])
def test_lost_frame_is_retransmitted(shoe, sink, fault):
    process, _ = shoe
    process.command("fault", kind=fault)
    process.command("draw", n=3)
    assert drawn(sink, 3) == list(zip(CODES[:3], [1, 2, 3]))
    state = process.command("state")
    assert state["faults_applied"][fault] == 1 and state["link"]["retransmissions"] >= 1
    assert len(sink.of(CardDrawn)) == 3


def test_garbage_on_the_line_is_skipped(shoe, sink):
    process, _ = shoe
    process.command("fault", kind="garbage", n=200)
    process.command("draw")
    assert drawn(sink, 1) == [(CODES[0], 1)]


def test_card_flags_and_raw_codes_pass_through(shoe, sink):
    process, _ = shoe
    process.command("fault", kind="double_draw")
    process.command("draw")
    process.command("fault", kind="misread")
    process.command("draw")
    process.command("fault", kind="foreign", code=0x0777)
    process.command("draw")
    cards = sink.wait_for(CardDrawn, 4)
    assert [(c.code, c.double_draw, c.misread) for c in cards] == [
        (CODES[0], True, False), (CODES[1], True, False), (0x0000, False, True), (0x0777, False, False),
    ]
    assert [c.draw_counter for c in cards] == [1, 2, 3, 4]


def test_door_cut_card_and_empty_are_status_changes(shoe, sink):
    process, _ = shoe
    process.command("fault", kind="door_open")
    door = sink.wait_journaled("ShoeStatusChanged", 2)[-1]
    assert door["door_open"] and door["changed"] == ["door_open"]
    process.command("fault", kind="door_close")
    assert sink.wait_journaled("ShoeStatusChanged", 3)[-1]["changed"] == ["door_open"]
    process.command("draw", n=10)
    statuses = sink.wait_journaled("ShoeStatusChanged", 5)
    assert statuses[3]["changed"] == ["cut_card"] and statuses[3]["cut_card"]
    assert statuses[4]["changed"] == ["empty"] and statuses[4]["empty"]


def test_reboot_is_reported_and_its_status_shows_the_lost_card(sim, sink):
    """The reboot's first status carries the counter of the card whose frame was lost: the
    table finds the gap (controller/table/draw_counter.py), the driver hands the counter on."""
    # a long device ack timeout keeps the dropped card from being resent before the reboot
    process = sim("shoe", "--cards", CARDS, "--ack-timeout", "30")
    with ShoeDriver(process.link, sink, reactor=sink.reactor, **FAST):
        sink.wait_for(ShoeStatusHeard)
        process.command("draw")
        sink.wait_for(CardDrawn)
        process.command("fault", kind="drop")
        process.command("draw")  # card 2 leaves the shoe; its frame is lost
        reboot = process.command("fault", kind="reboot")
        rebooted = sink.wait_journaled("DeviceRebooted")[0]
        assert rebooted["hello"]["boot_id"] == reboot["boot_id"] != process.ready["boot_id"]
        after = sink.wait_journaled("ShoeStatusChanged", 2)[1]
        assert after["draw_counter"] == 2 and after["changed"] == []  # nothing else changed: sent for its counter
        process.command("draw")
        assert drawn(sink, 2)[1] == (CODES[2], 3)
    assert [c.draw_counter for c in sink.of(CardDrawn)] == [1, 3]
    assert not sink.of(LinkDown) and not sink.journaled("LinkLost")  # a reboot is not a lost link


def test_unplug_replug_is_link_lost_then_restored_at_the_same_path(shoe, sink):
    process, driver = shoe
    process.command("draw")
    drawn(sink, 1)
    process.command("fault", kind="unplug")
    lost = sink.wait_journaled("LinkLost")[0]
    assert "hang-up" in lost["reason"]
    process.command("draw")  # drawn while unplugged: queued in the shoe, sent after replug
    process.command("fault", kind="replug")
    restored = sink.wait_journaled("LinkRestored")[0]
    assert restored["hello"]["boot_id"] == process.ready["boot_id"]
    assert drawn(sink, 2)[1] == (CODES[1], 2)
    process.command("draw")
    assert drawn(sink, 3)[2] == (CODES[2], 3)
    assert len(sink.journaled("LinkLost")) == 1 and not sink.journaled("DeviceRebooted")
    assert len(sink.of(CardDrawn)) == 3
    # the session's first status comes though nothing changed since before the loss (its counter is the proof);
    # it answers the session's STATUS_QUERY and may come after the cards: waited for, not assumed
    status = sink.wait_journaled("ShoeStatusChanged", 2)[1]
    assert status["changed"] == [] and status["draw_counter"] >= 1


def test_stalled_shoe_is_link_lost_then_restored(sim, sink):
    process = sim("shoe", "--cards", CARDS)
    # silence_timeout well above the shoe's 1 s heartbeat, so a busy CI machine is not "silent"
    with ShoeDriver(process.link, sink, reactor=sink.reactor, link_options={"silence_timeout": 2.0}, **FAST):
        sink.wait_for(ShoeStatusHeard)
        process.command("fault", kind="stall", seconds=4)
        assert "silent" in sink.wait_journaled("LinkLost")[0]["reason"]
        sink.wait_journaled("LinkRestored")
        process.command("draw")
        assert drawn(sink, 1) == [(CODES[0], 1)]


def test_request_status_is_answered(shoe, sink):
    process, driver = shoe
    driver.request_status()
    # the same status again changes nothing, so no record; a door change then shows one field
    process.command("fault", kind="door_open")
    assert sink.wait_journaled("ShoeStatusChanged", 2)[-1]["changed"] == ["door_open"]
    assert process.command("state")["link"]["delivered"] >= 2  # our two status queries


def test_a_panel_at_the_shoe_url_is_refused(sim, sink):
    process = sim("panel")
    with ShoeDriver(process.link, sink, reactor=sink.reactor, **FAST):
        error = sink.wait_journaled("DeviceError")[0]
    assert "is a panel, expected a shoe" in error["detail"]
    assert not sink.of(SessionUp) and not sink.journaled("DeviceConnected")


def test_status_resent_from_before_a_reconnect_is_not_a_gap(shoe, sink):
    """A SHOE_STATUS whose ack was lost with the link comes again in the next session;
    it is older than what was heard since, so it must not move the draw counter back."""
    process, driver = shoe
    first_status = sink.of(ShoeStatusHeard)[0]
    process.command("draw", n=2)
    last_card = drawn(sink, 2)
    stale = ShoeStatus(draw_counter=first_status.draw_counter, device_ms=0)
    driver._on_message(stale, 0.0)  # what the resent frame delivers
    process.command("draw")
    assert drawn(sink, 3)[2] == (CODES[2], 3)
    assert len(sink.of(ShoeStatusHeard)) == 1 and last_card[1][1] == 2  # the stale status: dropped


def test_a_card_already_delivered_is_dropped_only_when_it_repeats_exactly(shoe, sink):
    """A card resent across a reconnect repeats, byte for byte, one delivered in this boot:
    dropped (journaled as DrawRepeated). Another card at a counter already seen goes on: what
    that proves is the table's to judge."""
    process, driver = shoe
    process.command("draw")
    (card,) = sink.wait_for(CardDrawn)
    resent = CardRead(card.code, draw_counter=card.draw_counter, device_ms=card.device_time)
    driver._on_message(resent, 0.0)  # what the resent frame delivers
    repeat = sink.wait_for(DrawRepeated)[0]
    assert (repeat.draw_counter, repeat.code) == (card.draw_counter, card.code) and len(sink.of(CardDrawn)) == 1
    driver._on_message(CardRead(CODES[5], draw_counter=card.draw_counter, device_ms=card.device_time + 1), 0.0)
    assert [(c.code, c.draw_counter) for c in sink.wait_for(CardDrawn, 2)] == [(card.code, 1), (CODES[5], 1)]


def test_device_time_comparison_wraps():
    from drivers.shoe import _older
    assert _older(5, 10) and not _older(10, 5) and not _older(7, 7)
    assert _older(2**32 - 10, 5)  # just before the wrap is older than just after it
