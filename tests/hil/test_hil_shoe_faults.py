"""Irregularities and shoe faults through the real daemon and the shoe simulator's own fault
injection, each mid-round: a foreign card (void, fortune6 §5.1), the shoe unplugged and
plugged back (held, then resumed by its draw counter: local ruling L4), the shoe rebooting
with its counter kept (held, resumed) and with its counter lost (void, local ruling L4, §5.4).
After each, the next round is dealt cleanly: a void leaves earlier results standing."""
import pytest

pytestmark = pytest.mark.hil


def start_mid_round(start_rig, seed, cards_before=2):
    rig = start_rig("fortune6", seed=seed)
    rig.new_shoe()
    number = rig.open_round()
    counter = rig.draw(cards_before)[-1]["counter"]
    return rig, number, counter


def next_round_is_clean(rig):
    result = rig.play_round()
    assert result["event"] == "result"
    assert rig.verify().ok


def test_a_foreign_card_voids_the_round_citing_its_clause(start_rig):
    rig, number, counter = start_mid_round(start_rig, seed=11)
    mark = rig.events.mark()
    rig.fault("foreign")  # the next card out is a joker: not in a standard deck
    rig.draw(1)
    void = rig.events.wait_for("void", after=mark, round=number)
    assert (void["kind"], void["clause"]) == ("foreign_card", "fortune6 §5.1")
    assert void["reason"] == "JK is not a card of the standard52 deck"
    rig.wait_lamps({"void": "on", "no_more_bets": "off", "result": "off", "bet_player": "off", "bet_banker": "off"})
    record = next(r for r in rig.records() if r.kind == "void")
    assert record.payload["clause"] == "fortune6 §5.1" and record.round == number
    (view,) = [v for v in rig.recall() if v.round == number]
    assert view.status == "void" and view.void["clause"] == "fortune6 §5.1"
    next_round_is_clean(rig)


def test_unplug_and_replug_mid_round_holds_then_resumes_by_the_draw_counter(start_rig):
    rig, number, counter = start_mid_round(start_rig, seed=12)
    mark = rig.events.mark()
    rig.fault("unplug")
    held = rig.events.wait_for("held", after=mark, round=number)
    assert held["kind"] == "device_lost" and held["clause"] == "local ruling L4"
    rig.events.wait_for("device", after=mark, device="shoe", link="lost")
    rig.wait_lamps({"supervisor": "fast", "no_more_bets": "slow", "error": "fast"})
    assert rig.status()["daemon"]["devices"]["shoe"]["link"] == "lost"
    rig.fault("replug")
    resumed = rig.events.wait_for("resumed", after=mark, round=number)
    assert resumed["how"] == (f"the shoe's link came back: draw counter {counter} proves no card was missed "
                              "(local ruling L4)")
    rig.events.wait_for("device", after=mark, device="shoe", link="restored")
    end = rig.finish_round()
    assert end["event"] == "result" and len(end["cards"]) >= 4
    next_round_is_clean(rig)


def test_a_shoe_reboot_that_kept_its_counter_resumes(start_rig):
    rig, number, counter = start_mid_round(start_rig, seed=13)
    mark = rig.events.mark()
    rig.fault("reboot")
    rig.events.wait_for("device", after=mark, device="shoe", link="rebooted")
    resumed = rig.events.wait_for("resumed", after=mark, round=number)
    assert resumed["how"] == f"the shoe rebooted: draw counter {counter} proves no card was missed (local ruling L4)"
    assert rig.finish_round()["event"] == "result"
    next_round_is_clean(rig)


def test_a_shoe_reboot_that_lost_its_counter_voids_citing_l4(start_rig):
    rig, number, counter = start_mid_round(start_rig, seed=14)
    mark = rig.events.mark()
    rig.fault("reboot", clear_counter=True)
    void = rig.events.wait_for("void", after=mark, round=number)
    assert void["clause"] == "local ruling L4, fortune6 §5.4"
    assert "nothing proves that no card was missed" in void["reason"]
    rig.wait_lamps({"void": "on"})
    next_round_is_clean(rig)
