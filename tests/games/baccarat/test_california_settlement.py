"""Fortune 7's player-dealer: settlement order, coverage, caps, exhaustion, refused wagers
(RULINGS.md 26), each case worked by hand."""
from fractions import Fraction

import pytest
from baccarat_helpers import GAMES
from hypothesis import given, settings
from hypothesis import strategies as st

from games.baccarat.california.settlement import settle, settlement_order
from games.baccarat.california.stakes import Stake, WagerError
from games.cards import parse_cards
from games.money import MoneyRules
from games.replay import run_round
from games.round import Result

GAME = GAMES["fortune7"]


def _bets(cards):
    return run_round(GAME, parse_cards(cards.split()))[1].bets


BANKER_WINS = _bets("2s 3h Kd 3c 9s")  # banker 6 beats player 1
THREE_CARD_7 = _bets("Ts As Js 2h 5s 4d")  # banker three-card 7 beats 5: banker pushes
ONE_UP = _bets("As Th Ks Qh Td Kd")  # player 1 beats banker 0
TIE = _bets("7s 7h Ks Kh")


def test_order_is_space_by_space_then_clockwise_from_the_player_dealers_left():
    stakes = [Stake(2, "banker", 10), Stake(6, "player", 10), Stake(1, "player", 10), Stake(3, "tie", 5),
              Stake(6, "fortune7", 5), Stake(6, "player", 10, bettor="backline A"), Stake(4, "one_up", 5),
              Stake(4, "player", 10), Stake(2, "player", 10)]
    order = [(s.space, s.seat, s.bettor) for s in settlement_order(stakes, player_dealer=5)]
    assert order == [
        ("player", 6, "seat"), ("player", 6, "backline A"), ("player", 1, "seat"), ("player", 2, "seat"),
        ("player", 4, "seat"), ("banker", 2, "seat"), ("tie", 3, "seat"), ("one_up", 4, "seat"),
        ("fortune7", 6, "seat")]


def test_back_line_bettors_follow_the_seated_player_in_the_order_they_placed():
    stakes = [Stake(3, "player", 10, bettor="zoe"), Stake(3, "player", 10, bettor="al"), Stake(3, "player", 10),
              Stake(2, "player", 10, bettor="bo")]
    order = [(s.seat, s.bettor) for s in settlement_order(stakes, player_dealer=1)]
    assert order == [(2, "bo"), (3, "seat"), (3, "zoe"), (3, "al")]


def test_the_player_dealers_seat_cannot_wager():
    with pytest.raises(WagerError, match="seat 5 player \\$10: seat 5 holds the player-dealer position"):
        settle(100, 5, [Stake(5, "player", 10)], BANKER_WINS)


def test_bonus_bets_need_a_line_wager_by_the_same_bettor():
    with pytest.raises(WagerError, match=r"seat 3 \(backline B\) one_up \$5: needs a Player or Banker line"):
        settle(100, 1, [Stake(3, "player", 10), Stake(3, "one_up", 5, bettor="backline B")], ONE_UP)
    # a Tie alone is fine (ruling 8)
    assert settle(100, 1, [Stake(3, "tie", 5)], TIE).entries[0].paid == 40


@pytest.mark.parametrize("stake,message", [(Stake(8, "player", 10), "seats are numbered 1-7"),
                                           (Stake(2, "dragon", 10), "unknown betting space 'dragon'"),
                                           (Stake(2, "player", 0), "more than \\$0"),
                                           (Stake(2, "player", Fraction(1, 2)), "not a whole number"),
                                           (Stake(2, "player", 5, bettor="a*b"), "back-line bettor 'a\\*b'")])
def test_bad_stakes_are_named(stake, message):
    with pytest.raises(WagerError, match=message):
        settle(100, 1, [stake], BANKER_WINS)


def test_a_space_wagered_twice_by_one_bettor_is_refused():
    with pytest.raises(WagerError, match=r"seat 2 player \$5: wagered twice"):
        settle(100, 1, [Stake(2, "player", 5), Stake(2, "player", 5)], BANKER_WINS)


@pytest.mark.parametrize("bank,message", [(0, "more than 0"), (-5, "more than 0"),
                                          (Fraction(5, 2), "not a whole number of the table's minor unit 1")])
def test_bad_bank_is_named(bank, message):
    with pytest.raises(ValueError, match=message):
        settle(bank, 1, [Stake(2, "player", 5)], BANKER_WINS)


def test_everything_covered():
    s = settle(1000, 7, [Stake(1, "player", 50), Stake(2, "banker", 100), Stake(3, "tie", 10)], BANKER_WINS)
    assert [(e.collected, e.paid, e.returned, e.back) for e in s.entries] == [
        (50, 0, 0, 0), (0, 100, 0, 200), (10, 0, 0, 0)]
    assert all(e.in_full and e.covered == e.stake.amount for e in s.entries)
    assert s.bank_after == 960 and s.bank_net == -40 and s.exhausted_at is None


def test_winners_paid_while_the_bank_lasts_then_returned():
    # bank 100; player line 30 collected first (130); banker winners 60, 60, 60 in seat order
    stakes = [Stake(3, "banker", 60), Stake(4, "banker", 60), Stake(5, "banker", 60), Stake(6, "player", 30)]
    s = settle(100, 2, stakes, BANKER_WINS)
    rows = [(e.stake.seat, e.stake.space, e.collected, e.paid, e.returned, e.back) for e in s.entries]
    assert rows == [(6, "player", 30, 0, 0, 0), (3, "banker", 0, 60, 0, 120), (4, "banker", 0, 60, 0, 120),
                    (5, "banker", 0, 10, 0, 70)]  # the last winner covered is paid partly, its stake back
    assert s.bank_after == 0 and s.bank_net == -100  # it loses no more than its stake
    assert [e.in_full for e in s.entries] == [True, True, True, False]
    assert s.exhausted_at == 3


def test_once_exhausted_every_later_wager_is_returned_untouched():
    # bank 100, player-dealer seat 1: banker winners at seats 2 and 3 take it all (50 + 50);
    # then seat 4's banker winner, seat 2's losing Tie and seat 3's losing Fortune 7 come back as placed
    stakes = [Stake(2, "banker", 50), Stake(3, "banker", 50), Stake(4, "banker", 25), Stake(2, "tie", 20),
              Stake(3, "fortune7", 5)]
    s = settle(100, 1, stakes, BANKER_WINS)
    rows = [(e.stake.seat, e.stake.space, e.collected, e.paid, e.returned, e.back) for e in s.entries]
    assert rows == [(2, "banker", 0, 50, 0, 100), (3, "banker", 0, 50, 0, 100), (4, "banker", 0, 0, 25, 25),
                    (2, "tie", 0, 0, 20, 20), (3, "fortune7", 0, 0, 5, 5)]
    assert s.exhausted_at == 1 and s.bank_after == 0 and s.bank_net == -100
    assert [e.covered for e in s.entries] == [50, 50, 0, 0, 0]


def test_exhausted_by_a_partly_paid_winner_then_a_loser_is_returned():
    # bank 30; seat 5's player line loses 10 (bank 40); seat 6's banker wins 50 but is paid the 40
    # left; seat 7's losing Tie is not collected
    stakes = [Stake(7, "tie", 10), Stake(6, "banker", 50), Stake(5, "player", 10)]
    s = settle(30, 4, stakes, BANKER_WINS)
    rows = [(e.stake.seat, e.collected, e.paid, e.returned) for e in s.entries]
    assert rows == [(5, 10, 0, 0), (6, 0, 40, 0), (7, 0, 0, 10)]
    assert s.bank_net == -30


def test_collections_stop_when_the_player_dealer_has_won_its_stake():
    stakes = [Stake(1, "player", 80), Stake(3, "player", 50, bettor="backline"), Stake(3, "player", 10)]
    s = settle(100, 7, stakes, BANKER_WINS)
    rows = [(e.stake.seat, e.stake.bettor, e.collected, e.returned, e.covered) for e in s.entries]
    assert rows == [(1, "seat", 80, 0, 80), (3, "seat", 10, 0, 10), (3, "backline", 10, 40, 10)]
    assert s.bank_net == 100  # it wins no more than its stake


def test_at_the_2s_cap_a_winner_reopens_room_for_later_losers():
    # bank 100 (cap 200): seat 2's losing player 150 is collected to 100 of it (bank 200), seat 3's
    # banker winner 40 is paid (160), seat 2's losing Tie 50 is collected 40 of it (200)
    stakes = [Stake(2, "player", 150), Stake(3, "banker", 40), Stake(2, "tie", 50)]
    s = settle(100, 1, stakes, BANKER_WINS)
    assert [(e.collected, e.paid, e.returned) for e in s.entries] == [(100, 0, 50), (0, 40, 0), (40, 0, 10)]
    assert s.bank_after == 200 and s.bank_net == 100


def test_a_bank_exactly_covering_a_winner_returns_a_later_loser():
    """The bank reaches zero paying the Banker line in full: the Tie after it, a loser, is
    returned untouched, not collected (ruling 26), though the bank had room for it."""
    s = settle(Fraction(1, 4), 1, [Stake(2, "banker", Fraction(1, 4)), Stake(2, "tie", Fraction(1, 4))],
               BANKER_WINS, MoneyRules(Fraction(1, 4)))
    assert [(e.stake.space, e.paid, e.collected, e.returned, e.net) for e in s.entries] == [
        ("banker", Fraction(1, 4), 0, 0, Fraction(1, 4)), ("tie", 0, 0, Fraction(1, 4), 0)]
    assert s.exhausted_at == 0 and s.bank_after == 0 and s.bank_net == Fraction(-1, 4)


def test_pushes_are_returned():
    s = settle(1000, 1, [Stake(2, "banker", 20), Stake(2, "fortune7", 5)], THREE_CARD_7)
    assert [(e.collected, e.paid, e.returned, e.back) for e in s.entries] == [(0, 0, 0, 20), (0, 200, 0, 205)]
    s = settle(100, 1, [Stake(2, "banker", 20), Stake(3, "player", 20)], TIE)
    assert all(e.net == 0 and e.back == 20 and e.covered == 20 for e in s.entries)


def test_exact_fractions_in_the_tables_minor_unit():
    half = MoneyRules(Fraction(1, 2))
    s = settle(Fraction(5, 2), 1, [Stake(2, "one_up", Fraction(1, 2)), Stake(2, "player", 1)], ONE_UP, half)
    assert [e.paid for e in s.entries] == [1, Fraction(3, 2)]  # 1:1 on $1, then the last $1.50 of 30:1


ROUNDS = [BANKER_WINS, THREE_CARD_7, ONE_UP, TIE, _bets("3s 2h 4s 4h")]
QUARTERS = MoneyRules(Fraction(1, 4))
money = st.integers(1, 2000).map(lambda quarters: Fraction(quarters, 4))


@st.composite
def tables(draw):
    player_dealer = draw(st.integers(1, 7))
    stakes = []
    for seat in draw(st.sets(st.integers(1, 7).filter(lambda s: s != player_dealer), max_size=6)):
        for bettor in ("seat",) + (("backline",) if draw(st.booleans()) else ()):
            line = draw(st.sampled_from(["player", "banker"]))
            stakes.append(Stake(seat, line, draw(money), bettor))
            for space in draw(st.sets(st.sampled_from(["tie", "one_up", "fortune7"]))):
                stakes.append(Stake(seat, space, draw(money), bettor))
    return player_dealer, stakes


@settings(max_examples=150, deadline=None)
@given(tables(), money, st.sampled_from(ROUNDS))
def test_property_coverage_and_conservation(table, bank, bets):
    player_dealer, stakes = table
    s = settle(bank, player_dealer, stakes, bets, QUARTERS)
    assert sorted(map(id, (e.stake for e in s.entries))) == sorted(map(id, stakes))
    # the player-dealer never wins or loses more than its stake
    assert 0 <= s.bank_after <= 2 * bank and -bank <= s.bank_net <= bank
    # money is conserved: what players win the player-dealer loses
    assert sum((e.net for e in s.entries), Fraction(0)) + s.bank_net == 0
    for e in s.entries:
        # every stake is either collected, played and handed back, or returned uncovered
        assert e.back == e.stake.amount - e.collected + e.paid and 0 <= e.returned <= e.stake.amount
        if e.bet.result is not Result.LOSE:
            assert e.collected == 0
        if e.bet.result is not Result.WIN:
            assert e.paid == 0
        assert 0 <= e.paid <= max(e.owed, 0) and 0 <= e.collected <= e.stake.amount
        assert e.net >= e.owed if e.owed < 0 else e.net <= e.owed
    owed_to_players = sum((max(e.owed, 0) for e in s.entries), Fraction(0))
    # a bank that more than covers the winners never reaches zero, so it plays every wager in full
    # (one that exactly covers them may reach zero before a later loser, which is then returned)
    if owed_to_players < bank and sum((-min(e.owed, 0) for e in s.entries), Fraction(0)) <= bank:
        assert all(e.in_full for e in s.entries)
    # once the bank is exhausted, everything after is returned untouched (ruling 26)
    if s.exhausted_at is not None:
        assert s.bank_after == 0
        assert all(e.net == 0 and e.returned == e.stake.amount for e in s.entries[s.exhausted_at + 1:])
    else:
        assert all(e.bet.result is not Result.WIN or e.in_full for e in s.entries)
