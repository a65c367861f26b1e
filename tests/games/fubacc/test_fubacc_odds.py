"""`tablectl odds fubacc`: exact counts, checked against independent enumerations here.

The independent checks do not use games.fubacc.hands or .strategy: they score cards with
their own few lines, once over the 13 ranks (not the 10 point classes the engine uses) and
once over the real 49 remaining cards of particular deals."""
from fractions import Fraction
from itertools import permutations
from math import perm

import pytest

from games.cards import DeckKind, parse_card
from games.fubacc.game import odds
from games.fubacc.hands import is_monkey
from games.fubacc.strategy import BONUS, FOLD, PLAY_HIT, PLAY_STAY, action_values, optimal_strategy, point_counts, situation

SIX_CARDS = perm(52, 6)


@pytest.fixture(scope="module")
def report():
    return odds(1)


@pytest.fixture(scope="module")
def choices():
    return optimal_strategy(1)


def pt(rank):
    return rank if rank < 10 else 0


def dealer_final(u, x, y):
    two = (pt(u) + pt(x)) % 10
    return two if two >= 6 else (two + pt(y)) % 10


def net(p, d):
    return 3 if p > d else -3 if p < d else -1  # Ante + 2x Play per unit Ante


# ---------------------------------------------------------------- totals and lucky monkey


def test_counts_add_up_to_every_deal(report):
    assert set(report.bets) == {"ante", "tie", "lucky_monkey"}
    assert report.bets["ante"].total == report.bets["tie"].total == SIX_CARDS
    assert report.bets["lucky_monkey"].total == perm(52, 3)
    for bet in report.bets.values():
        assert sum(o.count for o in bet.outcomes) == bet.total
        assert sum(o.probability for o in bet.outcomes) == 1
    assert [o.outcome for o in report.bets["ante"].outcomes] == \
        ["fold", "win", "lose", "tie", "natural 9", "natural 8", "monkey rescue"]


def test_lucky_monkey_by_hand_count(report):
    """16 monkeys: 16*15 ordered pairs, then the up card from the other 50."""
    ways = {o.outcome: o.count for o in report.bets["lucky_monkey"].outcomes}
    for up in (9, 8, 7, 6):
        assert ways[f"monkey monkey vs {up}"] == 16 * 15 * 4
    assert ways["monkey monkey vs 0-5"] == 16 * 15 * (14 + 5 * 4)
    edge = Fraction(16 * 15, 52 * 51) * (-Fraction(4 * (30 + 20 + 15 + 10) + 34 * 5, 50)) \
        + (1 - Fraction(16 * 15, 52 * 51))
    assert report.bets["lucky_monkey"].house_edge == edge == Fraction(1, 17)


def test_monkeys_are_exactly_the_zero_point_cards():
    """Why point classes suffice for the odds (ruling 12)."""
    assert all(is_monkey(c) == (c.point == 0) for c in DeckKind.STANDARD52.cards)
    assert point_counts(1) == (16,) + (4,) * 9


def test_bonus_rows_count_the_bonus_situations(report, choices):
    """Every natural 9 and 8 the strategy takes the bonus on, and every monkey rescue."""
    rows = {o.outcome: o.count for o in report.bets["ante"].outcomes}
    for line in ("natural 9", "natural 8", "monkey rescue"):
        assert rows[line] == sum(c.situation.weight * c.situation.unseen for c in choices
                                 if c.action == BONUS and c.situation.bonus == line)
    # monkey rescue is always taken: every two-monkey hand against a 9
    assert rows["monkey rescue"] == 16 * 15 * 4 * perm(49, 3)


# ---------------------------------------------------------------- independent enumerations


def _rank_level_optimum():
    """Optimal Ante expectation and the Tie's win count, enumerating 13 ranks (independent)."""
    left = {r: 4 for r in range(1, 14)}
    ev_total, tie_total, fold_total = Fraction(0), 0, 0
    for a in range(1, 14):
        for b in range(a, 14):
            for u in range(1, 14):
                w = 1
                for r in (a, b, u):
                    w *= left[r]
                    left[r] -= 1
                if w:
                    w *= 1 if a == b else 2
                    t = (pt(a) + pt(b)) % 10
                    stay = hit = stay_ties = hit_ties = 0
                    for h in range(1, 14):
                        wh = left[h]
                        if not wh:
                            continue
                        left[h] -= 1
                        for x in range(1, 14):
                            wx = wh * left[x]
                            if not wx:
                                continue
                            left[x] -= 1
                            for y in range(1, 14):
                                n = wx * left[y]
                                if n:
                                    d = dealer_final(u, x, y)
                                    p = (t + pt(h)) % 10
                                    stay += n * net(t, d)
                                    hit += n * net(p, d)
                                    stay_ties += n * (t == d)
                                    hit_ties += n * (p == d)
                            left[x] += 1
                        left[h] += 1
                    unseen = 49 * 48 * 47
                    values = {PLAY_STAY: Fraction(stay, unseen), PLAY_HIT: Fraction(hit, unseen), FOLD: Fraction(-1)}
                    if t == 9:
                        values[BONUS] = Fraction(2)
                    elif t == 8:
                        values[BONUS] = Fraction(3, 2)
                    elif pt(a) == pt(b) == 0 and pt(u) == 9:
                        values[BONUS] = Fraction(1)
                    best = max(values.values())
                    action = next(k for k in (BONUS, PLAY_STAY, PLAY_HIT, FOLD) if values.get(k) == best)
                    ev_total += w * best
                    tie_total += w * (hit_ties if action == PLAY_HIT else stay_ties)
                    fold_total += w * unseen * (action == FOLD)
                for r in (a, b, u):
                    left[r] += 1
    return ev_total / perm(52, 3), tie_total, fold_total


def test_house_edges_agree_with_a_rank_level_enumeration(report):
    ev, ties, folds = _rank_level_optimum()
    assert report.bets["ante"].house_edge == -ev
    assert {o.outcome: o.count for o in report.bets["tie"].outcomes}["tie"] == ties
    assert {o.outcome: o.count for o in report.bets["ante"].outcomes}["fold"] == folds


@pytest.mark.parametrize("two, up", [("Kc 6h", "8s"), ("5c 5d", "2h"), ("Ac 9d", "Ts")])
def test_action_values_agree_with_the_real_49_cards(two, up):
    seen = [parse_card(t) for t in two.split()] + [parse_card(up)]
    rest = [c for c in DeckKind.STANDARD52.cards if c not in seen]
    t = (seen[0].point + seen[1].point) % 10
    stay = hit = 0
    for h, x, y in permutations(rest, 3):
        d = dealer_final(seen[2].rank, x.rank, y.rank)
        stay += net(t, d)
        hit += net((t + h.point) % 10, d)
    points = sorted(c.point for c in seen[:2])
    values = action_values(situation(point_counts(1), points[0], points[1], seen[2].point))
    assert values[PLAY_STAY] == Fraction(stay, perm(49, 3))
    assert values[PLAY_HIT] == Fraction(hit, perm(49, 3))


# ---------------------------------------------------------------- the strategy is sane


def test_every_situation_accounted_once(choices):
    assert len(choices) == 550  # 55 two-card point hands x 10 up cards
    assert sum(c.situation.weight for c in choices) == perm(52, 3)
    for c in choices:
        s = c.situation
        assert sum(s.stay) == s.unseen == sum(map(sum, s.hit)) == perm(49, 3)


def test_the_chosen_action_is_never_worse_than_another(choices):
    for c in choices:
        assert c.values[c.action] == max(c.values.values()) >= -1
        assert (BONUS in c.values) is (c.situation.bonus is not None)
        best, second = sorted(c.values.values(), reverse=True)[:2]
        assert best > second  # docs/fubacc.md: no exact ties, so the tie-break never decides


def test_strategy_properties_that_must_hold(choices):
    for c in choices:
        s = c.situation
        if s.total == 9:
            assert c.action in (PLAY_STAY, BONUS), s  # a hit can only lower a 9, card for card
        if s.total >= 6:
            assert c.action != FOLD, s  # a two-card 6-9 always beats folding
        if s.total <= 4 and not s.bonus:
            assert c.action in (PLAY_HIT, FOLD), s  # standing on 0-4 is never right
        if s.monkeys and s.up == 9:
            assert c.action == BONUS, s  # a 0 against a 9: the 1:1 rescue beats playing


def test_optimal_beats_simple_strategies(choices, report):
    def edge(pick):
        cases = sum(c.situation.weight * c.situation.unseen for c in choices)
        return -sum(c.situation.weight * c.situation.unseen * c.values[pick(c)] for c in choices) / cases
    optimal = report.bets["ante"].house_edge
    assert optimal == edge(lambda c: c.action)
    assert optimal < edge(lambda c: PLAY_STAY)
    assert optimal < edge(lambda c: PLAY_HIT if c.situation.total <= 5 else PLAY_STAY)  # like the dealer
    assert optimal < edge(lambda c: FOLD) == 1
    assert 0 < optimal < Fraction(1, 10)


def test_strategy_table_rows(report):
    rows = report.tables["strategy"]
    assert len(rows) == 2 + 55
    assert rows[1].split("up:")[1].split() == ["M", "A", "2", "3", "4", "5", "6", "7", "8", "9"]
    monkeys = next(r for r in rows[2:] if r.split()[1] == "M+M")
    assert monkeys.split()[-1] == "B"  # rescue against a 9
    assert all(len(r.split()) == 12 for r in rows[2:])
