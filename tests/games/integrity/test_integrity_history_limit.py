"""The replay index forgets a shoe exactly (as if it had never been added), so the table's
history can keep only its most recent shoes: a capped history equals one built from those
shoes alone, whatever the openings share, and the previous shoe stays for the slug check."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import DeckKind
from games.integrity import ShoeHistory
from games.integrity.openings import OpeningIndex

COMPOSITION = (2, 2, 2, 2)  # four cards, two copies each: openings share prefixes often
openings = st.lists(st.lists(st.sampled_from([0, 1, 2, 3, None]), min_size=0, max_size=6), min_size=1, max_size=12)


def built(cards: list[list[int | None]], labels: list[str]) -> OpeningIndex:
    index = OpeningIndex(COMPOSITION, depth=5)
    for label, shoe in zip(labels, cards):
        index.add(label, shoe)
    return index


def same(a: OpeningIndex, b: OpeningIndex) -> bool:
    return (a._openings == b._openings and a._ways == b._ways and len(a) == len(b)
            and {k: sorted(v) for k, v in a._labels.items()} == {k: sorted(v) for k, v in b._labels.items()})


@settings(max_examples=300, deadline=None)
@given(shoes=openings, data=st.data())
def test_removing_a_shoe_is_exactly_never_having_added_it(shoes, data):
    labels = [f"shoe {n}" for n in range(len(shoes))]
    index = OpeningIndex(COMPOSITION, depth=5)
    keys = [index.add(label, shoe) for label, shoe in zip(labels, shoes)]
    gone = data.draw(st.sets(st.sampled_from(range(len(shoes)))), label="removed")
    for n in sorted(gone):
        if keys[n]:
            index.remove(labels[n], keys[n])
    left = [n for n in range(len(shoes)) if n not in gone]
    assert same(index, built([shoes[n] for n in left], [labels[n] for n in left]))


def test_an_unknown_shoe_cannot_be_removed():
    index = OpeningIndex(COMPOSITION, depth=5)
    key = index.add("shoe 1", [0, 1, 2])
    with pytest.raises(KeyError):
        index.remove("shoe 2", key)
    with pytest.raises(KeyError):
        index.remove("shoe 1", b"\x03")


@settings(max_examples=100, deadline=None)
@given(shoes=openings, limit=st.integers(0, 5))
def test_a_capped_history_keeps_the_most_recent_shoes_and_the_previous_one(shoes, limit):
    history = ShoeHistory(depth=5, limit=limit)
    cards = [[None if x is None else DeckKind.STANDARD52.cards[x] for x in shoe] for shoe in shoes]
    for n, shoe in enumerate(cards):
        history.add(f"shoe {n}", DeckKind.STANDARD52, 8, shoe)
    read = [n for n, shoe in enumerate(shoes) if shoe and shoe[0] is not None]  # an opening to keep
    recent = read[max(0, len(read) - limit):] if limit else []
    alone = ShoeHistory(depth=5)
    for n in recent:
        alone.add(f"shoe {n}", DeckKind.STANDARD52, 8, cards[n])
    assert history.shoes == len(recent)
    assert same(history.index(DeckKind.STANDARD52, 8), alone.index(DeckKind.STANDARD52, 8))
    with_cards = [n for n, shoe in enumerate(shoes) if shoe]
    assert (history.previous.label if history.previous else None) == (f"shoe {with_cards[-1]}" if with_cards else None)


def test_the_limit_counts_shoes_of_every_composition():
    history = ShoeHistory(limit=2)
    six = DeckKind.STANDARD52.cards[:6]
    history.add("shoe 1", DeckKind.STANDARD52, 8, six)
    history.add("shoe 1 deck 1", DeckKind.STANDARD52, 1, six)
    history.add("shoe 2", DeckKind.STANDARD52, 8, six[::-1])
    assert history.shoes == 2 and len(history.index(DeckKind.STANDARD52, 8)) == 1
    assert len(history.index(DeckKind.STANDARD52, 1)) == 1
    with pytest.raises(ValueError):
        ShoeHistory(limit=-1)
