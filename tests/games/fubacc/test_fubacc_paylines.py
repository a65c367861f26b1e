"""Every pay line of the four wagers, each from a concrete round (cards in shoe order)."""
from fractions import Fraction

import pytest
from fubacc_cases import bets, hand, play

from games.fubacc.game import GAME
from games.round import Result


def test_pay_tables_are_the_rules():
    table = {key: {line.outcome: line.pays_text for line in w.lines} for key, w in GAME.wagers.items()}
    assert table == {
        "ante": {"win": "1:1", "natural 9": "2:1", "natural 8": "3:2", "monkey rescue": "1:1"},
        "play": {"win": "1:1", "tie": "push"},
        "lucky_monkey": {"monkey monkey vs 9": "30:1", "monkey monkey vs 8": "20:1", "monkey monkey vs 7": "15:1",
                         "monkey monkey vs 6": "10:1", "monkey monkey vs 0-5": "5:1"},
        "tie": {"tie": "7:1"},
    }


# ---------------------------------------------------------------- ante and play


def test_ante_and_play_win_after_a_hit():
    result = play("3c 2d 4h  7s Kh 2c", {1: "play,hit"})  # 9 against 7
    assert hand(result) == (["3c", "2d", "4h"], 9)
    assert bets(result)["ante"] == ("win", "1:1") and bets(result)["play"] == ("win", "1:1")


def test_ante_and_play_lose_after_a_stay():
    assert {k: v for k, v in bets(play("4c 2d 3h  7s Kh 2c", {1: "play,stay"})).items() if k in ("ante", "play")} \
        == {"ante": ("lose", None), "play": ("lose", None)}


def test_fold_loses_the_ante_and_has_no_play():
    result = play("4c 2d 3h  7s Kh 2c", {1: "fold"})
    assert bets(result)["ante"] == ("lose", None) and "play" not in bets(result)
    assert result.spots[1]["hit_card_used"] is False


def test_play_money_per_unit_ante_on_win_tie_lose():
    """Play is 2x the Ante: win +3, tie -1 (Ante lost, Play pushed: ruling 15), lose -3."""
    def money(text, decide):
        b = play(text, {1: decide}).spots[1]["bets"]
        return b["ante"].net(1) + b["play"].net(2)
    assert money("Kd 6h 2c  8s 7h Qd", "play,stay") == 3
    assert money("Qh 6s 5d  Kc 6d 2s", "play,stay") == -1
    assert money("8c 3d 2h  3s 4h 9c", "play,hit") == -3


@pytest.mark.parametrize("packet, line, net", [
    ("9h Kd 2c  8s 7h Qd", "natural 9", Fraction(2)),
    ("4c 5d 2c  8s 7h Qd", "natural 9", Fraction(2)),
    ("5c 3h 2c  8s 7h Qd", "natural 8", Fraction(3, 2)),
    ("Ks Tc 2c  9h 7h Qd", "monkey rescue", Fraction(1)),
])
def test_ante_bonus_lines_end_the_hand(packet, line, net):
    result = play(packet, {1: "bonus"})
    ante = result.spots[1]["bets"]["ante"]
    assert (ante.result, ante.line.outcome, ante.net(1)) == (Result.WIN, line, net)
    assert "play" not in result.spots[1]["bets"]
    assert result.spots[1]["decision"] == "bonus" and not result.spots[1]["hit_card_used"]


def test_a_natural_played_out_gets_no_bonus_only_even_money():
    # natural 9 played: wins 1:1 on Ante and Play, not 2:1 (procedure 13)
    assert bets(play("9h Kd 2c  8s 7h Qd", {1: "play,stay"}))["ante"] == ("win", "1:1")


# ---------------------------------------------------------------- lucky monkey


@pytest.mark.parametrize("up, pays", [
    ("9c", "30:1"), ("8c", "20:1"), ("7c", "15:1"), ("6c", "10:1"),
    ("5c", "5:1"), ("4c", "5:1"), ("3c", "5:1"), ("2c", "5:1"), ("Ac", "5:1"), ("Tc", "5:1"), ("Kc", "5:1"),
])
def test_lucky_monkey_pays_by_the_up_card(up, pays):
    # the dealer's hole card (Qd) and hit card never change the Lucky Monkey (ruling 13)
    assert bets(play(f"Js Th 2d  {up} Qd 3h", {1: "play,stay"}))["lucky_monkey"] == ("win", pays)


@pytest.mark.parametrize("two", ["Ts Th", "Js Qh", "Ks Kh", "Ts Kd"])
def test_every_ten_and_picture_is_a_monkey(two):  # ruling 12
    assert bets(play(f"{two} 2d  6c Qd 3h", {1: "fold"}))["lucky_monkey"] == ("win", "10:1")


@pytest.mark.parametrize("two", ["Ts 9h", "As Kh", "5s 5h"])
def test_lucky_monkey_loses_without_two_monkeys(two):
    assert bets(play(f"{two} 2d  9c Qd 3h", {1: "fold"}))["lucky_monkey"] == ("lose", None)


def test_lucky_monkey_ignores_the_hit_card_and_the_dealer_total():
    # two monkeys hit to 5; dealer 9+Q = 9 beats it: Lucky Monkey still pays 30:1 on the up 9
    result = play("Js Th 5d  9c Qd 3h", {1: "play,hit"})
    assert bets(result)["lucky_monkey"] == ("win", "30:1") and bets(result)["ante"] == ("lose", None)


# ---------------------------------------------------------------- tie


def test_tie_pays_on_a_three_card_tie():
    result = play("3c 2d 4h  4s 5h 2c", {1: "play,hit"})  # 9 against 9
    assert bets(result)["tie"] == ("win", "7:1") and bets(result)["play"] == ("push", "push")


def test_tie_on_the_original_two_after_a_fold():
    # 3+2 = 5 folds; the hit card (4) would have made 9. Dealer 2+3 = 5 draws Ts: 5. Tie wins.
    result = play("3c 2d 4h  2s 3h Ts", {1: "fold"})
    assert hand(result) == (["3c", "2d"], 5)
    assert bets(result)["tie"] == ("win", "7:1")
    assert bets(play("3c 2d 4h  2s 3h Ts", {1: "play,hit"}))["tie"] == ("lose", None)


def test_tie_on_the_original_two_after_a_bonus():
    result = play("5c 3h 9d  8s Kh 2c", {1: "bonus"})  # natural 8 against a dealer 8
    assert bets(result)["ante"] == ("win", "3:2") and bets(result)["tie"] == ("win", "7:1")


def test_tie_only_spot_plays_its_original_two_cards():
    result = play("3c 2d 4h  2s 3h Ts", {1: "no_ante"})
    assert bets(result) == {"lucky_monkey": ("lose", None), "tie": ("win", "7:1")}
    assert hand(result) == (["3c", "2d"], 5) and result.spots[1]["decision"] == "no_ante"


def test_lucky_monkey_only_spot_is_settled_without_ante():
    result = play("Qs Kh 3c  9c 2d 5h", {1: "no_ante"})
    assert bets(result) == {"lucky_monkey": ("win", "30:1"), "tie": ("lose", None)}


# ---------------------------------------------------------------- the dealer


@pytest.mark.parametrize("hole, draws", [(r, r in ("Ts", "As", "2s", "3s", "4s", "5s"))
                                         for r in ("Ts", "As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s")])
def test_dealer_draws_on_0_to_5_and_stands_on_6_to_9(hole, draws):  # ruling 16
    result = play(f"Kd 6h 2c  Qc {hole} 4d", {1: "play,stay"})
    dealer = result.hands["dealer"]
    assert len(dealer.cards) == (3 if draws else 2)
    assert ("4d (dealer hit card)" in result.notes[1]) is not draws
