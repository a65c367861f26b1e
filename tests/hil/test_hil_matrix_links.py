"""The shoe's link mid-round, for every game (local ruling L4), through the real daemon and the
shoe simulator's pty: unplugged and plugged back with no card missed (resumed), with a card
drawn while unplugged that the shoe delivers afterwards (resumed, the card dealt) or never sent
(ruling 24: held as a missing card, keyed in by the supervisor, the round finished as the
rules say); rebooted keeping its counter (resumed), losing it (void: order cannot be proven),
after a card it never sent (ruling 24, as above; or void under the same clause when the card
cannot be keyed in, and the next game cannot start before); and unplugged between rounds
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
    supervisor,
    the_rules_decide,
    unheard,
    via,
)

from simulation.rig import RigError

pytestmark = pytest.mark.hil
# ruling 24: a card missed while the shoe was unheard is held under the game's §5.2 (Pai Gow: §5.3)
UNHEARD = {"fafa4": "fafa §5.2 (ruling 24)", "fortune7": "local ruling L1 (fortune6 §5.2) (ruling 24)",
           "fortune6": "fortune6 §5.2 (ruling 24)", "fubacc": "local ruling L2 (fafa §5.2) (ruling 24)",
           "paigow": "paigow §5.3 (ruling 24)"}


def mid_round(rig):
    number, drawn, mark = deal_some(rig, 2)
    return number, drawn[-1]["counter"], mark


def unplugged(rig, mark, number):
    """Unplug the shoe mid-round: held (L4) until its counter speaks; the board shows it."""
    rig.fault("unplug")
    held = expect_held(rig, mark, number, "device_lost", "local ruling L4", "counter")
    assert held["void_clause"] == via("local ruling L4", rig.game, "order_altered")  # nothing proves the order
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


def held_for_the_unheard_card(rig, mark: int, number: int, counter: int, via: str) -> dict:
    """Ruling 24: the shoe heard again with its counter one ahead of the last card heard. The
    round held for the shoe's counter resumes, and the card it never heard is a missing card,
    held under the game's §5.2 for the supervisor to key in, as if the shoe had been heard."""
    wanted = UNHEARD[rig.game]
    assert wanted == unheard(rig.game)
    resumed = rig.events.wait_for("resumed", after=mark, round=number, kind="device_lost")
    assert resumed["how"] == (f"{via}: draw counter {counter + 1} shows 1 card(s) left unheard after {counter}, "
                              "judged as if heard (ruling 24)")
    held = expect_held(rig, mark, number, "missing_card", wanted, "card")
    assert held["detail"] == (f"{via} with draw counter {counter + 1}; the last card heard was {counter}: "
                              "1 card(s) left unheard")
    assert held["keyed"] == 1 and held["pending"] == [None] and held["void_clause"] == wanted
    assert not journaled(rig, "void", number)
    return held


def expect_keyed_in_and_finished(rig, mark: int, number: int, drawn: list[dict], lost: dict) -> dict:
    """The supervisor keys the unheard card in (refused without the key); the round finishes
    with the result the rules give for its cards, the keyed card where the deal put it; the
    journal tells it in order: the hold for the shoe, its resumption by the counter, the hold
    for the card (ruling 24), the reconstruction, the keyed-in card, the result."""
    wanted = UNHEARD[rig.game]
    refused = rig.send("reconstruct", card=lost["card"])
    assert not refused["ok"] and "supervisor key" in (refused.get("message") or refused.get("error"))
    answer = supervisor(rig, "reconstruct", card=lost["card"])
    assert answer["ok"], answer
    rig.events.wait_for("resumed", after=mark, round=number, kind="missing_card")
    end = complete(rig, mark, number)
    expect_result_on_the_board(rig, end, number)
    assert end["cards"][:3] == [card["card"] for card in drawn] + [lost["card"]]
    the_rules_decide(rig.game, end)
    story = []
    for record in rig.records():
        p = record.payload
        if record.round != number:
            continue
        if record.kind in ("irregularity", "round_resumed"):
            story.append((record.kind, p["kind"], p["clause"]))
        elif record.kind == "card" and p["keyed_in"]:
            story.append(("card", p["card"], p["status"]))
        elif record.kind in ("result", "void"):
            story.append((record.kind,))
    assert story == [("irregularity", "device_lost", "local ruling L4"),
                     ("round_resumed", "device_lost", "local ruling L4"),
                     ("irregularity", "missing_card", wanted),
                     ("round_resumed", "missing_card", wanted),
                     ("card", lost["card"], "dealt"),
                     ("result",)], story
    assert rig.verify().ok
    return end


@every_game
def test_a_card_drawn_while_unplugged_and_never_sent_is_held_and_keyed_in(table, game):
    """A card leaves the shoe while it is unplugged and is never sent (its reader missed it: a
    1.2 shoe keeps every card it read until acknowledged, PROTOCOL.md §9). Plugged back, the
    shoe's counter is one ahead of the last card heard: the card is a missing card, held to be
    keyed in (ruling 24), exactly as a gap seen while connected."""
    rig, before = table, table.records()
    number, drawn, mark = deal_some(rig, 2)
    counter = drawn[-1]["counter"]
    unplugged(rig, mark, number)
    rig.fault("unheard")
    (lost,) = rig.draw(1, wait=False)
    rig.fault("replug")
    held_for_the_unheard_card(rig, mark, number, counter, "the shoe's link came back")
    expect_keyed_in_and_finished(rig, mark, number, drawn, lost)
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


def rebooted_one_ahead(rig) -> tuple[int, list[dict], dict, int]:
    """Two cards dealt; the shoe counts a third it never sends, then reboots keeping its
    counter: its first status is one ahead of the last card heard."""
    number, drawn, mark = deal_some(rig, 2)
    rig.fault("unheard")
    (lost,) = rig.draw(1, wait=False)
    rig.fault("reboot")
    rig.events.wait_for("device", after=mark, device="shoe", link="rebooted")
    held_for_the_unheard_card(rig, mark, number, drawn[-1]["counter"], "the shoe rebooted")
    return number, drawn, lost, mark


@every_game
def test_a_shoe_reboot_after_a_card_it_never_sent_is_held_and_keyed_in(table, game):
    rig, before = table, table.records()
    number, drawn, lost, mark = rebooted_one_ahead(rig)
    expect_keyed_in_and_finished(rig, mark, number, drawn, lost)
    next_round_is_clean(rig, before)


@every_game
def test_an_unheard_card_that_cannot_be_keyed_in_voids_under_the_same_clause(table, game):
    """§5.2: void only if the cards cannot be reconstructed before the next game starts. The
    next game cannot start over the held round ("Place your bets" refused, naming the hold);
    the supervisor voids it, citing the clause the hold cites."""
    rig, before = table, table.records()
    number, drawn, lost, mark = rebooted_one_ahead(rig)
    wanted = UNHEARD[game]
    refused = rig.press("place_bets")
    assert not refused["ok"] and f"round {number} is held for the supervisor ({wanted})" in refused["message"]
    assert rig.status()["state"] == "held"
    assert supervisor(rig, "void", reason="the unheard card cannot be found")["ok"]
    void = expect_void(rig, mark, number, "missing_card", wanted, by="supervisor")
    assert void["reason"] == "the unheard card cannot be found" and void["evidence"]["pending"] == [None]
    assert [r.payload["clause"] for r in journaled(rig, "irregularity", number)] == ["local ruling L4", wanted]
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
