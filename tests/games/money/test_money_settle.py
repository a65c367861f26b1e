"""games/money/settle.py: each game's wagers settled in money from the decided round."""
from fractions import Fraction

import pytest

from games.cards import parse_card
from games.money import BadWager, MoneyRules, Rounding, Stake, check_stakes, returned, settle
from games.registry import GAME_KEYS, get_game
from games.replay import run_round

RULES = MoneyRules()
FAFA_PLAYER_WINS_ON_4 = "L-water 7-fire 2-earth 6-gold 2-earth F-gold"  # player 4 beats banker 3
FORTUNE6_BANKER_SIX = "2s 3h Kd 3c 9s"  # banker wins with a two-card 6, banker pair
PAIGOW_PLAYER_WINS = "As Ah Kd Qd 8s 7c 5h Kc Qh 9s 6h 4c 3d 2s"  # spot 1 wins both hands
SF7, ROYAL_MATCH, NOTHING = "9h Th Jh Qh Kh 8h 7h", "Ad Kd Qd Jd Td Ks Qs", "2c 3c 4d 5d 8s 9c Js"


def _round(key, cards, spots=(), decisions=None):
    game = get_game(key)
    _, result = run_round(game, [parse_card(c) for c in cards.split()], spots=spots, decisions=decisions)
    return game, result


def _rows(money):
    return [(w.seat, w.bet, w.stake, w.net, w.back, w.commission) for w in money.wagers]


def test_what_money_needs_names_wagers_the_game_has():
    for key in GAME_KEYS:
        wagers = get_game(key).wagers
        for wager in wagers.values():
            assert wager.needs is None or set(wager.needs.any_of) <= set(wagers)
            assert wager.stake_of is None or wager.stake_of.wager in wagers


def test_pai_gow_standard_is_one_to_one_less_five_percent():
    pays = get_game("paigow").wagers["standard"].line("win").pays
    assert pays.ratio + pays.commission == 1 and pays.commission == Fraction(1, 20)
    assert get_game("paigow").wagers["fortune_bonus"].line("straight").pays.commission == 0


def test_baccarat_wins_losses_and_a_half_pay_rounded_down():
    game, result = _round("fafa4", FAFA_PLAYER_WINS_ON_4)
    stakes = [Stake(2, "player_fabulous4", Fraction(5)), Stake(1, "player", Fraction(25)),
              Stake(1, "banker", Fraction(10)), Stake(2, "player", Fraction(10))]
    money = settle(game, result, stakes, RULES)
    assert _rows(money) == [
        (1, "player", 25, 12, 37, 0),  # 1:2 on 25 is 12.5: paid 12 (local ruling L9)
        (1, "banker", 10, -10, 0, 0),
        (2, "player", 10, 5, 15, 0),
        (2, "player_fabulous4", 5, 250, 255, 0),
    ]
    assert money.house_net == -257
    assert money.space(1, "player").back == money.should_hold(1, "player") == 37
    assert money.should_hold(1, "banker") == 0 and money.should_hold(5, "tie") == 0  # lost; never wagered
    half_up = settle(game, result, stakes, MoneyRules(rounding=Rounding.HALF_UP))
    assert half_up.space(1, "player").net == 13


def test_a_push_returns_the_stake():
    game, result = _round("fortune6", "9s 9h 9c 9d")  # a natural tie
    money = settle(game, result, [Stake(3, "banker", Fraction(20)), Stake(3, "tie", Fraction(5))], RULES)
    assert _rows(money) == [(3, "banker", 20, 0, 20, 0), (3, "tie", 5, 40, 45, 0)]


def test_fortune7_bonuses_need_a_line_wager_and_the_tie_stands_alone():
    game, result = _round("fortune7", FORTUNE6_BANKER_SIX)
    with pytest.raises(BadWager, match=r"one_up needs a player or banker wager at seat 2 \(.*ruling 8\)"):
        settle(game, result, [Stake(2, "one_up", Fraction(5)), Stake(1, "banker", Fraction(5))], RULES)
    money = settle(game, result, [Stake(2, "one_up", Fraction(5)), Stake(2, "player", Fraction(5)),
                                  Stake(4, "tie", Fraction(5))], RULES)
    assert [w.bet for w in money.wagers] == ["player", "one_up", "tie"]


def test_paigow_standard_pays_less_five_percent_commission():
    game, result = _round("paigow", PAIGOW_PLAYER_WINS, spots=(1,))
    money = settle(game, result, [Stake(1, "standard", Fraction(25))], RULES)
    assert _rows(money) == [(1, "standard", 25, 23, 48, 2)]  # 23.75 paid 23; the commission 1.25 rounds up
    quarters = settle(game, result, [Stake(1, "standard", Fraction(25))], MoneyRules(Fraction(1, 4)))
    assert _rows(quarters) == [(1, "standard", 25, Fraction(95, 4), Fraction(195, 4), Fraction(5, 4))]
    even = settle(game, result, [Stake(1, "standard", Fraction(100))], RULES)
    assert _rows(even) == [(1, "standard", 100, 95, 195, 5)]


def test_paigow_fortune_bonus_needs_the_standard_and_every_dealt_spot_holds_one():
    game, result = _round("paigow", PAIGOW_PLAYER_WINS, spots=(1,))
    with pytest.raises(BadWager, match=r"fortune_bonus needs a standard wager at seat 1 \(paigow §3.5\)"):
        settle(game, result, [Stake(1, "fortune_bonus", Fraction(5))], RULES)
    game, result = _round("paigow", f"{SF7} {NOTHING} 2d 3h 4h 5s 6s 8d 9d", spots=(1, 2))
    with pytest.raises(BadWager, match=r"seat 2 has no standard wager.*paigow §3.4, §3.6"):
        settle(game, result, [Stake(1, "standard", Fraction(5))], RULES)


def test_paigow_envy_is_fixed_money_to_a_fortune_bonus_holder():
    game, result = _round("paigow", f"{SF7} {ROYAL_MATCH} {NOTHING} 2d 3h 4h 5s 6s 8d 9d", spots=(1, 2, 3),
                          decisions={2: ["Ad+Kd"]})
    stakes = [Stake(s, "standard", Fraction(10)) for s in (1, 2, 3)] + [
        Stake(1, "fortune_bonus", Fraction(10)), Stake(3, "fortune_bonus", Fraction(5))]
    money = settle(game, result, stakes, RULES)
    rows = {(w.seat, w.bet): (w.stake, w.net, w.back) for w in money.wagers}
    assert rows[1, "fortune_bonus"] == (10, 25_000, 25_010)  # 2,500:1
    assert rows[3, "fortune_bonus"] == (5, -5, 0)
    assert rows[3, "envy"] == (0, 300, 300)  # $250 + $50 whatever its own bonus did (paigow §3.18)
    assert (1, "envy") not in rows  # its own seven-card straight flush (§3.18.1.2)
    assert (2, "envy") not in rows  # spot 2 has no Fortune Bonus wager, though its Envy would be 250
    assert money.house_net == -sum(w.net for w in money.wagers)


def test_fubacc_play_is_twice_the_ante_when_the_spot_plays():
    game, result = _round("fubacc", "6h Kd 2c 8s 7h Qd", spots=(1,), decisions={1: ["play", "stay"]})
    money = settle(game, result, [Stake(1, "ante", Fraction(5)), Stake(1, "tie", Fraction(5))], RULES)
    assert _rows(money) == [(1, "ante", 5, 5, 10, 0), (1, "play", 10, 10, 20, 0), (1, "tie", 5, -5, 0, 0)]
    same = settle(game, result, [Stake(1, "ante", Fraction(5)), Stake(1, "play", Fraction(10))], RULES)
    assert same.space(1, "play").back == 20
    with pytest.raises(BadWager, match=r"the play wager is 2x the ante, 10 \(fubacc way 1, procedure 8\)"):
        settle(game, result, [Stake(1, "ante", Fraction(5)), Stake(1, "play", Fraction(5))], RULES)
    with pytest.raises(BadWager, match=r"seat 1 has no ante wager.*fubacc way 1"):
        settle(game, result, [Stake(1, "tie", Fraction(5))], RULES)


def test_fubacc_a_fold_loses_the_ante_and_has_no_play():
    game, result = _round("fubacc", "6h Kd 2c 8s 7h Qd", spots=(1,), decisions={1: ["fold"]})
    money = settle(game, result, [Stake(1, "ante", Fraction(5))], RULES)
    assert _rows(money) == [(1, "ante", 5, -5, 0, 0)]
    with pytest.raises(BadWager, match="no play in action"):
        settle(game, result, [Stake(1, "ante", Fraction(5)), Stake(1, "play", Fraction(10))], RULES)


def test_fubacc_a_natural_8_bonus_pays_three_to_two_rounded():
    game, result = _round("fubacc", "8h Kd 2c 8s 7h Qd", spots=(1,), decisions={1: ["bonus"]})
    assert _rows(settle(game, result, [Stake(1, "ante", Fraction(5))], RULES)) == [(1, "ante", 5, 7, 12, 0)]


def test_fubacc_side_wagers_alone_on_a_spot_without_an_ante():
    game, result = _round("fubacc", "Kh Kd 2c 9s 7h Qd", spots=(1,), decisions={1: ["no_ante"]})
    money = settle(game, result, [Stake(1, "lucky_monkey", Fraction(5))], RULES)
    assert _rows(money) == [(1, "lucky_monkey", 5, 150, 155, 0)]  # monkey monkey vs 9: 30:1
    with pytest.raises(BadWager, match="no ante in action"):
        settle(game, result, [Stake(1, "ante", Fraction(5))], RULES)


@pytest.mark.parametrize("key, spots, stake, message", [
    ("fortune6", (), Stake(1, "bankr", Fraction(5)), "fortune6 has no bet 'bankr'"),
    ("fortune6", (), Stake(8, "banker", Fraction(5)), r"unknown seat: fortune6 has seats 1-7 \(local ruling L9\)"),
    ("fubacc", (1, 3), Stake(2, "ante", Fraction(5)), r"unknown seat: spot 2 is not live \(spots 1,3\)"),
    ("fortune6", (), Stake(1, "banker", Fraction(5, 2)), "not a whole number of the table's minor unit 1"),
    ("fortune6", (), Stake(1, "banker", Fraction(0)), "is not a wager"),
])
def test_check_stakes_names_the_bad_wager(key, spots, stake, message):
    with pytest.raises(BadWager, match=message):
        check_stakes(get_game(key), [stake], spots, RULES)


def test_a_space_wagered_twice_is_refused():
    with pytest.raises(BadWager, match="seat 1 banker is wagered twice"):
        check_stakes(get_game("fafa4"), [Stake(1, "banker", Fraction(5))] * 2, (), RULES)


def test_a_void_returns_every_stake():
    money = returned(get_game("fortune7"), [Stake(1, "banker", Fraction(5)), Stake(1, "fortune7", Fraction(1))],
                     (), RULES)
    assert _rows(money) == [(1, "banker", 5, 0, 5, 0), (1, "fortune7", 1, 0, 1, 0)]
    assert money.house_net == 0


def test_rows_come_in_the_dealers_settlement_order():
    """Fu Bacc settles from the dealer's right, the highest seat first (procedure 10)."""
    game, result = _round("fubacc", "6h Kd 2c 5s 3h 4d 8s 7h Qd", spots=(1, 2),
                          decisions={1: ["play", "stay"], 2: ["fold"]})
    assert list(result.spots) == [2, 1]
    money = settle(game, result, [Stake(1, "tie", Fraction(1)), Stake(1, "ante", Fraction(5)),
                                  Stake(2, "ante", Fraction(5))], RULES)
    assert [(w.seat, w.bet) for w in money.wagers] == [(2, "ante"), (1, "ante"), (1, "play"), (1, "tie")]
