"""Fairly shuffled shoes through the integrity checks, one table's worth in a row, tallied against
the arithmetic each check relies on (the slow test and bench/bench_integrity.py run this).

    tally = run_fair_shoes("standard52x8", shoes=100_000, seed=1)

For every shoe: the alarms raised at the false-alarm rate; the most extreme value of each
check's statistic, as the probability its alarm would state, counted at looser levels; for the
replay check, whether the first k cards matched a past opening, against the exact chance P_k the
index gave before the shoe (their sums must agree); for the slug check, the longest run shared
with the previous shoe, against the bound for runs of each length.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from fractions import Fraction

from games.cards import DeckKind
from games.integrity import ShoeWatch
from games.integrity.slug import match_bound

# name -> (deck kind, decks, cards dealt from each): the baccarat games' 8-deck shoes dealt to
# the end, and the deck-per-round games' decks as one spot uses them (fubacc 6 cards, paigow 14)
CONFIGS: dict[str, tuple[DeckKind, int, int | None]] = {
    "standard52x8": (DeckKind.STANDARD52, 8, None),
    "element65x8": (DeckKind.ELEMENT65, 8, None),
    "fubacc52": (DeckKind.STANDARD52, 1, 6),
    "paigow53": (DeckKind.PAIGOW53, 1, 14),
}
LEVELS = (Fraction(1, 10), Fraction(1, 100), Fraction(1, 1000))
REPLAY_DEPTHS = (2, 3, 4)
SLUG_LENGTHS = (2, 3, 4, 5)


@dataclass
class Tally:
    config: str
    shoes: int = 0
    cards: int = 0
    alarms: list[dict[str, object]] = field(default_factory=list)
    unshuffled_at: dict[Fraction, int] = field(default_factory=dict)  # level -> shoes whose bound <= level
    replay_matched: dict[int, int] = field(default_factory=dict)  # k -> shoes whose first k cards matched
    replay_expected: dict[int, Fraction] = field(default_factory=dict)  # k -> sum of the exact P_k
    slug_longest: dict[int, int] = field(default_factory=dict)  # L -> shoes with a run of >= L
    slug_bound: dict[int, Fraction] = field(default_factory=dict)  # L -> the bound on P(run >= L)
    slug_shoes: int = 0  # shoes with a previous shoe (all but the first)
    cpu_s: float = 0.0

    def summary(self) -> str:
        lines = [f"{self.config}: {self.shoes} shoes, {self.cards} cards, {len(self.alarms)} alarms, "
                 f"{self.cpu_s / max(1, self.cards) * 1e6:.2f} us CPU a card (shuffle included)"]
        for level, n in self.unshuffled_at.items():
            lines.append(f"  unshuffled bound <= {float(level):g}: {n / self.shoes:.2e} of shoes")
        for k, n in self.replay_matched.items():
            lines.append(f"  replayed first {k} cards: {n} shoes, exact expectation {float(self.replay_expected[k]):.1f}")
        for length, n in self.slug_longest.items():
            lines.append(f"  slug run >= {length}: {n / max(1, self.slug_shoes):.3e} of shoes, "
                         f"bound {float(self.slug_bound[length]):.3e}")
        return "\n".join(lines)


def run_fair_shoes(config: str, shoes: int, seed: int) -> Tally:
    kind, decks, deal = CONFIGS[config]
    rng = random.Random(seed)
    watch = ShoeWatch(kind, decks)
    deck = list(kind.cards) * decks
    dealt = len(deck) if deal is None else deal
    tally = Tally(config, unshuffled_at=dict.fromkeys(LEVELS, 0), replay_matched=dict.fromkeys(REPLAY_DEPTHS, 0),
                  replay_expected=dict.fromkeys(REPLAY_DEPTHS, Fraction(0)), slug_longest=dict.fromkeys(SLUG_LENGTHS, 0))
    tally.slug_bound = {length: match_bound(length, dealt, dealt, watch.composition) for length in SLUG_LENGTHS}
    index = watch.history.index(kind, decks)
    start = time.process_time()
    for number in range(1, shoes + 1):
        watch.finish()  # the shoe before joins the index first: P_k is of the index this shoe meets
        for k in REPLAY_DEPTHS:
            tally.replay_expected[k] += index.probability(k) if len(index) else 0
        watch.new_shoe(f"shoe {number}", cards_to_deal=deal)
        rng.shuffle(deck)
        feed = watch.feed
        for card in deck[:dealt]:
            for alarm in feed(card):
                tally.alarms.append(alarm.to_json())
        _count(tally, watch)
    tally.cpu_s = time.process_time() - start
    tally.shoes, tally.cards = shoes, shoes * dealt
    return tally


def _count(tally: Tally, watch: ShoeWatch) -> None:
    factory, replay, slug = watch.factory, watch.replay, watch.slug
    assert factory is not None and replay is not None
    best = factory.state.best
    if best is not None:
        bound = factory.bound(best)
        for level in LEVELS:
            tally.unshuffled_at[level] += bound <= level
    shared = replay.shared()
    for k in REPLAY_DEPTHS:
        tally.replay_matched[k] += shared >= k
    if slug is not None:
        tally.slug_shoes += 1
        for length in SLUG_LENGTHS:
            tally.slug_longest[length] += slug.longest >= length
