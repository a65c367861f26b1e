"""Exact counts of every Coup off the top of a full shoe, by point classes.

Count convention: every round is counted as the ordered 6-card prefixes of the shoe that
produce it. A round that uses k cards (4, 5 or 6) is counted once for each ordered choice
of the k cards it uses times (N-k)(N-k-1)...(N-5) ways to fill the unused positions, so all
counts add up to N(N-1)...(N-5) and a count divided by that total is the probability.

How: the four initial cards are summed over unordered pairs per hand (their multiplicity
counts the orders), aggregated by the two-card totals (P, B) into the moments
  S0 = sum w,  S1[v] = sum w*m_v,  S2[v][u] = sum w*m_v*m_u
where w is the number of ordered 4-card choices and m_v how many of them have point v.
A third card v then has c_v - m_v copies left, so every draw sums out of the moments:
10 x 10 totals x 10 x 10 third cards, independent of the shoe size.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from games.baccarat.coup import Coup
from games.baccarat.table_of_play import banker_draws, is_natural, player_draws
from games.cards import Card, DeckKind

POINTS = range(10)
ROUND_PREFIX = 6  # the most cards a round uses: every count is of 6-card prefixes


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): ordered choices of k of n distinct cards."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def point_counts(kind: DeckKind, decks: int) -> tuple[int, ...]:
    """How many cards of each point value 0..9 a full shoe holds."""
    counts = [0] * 10
    for card in kind.cards:
        counts[card.point] += decks
    return tuple(counts)


def composition_points(composition: Mapping[Card, int]) -> tuple[int, ...]:
    """How many cards of each point value 0..9 a shoe holding `composition` (card -> copies) has."""
    counts = [0] * 10
    for card, copies in composition.items():
        counts[card.point] += copies
    return tuple(counts)


def total_prefixes(counts: tuple[int, ...]) -> int:
    return falling(sum(counts), ROUND_PREFIX)


_HAND_PAIRS = tuple((a, b, 1 if a == b else 2) for a in POINTS for b in range(a, 10))


@dataclass(slots=True)
class _Moments:
    """S0, S1[v] and S2[v][u] of the initial four cards that give one (P, B)."""
    s0: int = 0
    s1: list[int] = field(default_factory=lambda: [0] * 10)
    s2: list[list[int]] = field(default_factory=lambda: [[0] * 10 for _ in POINTS])


@dataclass(frozen=True, slots=True)
class _Initial:
    """The initial four cards (a, b to the Player, x, y to the Banker) of one (P, B) that use the
    same points: how many orders of them there are, and which points they use how often."""
    first: int  # its first (a, b, x, y) in the order of _HAND_PAIRS x _HAND_PAIRS: the order of (P, B)
    orders: int
    counted: tuple[tuple[int, int], ...]  # (point, times) of the four cards
    used: tuple[tuple[int, int], ...]  # (point, times); empty where S1 is not read (_draws)
    squares: tuple[tuple[int, int, int], ...]  # (v, u, times v x times u), for S2; empty where it is not read


def _initial_table() -> dict[tuple[int, int], list[_Initial]]:
    """(P, B) -> its initial four cards grouped by the points they use (the same for every shoe)."""
    grouped: dict[tuple[int, int], dict[tuple[tuple[int, int], ...], list[int]]] = {}
    index = 0
    for a, b, orders_p in _HAND_PAIRS:
        for x, y, orders_b in _HAND_PAIRS:
            used = tuple(sorted(Counter((a, b, x, y)).items()))
            by_used = grouped.setdefault(((a + b) % 10, (x + y) % 10), {})
            first_and_orders = by_used.setdefault(used, [index, 0])
            first_and_orders[1] += orders_p * orders_b
            index += 1
    return {key: [_Initial(first, orders, used, used if _draws(*key) else (),
                           tuple((v, u, k * j) for v, k in used for u, j in used) if _draws(*key) > 1 else ())
                  for used, (first, orders) in by_used.items()] for key, by_used in grouped.items()}


def _draws(p: int, b: int) -> int:
    """Which moments `coup_counts` reads for initial totals (P, B): S0 only when neither hand
    draws (0), S1 too when only the Banker may (1), S2 too when the Player draws (2)."""
    if is_natural(p, b) or not (player_draws(p, b) or banker_draws(p, b, None)):
        return 0
    return 2 if player_draws(p, b) else 1


_INITIAL = _initial_table()


def _initial_moments(c: tuple[int, ...]) -> tuple[dict[tuple[int, int], _Moments], int]:
    """(P, B) -> its moments over the initial four cards (those coup_counts reads: _draws); also
    the four-4s weight. Keys in the order of their first initial four cards the shoe can deal."""
    falls = [[falling(n, k) for k in range(5)] for n in c]  # ordered choices of k cards of each point
    found: list[tuple[int, tuple[int, int], _Moments]] = []
    for key, initials in _INITIAL.items():
        s0, s1, s2 = 0, [0] * 10, [[0] * 10 for _ in POINTS]
        first = None
        for initial in initials:
            w = initial.orders
            for v, k in initial.counted:
                w *= falls[v][k]
            if not w:
                continue
            if first is None or initial.first < first:
                first = initial.first
            s0 += w
            for v, k in initial.used:
                s1[v] += w * k
            for v, u, kj in initial.squares:
                s2[v][u] += w * kj
        if first is not None:
            found.append((first, key, _Moments(s0, s1, s2)))
    found.sort(key=lambda item: item[0])
    return {key: moments for _, key, moments in found}, falling(c[4], 4)


@lru_cache(maxsize=32)
def coup_counts(counts: tuple[int, ...]) -> dict[Coup, int]:
    """Coup -> number of ordered 6-card prefixes of a shoe with `counts` cards of each point
    value 0..9 that deal it. Sums to total_prefixes(counts)."""
    if len(counts) != 10 or min(counts) < 0:
        raise ValueError(f"counts must be ten non-negative numbers, got {counts!r}")
    n = sum(counts)
    if n < ROUND_PREFIX:
        raise ValueError(f"a shoe of {n} cards cannot deal a round of {ROUND_PREFIX}")
    out: Counter[tuple[int, int, int, int]] = Counter()  # Coup's fields: tuples hash and compare in C
    moments, four_fours = _initial_moments(counts)
    rest2, rest1 = falling(n - 4, 2), n - 5  # ways to fill unused positions 5-6, or 6
    for (p, b), m in moments.items():
        s0, s1, s2 = m.s0, m.s1, m.s2
        if is_natural(p, b) or not (player_draws(p, b) or banker_draws(p, b, None)):
            out[p, b, 2, 2] += s0 * rest2
        elif not player_draws(p, b):  # the player stands, the banker draws
            for w in POINTS:
                out[p, (b + w) % 10, 2, 3] += (counts[w] * s0 - s1[w]) * rest1
        else:
            for v in POINTS:
                pf = (p + v) % 10
                if not banker_draws(p, b, v):
                    out[pf, b, 3, 2] += (counts[v] * s0 - s1[v]) * rest1
                    continue
                cv = counts[v]
                for w in POINTS:
                    cw = counts[w] - (v == w)  # the player's third card may share the point
                    out[pf, (b + w) % 10, 3, 3] += cv * cw * s0 - cv * s1[w] - cw * s1[v] + s2[v][w]
    if four_fours:  # both hands 4+4: a natural 8-8 tie, told apart for ruling 4
        out[8, 8, 2, 2] -= four_fours * rest2
    counted = {Coup(p, b, pc, bc): count for (p, b, pc, bc), count in out.items() if count}
    if four_fours:
        counted[Coup(8, 8, 2, 2, fours=True)] = four_fours * rest2
    return counted


# Per initial totals (P, B): which moments a draw reads (_draws), and per Player third card
# whether the Banker draws: the Table of Play asked once, not per shoe.
_DRAWS = [[_draws(p, b) for b in POINTS] for p in POINTS]
_BANKER_DRAWS = [[[banker_draws(p, b, v) for v in POINTS] for b in POINTS] for p in POINTS]
_OTHER_HANDS = tuple(tuple((x, y) for x in POINTS for y in POINTS if (x + y) % 10 == total) for total in POINTS)


def coup_counts_given_hand(counts: tuple[int, ...], player: bool, first: int, second: int) -> dict[Coup, int]:
    """Coup -> number of ordered ways to deal the round's other cards (the other hand's two and
    the third cards, filled to four positions) once one hand's initial two cards, of points
    `first` and `second`, are out of a shoe of `counts` (the counts before they are taken out).
    Sums to (N-2)(N-3)(N-4)(N-5): the same moments as `coup_counts`, over the other hand only."""
    table = coup_table_given_hand(counts, player, first, second)
    return {COUP_TABLE[index]: count for index, count in enumerate(table) if count}


def coup_table_given_hand(counts: tuple[int, ...], player: bool, first: int, second: int) -> list[int]:
    """`coup_counts_given_hand` as a list: the count of the Coup COUP_TABLE[i] at i (no Coup
    built or hashed: a pair wager's covariance sums twenty of these a composition)."""
    left = list(counts)
    left[first] -= 1
    left[second] -= 1
    if len(counts) != 10 or min(left) < 0:
        raise ValueError(f"a shoe with {counts!r} cards of each point cannot deal {first} and {second}")
    n = sum(left)
    if n < ROUND_PREFIX - 2:
        raise ValueError(f"a shoe of {n + 2} cards cannot deal a round of {ROUND_PREFIX}")
    fixed = (first + second) % 10
    out = [0] * 400  # index ((P x 10 + B) x 2 + player's cards - 2) x 2 + banker's cards - 2
    rest2, rest1 = falling(n - 2, 2), n - 3  # ways to fill unused positions 5-6, or 6
    for other in POINTS:
        p, b = (fixed, other) if player else (other, fixed)
        draws = _DRAWS[p][b]
        s0, s1, s2 = 0, [0] * 10, [[0] * 10 for _ in POINTS]
        for x, y in _OTHER_HANDS[other]:  # the other hand's two cards: S0, and S1, S2 where read
            w = left[x] * (left[y] - (x == y))
            if not w:
                continue
            s0 += w
            if draws:
                s1[x] += w
                s1[y] += w
                if draws > 1:
                    s2[x][x] += w
                    s2[x][y] += w
                    s2[y][x] += w
                    s2[y][y] += w
        if not s0:
            continue
        if not draws:
            out[(p * 10 + b) * 4] += s0 * rest2
        elif draws == 1:  # the player stands, the banker draws
            for w in POINTS:
                out[(p * 10 + (b + w) % 10) * 4 + 1] += (left[w] * s0 - s1[w]) * rest1
        else:
            banker = _BANKER_DRAWS[p][b]
            for v in POINTS:
                pf = (p + v) % 10
                cv = left[v]
                if not banker[v]:
                    out[(pf * 10 + b) * 4 + 2] += (cv * s0 - s1[v]) * rest1
                    continue
                spare, s2v, base = cv * s0 - s1[v], s2[v], pf * 40 + 3  # spare: S0 x c_v less S1[v]
                for w in POINTS:  # c_w (c_v S0 - S1[v]) - c_v S1[w] + S2[v][w], c_w less the third card v
                    out[base + (b + w) % 10 * 4] += (left[w] - (v == w)) * spare - cv * s1[w] + s2v[w]
    out.append(falling(left[4], 2) * rest2 if first == second == 4 else 0)
    out[88 * 4] -= out[-1]  # both hands 4+4: a natural 8-8 tie, told apart for ruling 4
    return out


# Index -> Coup of coup_table_given_hand: ((P x 10 + B) x 2 + Player's cards - 2) x 2 + Banker's
# cards - 2, and last both hands 4+4
COUP_TABLE = (*(Coup(p, b, 2 + pc, 2 + bc) for p in POINTS for b in POINTS for pc in (0, 1) for bc in (0, 1)),
              Coup(8, 8, 2, 2, fours=True))
