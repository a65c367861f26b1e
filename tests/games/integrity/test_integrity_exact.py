"""The arithmetic of the three checks against every order of small made-up decks: the replay
probabilities are exact, the slug's expected matches are exact and its bound holds, and the
factory-order CUSUM fires no more often than its Ville bound allows."""
from fractions import Fraction

import pytest
from integrity_helpers import tiny_index

from games.integrity.deck_index import falling, sequence_ways
from games.integrity.factory_order import FactoryOrderCheck
from games.integrity.openings import OpeningIndex, ReplayCheck
from games.integrity.slug import SlugCheck, alarm_length, expected_matches, match_bound


def arrangements(composition):
    """Every distinct order of the multiset, in sorted order (each is equally likely under a
    fair shuffle: each stands for the same number of orders of the physical cards)."""
    left, order, out = list(composition), [], []

    def walk():
        if not any(left):
            out.append(tuple(order))
        for x, copies in enumerate(left):
            if copies:
                left[x] -= 1
                order.append(x)
                walk()
                order.pop()
                left[x] += 1

    walk()
    return out


def test_sequence_ways_counts_ordered_draws_of_physical_cards():
    composition = [2, 2, 1]
    shoes = arrangements(composition)
    for sequence in [(0,), (0, 0), (0, 1, 0), (2, 2), (1, 0, 2, 1)]:
        share = Fraction(sum(1 for s in shoes if s[:len(sequence)] == sequence), len(shoes))
        assert Fraction(sequence_ways(sequence, composition), falling(sum(composition), len(sequence))) == share


@pytest.mark.parametrize("composition", [[1] * 6, [2, 2, 2, 1]])
def test_replay_probability_is_exact_for_every_depth(composition):
    shoes = arrangements(composition)
    index = OpeningIndex(composition, depth=5)
    past = [shoes[3], shoes[4], shoes[len(shoes) // 2], shoes[-1], shoes[3][:2] + (None,), shoes[4]]
    for n, cards in enumerate(past):
        index.add(f"shoe {n}", cards)
    openings = [tuple(x for x in p[:5]) for p in past]
    for k in range(1, 6):
        stored = {o[:k] for o in openings if len(o) >= k and None not in o[:k]}
        share = Fraction(sum(1 for s in shoes if s[:k] in stored), len(shoes))
        assert index.probability(k) == share, k
    for prefix in (shoes[3][:2], shoes[4][:5], shoes[-1][:3]):
        expected = {f"shoe {n}" for n, o in enumerate(openings) if o[:len(prefix)] == prefix}
        assert sorted(index.matching(bytes(prefix))) == sorted(expected) and expected


def test_a_fair_shoe_is_called_replayed_with_exactly_the_stated_probability():
    composition = [2, 2, 1, 1]
    shoes = arrangements(composition)
    index = OpeningIndex(composition)
    for n, cards in enumerate(shoes[::60]):
        index.add(f"shoe {n}", cards)
    for level in (Fraction(1, 4), Fraction(1, 20), Fraction(1, 60), Fraction(1, 61)):
        fired = 0
        for shoe in shoes:
            check = ReplayCheck(index, level)
            fired += any(check.feed(x) for x in shoe)
        depth = index.alarm_depth(level)
        if level == Fraction(1, 61):  # 3 past shoes of 180 orders: no depth is rare enough
            assert depth is None and fired == 0
        else:
            assert depth is not None and Fraction(fired, len(shoes)) == index.probability(depth) <= level


@pytest.mark.parametrize("composition", [[1] * 7, [2, 2, 1, 1]])
def test_slug_expected_matches_are_exact_and_bounded(composition):
    shoes = arrangements(composition)
    previous = shoes[len(shoes) // 3]
    n = len(previous)
    for length in range(1, 5):
        counted = 0
        for shoe in shoes:
            counted += sum(1 for i in range(n - length + 1) for j in range(n - length + 1)
                           if shoe[i:i + length] == previous[j:j + length])
        exact = expected_matches(length, n, previous, composition)
        assert exact == Fraction(counted, len(shoes))
        assert match_bound(length, n, n, composition) >= min(1, exact)  # a probability bound: capped at 1


def test_a_fair_shoe_fires_the_slug_check_no_more_often_than_its_level():
    composition = [1] * 7
    shoes = arrangements(composition)
    previous = shoes[1234]
    for level in (Fraction(1, 2), Fraction(1, 10), Fraction(1, 100)):
        length = alarm_length(len(previous), composition, len(previous), level)
        fired = 0
        for shoe in shoes:
            check = SlugCheck(previous, composition, len(shoe), level, width=len(composition))
            assert check.length == length
            fired += any(check.feed(x, i) for i, x in enumerate(shoe))
        assert Fraction(fired, len(shoes)) <= match_bound(length, 7, 7, composition) <= level


@pytest.mark.parametrize("composition", [[1] * 8, [2, 2, 1, 1, 1, 1]])
def test_the_factory_order_cusum_keeps_its_false_alarm_bound(composition):
    index = tiny_index("sh", len(composition) // 2)
    shoes = arrangements(composition)
    steps = len(shoes[0]) - 1
    rates = []
    for level in (Fraction(1, 2), Fraction(1, 5), Fraction(1, 20), Fraction(1, 100)):
        fired = 0
        for shoe in shoes:
            check = FactoryOrderCheck(index, composition, steps, level)
            fired += any(check.feed(x, i) is not None for i, x in enumerate(shoe))
        rates.append(Fraction(fired, len(shoes)))
        assert rates[-1] <= level
    assert rates[0] > 0  # the check is not vacuous on these decks


def test_an_ascending_suit_drives_the_cusum_up_and_a_break_costs_a_tenth():
    index = tiny_index("shdc", 13)
    composition = [8] * len(index)
    check = FactoryOrderCheck(index, composition, 415, Fraction(1, 10**12))
    assert check.feed(0, 0) is None  # As: no step yet
    check.feed(1, 1)  # 2s follows As (an ace has one neighbour, 2s: 8 of 415 left): W = (9/10) / (8/415)
    assert check.state.cusum is not None
    num, den = check.state.cusum
    assert Fraction(num, den) == Fraction(9, 10) / Fraction(8, 415)
    check.feed(2, 2)  # 3s: only 4s now qualifies (ascending), 8 of 414 left
    assert Fraction(*check.state.cusum) == Fraction(9, 10) / Fraction(8, 415) * Fraction(9, 10) / Fraction(8, 414)
    before = Fraction(*check.state.cusum)
    check.feed(20, 3)  # 8h: no follow; qualifying 4s: 8 of 413
    assert Fraction(*check.state.cusum) == before * Fraction(1, 10) / (1 - Fraction(8, 413))
    assert check.state.longest == 2 and check.state.follows == 0
