"""The five worked examples in the Fu Bacc rules ("Specific examples of game outcomes").

Each packet is written in shoe order (ruling 17): the player's two cards and hit card, then
the dealer's up card, hole card and hit card."""
from fubacc_cases import bets, hand, play


def test_scenario_1_stay_on_6_beats_dealer_three_card_5():
    # face + 6, stays; dealer 8, 7 (5) draws a face: 5. Ante and Play 1:1, Tie loses.
    result = play("Kd 6h 2c  8s 7h Qd", {1: "play,stay"})
    assert hand(result) == (["Kd", "6h"], 6)
    assert [str(c) for c in result.hands["dealer"].cards] == ["8s", "7h", "Qd"]
    assert result.hands["dealer"].total == 5
    assert bets(result) == {"ante": ("win", "1:1"), "play": ("win", "1:1"),
                            "lucky_monkey": ("lose", None), "tie": ("lose", None)}


def test_scenario_2_hit_to_3_loses_to_dealer_7():
    # 8, 3 takes a 2: 3. Dealer 3, 4 = 7, no draw. Ante, Play and Tie lose.
    result = play("8c 3d 2h  3s 4h 9c", {1: "play,hit"})
    assert hand(result) == (["8c", "3d", "2h"], 3)
    assert result.hands["dealer"].total == 7 and len(result.hands["dealer"].cards) == 2
    assert bets(result) == {"ante": ("lose", None), "play": ("lose", None),
                            "lucky_monkey": ("lose", None), "tie": ("lose", None)}
    assert "9c (dealer hit card)" in result.notes[1]


def test_scenario_3_tie_6_over_6_play_pushes_ante_loses_tie_pays_7():
    result = play("Qh 6s 5d  Kc 6d 2s", {1: "play,stay"})
    assert hand(result)[1] == result.hands["dealer"].total == 6
    assert bets(result) == {"ante": ("lose", None), "play": ("push", "push"),
                            "lucky_monkey": ("lose", None), "tie": ("win", "7:1")}


def test_scenario_4_fold_1_against_9_tie_on_original_two_loses():
    # face + A = 1 against a dealer 9; the player folds. Dealer 9, 8 = 7, no draw.
    result = play("Jh As 4c  9d 8h 3s", {1: "fold"})
    assert hand(result) == (["Jh", "As"], 1)
    assert result.hands["dealer"].total == 7
    assert bets(result) == {"ante": ("lose", None), "lucky_monkey": ("lose", None), "tie": ("lose", None)}


def test_scenario_5_lucky_monkey_two_faces_against_up_6_pays_10():
    result = play("Qs Kh 3c  6c 2d 5h", {1: "fold"})
    assert bets(result)["lucky_monkey"] == ("win", "10:1")
