"""What the card path keeps instead of computing again, never stale: each card decoded is
the one instance of that card, named and coded as the notation says; a baccarat game's step
kept for the last state asked is that state's own, whichever rounds ask in turn; a bet result's
JSON is the caller's own copy; the lamp view does not change with the round's dicts."""
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.table.table import Table
from games.baccarat.coup import BANKER, PLAYER
from games.cards import (
    ELEMENT_CODE_BASE,
    ELEMENTS,
    JOKER_CODE,
    STANDARD_CODE_BASE,
    STANDARD_SUITS,
    Card,
    DeckKind,
    card_from_code,
    parse_card,
)
from games.fortune6 import game as fortune6
from games.round import LOSE, Complete, Deal, Result
from games.round import BetResult as Bet

EVERY_CARD = sorted(set(DeckKind.PAIGOW53.cards) | set(DeckKind.ELEMENT65.cards))


def spelled_code(card: Card) -> int:
    """The wire code as games/cards.py's docstring spells it out."""
    if card.is_joker:
        return JOKER_CODE
    if card.is_element:
        return ELEMENT_CODE_BASE | ELEMENTS.index(card.suit) << 4 | card.rank
    return STANDARD_CODE_BASE | STANDARD_SUITS.index(card.suit) << 4 | card.rank


@pytest.mark.parametrize("card", EVERY_CARD, ids=str)
def test_a_decoded_card_is_the_one_instance_equal_to_a_new_one(card):
    fresh = Card(card.rank, card.suit)
    decoded = card_from_code(spelled_code(card))
    assert decoded is card_from_code(spelled_code(card))  # decoded again: the same instance
    assert decoded == fresh and hash(decoded) == hash(fresh)
    assert fresh.code == decoded.code == spelled_code(card)
    assert parse_card(str(fresh)) == fresh and str(fresh) == str(decoded)


def test_a_float_or_bool_is_no_code_even_where_its_value_is_one():
    for code in (257.0, True):
        with pytest.raises(ValueError):
            card_from_code(code)  # type: ignore[arg-type]


def _deals(game, cards):
    """Every state of a round dealt `cards` in turn, until the game completes it."""
    state, states = game.start(8), []
    for card in cards:
        states.append(state)
        if isinstance(game.next_step(state), Complete):
            break
        state = game.with_card(state, card)
    else:
        states.append(state)
    return states


_cards = st.lists(st.sampled_from(DeckKind.STANDARD52.cards), min_size=6, max_size=6)


@given(first=_cards, second=_cards, order=st.randoms(use_true_random=False))
def test_the_step_kept_is_the_asked_states_own(first, second, order):
    game = fortune6.GAME
    states = _deals(game, first) + _deals(game, second)
    expected = [game._step_after(s) for s in states]  # computed afresh, nothing kept
    asks = list(range(len(states))) * 2
    order.shuffle(asks)
    for n in asks:
        assert game.next_step(states[n]) == expected[n]
        twin = replace(states[n])  # equal, another object
        assert game.next_step(twin) == expected[n]


def test_the_step_after_the_initial_deal_follows_the_table_of_play():
    game = fortune6.GAME
    c = {t: parse_card(t) for t in ("2s", "3h", "Ks", "Qh", "9d")}
    state = game.start(8)
    for token in ("2s", "3h", "Ks", "Qh"):  # player 2, banker 3: the player draws
        state = game.with_card(state, c[token])
    assert game.next_step(state) == Deal(PLAYER, 2, initial=False)
    state = game.with_card(state, c["9d"])  # player's third a 9; banker 3 draws on anything but 8
    assert game.next_step(state) == Deal(BANKER, 2, initial=False)


def test_a_bet_results_json_is_the_callers_copy():
    win = fortune6.GAME._wins["player", "player wins"]
    for bet in (win, LOSE):
        shown = bet.to_json()
        shown["result"] = "changed"
        assert bet.to_json() == {"result": bet.result.value, "pays": bet.pays}
    assert Bet(Result.PUSH).result_text == "push"


def test_the_lamp_view_does_not_change_with_the_rounds_dicts():
    table = Table("fortune6")
    board = table.round.lamps
    args = ("result", (), None)
    bets = {"player": "win"}
    assert board.picture(*args, bets, {}, noted=False)["bet_player"] == "on"
    bets["player"] = "lose"  # changed in place: the view kept must not have changed with it
    assert board.picture(*args, bets, {}, noted=False)["bet_player"] == "off"
