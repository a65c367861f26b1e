"""The bet sensor's driver events -> table inputs through the device sessions (the `bets`
entry): a fitting layout, the chips on a space, a layout that does not fit the game, the link
lost and back. A real Table and real driver events; no device (the HIL tests run the sensor)."""
import json

import pytest

from controller.config.load import config_from_dict
from controller.daemon.device_options import configured_devices, driver_options
from controller.daemon.sessions import DeviceSessions
from controller.journal.records import canonical_json
from controller.table import Table
from controller.table import inputs as i
from drivers import bet_events as bev
from drivers import events as ev
from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import Hello

HELLO = Hello(DeviceKind.BETS, boot_id=9, serial="SIM-BETS-1", firmware=(1, 0, 0), protocol=(1, 3))
REBOOTED = Hello(DeviceKind.BETS, boot_id=10, serial="SIM-BETS-1", firmware=(1, 0, 0), protocol=(1, 3))
PAIGOW = ((0, 1, "standard"), (1, 1, "fortune_bonus"), (2, 2, "standard"), (3, 2, "fortune_bonus"))
CHIPS = (("047b0000000001", 2500), ("047b0000000002", 500))


def bets(cls, **fields):
    return cls(device="bets", at=1.0, **fields)


def space(number, seat, name, chips=CHIPS, change=1, overflow=False):
    return bets(bev.SpaceChips, space=number, seat=seat, name=name, change=change, chips=chips, overflow=overflow)


class Driver:
    """What DeviceSessions.watch reads of a driver: its key and line counters."""
    authenticated = True

    @staticmethod
    def frame_counts():
        return {}


@pytest.fixture
def sessions():
    sessions = DeviceSessions("paigow", Table("paigow"))
    sessions.watch("bets", Driver())
    return sessions


def inputs(sessions, event):
    return sessions.translate(event).inputs


def test_a_table_without_a_bet_sensor_does_not_wait_for_one():
    sessions = DeviceSessions("paigow", Table("paigow"))
    assert list(sessions.devices) == ["shoe", "panel", "lights"]
    assert configured_devices(config_from_dict({"game": "paigow"})) == ("shoe", "panel", "lights")


def test_a_configured_sensor_is_waited_for_and_shown(sessions):
    assert sessions.waiting_for() == ["shoe", "panel", "lights", "bets"]
    assert sessions.to_json()["bets"]["link"] == "waiting"
    config = config_from_dict({"game": "paigow", "devices": {"bets": "serial:///dev/tablectl/bets"}})
    assert configured_devices(config) == ("shoe", "panel", "lights", "bets")
    assert driver_options(config, "bets")["durable_acks"] is True  # a reading is a fact: acked once durable


def test_layout_then_chips_become_table_inputs(sessions):
    assert inputs(sessions, bets(ev.SessionUp, hello=HELLO)) == []  # live once a layout fits
    out = sessions.translate(bets(bev.BetLayout, spaces=PAIGOW))
    assert out.inputs == [i.BetLayoutHeard(PAIGOW), i.BetSensorLink(True)]
    assert out.record == {"device": "bets", "event": "BetLayout", "spaces": [list(s) for s in PAIGOW]}
    out = sessions.translate(space(1, 1, "fortune_bonus"))
    assert out.inputs == [i.SpaceChips(1, 1, "fortune_bonus", CHIPS, False)]
    assert out.change == {"event": "device", "device": "bets", "space": 1, "seat": 1, "bet": "fortune_bonus",
                          "chips": 2, "total": 3000, "overflow": False}
    assert inputs(sessions, space(2, 2, "standard", (), change=3, overflow=True)) == [
        i.SpaceChips(2, 2, "standard", (), True)]
    assert sessions.to_json()["bets"]["link"] == "ok"


def test_chips_before_any_layout_are_journaled_only(sessions):
    sessions.translate(bets(ev.SessionUp, hello=HELLO))
    out = sessions.translate(space(0, None, None))
    journaled = json.loads(canonical_json(out.record))  # the record's text, as the journal keeps it
    assert out.inputs == [] and journaled["event"] == "SpaceChips" and journaled["chips"] == [list(c) for c in CHIPS]


def test_a_layout_that_does_not_fit_the_game_is_a_clear_error_in_status(sessions):
    sessions.translate(bets(ev.SessionUp, hello=HELLO))
    wrong = ((0, 1, "standard"), (1, 1, "banker"), (2, 9, "standard"), (3, 1, "standard"))
    out = sessions.translate(bets(bev.BetLayout, spaces=wrong))
    reason = ("layout does not fit paigow: space 1 (spot 1) is 'banker', not a wager of paigow (standard, "
              "fortune_bonus); space 2 is at spot 9: paigow has spots 1-6; spaces 0 and 3 are both spot 1 standard")
    assert out.inputs == [i.BetSensorLink(False, reason)]
    assert sessions.to_json()["bets"]["link"] == "mismatch" and sessions.to_json()["bets"]["reason"] == reason
    assert out.change == {"event": "device", "device": "bets", "link": "mismatch", "reason": reason}
    assert inputs(sessions, space(0, 1, "standard")) == []  # readings on a layout that does not fit: journaled only
    # the link comes back with the same boot: the driver does not post the same layout again; still a mismatch
    sessions.translate(bets(ev.LinkDown, reason="unplugged"))
    assert inputs(sessions, bets(ev.SessionUp, hello=HELLO)) == []
    assert sessions.to_json()["bets"]["link"] == "mismatch"
    # the sensor is set up again (a reboot) and reports a layout that fits
    assert inputs(sessions, bets(ev.SessionUp, hello=REBOOTED)) == []
    assert sessions.to_json()["bets"]["link"] == "ok"
    assert inputs(sessions, bets(bev.BetLayout, spaces=PAIGOW)) == [i.BetLayoutHeard(PAIGOW), i.BetSensorLink(True)]


def test_the_link_lost_and_back(sessions):
    sessions.translate(bets(ev.SessionUp, hello=HELLO))
    sessions.translate(bets(bev.BetLayout, spaces=PAIGOW))
    assert inputs(sessions, bets(ev.LinkDown, reason="no frame for 3.5 s")) == [
        i.BetSensorLink(False, "link lost: no frame for 3.5 s")]
    assert inputs(sessions, bets(ev.LinkDown, reason="cannot open")) == []  # told once
    assert sessions.to_json()["bets"]["link"] == "lost"
    assert inputs(sessions, bets(ev.SessionUp, hello=HELLO)) == [i.BetSensorLink(True)]  # same layout, same boot
    assert sessions.to_json()["bets"]["link"] == "ok"


def test_a_sensor_absent_at_start_is_named(sessions):
    assert inputs(sessions, bets(ev.LinkDown, reason="cannot open /dev/tablectl/bets")) == [
        i.BetSensorLink(False, "link absent: cannot open /dev/tablectl/bets")]
    assert sessions.to_json()["bets"]["link"] == "absent"
    assert sessions.waiting_for() == ["shoe", "panel", "lights", "bets"]


@pytest.mark.parametrize("game, seats", [("fortune6", range(1, 8)), ("fortune7", range(1, 8)), ("fubacc", range(1, 8)),
                                         ("paigow", range(1, 7))])
def test_the_simulators_layouts_fit_their_games(game, seats):
    from controller.daemon.bet_layout import layout_problems
    from firmware_bridge.sim.bets import game_layout

    assert layout_problems(game, [(s.space, s.seat, s.name) for s in game_layout(game)]) == []
    assert {s.seat for s in game_layout(game)} == set(seats)


def test_a_bank_space_fits_only_a_player_dealer_game():
    from controller.daemon.bet_layout import layout_problems

    assert layout_problems("fortune7", [(0, 1, "banker"), (1, 1, "bank")]) == []
    assert layout_problems("fortune6", [(0, 1, "banker"), (1, 1, "bank")]) == [
        "space 1 (seat 1) is 'bank', not a wager of fortune6 (player, banker, tie, player_pair, banker_pair, fortune6)"]
