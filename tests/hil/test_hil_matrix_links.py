"""The shoe's link mid-round, for every game (local ruling L4), through the real daemon and the
shoe simulator's pty: unplugged and plugged back with no card missed (resumed), with a card
drawn while unplugged that the shoe delivers afterwards (resumed, the card dealt) or gives up
(void: missing card); rebooted keeping its counter (resumed), losing it (void: order cannot
be proven), after a card it never sent (void: missing card); and unplugged between rounds
("No more bets" refused until it is back). The fortune6 cases of test_hil_shoe_faults.py
(unplug/replug and both reboots) are not repeated here."""
import pytest
from hil_matrix import (
    beyond_fortune6,
    complete,
    deal_some,
    every_game,
    expect_held,
    expect_result_on_the_board,
    expect_void,
    journaled,
    next_round_is_clean,
    via,
)

from simulation.rig import RigError

pytestmark = pytest.mark.hil
L4_MISSING = {"fafa4": "local ruling L4, fafa §5.2", "fortune7": "local ruling L4, local ruling L1 (fortune6 §5.2)",
              "fortune6": "local ruling L4, fortune6 §5.2", "fubacc": "local ruling L4, local ruling L2 (fafa §5.1)",
              "paigow": "local ruling L4, paigow §5.3"}


def mid_round(rig):
    number, drawn, mark = deal_some(rig, 2)
    return number, drawn[-1]["counter"], mark


def unplugged(rig, mark, number):
    """Unplug the shoe mid-round: held (L4) until its counter speaks; the board shows it."""
    rig.fault("unplug")
    held = expect_held(rig, mark, number, "device_lost", "local ruling L4", "counter")
    assert held["void_clause"] == via("local ruling L4", rig.game, "missing_card")
    rig.events.wait_for("device", after=mark, device="shoe", link="lost")
    rig.wait_lamps({"error": "fast"})
    refused = rig.press("reconstruct")  # only the shoe's counter can resume it
    assert not refused["ok"]
    return held


def resumes_and_completes(rig, mark, number, via, counter):
    """Resumed `via` the shoe's link or reboot, its counter the last card heard; then a result."""
    resumed = rig.events.wait_for("resumed", after=mark, round=number)
    how = f"{via}: draw counter {counter} proves no card was missed (local ruling L4)"
    assert (resumed["how"], resumed["clause"]) == (how, "local ruling L4")
    end = complete(rig, mark, number)
    expect_result_on_the_board(rig, end, number)
    assert rig.status()["daemon"]["devices"]["shoe"]["link"] == "ok"
    return end


@beyond_fortune6
def test_unplugged_and_plugged_back_with_no_card_missed_resumes(table, game):
    rig, before = table, table.records()
    number, counter, mark = mid_round(rig)
    held = unplugged(rig, mark, number)
    assert (held["round"], held["kind"]) == (number, "device_lost")
    rig.fault("replug")
    end = resumes_and_completes(rig, mark, number, "the shoe's link came back", counter)
    assert end["round"] == number and not rig.events.find("void", after=mark, round=number)
    next_round_is_clean(rig, before)


@every_game
def test_a_card_drawn_while_unplugged_and_delivered_after_the_replug_is_dealt(table, game):
    """The shoe keeps the unacknowledged card and sends it once the link is back: its counter is
    the next one, which proves nothing was missed."""
    rig, before = table, table.records()
    number, counter, mark = mid_round(rig)
    unplugged(rig, mark, number)
    (card,) = rig.draw(1, wait=False)
    rig.fault("replug")
    rig.wait_for_counter(card["counter"])
    resumed = rig.events.wait_for("resumed", after=mark, round=number)
    assert f"draw counter {counter} proves no card was missed (local ruling L4)" in resumed["how"]
    (record,) = [r.payload for r in journaled(rig, "card", number) if r.payload["draw_counter"] == card["counter"]]
    assert (record["card"], record["status"]) == (card["card"], "dealt")
    end = complete(rig, mark, number)
    assert end["event"] == "result" and card["card"] in end["cards"]
    next_round_is_clean(rig, before)


@every_game
def test_a_card_drawn_while_unplugged_and_given_up_voids_as_missing(table, game):
    """Nobody acknowledges the card; after its retries the shoe's link gives it up (PROTOCOL.md
    §2). Plugged back, the shoe's counter is one ahead of the last card heard: void (L4)."""
    rig, before = table, table.records()
    number, counter, mark = mid_round(rig)
    unplugged(rig, mark, number)
    rig.draw(1, wait=False)
    rig.wait_until(lambda: any("send failed: CardRead" in line for line in rig.shoe.state()["log"]), 20.0,
                   "the shoe to give the card up")
    rig.fault("replug")
    void = expect_void(rig, mark, number, "missing_card", L4_MISSING[game])
    assert L4_MISSING[game] == via("local ruling L4", game, "missing_card")
    assert void["reason"] == (f"the shoe's link came back with draw counter {counter + 1}; the last card heard was "
                              f"{counter}: 1 card(s) left unheard")
    next_round_is_clean(rig, before)


@beyond_fortune6
@pytest.mark.parametrize("clear_counter", [False, True])
def test_a_shoe_reboot_mid_round(table, game, clear_counter):
    """Its counter kept (non-volatile): resumed. Lost: nothing proves no card was missed: void
    as order altered (L4)."""
    rig, before = table, table.records()
    number, counter, mark = mid_round(rig)
    rig.fault("reboot", clear_counter=clear_counter)
    rig.events.wait_for("device", after=mark, device="shoe", link="rebooted")
    if clear_counter:
        void = expect_void(rig, mark, number, "order_altered", via("local ruling L4", game, "order_altered"))
        assert void["reason"] == (f"the shoe rebooted, but the shoe counts 0, below the last card heard ({counter}): "
                                  "nothing proves that no card was missed (local ruling L4)")
        # The shoe counts from 1 again: the rig's draws still wait until the daemon has the card
        # (the daemon's last counter, from before the reboot, is higher than card 1's).
        with pytest.raises(RigError, match="the daemon to handle card 1"):
            rig.wait_for_counter(1, timeout=0.2)  # no card 1 yet: the rig must not say it was handled
        number = rig.open_round()
        (card,) = rig.draw(1)
        assert card["counter"] == 1 and rig.status()["daemon"]["last_draw_counter"] == 1
        assert [r.payload["draw_counter"] for r in journaled(rig, "card", number)] == [1]
        assert rig.finish_round()["event"] == "result"
    else:
        resumes_and_completes(rig, mark, number, "the shoe rebooted", counter)
    next_round_is_clean(rig, before)


@every_game
def test_a_shoe_reboot_after_a_card_it_never_sent_voids_as_missing(table, game):
    """The reboot's status shows the counter one ahead of the last card heard."""
    rig, before = table, table.records()
    number, counter, mark = mid_round(rig)
    rig.fault("unheard")
    (lost,) = rig.draw(1, wait=False)
    rig.fault("reboot")
    void = expect_void(rig, mark, number, "missing_card", L4_MISSING[game])
    assert void["reason"] == (f"the shoe rebooted with draw counter {lost['counter']}; the last card heard was "
                              f"{counter}: 1 card(s) left unheard")
    next_round_is_clean(rig, before)


@every_game
def test_unplugged_between_rounds_no_more_bets_waits_for_the_shoe(table, game):
    """No round in progress: nothing is held or voided; bets may open but "No more bets" is
    refused while the shoe is not heard, and the round plays once it is back."""
    rig, before = table, table.records()
    mark = rig.events.mark()
    rig.fault("unplug")
    rig.events.wait_for("device", after=mark, device="shoe", link="lost")
    rig.wait_lamps({"error": "fast"})
    number = rig.open_round(close_bets=False)
    refused = rig.press("no_more_bets")
    assert not refused["ok"] and refused["message"].startswith("no_more_bets: the shoe is not heard")
    rig.fault("replug")
    rig.events.wait_for("device", after=mark, device="shoe", link="restored")
    rig.wait_until(lambda: rig.status()["link_up"], 20.0, "the table to hear the shoe")
    assert rig.press("no_more_bets")["ok"]
    expect_result_on_the_board(rig, rig.finish_round(), number)
    assert not journaled(rig, "irregularity", number) and not journaled(rig, "void", number)
    next_round_is_clean(rig, before)
