"""The Table of Play, cell by cell, in the pure functions and through each game's deal."""
import pytest
from baccarat_helpers import GAME_LIST, card_of

from games.baccarat.table_of_play import banker_draws, is_natural, player_draws
from games.round import Complete, Deal

# fortune7's H/S chart as printed: banker score 7..0 against the player's third card 0..9.
# fafa §3.8 and fortune6 §3.9.4 state the same table in words.
CHART = """
7 S S S S S S S S S S
6 S S S S S S H H S S
5 S S S S H H H H S S
4 S S H H H H H H S S
3 H H H H H H H H S H
2 H H H H H H H H H H
1 H H H H H H H H H H
0 H H H H H H H H H H
"""
CELLS = [
    (int(row.split()[0]), third, mark == "H")
    for row in CHART.strip().splitlines()
    for third, mark in enumerate(row.split()[1:])
]


def test_chart_has_every_cell():
    assert len(CELLS) == 80 and {(b, t) for b, t, _ in CELLS} == {(b, t) for b in range(8) for t in range(10)}


@pytest.mark.parametrize("banker,third,draws", CELLS)
def test_banker_third_card_cell(banker, third, draws):
    assert banker_draws(0, banker, third) is draws


def _cards(game, player_pair, banker_pair, extra=()):
    """Initial deal in shoe order P,B,P,B with the given points, then extra points."""
    points = [player_pair[0], banker_pair[0], player_pair[1], banker_pair[1], *extra]
    return [card_of(game, p, i) for i, p in enumerate(points)]


def _deal(game, cards):
    state = game.start()
    for card in cards:
        state = game.with_card(state, card)
    return state


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.key)
@pytest.mark.parametrize("banker,third,draws", CELLS)
def test_banker_cell_through_the_deal(game, banker, third, draws):
    # the player holds 0 (draws), the banker two cards totalling `banker`
    state = _deal(game, _cards(game, (0, 0), (0, banker), extra=(third,)))
    step = game.next_step(state)
    assert step == (Deal("banker", 2, initial=False) if draws else Complete())


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.key)
@pytest.mark.parametrize("player", [6, 7])
@pytest.mark.parametrize("banker", range(8))
def test_player_stands_banker_draws_on_0_to_5(game, player, banker):
    state = _deal(game, _cards(game, (0, player), (0, banker)))
    step = game.next_step(state)
    assert step == (Deal("banker", 2, initial=False) if banker <= 5 else Complete())
    assert player_draws(player, banker) is False


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.key)
@pytest.mark.parametrize("player", range(6))
@pytest.mark.parametrize("banker", range(8))
def test_player_draws_on_0_to_5(game, player, banker):
    state = _deal(game, _cards(game, (0, player), (0, banker)))
    assert game.next_step(state) == Deal("player", 2, initial=False)


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.key)
@pytest.mark.parametrize("player,banker", [(p, b) for p in range(10) for b in range(10) if p >= 8 or b >= 8])
def test_a_natural_ends_the_round(game, player, banker):
    assert is_natural(player, banker)
    state = _deal(game, _cards(game, (0, player), (0, banker)))
    assert game.next_step(state) == Complete()
    assert not player_draws(player, banker) and not banker_draws(player, banker, None)
