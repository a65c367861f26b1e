"""Fortune 7's California money at the running table (controller/table/california.py, rulings
25 and 26, docs/money.md): the player-dealer's stake read from its bank space or given by
command, the fees taken before the deal, the bank walked at settlement, the rotation two hands a
seat, a holder with no stake passing the position, a void returning fees and wagers, the payout
check on the bank's space, and a restart between the result and the confirm. A real Table fed
the inputs the daemon gives it (the table is pure: nothing is mocked)."""
import random
from fractions import Fraction

from hypothesis import HealthCheck, settings
from hypothesis import given as hypothesis_given
from hypothesis import strategies as st
from money_helpers import Sensor, deal_to_result
from table_helpers import Run

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.effects import Journal
from controller.table.money_recovery import RecoveredMoney
from controller.table.recovery import TableRecovery
from controller.table.settings import SettingsError, TableSettings
from games.baccarat.california.fees import schedule as fees_schedule
from games.money import MoneyRules
from games.registry import get_game

PLAYER_WINS = ("As", "Kh", "8h", "Ks")  # Player 9, Banker 0: naturals, no third card
BANKER_WINS = ("Kh", "As", "Ks", "8h")  # Player 0, Banker 9


def california(option: int = 3, sensor: bool = True, **settings) -> tuple[Run, Sensor | None]:
    """A Fortune 7 table with collection schedule `option`; with `sensor`, a bet sensor whose
    layout has every seat's five spaces and its bank space."""
    run = Run("fortune7", collection_schedule=option, **settings)
    run.baccarat_shoe()
    if not sensor:
        return run, None
    board = Sensor(run)
    for seat in range(1, 8):
        board.spaces[(seat, "bank")] = len(board.spaces)
        board.chips[(seat, "bank")] = []
    board.session()
    assert not run.journal("device_note"), run.journal("device_note")
    return run, board


def wagers_of(run: Run) -> dict:
    return run.journal("wagers")[-1]


def settlement(run: Run) -> dict:
    return run.journal("settlement")[-1]


def rows(money: dict) -> list[tuple]:
    return [(w["seat"], w["bet"], w["stake"], w["net"], w["back"], w["covered"], w["returned"], w["fee"])
            for w in money["wagers"]]


def given(run: Run, seat: int, *stakes: str) -> None:
    reply = run.cmd("wagers", seat=seat, stakes=list(stakes))
    assert reply.ok, reply.message


def conserved(money: dict) -> None:
    """Bettors' nets less fees, the player-dealer's net less its fee and the house sum to zero."""
    bettors = sum(Fraction(w["net"]) - Fraction(w["fee"]) for w in money["wagers"])
    pd = money["player_dealer"]
    assert bettors + Fraction(pd["net"]) - Fraction(pd["fee"]) + Fraction(money["house_net"]) == 0


# ---------------------------------------------------------------- config


def test_the_collection_schedule_is_a_setting_of_a_player_dealer_game_only():
    fortune7, fortune6 = get_game("fortune7"), get_game("fortune6")
    assert TableSettings.for_game(fortune7, collection_schedule=26).check(fortune7).collection_schedule == 26
    for game, option, why in ((fortune7, 27, "27 is not an option 1-26"), (fortune6, 3, "fortune6 has no player-dealer")):
        try:
            TableSettings.for_game(game, collection_schedule=option).check(game)
        except SettingsError as bad:
            assert bad.key == "collection_schedule" and why in str(bad)
        else:
            raise AssertionError(f"{option} accepted at {game.key}")


# ---------------------------------------------------------------- fees before the deal, the bank at settlement


def test_the_bank_stake_and_fees_freeze_at_no_more_bets_and_the_bank_walks_the_wagers():
    run, sensor = california()
    assert sensor is not None
    assert run.cmd("place_bets").ok
    sensor.place(1, "bank", 100)  # seat 1 holds the position (the first of the seats from seat 1)
    sensor.place(2, "player", 50)
    sensor.place(3, "banker", 60)
    sensor.place(3, "tie", 5)
    assert run.cmd("no_more_bets").ok
    record = wagers_of(run)
    assert record["player_dealer"]["seat"] == 1 and record["player_dealer"]["stake"] == "100"
    assert [tag for _, tag in record["player_dealer"]["chips"]] == [10000]
    fees = record["fees"]  # option 3: $1 per space with a wager, $2 from the player-dealer
    assert fees["option"] == 3 and fees["table_action"] == "115" and fees["total"] == "5"
    assert [(f["seat"], f["space"], f["fee"]) for f in fees["lines"]] == [
        (2, "player", "1"), (3, "banker", "1"), (3, "tie", "1"), (1, None, "2")]
    shown = run.table.snapshot()["money"]
    assert shown["fees"] == fees and shown["player_dealer"]["stake"] == "100" and shown["collection_schedule"] == 3
    run.cards(*PLAYER_WINS)
    assert run.state == m.RESULT
    money = settlement(run)
    # Player line first: seat 2 (left of the player-dealer) wins 50 (bank 50); Banker line: seat 3
    # loses 60 (bank 110); Tie: seat 3 loses 5 (bank 115)
    assert rows(money) == [(2, "player", "50", "50", "100", "50", "0", "1"),
                           (3, "banker", "60", "-60", "0", "60", "0", "1"),
                           (3, "tie", "5", "-5", "0", "5", "0", "1")]
    assert money["player_dealer"] == {"seat": 1, "stake": "100", "net": "15", "fee": "2", "back": "115"}
    assert money["bank"] == {"start": "100", "after": ["50", "110", "115"], "end": "115", "exhausted_at": None}
    assert money["house_net"] == "5" and money["void"] is False
    conserved(money)
    assert run.table.snapshot()["money"]["bank"] == money["bank"]


def test_a_bank_exhausted_mid_settlement_returns_every_later_wager_untouched():
    run, _ = california(sensor=False)
    assert run.cmd("place_bets").ok
    given(run, 1, "bank=100")
    given(run, 2, "player=100")
    given(run, 3, "player=25")
    given(run, 4, "banker=50", "one_up=5")
    assert run.cmd("no_more_bets").ok
    assert wagers_of(run)["source"] == "command" and wagers_of(run)["player_dealer"] == {"seat": 1, "stake": "100"}
    run.cards(*PLAYER_WINS)  # Player wins 9-0: One Up pays only a win by one (ruling 7): it loses
    money = settlement(run)
    assert rows(money) == [(2, "player", "100", "100", "200", "100", "0", "1"),  # pays the bank down to 0
                           (3, "player", "25", "0", "25", "0", "25", "1"),  # a winner returned untouched
                           (4, "banker", "50", "0", "50", "0", "50", "1"),  # a loser returned untouched
                           (4, "one_up", "5", "0", "5", "0", "5", "1")]
    assert money["bank"]["exhausted_at"] == 0 and money["bank"]["end"] == "0"
    assert money["player_dealer"]["net"] == "-100" and money["player_dealer"]["back"] == "0"
    conserved(money)


def test_a_bank_is_capped_at_twice_its_stake():
    run, _ = california(sensor=False)
    assert run.cmd("place_bets").ok
    given(run, 1, "bank=50")
    given(run, 2, "banker=100")
    given(run, 3, "banker=100")
    assert run.cmd("no_more_bets").ok
    run.cards(*PLAYER_WINS)
    money = settlement(run)
    # seat 2's 100 is collected only up to 2S = 100 (50 of it); seat 3's is returned whole
    assert rows(money) == [(2, "banker", "100", "-50", "50", "50", "50", "1"),
                           (3, "banker", "100", "0", "100", "0", "100", "1")]
    assert money["player_dealer"]["net"] == "50" and money["bank"]["end"] == "100"
    assert money["bank"]["exhausted_at"] is None
    conserved(money)


def test_schedule_limits_and_the_player_dealers_own_seat_refuse_a_wager():
    run, _ = california(option=5, sensor=False)  # option 5: $25 to $100 a spot
    assert run.cmd("place_bets").ok
    given(run, 1, "bank=500", "banker=25")
    given(run, 2, "banker=20")
    given(run, 3, "player=125")
    given(run, 4, "player=25", "bank=300")
    assert run.cmd("no_more_bets").ok
    record = wagers_of(run)
    refused = {(r["seat"], r["bet"]): r for r in record["refused"]}
    assert refused[(1, "banker")]["clause"] == "fortune7 Type of Game"
    assert "holds the player-dealer position" in refused[(1, "banker")]["reason"]
    assert refused[(2, "banker")]["reason"] == "below the minimum 25 of collection schedule option 5"
    assert refused[(3, "player")]["reason"] == "over the limit per spot 100 of collection schedule option 5"
    assert refused[(2, "banker")]["clause"] == "fortune7 Wagering Limits and Collection Fees"
    assert refused[(4, "bank")]["clause"] == "fortune7 Type of Game"
    assert [(w["seat"], w["bet"]) for w in record["wagers"]] == [(4, "player")]
    assert record["fees"]["total"] == "3"  # option 5: $1 for seat 4's space, $2 the player-dealer's


def test_options_21_to_26_take_the_player_dealers_fee_from_the_table_action():
    run, _ = california(option=21, sensor=False)
    assert run.cmd("place_bets").ok
    given(run, 1, "bank=1000")
    given(run, 2, "player=100")
    given(run, 3, "banker=4")
    assert run.cmd("no_more_bets").ok
    fees = wagers_of(run)["fees"]  # $104 of action is in the $1-$100 bracket (ruling 25)
    assert fees["table_action"] == "104" and fees["lines"] == [
        {"seat": 1, "bettor": "player_dealer", "space": None, "fee": "1"}]
    run.cards(*BANKER_WINS)
    money = settlement(run)
    assert [w["fee"] for w in money["wagers"]] == ["0", "0"] and money["house_net"] == "1"
    conserved(money)


# ---------------------------------------------------------------- the rotation


def test_each_seat_banks_two_hands_then_the_position_moves_clockwise():
    run, _ = california(sensor=False)
    banks = []
    for hand, (bank_seat, bettor) in enumerate([(1, 3), (1, 3), (2, 3), (2, 3), (3, 5)]):
        assert run.cmd("place_bets").ok
        given(run, bank_seat, "bank=100")
        given(run, bettor, "banker=10")
        assert run.cmd("no_more_bets").ok, hand
        run.cards(*BANKER_WINS)
        banks.append(settlement(run)["player_dealer"]["seat"])
        assert run.cmd("confirm").ok
    assert banks == [1, 1, 2, 2, 3]
    events = [p["event"] for p in run.journal("player_dealer")]
    assert events == ["hand_played", "rotated", "hand_played", "rotated", "hand_played"]


def test_a_holder_with_no_stake_passes_the_position_clockwise():
    run, sensor = california()
    assert sensor is not None
    assert run.cmd("place_bets").ok
    sensor.place(3, "bank", 200)  # seat 1 holds the position and places no bank; seat 2 neither
    sensor.place(2, "banker", 50)
    assert run.cmd("no_more_bets").ok
    (passed,) = run.journal("player_dealer")
    assert (passed["event"], passed["passed"], passed["seat"], passed["hands_left"]) == ("passed", 1, 3, 2)
    assert wagers_of(run)["player_dealer"]["seat"] == 3
    assert run.table.snapshot()["player_dealer"]["seat"] == 3
    run.cards(*BANKER_WINS)
    assert settlement(run)["player_dealer"]["net"] == "-50"


def test_no_stake_anywhere_deals_no_hand():
    run, sensor = california()
    assert sensor is not None
    assert run.cmd("place_bets").ok
    sensor.place(2, "banker", 50)
    reply = run.cmd("no_more_bets")
    assert not reply.ok and "no player-dealer stake" in reply.message and "fortune7 Type of Game" in reply.message
    assert run.state == m.BETTING and not run.journal("player_dealer") and not run.journal("wagers")
    assert run.table.snapshot()["player_dealer"]["seat"] == 1  # the turn stands
    sensor.place(1, "bank", 100)  # the holder accepts after all
    assert run.cmd("no_more_bets").ok and wagers_of(run)["player_dealer"]["seat"] == 1


def test_a_table_that_takes_no_money_deals_as_before():
    run, _ = california(sensor=False)
    run.open_round()
    run.cards(*PLAYER_WINS)
    assert wagers_of(run) == {"round": 1, "source": "none", "wagers": [], "refused": []}
    assert settlement(run) == {"round": 1, "void": False, "wagers": [], "house_net": "0"}
    assert run.cmd("confirm").ok


# ---------------------------------------------------------------- void, payout check, restart


def test_a_void_returns_the_wagers_the_fees_and_the_bank():
    run, _ = california(sensor=False)
    assert run.cmd("place_bets").ok
    given(run, 1, "bank=100")
    given(run, 2, "player=50")
    given(run, 2, "player=50", "one_up=5")  # a seat's wagers given again replace them
    assert run.cmd("no_more_bets").ok
    run.cards("As")
    run.key()
    assert run.cmd("void", kind="order_altered").ok
    money = settlement(run)
    assert money["void"] is True and money["house_net"] == "0"
    assert rows(money) == [(2, "player", "50", "0", "50", "0", "50", "0"), (2, "one_up", "5", "0", "5", "0", "5", "0")]
    assert money["player_dealer"] == {"seat": 1, "stake": "100", "net": "0", "fee": "0", "back": "100"}
    assert money["fees_returned"]["total"] == "4" and len(money["fees_returned"]["lines"]) == 3
    kinds = [e.kind for e in run.last if isinstance(e, Journal)]
    assert kinds.index("settlement") < kinds.index("void")


def test_the_bank_space_is_checked_at_confirm():
    run, sensor = california()
    assert sensor is not None
    assert run.cmd("place_bets").ok
    sensor.place(1, "bank", 100)
    sensor.place(2, "banker", 30)
    assert run.cmd("no_more_bets").ok
    run.cards(*PLAYER_WINS)
    money = settlement(run)
    sensor.pay_out(money)  # every wager's space as it must stand, and the bank's emptied (it has no row)
    reply = run.cmd("confirm")
    assert not reply.ok and "seat 1 bank holds 0, should hold 130" in reply.message
    (mispay,) = [r for r in run.journal("irregularity") if r["kind"] == "mispay"]
    assert (mispay["bet"], mispay["expected"], mispay["found"], mispay["direction"]) == ("bank", "130", "0", "under")
    sensor.set_to(1, "bank", Fraction(130))
    assert run.cmd("confirm").ok and run.state == m.SETTLED


def test_a_chip_added_to_the_bank_after_no_more_bets_is_a_late_wager():
    run, sensor = california()
    assert sensor is not None
    assert run.cmd("place_bets").ok
    sensor.place(1, "bank", 100)
    sensor.place(2, "banker", 30)
    assert run.cmd("no_more_bets").ok
    sensor.place(1, "bank", 25)
    late = run.irregularity()
    assert late["kind"] == "late_wager" and late["bet"] == "bank" and (late["frozen"], late["now"]) == ("100", "125")
    run.cards(*BANKER_WINS)
    assert settlement(run)["player_dealer"]["stake"] == "100"  # the stake of record stays frozen


def restored(run: Run) -> Run:
    """A fresh table of the same settings restored from `run`'s journal records."""
    journal = [(e.kind, dict(e.payload)) for e in run.effects if isinstance(e, Journal)]
    again = Run("fortune7", collection_schedule=run.table.settings.collection_schedule)
    again.last = again.table.restore(TableRecovery.from_journal(journal), money=RecoveredMoney.from_journal(journal),
                                     chips=[p for kind, p in journal if kind == "chips"])
    again.effects += again.last
    again.counter = run.counter
    return again


def test_a_restart_between_result_and_confirm_keeps_the_banks_settlement():
    run, sensor = california()
    assert sensor is not None
    assert run.cmd("place_bets").ok
    sensor.place(1, "bank", 100)
    sensor.place(2, "banker", 30)
    sensor.place(3, "player", 20)
    assert run.cmd("no_more_bets").ok
    run.cards(*PLAYER_WINS)
    owed = settlement(run)
    again = restored(run)
    assert again.state == m.RESULT and not again.journal("settlement")
    money = again.table.snapshot()["money"]
    assert money["payouts"] == owed["wagers"] and money["bank"] == owed["bank"]
    assert money["player_dealer"]["back"] == "110" and money["fees"] == wagers_of(run)["fees"]
    sensor.run = again  # the sensor's session comes up: layout and every space
    sensor.session()
    sensor.pay_out(owed)
    reply = again.cmd("confirm")
    assert not reply.ok and "seat 1 bank holds 0, should hold 110" in reply.message
    sensor.set_to(1, "bank", Fraction(110))
    assert again.cmd("confirm").ok and again.state == m.SETTLED


def test_a_result_journaled_without_its_settlement_is_settled_by_the_bank_at_the_restart():
    run, _ = california(sensor=False)
    assert run.cmd("place_bets").ok
    given(run, 4, "bank=100")  # seat 1 has none: the position passes to seat 4
    given(run, 5, "player=100")
    given(run, 6, "player=100")
    assert run.cmd("no_more_bets").ok
    run.cards(*PLAYER_WINS)
    owed = settlement(run)
    journal = [(e.kind, dict(e.payload)) for e in run.effects if isinstance(e, Journal) and e.kind != "settlement"]
    again = Run("fortune7", collection_schedule=3)
    again.last = again.table.restore(TableRecovery.from_journal(journal), money=RecoveredMoney.from_journal(journal))
    again.effects += again.last
    (money,) = again.journal("settlement")
    assert money == owed and money["bank"]["exhausted_at"] == 0


# ---------------------------------------------------------------- over random rounds

SPACES = ("player", "banker", "tie", "one_up", "fortune7")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@hypothesis_given(data=st.data())
def test_the_banks_money_is_conserved_over_random_rounds(data):
    """Bettors, the player-dealer and the house net zero; the bank stays within [0, 2S] and its
    net within ±S; every wager after the exhausting one is returned whole; the house nets the fees
    taken (0 on a void); whoever banks has a stake, and the position moves every two hands."""
    option = data.draw(st.sampled_from([1, 3, 9, 21, 24]), label="option")
    run, _ = california(option=option, sensor=False)
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    table = fees_schedule(option)
    amounts = st.integers(int(table.minimum), int(table.maximum)).map(Fraction)
    hands: dict[int, int] = {}
    for _ in range(data.draw(st.integers(1, 4), label="rounds")):
        assert run.cmd("place_bets").ok
        holder = run.table.snapshot()["player_dealer"]["seat"]
        stake = data.draw(st.integers(1, 400), label="bank")
        given(run, holder, f"bank={stake}")
        others = [seat for seat in range(1, 8) if seat != holder]
        wagers = data.draw(st.lists(st.tuples(st.sampled_from(others),
                                              st.sampled_from(SPACES), amounts),
                                    max_size=8, unique_by=lambda w: (w[0], w[1])), label="wagers")
        for seat in sorted({seat for seat, _, _ in wagers}):
            given(run, seat, *[f"{bet}={amount}" for s, bet, amount in wagers if s == seat])
        assert run.cmd("no_more_bets").ok
        fees = Fraction(wagers_of(run)["fees"]["total"])
        if data.draw(st.integers(0, 7), label="void") == 0:
            run.key()
            assert run.cmd("void", kind="order_altered").ok
            run.key(False)
        else:
            deal_to_result(run, rng)
        money = settlement(run)
        conserved(money)
        pd = money["player_dealer"]
        assert (pd["seat"], pd["stake"]) == (holder, str(stake))
        assert Fraction(money["house_net"]) == (0 if money["void"] else fees)
        assert abs(Fraction(pd["net"])) <= stake and Fraction(pd["back"]) == stake + Fraction(pd["net"])
        for row in money["wagers"]:
            assert Fraction(row["covered"]) + Fraction(row["returned"]) == Fraction(row["stake"])
            assert Fraction(row["back"]) == Fraction(row["stake"]) + Fraction(row["net"]) >= 0
        if not money["void"]:
            after = [Fraction(b) for b in money["bank"]["after"]]
            assert all(0 <= b <= 2 * stake for b in after)
            exhausted = money["bank"]["exhausted_at"]
            if exhausted is not None:
                assert after[exhausted] == 0
                assert all(r["net"] == "0" and r["returned"] == r["stake"] for r in money["wagers"][exhausted + 1:])
        if run.state == m.RESULT:
            assert run.cmd("confirm").ok
            hands[holder] = hands.get(holder, 0) + 1
        assert all(count <= 2 for count in hands.values())


def test_a_bank_that_is_not_whole_minor_units_is_refused_by_name():
    run, _ = california(sensor=False, money=MoneyRules(Fraction(5)))  # a table whose smallest chip is 5
    assert run.cmd("place_bets").ok
    given(run, 1, "bank=102")
    given(run, 2, "banker=10")
    reply = run.cmd("no_more_bets")
    assert not reply.ok and reply.message.startswith("no_more_bets: seat 1's bank: the player-dealer's stake 102")
    assert run.state == m.BETTING


def test_the_position_passes_only_when_bets_do_close():
    run, _ = california(sensor=False)
    assert run.cmd("place_bets").ok
    given(run, 3, "bank=200")  # seat 1 holds the position and has no stake
    given(run, 2, "banker=50")
    run.send(i.ShoeLinkLost("unplugged"))
    reply = run.cmd("no_more_bets")
    assert not reply.ok and "shoe" in reply.message  # refused while the shoe is not heard: nothing passes
    assert not run.journal("player_dealer") and run.table.snapshot()["player_dealer"]["seat"] == 1
    run.send(i.ShoeLinkRestored(run.counter))
    given(run, 1, "bank=100")  # the holder banks after all
    assert run.cmd("no_more_bets").ok
    assert not run.journal("player_dealer") and wagers_of(run)["player_dealer"]["seat"] == 1
    assert {(r["seat"], r["bet"]) for r in wagers_of(run)["refused"]} == {(3, "bank")}
