"""A Fortune 7 round's money with a player-dealer: fees taken before the deal (RULINGS.md 25),
the bank's settlement (ruling 26), a void returning wagers and fees, and money conserved."""
from fractions import Fraction

import pytest
from baccarat_helpers import GAMES
from hypothesis import given, settings
from hypothesis import strategies as st

from games.baccarat.california.fees import schedule
from games.baccarat.california.round_money import PlayerDealerTable
from games.baccarat.california.stakes import Stake, WagerError
from games.cards import parse_cards
from games.money import MoneyRules
from games.replay import run_round

GAME = GAMES["fortune7"]


def _bets(cards):
    return run_round(GAME, parse_cards(cards.split()))[1].bets


BANKER_WINS = _bets("2s 3h Kd 3c 9s")  # banker 6 beats player 1
ONE_UP = _bets("As Th Ks Qh Td Kd")  # player 1 beats banker 0
TIE = _bets("7s 7h Ks Kh")


def test_a_round_worked_by_hand_under_option_3():
    # option 3: $5-$100, $1.00 per bettor per space, $2.00 per hand from the player-dealer.
    # Player-dealer seat 4 banks 100. Order: player line (seat 6, seat 2), banker line (seat 1, its
    # back-line ann), tie (seat 6).
    stakes = [Stake(1, "banker", 60), Stake(1, "banker", 40, bettor="ann"), Stake(2, "player", 50),
              Stake(6, "player", 20), Stake(6, "tie", 10)]
    table = PlayerDealerTable(4, Fraction(100), 3)
    fees = table.take_fees(stakes)
    assert fees.total == 7 and fees.player_dealer == 2
    money = table.settle(stakes, BANKER_WINS)
    rows = [(w.stake.seat, w.stake.bettor, w.stake.space, w.net, w.back, w.covered, w.returned, w.fee)
            for w in money.wagers]
    # bank 100 -> 120 (seat 6) -> 170 (seat 2) -> 110 (seat 1 paid 60) -> 70 (ann paid 40) -> 80 (tie)
    assert rows == [(6, "seat", "player", -20, 0, 20, 0, 1), (2, "seat", "player", -50, 0, 50, 0, 1),
                    (1, "seat", "banker", 60, 120, 60, 0, 1), (1, "ann", "banker", 40, 80, 40, 0, 1),
                    (6, "seat", "tie", -10, 0, 10, 0, 1)]
    assert money.bank_net == -20 and money.player_dealer_fee == 2 and money.house_net == 7
    assert money.players_net + (money.bank_net - money.player_dealer_fee) + money.house_net == 0
    assert money.to_json()["player_dealer"] == {"seat": 4, "stake": "100", "net": "-20", "fee": "2"}


def test_options_21_to_26_charge_the_player_dealer_alone():
    stakes = [Stake(1, "player", 100), Stake(2, "banker", 100), Stake(3, "banker", 100, bettor="bo")]
    money = PlayerDealerTable(5, Fraction(1000), 24).settle(stakes, BANKER_WINS)
    assert [w.fee for w in money.wagers] == [0, 0, 0]
    assert money.player_dealer_fee == 2 and money.house_net == 2  # $300 of action: the first bracket


def test_a_void_returns_every_wager_and_every_fee():
    stakes = [Stake(2, "banker", 20), Stake(2, "player", 10, bettor="cy"), Stake(7, "tie", 5)]
    table = PlayerDealerTable(1, Fraction(50), 2)
    assert table.take_fees(stakes).total == 2 + 3 * Fraction(1, 2)
    money = table.void(stakes)
    assert [(w.stake.seat, w.stake.space, w.net, w.back, w.covered, w.returned, w.fee) for w in money.wagers] == [
        (2, "player", 0, 10, 0, 10, 0), (2, "banker", 0, 20, 0, 20, 0), (7, "tie", 0, 5, 0, 5, 0)]
    assert money.void and money.house_net == 0 and money.player_dealer_fee == 0 and money.bank_net == 0
    assert money.fees.total == Fraction(7, 2)  # what was taken, so the daemon can journal it given back


@pytest.mark.parametrize("stakes,message", [
    ([Stake(2, "player", 4)], r"seat 2 player \$4: below the \$5 minimum of option 3"),
    ([Stake(2, "player", 60), Stake(2, "player", 50, bettor="ann")], r"would total \$110, over the \$100 limit"),
    ([Stake(4, "player", 10)], "seat 4 holds the player-dealer position"),
    ([Stake(2, "one_up", 10, bettor="ann"), Stake(2, "player", 10)], "needs a Player or Banker line"),
])
def test_refused_before_the_deal(stakes, message):
    with pytest.raises(WagerError, match=message):
        PlayerDealerTable(4, Fraction(100), 3).take_fees(stakes)


@pytest.mark.parametrize("seat,stake,option,message", [
    (4, Fraction(100), 0, "option 0: options are 1-26"), (4, Fraction(100), 27, "option 27"),
    (8, Fraction(100), 3, "seats are numbered 1-7"), (4, Fraction(0), 3, "more than 0"),
    (4, Fraction(1, 2), 3, "not a whole number of the table's minor unit"),
])
def test_a_bad_table_is_named(seat, stake, option, message):
    with pytest.raises(ValueError, match=message):
        PlayerDealerTable(seat, stake, option)


ROUNDS = [BANKER_WINS, ONE_UP, TIE, _bets("Ts As Js 2h 5s 4d"), _bets("3s 2h 4s 4h")]


@st.composite
def tables(draw):
    option = draw(st.integers(1, 26))
    seat = draw(st.integers(1, 7))
    limits = schedule(option)
    top = min(limits.maximum, limits.minimum + 40)
    amount = st.integers(int(limits.minimum), int(top)).map(Fraction)
    stakes = []
    for other in draw(st.sets(st.integers(1, 7).filter(lambda s: s != seat), max_size=6)):
        for bettor in ("seat",) + (("back",) if draw(st.booleans()) else ()):
            if limits.maximum < 2 * top and bettor != "seat":
                continue  # seated and back-line together stay within the limit per spot
            stakes.append(Stake(other, draw(st.sampled_from(["player", "banker"])), draw(amount), bettor))
            for space in draw(st.sets(st.sampled_from(["tie", "one_up", "fortune7"]))):
                stakes.append(Stake(other, space, draw(amount), bettor))
    return PlayerDealerTable(seat, Fraction(draw(st.integers(1, 3000))), option), stakes


@settings(max_examples=200, deadline=None)
@given(tables(), st.sampled_from(ROUNDS), st.booleans())
def test_property_players_plus_player_dealer_plus_house_is_zero(table_and_stakes, bets, void):
    table, stakes = table_and_stakes
    money = table.void(stakes) if void else table.settle(stakes, bets)
    player_dealer = money.bank_net - money.player_dealer_fee
    assert money.players_net + player_dealer + money.house_net == 0
    assert money.house_net == (0 if void else money.fees.total)  # the house has the fees alone
    assert -table.stake <= money.bank_net <= table.stake
    assert all(w.covered + w.returned == w.stake.amount for w in money.wagers)
    assert sorted(map(id, (w.stake for w in money.wagers))) == sorted(map(id, stakes))


def test_stakes_in_the_tables_minor_unit():
    # at a minor unit of 0.50, 30:1 One Up on 2.50 pays 75 exactly; the bank of 80.50 runs short by 5
    money = PlayerDealerTable(1, Fraction(161, 2), 21, MoneyRules(Fraction(1, 2))).settle(
        [Stake(2, "player", 10), Stake(2, "one_up", Fraction(5, 2))], ONE_UP)
    assert [w.net for w in money.wagers] == [10, Fraction(141, 2)] and money.bank_net == Fraction(-161, 2)
    with pytest.raises(WagerError, match="not a whole number"):
        PlayerDealerTable(1, Fraction(100), 21).settle([Stake(2, "player", Fraction(5, 2))], ONE_UP)
