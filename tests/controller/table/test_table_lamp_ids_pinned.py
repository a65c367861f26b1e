"""Every lamp's wire id, game by game, as the lamp boards and the simulators are wired today.
Each game's table profile states its result lamps' ids (games/<game>/game.py, TABLE); this
pins the whole map so that reordering a game's betting areas, or adding one, never rewires a
lamp silently. A change here is a change to every table's wiring: say so in the release."""
import dataclasses

import pytest

from controller.table.lamps import LampClash, lamp_ids, lamps_of
from games.registry import GAME_KEYS, get_game, get_table_profile

WIRED = {
    "fafa4": {
        "bets_open": 1, "no_more_bets": 2, "void": 3, "error": 4, "last_round": 5, "supervisor": 6,
        "new_shoe": 7, "key": 8, "result": 9, "bet_player": 16, "bet_banker": 17, "bet_tie": 18,
        "bet_player_fabulous4": 19, "bet_banker_fabulous4": 20, "bet_player_precious_pair": 21,
        "bet_banker_precious_pair": 22},
    "fortune7": {
        "bets_open": 1, "no_more_bets": 2, "void": 3, "error": 4, "last_round": 5, "supervisor": 6,
        "new_shoe": 7, "key": 8, "result": 9, "bet_player": 16, "bet_banker": 17, "bet_tie": 18,
        "bet_one_up": 19, "bet_fortune7": 20, "player_dealer_1": 201, "player_dealer_2": 202,
        "player_dealer_3": 203, "player_dealer_4": 204, "player_dealer_5": 205, "player_dealer_6": 206,
        "player_dealer_7": 207},
    "fortune6": {
        "bets_open": 1, "no_more_bets": 2, "void": 3, "error": 4, "last_round": 5, "supervisor": 6,
        "new_shoe": 7, "key": 8, "result": 9, "bet_player": 16, "bet_banker": 17, "bet_tie": 18,
        "bet_player_pair": 19, "bet_banker_pair": 20, "bet_fortune6": 21},
    "fubacc": {
        "bets_open": 1, "no_more_bets": 2, "void": 3, "error": 4, "last_round": 5, "supervisor": 6,
        "new_shoe": 7, "key": 8, "result": 9, "spot1": 65, "spot2": 66, "spot3": 67, "spot4": 68,
        "spot5": 69, "spot6": 70, "spot7": 71, "spot1_ante": 80, "spot1_play": 81, "spot1_lucky_monkey":
        82, "spot1_tie": 83, "spot2_ante": 88, "spot2_play": 89, "spot2_lucky_monkey": 90, "spot2_tie":
        91, "spot3_ante": 96, "spot3_play": 97, "spot3_lucky_monkey": 98, "spot3_tie": 99, "spot4_ante":
        104, "spot4_play": 105, "spot4_lucky_monkey": 106, "spot4_tie": 107, "spot5_ante": 112,
        "spot5_play": 113, "spot5_lucky_monkey": 114, "spot5_tie": 115, "spot6_ante": 120, "spot6_play":
        121, "spot6_lucky_monkey": 122, "spot6_tie": 123, "spot7_ante": 128, "spot7_play": 129,
        "spot7_lucky_monkey": 130, "spot7_tie": 131},
    "paigow": {
        "bets_open": 1, "no_more_bets": 2, "void": 3, "error": 4, "last_round": 5, "supervisor": 6,
        "new_shoe": 7, "key": 8, "result": 9, "spot1": 65, "spot2": 66, "spot3": 67, "spot4": 68,
        "spot5": 69, "spot6": 70, "spot1_standard": 80, "spot1_fortune_bonus": 81, "spot2_standard": 88,
        "spot2_fortune_bonus": 89, "spot3_standard": 96, "spot3_fortune_bonus": 97, "spot4_standard":
        104, "spot4_fortune_bonus": 105, "spot5_standard": 112, "spot5_fortune_bonus": 113,
        "spot6_standard": 120, "spot6_fortune_bonus": 121},
}


def test_every_game_is_pinned():
    assert set(WIRED) == set(GAME_KEYS)


@pytest.mark.parametrize("game", sorted(WIRED))
def test_the_ids_are_todays(game):
    assert lamp_ids(game) == WIRED[game]


@pytest.mark.parametrize("game", sorted(WIRED))
def test_a_result_lamp_for_every_betting_area(game):
    assert set(get_table_profile(game).result_lamps) == set(get_game(game).wagers)


def test_reordering_the_areas_rewires_nothing():
    profile = get_table_profile("fafa4")
    backwards = dataclasses.replace(profile, result_lamps=dict(reversed(list(profile.result_lamps.items()))))
    assert {lamp.name: lamp.id for lamp in lamps_of(backwards)} == WIRED["fafa4"]


def test_two_lamps_on_one_id_or_beyond_uint8_are_refused():
    profile = get_table_profile("fortune6")
    with pytest.raises(LampClash, match="bet_player and bet_banker both have id 16"):
        lamps_of(dataclasses.replace(profile, result_lamps={"player": 16, "banker": 16}))
    with pytest.raises(LampClash, match="lamps result and bet_tie both have id 9"):
        lamps_of(dataclasses.replace(profile, result_lamps={"tie": 9}))
    with pytest.raises(LampClash, match="bet_tie has id 300"):
        lamps_of(dataclasses.replace(profile, result_lamps={"tie": 300}))
    spots = get_table_profile("paigow")
    with pytest.raises(LampClash, match="within 8 ids"):
        lamps_of(dataclasses.replace(spots, result_lamps={"standard": 80, "fortune_bonus": 89}))
