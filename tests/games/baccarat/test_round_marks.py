"""What the scoreboard notes of a round: pairs by rank, naturals, and each game's own counted
events read off its own settlement."""
import pytest

from games.baccarat.roads import Outcome
from games.baccarat.round_marks import game_event_names, is_pair, round_marks
from games.cards import parse_cards
from games.registry import get_game


def marks(game, winner, player, banker):
    return round_marks(get_game(game), winner, parse_cards(player.split()), parse_cards(banker.split()))


@pytest.mark.parametrize("cards, pair", [
    ("Td Th", True), ("Td Kd", False),  # same rank, not same point (ruling 11)
    ("10-fire 10-gold", True), ("10-fire S-fire", False),  # ruling 2
    ("4s 9h 4h", False),  # only the first two cards count
    ("As", False),
])
def test_pairs_are_by_rank_on_the_first_two_cards(cards, pair):
    assert is_pair(parse_cards(cards.split())) is pair


def test_outcome_pairs_and_natural():
    got = marks("fortune6", "banker", "3s 3c", "9c Td")
    assert got.outcome == Outcome("B", banker_pair=False, player_pair=True)
    assert got.natural and got.events == ()
    assert not marks("fortune6", "player", "As 4h Ks", "Qc 5d 2s").natural


def test_fortune_six_counts_a_banker_win_with_six_on_two_or_three_cards():
    assert marks("fortune6", "banker", "As 4h Ks", "2c As 3s").events == ("fortune_six",)  # 5 v three-card 6
    assert marks("fortune6", "banker", "Ks 5h Kc", "3c 3d").events == ("fortune_six",)  # 5 v 6
    assert marks("fortune6", "tie", "3c 3d", "Ks 6h").events == ()  # a 6 that ties is not a win
    assert marks("fortune6", "banker", "Ks 5h Kc", "3c 4d").events == ()  # 7


def test_three_card_sevens_in_fortune7():
    assert marks("fortune7", "banker", "As 4h Ks", "2c As 4d").events == ("three_card_7",)
    assert marks("fortune7", "banker", "As 4h Ks", "3c 4d").events == ()  # a two-card 7


def test_element_eights_and_fabulous_fours_in_fafa4():
    eights = marks("fafa4", "tie", "4-fire 4-gold", "4-wood 4-water")
    assert eights.events == ("element_eights",) and eights.natural
    assert marks("fafa4", "tie", "5-fire 3-gold", "4-wood 4-water").events == ()  # 8 v 8, not two 4s each
    assert marks("fafa4", "player", "A-fire 3-fire 10-fire", "10-gold S-gold 3-wood").events == ("fabulous4",)
    assert marks("fafa4", "banker", "10-gold S-gold 3-wood", "A-fire 3-fire 10-fire").events == ("fabulous4",)


def test_each_game_names_its_own_counts():
    assert game_event_names("fortune6") == ["fortune_six"]
    assert game_event_names("fortune7") == ["three_card_7"]
    assert game_event_names("fafa4") == ["element_eights", "fabulous4"]
    assert game_event_names("fubacc") == []
