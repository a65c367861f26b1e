import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cards import (
    JOKER,
    Card,
    CardError,
    DeckKind,
    card_from_code,
    deck_kind_of,
    parse_card,
)

ALL_CARDS = sorted(set(DeckKind.PAIGOW53.cards) | set(DeckKind.ELEMENT65.cards))


def test_deck_sizes():
    assert len(DeckKind.STANDARD52.cards) == 52
    assert len(DeckKind.PAIGOW53.cards) == 53
    assert len(DeckKind.ELEMENT65.cards) == 65
    for kind in DeckKind:
        assert len(set(kind.cards)) == len(kind.cards)


@pytest.mark.parametrize("token, expected", [
    ("As", Card(1, "s")), ("Td", Card(10, "d")), ("10d", Card(10, "d")), ("kc", Card(13, "c")),
    ("9h", Card(9, "h")), ("JK", JOKER), ("joker", JOKER), ("Q♥", Card(12, "h")),
    ("4-gold", Card(4, "gold")), ("S-fire", Card(11, "fire")), ("10-water", Card(10, "water")),
    ("T-wood", Card(10, "wood")), ("4-go", Card(4, "gold")), ("F-wa", Card(13, "water")),
    ("L-EARTH", Card(12, "earth")), ("A-fi", Card(1, "fire")),
])
def test_parse(token, expected):
    assert parse_card(token) == expected


@pytest.mark.parametrize("token", ["", "1s", "11h", "Ax", "Z", "4-silver", "J-fire", "10", "As5", "4-w"])
def test_parse_rejects_and_names_the_token(token):
    with pytest.raises(CardError) as info:
        parse_card(token)
    assert repr(token) in str(info.value) or token == ""


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_text_and_code_round_trip(card):
    assert parse_card(str(card)) == card
    assert card_from_code(card.code) == card


def test_codes_are_unique_and_documented_values():
    codes = [c.code for c in ALL_CARDS]
    assert len(set(codes)) == len(codes)
    assert parse_card("As").code == 0x0101
    assert parse_card("Kc").code == 0x013D
    assert JOKER.code == 0x0140
    assert parse_card("A-fire").code == 0x0201
    assert parse_card("F-water").code == 0x024D


@given(st.integers(min_value=0, max_value=0xFFFF))
def test_every_uint16_decodes_to_a_known_card_or_a_card_error(code):
    try:
        card = card_from_code(code)
    except CardError:
        return
    assert card.code == code


def test_no_read_is_an_error():
    with pytest.raises(CardError, match="no read"):
        card_from_code(0)


def test_points():
    assert [Card(r, "s").point for r in range(1, 14)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
    assert [Card(r, "gold").point for r in range(10, 14)] == [0, 0, 0, 0]


def test_deck_kind_membership():
    assert deck_kind_of(parse_card("4-gold")) is DeckKind.ELEMENT65
    assert deck_kind_of(JOKER) is DeckKind.PAIGOW53
    assert not DeckKind.STANDARD52.contains(JOKER)
    assert DeckKind.PAIGOW53.contains(parse_card("As"))
    assert not DeckKind.ELEMENT65.contains(parse_card("As"))
    assert sum(DeckKind.ELEMENT65.shoe(8).values()) == 520
