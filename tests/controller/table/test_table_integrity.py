"""The shoe integrity checks at the table (local ruling L7): an alarm is journaled with its
evidence, the round in progress completes, no round opens until the supervisor with the key
accepts the shoe or calls a new one, the lamps show it, and a restart keeps an unanswered alarm."""
import random
from fractions import Fraction

import pytest
from table_helpers import Run

from controller.table import machine as m
from controller.table.effects import Journal
from controller.table.integrity import IntegrityStart
from controller.table.recovery import TableRecovery
from controller.table.settings import SettingsError
from games.cards import DeckKind, parse_card
from games.integrity import ShoeHistory
from simulation.table_dealer import deal_shoe


def records(effects) -> list[tuple[str, dict]]:
    return [(e.kind, dict(e.payload)) for e in effects if isinstance(e, Journal)]


def alarms(run: Run) -> list[dict]:
    return [r for r in run.journal("irregularity") if r["kind"] == "shoe_integrity"]


def factory_round() -> Run:
    """Fortune 6, a shoe in factory order from 2s: the burn (2s: two more, 3s 4s), round 1's
    player 5s 7s and banker 6s 8s; the check fires on the 7th card (8s), the player's third
    card (9s) completes the round."""
    run = Run("fortune6")
    run.new_shoe(("2s", "3s", "4s"))
    run.open_round()
    run.cards("5s", "6s", "7s")
    assert not alarms(run)
    run.cards("8s")
    return run


def test_a_factory_order_is_journaled_with_its_evidence_and_the_round_completes():
    run = factory_round()
    [alarm] = alarms(run)
    assert alarm["clause"] == "local ruling L7" and alarm["consequence"] == "block" and alarm["round"] == 1
    assert alarm["check"] == "unshuffled" and alarm["shoe"] == 1
    evidence = alarm["evidence"]
    assert evidence["cards"] == ["2s", "3s", "4s", "5s", "6s", "7s", "8s"] and evidence["draw_counters"] == [1, 2, 3, 4, 5, 6, 7]
    assert 0 < evidence["probability"] <= 1e-6 / 3 and evidence["shoe"] == "shoe 1"
    assert [e for e in run.events("irregularity") if e["kind"] == "shoe_integrity"][0]["check"] == "unshuffled"
    last_two = [kind for kind, _ in records(run.last)][-2:]
    assert last_two == ["card", "irregularity"]  # the card's own record first: the alarm cites it
    lamps = run.lamps()
    assert lamps["error"] == "slow" and lamps["supervisor"] == "off"  # the round goes on: no supervisor yet
    assert run.state in (m.DEALING, m.DRAWING) and not run.journal("void")
    run.cards("9s")  # the player's third card: the round completes normally
    assert run.state == m.RESULT and run.journal("result")[-1]["round"] == 1
    assert run.cmd("confirm").ok and run.state == m.SETTLED
    lamps = run.lamps()
    assert lamps["error"] == "slow" and lamps["supervisor"] == "fast"


def settled_factory_round() -> Run:
    run = factory_round()
    run.cards("9s")
    assert run.cmd("confirm").ok
    return run


def test_no_round_opens_until_the_supervisor_with_the_key_accepts_the_shoe():
    run = settled_factory_round()
    refused = run.cmd("place_bets")
    assert not refused.ok and refused.message.startswith("place_bets: local ruling L7: shoe 1 failed the integrity check")
    assert "accept_shoe" in refused.message and "new_shoe" in refused.message
    assert run.table.snapshot()["integrity"]["blocked"] and "local ruling L7" in run.table.snapshot()["integrity"]["why"]
    without = run.cmd("accept_shoe")
    assert not without.ok and "supervisor key" in without.message
    run.key()
    accepted = run.cmd("accept_shoe")
    assert accepted.ok and "accepted" in accepted.message
    [record] = [r for r in run.journal("shoe") if r["event"] == "accepted"]
    assert record["answers"] == [{"check": "unshuffled", "shoe": "shoe 1", "round": 1, "positions": [1, 2, 3, 4, 5, 6, 7],
                                  "draw_counters": [1, 2, 3, 4, 5, 6, 7]}]
    assert record["clause"] == "local ruling L7"
    lamps = run.lamps()
    assert lamps["error"] == "off" and lamps["supervisor"] == "off"
    assert run.cmd("place_bets").ok
    again = run.cmd("accept_shoe")
    assert not again.ok and "no integrity alarm" in again.message


def test_a_new_shoe_answers_the_alarm():
    run = settled_factory_round()
    assert run.cmd("new_shoe").ok
    new = [r for r in run.journal("shoe") if r["event"] == "new"][-1]
    assert new["shoe"] == 2 and [a["check"] for a in new["answers"]] == ["unshuffled"]
    assert not run.table.integrity.blocked and run.lamps()["error"] == "off"


def test_an_alarm_during_the_burn_blocks_the_first_round():
    run = Run("fortune6")
    assert run.cmd("new_shoe").ok
    run.cards("Ks", "Qs", "Js", "Ts", "9s", "8s", "7s")  # a king: ten more burned, in factory order
    assert run.table.shoe.burning
    [alarm] = alarms(run)
    assert alarm["round"] is None and alarm["state"] == m.IDLE
    run.cards("6s", "5s", "4s", "3s")
    assert not run.table.shoe.burning
    refused = run.cmd("place_bets")
    assert not refused.ok and "local ruling L7" in refused.message


def test_a_fair_shoe_plays_through_with_no_alarm():
    run = Run("fortune6")
    shoe = list(run.game.deck_kind.cards) * 8
    random.Random(12).shuffle(shoe)
    dealt = deal_shoe(run.table, shoe, cut_at=356)
    assert len(dealt.results) > 60 and run.table.shoe.state == m.FINISHED
    assert run.table.snapshot()["integrity"]["checks_fired"] == []


def test_a_shoe_dealt_again_is_called_replayed():
    """The history the daemon hands in at start-up holds shoe 1; shoe 2 opens with its cards."""
    shoe = list(DeckKind.STANDARD52.cards) * 8
    random.Random(5).shuffle(shoe)
    history = ShoeHistory()
    history.add("shoe 1", DeckKind.STANDARD52, 8, shoe[:200])
    run = Run("fortune6")
    run.last = run.table.restore(TableRecovery(), IntegrityStart(history))
    assert run.cmd("new_shoe").ok
    dealt = 0
    while not alarms(run) and dealt < 12:
        run.card(str(shoe[dealt]))
        dealt += 1
    [alarm] = alarms(run)
    assert alarm["check"] == "replayed" and dealt <= 12 and alarm["evidence"]["evidence"]["replays"] == ["shoe 1"]


def restored(run: Run, start: IntegrityStart | None = None) -> Run:
    again = Run(run.game.key, decks=run.table.decks)
    again.last = again.table.restore(TableRecovery.from_journal(records(run.effects)), start)
    again.effects += again.last
    again.counter = run.counter
    return again


def resume_start(run: Run) -> IntegrityStart:
    """What the daemon reads from the journal for the shoe in play (here: from the run's records)."""
    cards = tuple((None if p["card"] is None else parse_card(p["card"]), p["draw_counter"])
                  for kind, p in records(run.effects) if kind == "card" and not p["reconstructed"])
    return IntegrityStart(ShoeHistory(), f"shoe {run.table.shoe.number}", 0, cards)


def test_after_a_restart_an_alarm_never_answered_still_blocks_and_is_not_raised_again():
    run = settled_factory_round()
    again = restored(run, resume_start(run))
    assert not alarms(again)  # journaled already: fed again, the shoe's cards raise nothing new
    assert again.table.integrity.blocked and again.lamps()["error"] == "slow"
    refused = again.cmd("place_bets")
    assert not refused.ok and "local ruling L7" in refused.message
    again.key()
    assert again.cmd("accept_shoe").ok
    after = restored(again, resume_start(again))
    assert not after.table.integrity.blocked and after.cmd("place_bets").ok


def test_a_restart_with_a_stricter_rate_journals_what_the_shoe_in_play_now_raises():
    run = Run("fortune6")
    run.new_shoe(("2s", "3s", "4s"))
    run.open_round()
    run.cards("5s", "6s")  # 4 factory steps: not called at 1 in 10^6
    assert not alarms(run)
    again = Run("fortune6", false_alarm_rate=Fraction(1, 1000))
    again.last = again.table.restore(TableRecovery.from_journal(records(run.effects)), resume_start(run))
    again.effects += again.last
    [alarm] = alarms(again)
    assert alarm["check"] == "unshuffled" and alarm["round"] == 1 and again.table.integrity.blocked


def test_deck_per_round_each_deck_is_a_shoe_and_a_factory_deck_blocks_the_next_round():
    run = Run("fubacc")
    run.new_shoe()
    run.open_round()
    deck = iter(["As", "2s", "3s", "4s", "5s", "6s", "7s", "8s"])  # a fresh deck in factory order
    while run.state not in (m.RESULT, m.VOID):
        if run.state == m.AWAITING:
            options = run.table.snapshot()["pending_decision"]["options"]
            assert run.cmd("decide", spot=1, decision="play" if "play" in options else options[0]).ok
        else:
            run.card(next(deck))
    [alarm] = alarms(run)
    assert alarm["evidence"]["shoe"] == "shoe 1 deck 1" and alarm["round"] == 1
    assert run.table.integrity.watch.label == "shoe 1 deck 1"
    assert run.state == m.RESULT and run.cmd("confirm").ok
    assert not run.cmd("place_bets").ok
    run.key()
    assert run.cmd("accept_shoe").ok and run.cmd("place_bets").ok
    assert run.table.integrity.watch.label == "shoe 1 deck 2"


def test_status_says_why_no_round_opens():
    run = settled_factory_round()
    status = run.cmd("status").fields
    assert status["integrity"]["waiting"][0]["check"] == "unshuffled"
    assert status["integrity"]["why"].startswith("local ruling L7: shoe 1 failed")



def test_the_history_keeps_to_its_limit_as_shoes_are_dealt():
    run = Run("fortune6", history_shoes=2)
    for seed in range(5):
        shoe = list(DeckKind.STANDARD52.cards) * 8
        random.Random(seed).shuffle(shoe)
        deal_shoe(run.table, shoe[:40])
    watch = run.table.integrity.watch
    assert watch.label == "shoe 5" and watch.history.shoes == 2 and watch.history.previous.label == "shoe 4"
    with pytest.raises(SettingsError, match="history_shoes"):
        Run("fortune6", history_shoes=-1)
