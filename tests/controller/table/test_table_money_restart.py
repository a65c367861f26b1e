"""Money across a restart (controller/table/money_recovery.py): a table restored from its own
journal records keeps the payouts owed and the payout check between the result and the confirm,
the wagers given by command while bets were open, an accept already given, and the chip
registry from every `chips` record."""
from fractions import Fraction

from money_helpers import Sensor
from table_helpers import Run
from test_table_money import fortune6_result, settlement

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.effects import Journal
from controller.table.money_recovery import RecoveredMoney
from controller.table.recovery import TableRecovery


def records(run: Run) -> list[tuple[str, dict]]:
    return [(e.kind, dict(e.payload)) for e in run.effects if isinstance(e, Journal)]


def restored(run: Run, commands: list[tuple[str, dict]] = ()) -> Run:
    """A fresh table restored from `run`'s records (and the daemon's `command` records given)."""
    journal = records(run) + list(commands)
    again = Run(run.game.key, decks=run.table.decks)
    again.last = again.table.restore(TableRecovery.from_journal(journal), money=RecoveredMoney.from_journal(journal),
                                     chips=[p for kind, p in journal if kind == "chips"])
    again.effects += again.last
    again.counter = run.counter
    return again


def test_the_payouts_owed_and_the_check_survive_a_restart_between_result_and_confirm():
    run, sensor = fortune6_result()
    owed = settlement(run)
    again = restored(run)
    assert again.state == m.RESULT and again.journal("recovered")[0]["outcome"] == "result stands"
    assert not again.journal("settlement")  # the settlement stands: not journaled twice
    money = again.table.snapshot()["money"]
    assert money["payouts"] == owed["wagers"] and money["payout_check"] is True
    assert money["sensor"] == "none"  # until the sensor's session reports its layout again
    reply = again.cmd("confirm")
    assert not reply.ok and "which is not heard" in reply.message
    sensor.run = again  # the sensor's session comes up: layout and every space
    sensor.run.send(i.BetLayoutHeard(tuple((space, seat, bet) for (seat, bet), space in sensor.spaces.items())))
    reply = again.cmd("confirm")  # the layout alone: the spaces are not read yet
    assert not reply.ok and f"{len(sensor.spaces)} of its {len(sensor.spaces)} spaces not read yet" in reply.message
    for seat, bet in sensor.spaces:
        sensor.report(seat, bet)
    assert not again.journal("irregularity")  # the registry survived: no chip is foreign
    reply = again.cmd("confirm")
    assert not reply.ok and "seat 1 player holds 25, should hold 50" in reply.message
    sensor.pay_out(owed)
    assert again.cmd("confirm").ok and again.state == m.SETTLED


def test_an_accept_given_before_the_restart_stands():
    run, sensor = fortune6_result()
    sensor.set_to(1, "player", Fraction(40))
    sensor.set_to(2, "banker", Fraction(0))
    assert not run.cmd("confirm").ok
    run.key()
    assert run.cmd("accept_payouts").ok
    again = restored(run)
    assert again.cmd("confirm").ok


def test_a_result_without_its_settlement_is_settled_at_the_restart():
    run, _ = fortune6_result()
    journal = [(k, p) for k, p in records(run) if k != "settlement"]
    again = Run("fortune6")
    again.last = again.table.restore(TableRecovery.from_journal(journal), money=RecoveredMoney.from_journal(journal))
    again.effects += again.last
    assert again.journal("settlement")[0]["wagers"] == settlement(run)["wagers"]


def test_wagers_given_by_command_while_betting_survive():
    run = Run("fortune6")
    run.baccarat_shoe()
    assert run.cmd("place_bets").ok
    given = [("command", {"name": "wagers", "args": {"seat": 3, "stakes": ["banker=25"]}}),
             ("command", {"name": "wagers", "args": {"seat": 4, "stakes": ["bonkers=1"]}})]  # refused then and now
    again = restored(run, given)
    assert again.state == m.BETTING
    assert again.table.snapshot()["money"]["commanded"] == [{"seat": 3, "bet": "banker", "stake": "25"}]
    assert again.cmd("no_more_bets").ok
    assert again.journal("wagers")[-1]["wagers"] == [{"seat": 3, "bet": "banker", "stake": "25"}]


def test_late_chips_are_compared_with_the_frozen_wagers_after_a_restart():
    run = Run("fortune6")
    run.baccarat_shoe()
    sensor = Sensor(run)
    assert run.cmd("place_bets").ok
    sensor.place(1, "player", 25)
    assert run.cmd("no_more_bets").ok
    run.cards("As")
    again = restored(run)
    again.send(i.ShoeLinkRestored(run.counter))
    sensor.run = again
    sensor.session()  # every space as frozen: nothing to say
    assert not [r for r in again.journal("irregularity") if r["kind"] in ("late_wager", "wager_removed")]
    sensor.place(1, "player", 5)
    assert again.irregularity()["kind"] == "late_wager"


def test_what_was_reported_before_a_restart_is_not_reported_again():
    run = Run("fortune6")
    run.baccarat_shoe()
    sensor = Sensor(run)
    assert run.cmd("place_bets").ok
    sensor.place(1, "player", 25)
    sensor.place(2, "tie", 0, raw=[("08a1b2c3d4e5f6", 500)])  # a foreign chip
    assert run.cmd("no_more_bets").ok
    sensor.place(1, "player", 5)  # late
    run.cards("As")
    reported = len(run.journal("irregularity"))
    assert reported == 2
    again = restored(run)
    again.send(i.ShoeLinkRestored(run.counter))
    sensor.run = again
    sensor.session()
    assert [r["kind"] for r in again.journal("irregularity")] == ["device_lost"]  # the restart's own hold (L4) only


def test_a_mispay_found_before_the_restart_still_stands_and_is_not_journaled_twice():
    run, sensor = fortune6_result()
    sensor.set_to(1, "player", Fraction(45))
    sensor.set_to(2, "banker", Fraction(0))
    assert not run.cmd("confirm").ok
    again = restored(run)
    standing = again.table.snapshot()["money"]["mispays"]
    assert standing == [{"seat": 1, "bet": "player", "expected": "50", "found": "45", "direction": "under"}]
    assert again.lamps()["error"] == "fast"  # the mispaid space's lamp (a baccarat table's: the error lamp)
    sensor.run = again
    again.send(i.BetLayoutHeard(tuple((space, seat, bet) for (seat, bet), space in sensor.spaces.items())))
    for seat, bet in sensor.spaces:
        sensor.report(seat, bet)
    reply = again.cmd("confirm")
    assert not reply.ok and "seat 1 player holds 45, should hold 50" in reply.message
    assert not [r for r in again.journal("irregularity") if r["kind"] == "mispay"]  # on record already, as it stands
    sensor.set_to(1, "player", Fraction(50))
    assert again.events("mispay_cleared") and again.table.snapshot()["money"]["mispays"] == []
    assert again.cmd("confirm").ok


def test_a_mispay_accepted_before_the_restart_does_not_stand_after_it():
    run, sensor = fortune6_result()
    sensor.set_to(1, "player", Fraction(60))
    sensor.set_to(2, "banker", Fraction(0))
    assert not run.cmd("confirm").ok
    run.key()
    assert run.cmd("accept_payouts").ok
    assert restored(run).table.snapshot()["money"]["mispays"] == []


def test_no_more_bets_waits_until_the_sensors_session_has_read_every_space():
    """Restarted while bets are open, the table hears the sensor's layout before its spaces: bets
    close only once every space is read, so no wager freezes as an empty space (L10)."""
    run = Run("fortune6")
    run.baccarat_shoe()
    sensor = Sensor(run)
    assert run.cmd("place_bets").ok
    sensor.place(7, "banker", 25)  # the last seat: its space comes last in the session's whole state
    again = restored(run)
    again.send(i.ShoeLinkRestored(run.counter))
    sensor.run = again
    again.send(i.BetLayoutHeard(tuple((space, seat, bet) for (seat, bet), space in sensor.spaces.items())))
    for seat, bet in list(sensor.spaces)[:-6]:
        sensor.report(seat, bet)
    reply = again.cmd("no_more_bets")
    assert not reply.ok and "has 6 of its 42 spaces not read yet since its layout (local ruling L10)" in reply.message
    assert again.state == m.BETTING and not again.journal("wagers")
    assert again.table.snapshot()["money"]["unread"] == 6
    for seat, bet in list(sensor.spaces)[-6:]:
        sensor.report(seat, bet)
    assert again.table.snapshot()["money"]["unread"] == 0 and again.cmd("no_more_bets").ok
    assert [(w["seat"], w["bet"], w["stake"]) for w in again.journal("wagers")[-1]["wagers"]] == [(7, "banker", "25")]
