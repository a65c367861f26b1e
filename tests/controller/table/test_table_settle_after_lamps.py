"""A result's settlement does not hold its lamps back (controller/table/effects.py): the card
that decides the round returns the durable `result`, the lamps and a FollowUp(SettleWagers)
last; handed back, that input settles the wagers (one durable `settlement` record). Any input handled
before it settles them first, so nothing ever sees the round without its settlement, and a
follow-up that comes after that changes nothing."""
from money_helpers import Sensor, fresh_shoe
from table_helpers import Run
from test_table_money_restart import records

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.effects import FollowUp, Journal, Lamps, Publish
from controller.table.money_recovery import RecoveredMoney
from controller.table.recovery import TableRecovery
from games.cards import parse_card


def to_the_last_card() -> tuple[Run, Sensor]:
    """Fortune 6, seat 1 on player (25) and seat 2 on banker (10), three cards of As Kh 8h Ks
    dealt: the fourth decides (Player 9, Banker 0)."""
    run = Run("fortune6")
    fresh_shoe(run)
    sensor = Sensor(run)
    assert run.cmd("place_bets").ok
    sensor.place(1, "player", 25)
    sensor.place(2, "banker", 10)
    assert run.cmd("no_more_bets").ok
    run.cards("As", "Kh", "8h")
    return run, sensor


def deciding_card(run: Run) -> list:
    """The fourth card through `handle` alone: its follow-up is not handed back."""
    run.counter += 1
    return run.table.handle(i.Card(parse_card("Ks").code, run.counter))


def kinds(effects: list) -> list[str]:
    return [e.kind for e in effects if isinstance(e, Journal)]


def test_the_deciding_card_lights_the_result_and_asks_for_the_settlement_after():
    run, _ = to_the_last_card()
    effects = deciding_card(run)
    assert run.state == m.RESULT
    assert kinds(effects) == ["card", "result"] and "settlement" not in [
        e.event["event"] for e in effects if isinstance(e, Publish)]
    assert isinstance(effects[-1], FollowUp) and effects[-1].input == i.SettleWagers(1)
    result = next(e for e in effects if isinstance(e, Journal) and e.kind == "result")
    assert result.durable and effects.index(result) < next(n for n, e in enumerate(effects) if isinstance(e, Lamps))
    later = run.table.handle(effects[-1].input)
    (settlement,) = [e for e in later if isinstance(e, Journal)]
    assert settlement.kind == "settlement" and settlement.durable  # its own commit, fsynced
    rows = {(w["seat"], w["bet"]): w["back"] for w in settlement.payload["wagers"]}
    assert rows == {(1, "player"): "50", (2, "banker"): "0"}
    assert [e.event["event"] for e in later if isinstance(e, Publish)] == ["settlement"]
    assert kinds(run.table.handle(effects[-1].input)) == []  # once only


def test_an_input_before_the_follow_up_settles_first():
    run, sensor = to_the_last_card()
    follow_up = deciding_card(run)[-1]
    assert run.table.snapshot()["money"]["payouts"] == []  # nothing settled yet
    effects = run.table.handle(i.SpaceChips(sensor.spaces[(2, "banker")], 2, "banker", ()))  # the dealer collects
    assert kinds(effects)[0] == "settlement"  # before the reading's own records
    assert {w["seat"]: w["back"] for w in run.table.snapshot()["money"]["payouts"]} == {1: "50", 2: "0"}
    assert kinds(run.table.handle(follow_up.input)) == []  # already settled


def test_a_confirm_before_the_follow_up_checks_the_spaces_against_the_settlement():
    run, _ = to_the_last_card()
    follow_up = deciding_card(run)[-1]
    confirm = run.table.handle(i.Command("confirm"))  # pressed before anything was paid
    assert kinds(confirm)[0] == "settlement"
    reply = confirm[-1] if not isinstance(confirm[-1], FollowUp) else None
    assert reply is not None and not reply.ok and "seat 1 player holds 25, should hold 50" in reply.message
    assert run.state == m.RESULT
    assert kinds(run.table.handle(follow_up.input)) == []


def test_a_restart_between_the_result_and_its_settlement_settles_before_the_recovered_record():
    run, _ = to_the_last_card()
    run.effects += deciding_card(run)  # the crash comes before the follow-up is handed back
    journal = records(run)
    assert [k for k, _ in journal][-1] == "result"
    again = Run("fortune6")
    effects = again.table.restore(TableRecovery.from_journal(journal), money=RecoveredMoney.from_journal(journal))
    assert kinds(effects)[-2:] == ["settlement", "recovered"] and not any(isinstance(e, FollowUp) for e in effects)
    (settlement,) = [e.payload for e in effects if isinstance(e, Journal) and e.kind == "settlement"]
    assert {w["seat"]: w["back"] for w in settlement["wagers"]} == {1: "50", 2: "0"}
