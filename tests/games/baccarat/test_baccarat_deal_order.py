"""Deal order P,B,P,B (initial) then the player's third card, then the banker's."""
import pytest
from baccarat_helpers import GAME_LIST, GAMES, card_of
from hypothesis import given, settings
from hypothesis import strategies as st

from games.baccarat.table_of_play import banker_draws, player_draws
from games.round import Complete, Consequence, Deal
from games.round import IrregularityKind as K

INITIAL = [Deal("player", 0), Deal("banker", 0), Deal("player", 1), Deal("banker", 1)]


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.key)
def test_six_card_round_order(game):
    # player 0+0 draws; banker 0+0 draws on anything
    cards = [card_of(game, 0, i) for i in range(6)]
    state = game.start()
    steps = []
    for card in cards:
        steps.append(game.next_step(state))
        state = game.with_card(state, card)
    assert steps == INITIAL + [Deal("player", 2, initial=False), Deal("banker", 2, initial=False)]
    assert game.next_step(state) == Complete()
    assert len(state.hand("player")) == len(state.hand("banker")) == 3
    assert game.max_cards() == 6


def test_double_draw_rule_depends_on_the_initial_deal():
    for game in GAME_LIST:
        initial, later = game.double_draw_rule(True), game.double_draw_rule(False)
        assert initial.kind is later.kind is K.DOUBLE_DRAW
        assert initial.consequence is Consequence.VOID and "§5.3" in initial.clause
        assert later.consequence is Consequence.HOLD and later.clause == "local ruling L6"


def _shoe_orders(game):
    cards = game.deck_kind.cards
    return st.lists(st.sampled_from(cards), min_size=6, max_size=6)


@pytest.mark.parametrize("key", list(GAMES))
def test_property_deal_order_and_totals(key):
    game = GAMES[key]

    @settings(max_examples=150, deadline=None)
    @given(_shoe_orders(game))
    def check(cards):
        state = game.start()
        used = 0
        while not isinstance(game.next_step(state), Complete):
            state = game.with_card(state, cards[used])
            used += 1
        assert 4 <= used <= 6
        order = [(d.hand, d.position, d.initial) for d in state.dealt_to]
        assert order[:4] == [("player", 0, True), ("banker", 0, True), ("player", 1, True), ("banker", 1, True)]
        later = order[4:]
        expected_later = []
        p2 = sum(c.point for c in state.cards[0:4:2]) % 10
        b2 = sum(c.point for c in state.cards[1:4:2]) % 10
        if player_draws(p2, b2):
            expected_later.append(("player", 2, False))
        third = state.cards[4].point if expected_later else None
        if banker_draws(p2, b2, third):
            expected_later.append(("banker", 2, False))
        assert later == expected_later
        result = game.result(state)
        totals = {name: hand.total for name, hand in result.hands.items()}
        assert all(0 <= t <= 9 for t in totals.values())
        assert totals["player"] == sum(c.point for c in state.hand("player")) % 10
        want = "tie" if totals["player"] == totals["banker"] else max(totals, key=totals.get)
        assert result.winner == want
        assert list(result.bets) == list(game.wagers)

    check()
