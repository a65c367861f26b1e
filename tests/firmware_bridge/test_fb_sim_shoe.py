"""The simulated shoe as a separate process on a real pty, driven by a tiny host over pyserial."""
import os

import pytest
import serial

from firmware_bridge.enums import ErrorCode, LampPattern
from firmware_bridge.link_events import Connected, PeerRebooted, PeerSilent
from firmware_bridge.messages import CardRead, Error, LampSet, ShoeStatus, StatusQuery
from games.cards import DeckKind, card_from_code, parse_card


def connected(start_sim, open_host, *args, **link_options):
    shoe = start_sim("shoe", *args)
    host = open_host(shoe.link, **link_options)
    connect = host.wait_event(Connected)
    assert connect.hello.boot_id == shoe.ok("state")["boot_id"]
    return shoe, host


def test_device_is_silent_until_the_host_speaks(start_sim, open_host):
    shoe = start_sim("shoe", "--seed", "1")
    shoe.ok("draw", n=2)
    assert shoe.ok("state")["link"]["frames_out"] == 0  # queued: pyserial would flush it on open
    host = open_host(shoe.link)
    host.wait_event(Connected)
    cards = host.wait_messages(CardRead, 2)
    assert [c.draw_counter for c in cards] == [1, 2]


def test_draw_sends_cards_with_counter_and_clock(start_sim, open_host):
    shoe, host = connected(start_sim, open_host, "--seed", "11", "--decks", "2")
    reply = shoe.ok("draw", n=3)
    cards = host.wait_messages(CardRead, 3)
    assert [f"0x{c.code:04x}" for c in cards] == [d["code"] for d in reply["drawn"]]
    assert [str(card_from_code(c.code)) for c in cards] == [d["card"] for d in reply["drawn"]]
    assert [c.draw_counter for c in cards] == [1, 2, 3]
    assert cards[0].device_ms <= cards[2].device_ms
    host.send(StatusQuery())
    (status,) = host.wait_messages(ShoeStatus)
    assert status.draw_counter == 3 and status.present and not status.empty


def test_seeded_shuffle_is_deterministic(start_sim):
    first = start_sim("shoe", "--seed", "42", name="shoe-a").ok("draw", n=5)["drawn"]
    second = start_sim("shoe", "--seed", "42", name="shoe-b").ok("draw", n=5)["drawn"]
    third = start_sim("shoe", "--seed", "43", name="shoe-c").ok("draw", n=5)["drawn"]
    assert [d["card"] for d in first] == [d["card"] for d in second] != [d["card"] for d in third]


@pytest.mark.parametrize("kind, stat", [
    ("drop", ("device", "retransmissions")),
    ("duplicate", ("host", "duplicates")),
    ("bad_crc", ("host", "bad_crcs")),
])
def test_frame_faults_still_deliver_the_card_exactly_once(start_sim, open_host, kind, stat):
    shoe, host = connected(start_sim, open_host, "--cards", "As Kd")
    shoe.ok("fault", kind=kind)
    shoe.ok("draw")
    (card,) = host.wait_messages(CardRead)
    assert card.code == parse_card("As").code
    shoe.ok("draw")
    (card,) = host.wait_messages(CardRead)
    assert card.draw_counter == 2  # nothing delivered twice, nothing skipped
    side, name = stat
    stats = shoe.ok("state")["link"] if side == "device" else host.link.link_stats()
    assert stats[name] >= 1, stats
    assert shoe.ok("state")["faults_applied"][kind] == 1


def test_garbage_is_skipped(start_sim, open_host):
    shoe, host = connected(start_sim, open_host, "--seed", "5")
    shoe.ok("fault", kind="garbage", n=300)
    shoe.ok("draw")
    (card,) = host.wait_messages(CardRead)
    assert card.draw_counter == 1
    assert host.link.link_stats()["garbage_bytes"] >= 290  # a few may have hidden a false sync


def test_double_draw_misread_and_foreign(start_sim, open_host):
    shoe, host = connected(start_sim, open_host, "--cards", "As Kd 9h 8c 7d", "--deck-kind", "standard52")
    shoe.ok("fault", kind="double_draw")
    shoe.ok("draw")
    double = host.wait_messages(CardRead, 2)
    assert [(c.draw_counter, c.double_draw) for c in double] == [(1, True), (2, True)]
    shoe.ok("fault", kind="misread")
    reply = shoe.ok("draw")
    (misread,) = host.wait_messages(CardRead)
    assert misread.misread and misread.code == 0 and misread.draw_counter == 3
    assert reply["drawn"][0]["card"] == "9h"  # what really left the shoe, for the supervisor
    shoe.ok("fault", kind="foreign")
    shoe.ok("draw")
    (foreign,) = host.wait_messages(CardRead)
    assert foreign.draw_counter == 4 and not DeckKind.STANDARD52.contains(card_from_code(foreign.code))
    shoe.ok("fault", kind="foreign", code="0x0999")
    shoe.ok("draw")
    (unknown,) = host.wait_messages(CardRead)
    assert unknown.code == 0x0999
    shoe.ok("draw")
    (card,) = host.wait_messages(CardRead)
    assert str(card_from_code(card.code)) == "8c" and card.draw_counter == 6


def test_foreign_code_that_is_in_the_deck_is_refused(start_sim):
    shoe = start_sim("shoe")
    reply = shoe.command("fault", kind="foreign", code="0x0101")
    assert not reply["ok"] and "0x0101 is a standard52 card" in reply["error"]


def test_door_cut_card_and_empty(start_sim, open_host):
    shoe, host = connected(start_sim, open_host, "--cards", "As Kd 9h", "--cut-card", "2")
    shoe.ok("fault", kind="door_open")
    (status,) = host.wait_messages(ShoeStatus)
    assert status.door_open
    shoe.ok("fault", kind="door_close")
    (status,) = host.wait_messages(ShoeStatus)
    assert not status.door_open
    shoe.ok("draw", n=3)
    events = host.wait_for(lambda evs: len(evs) >= 5, "3 cards and 2 statuses")
    kinds = [(type(e).__name__, getattr(e, "cut_card_seen", None), getattr(e, "empty", None))
             for e in events]
    assert kinds == [("CardRead", None, None), ("CardRead", None, None), ("ShoeStatus", True, False),
                     ("CardRead", None, None), ("ShoeStatus", True, True)]
    reply = shoe.command("draw")
    assert not reply["ok"] and "empty" in reply["error"]


def test_unplug_and_replug_at_the_same_path(start_sim, open_host):
    shoe, host = connected(start_sim, open_host, "--seed", "9", "--retries", "1000")
    shoe.ok("fault", kind="unplug")
    assert not os.path.lexists(shoe.link)
    host.wait_for(lambda evs: host.hung_up, "the hang-up")
    shoe.ok("draw")  # drawn while unplugged: it waits in the shoe's link
    shoe.ok("fault", kind="replug")
    assert os.readlink(shoe.link).startswith("/dev/pts/")
    host.reopen()
    connect = host.wait_event(Connected)  # same boot id: a reconnect, not a reboot
    assert connect.hello.boot_id == shoe.ok("state")["boot_id"]
    (card,) = host.wait_messages(CardRead)
    assert card.draw_counter == 1


def test_unplugged_port_cannot_be_opened(start_sim):
    shoe = start_sim("shoe")
    shoe.ok("fault", kind="unplug")
    with pytest.raises(serial.SerialException):
        serial.Serial(shoe.link)


@pytest.mark.parametrize("clear_counter, expected", [(False, 2), (True, 0)])
def test_reboot_is_announced_and_the_counter_survives_unless_cleared(start_sim, open_host, clear_counter, expected):
    shoe, host = connected(start_sim, open_host, "--seed", "4")
    shoe.ok("draw", n=2)
    host.wait_messages(CardRead, 2)
    old_boot = shoe.ok("state")["boot_id"]
    new_boot = shoe.ok("fault", kind="reboot", clear_counter=clear_counter)["boot_id"]
    rebooted = host.wait_event(PeerRebooted)
    assert (rebooted.previous_boot_id, rebooted.hello.boot_id) == (old_boot, new_boot)
    host.send(StatusQuery())
    (status,) = host.wait_messages(ShoeStatus)
    assert status.draw_counter == expected
    shoe.ok("draw")
    (card,) = host.wait_messages(CardRead)
    assert card.draw_counter == expected + 1


def test_stall_makes_the_host_see_silence_then_recovers(start_sim, open_host):
    shoe, host = connected(start_sim, open_host, "--seed", "8", heartbeat_interval=0.2, silence_timeout=0.6,
                           retries=40)  # the query outlives the stall: 40 x 0.25 s
    assert shoe.ok("fault", kind="stall", seconds=1.5)["stalled_for"] == 1.5
    assert shoe.ok("state")["stalled"]
    host.send(StatusQuery())
    host.wait_event(PeerSilent)
    (status,) = host.wait_messages(ShoeStatus)  # answered once the firmware runs again
    assert status.draw_counter == 0


def test_messages_for_other_devices_get_an_error(start_sim, open_host):
    shoe, host = connected(start_sim, open_host)
    host.send(LampSet(1, LampPattern.ON))
    (error,) = host.wait_messages(Error)
    assert error.code == ErrorCode.UNSUPPORTED and "LampSet" in error.detail


def test_auto_deal(start_sim, open_host):
    shoe, host = connected(start_sim, open_host, "--seed", "2", "--auto-deal", "20")
    cards = host.wait_messages(CardRead, 5)
    assert [c.draw_counter for c in cards] == [1, 2, 3, 4, 5]
    shoe.ok("auto", ms=0)
    assert shoe.ok("state")["auto_ms"] == 0


@pytest.mark.parametrize("command, error", [
    ({"cmd": "draw", "n": 0}, "draw: n=0 is outside 1..1000"),
    ({"cmd": "draw", "n": "lots"}, "draw: n='lots' is not a whole number"),
    ({"cmd": "fault"}, "fault: kind=None is not one of"),
    ({"cmd": "fault", "kind": "stall", "seconds": "soon"}, "fault: seconds='soon' is not a number"),
    ({"cmd": "fly"}, "unknown command 'fly'"),
    ({"cmd": "sleep", "seconds": 1}, "sleep is for stdin scripts only"),
])
def test_bad_commands_are_named(start_sim, command, error):
    shoe = start_sim("shoe")
    reply = shoe.command(**command)
    assert not reply["ok"] and error in reply["error"]
