"""`odds`: exact counts by point classes, checked against a brute force through the real
engine, the 6-card count convention's oracle, and published house edges."""
from collections import Counter
from fractions import Fraction

import pytest
from baccarat_helpers import card_of
from hypothesis import given, settings
from hypothesis import strategies as st

from games.baccarat.counting import coup_counts, falling, point_counts, total_prefixes
from games.baccarat.coup import coup_of
from games.cards import DeckKind
from games.fafa4 import game as fafa4
from games.fortune6 import game as fortune6
from games.fortune7 import game as fortune7
from games.round import Complete


def _brute_force(counts):
    """Every ordered sequence of point values the engine deals from a shoe with `counts`,
    weighted by ordered card choices and the ways to fill the unused positions up to 6."""
    game = fortune6.GAME
    n = sum(counts)
    out = Counter()

    def walk(state, left, weight):
        if isinstance(game.next_step(state), Complete):
            used = len(state.cards)
            out[coup_of(state.hand("player"), state.hand("banker"))] += weight * falling(n - used, 6 - used)
            return
        for point in range(10):
            if left[point]:
                card = card_of(game, point, counts[point] - left[point])  # a fresh copy each time
                nxt = list(left)
                nxt[point] -= 1
                walk(game.with_card(state, card), nxt, weight * left[point])

    walk(game.start(10), list(counts), 1)
    return out


def test_counts_match_the_engine_on_a_small_shoe():
    counts = (3, 1, 1, 0, 4, 0, 1, 1, 0, 1)  # four 4s: Element Eights can happen
    got = coup_counts(counts)
    assert got == {k: v for k, v in _brute_force(counts).items() if v}
    assert any(c.fours for c in got)


@settings(max_examples=12, deadline=None)
@given(st.dictionaries(st.integers(0, 9), st.integers(1, 3), min_size=3, max_size=5).filter(
    lambda shoe: sum(shoe.values()) >= 6))
def test_property_counts_match_the_engine(shoe):
    """Up to five point values of 1-3 cards each: small enough to walk every deal."""
    counts = tuple(shoe.get(point, 0) for point in range(10))
    assert coup_counts(counts) == {k: v for k, v in _brute_force(counts).items() if v}


@pytest.mark.parametrize("kind,decks", [(DeckKind.STANDARD52, 1), (DeckKind.STANDARD52, 8), (DeckKind.ELEMENT65, 4)])
def test_counts_sum_to_the_six_card_prefixes(kind, decks):
    counts = point_counts(kind, decks)
    assert sum(coup_counts(counts).values()) == total_prefixes(counts) == falling(len(kind.cards) * decks, 6)


def test_fortune7_banker_oracle():
    """The brief's figure: 8 decks, banker wins paid 1:1, 6-card ordered prefixes."""
    banker = fortune7.odds(8).bets["banker"]
    row = {o.outcome: o for o in banker.outcomes}["banker wins"]
    assert row.count == 2179619555108864
    assert banker.total == 416 * 415 * 414 * 413 * 412 * 411


@pytest.mark.parametrize("module,decks", [(fafa4, 4), (fafa4, 8), (fafa4, 10), (fortune6, 4), (fortune6, 8),
                                          (fortune7, 8)])
def test_every_bet_sums_to_the_total(module, decks):
    report = module.odds(decks)
    n = len(module.GAME.deck_kind.cards) * decks
    for key, bet in report.bets.items():
        assert bet.total == falling(n, 6), key
        assert sum(o.count for o in bet.outcomes) == bet.total, key
        assert sum(o.probability for o in bet.outcomes) == 1, key
        assert bet.outcomes[-1].outcome == "lose"


def test_bet_keys():
    assert list(fafa4.odds(8).bets) == ["banker", "player", "tie", "player_fabulous4", "banker_fabulous4",
                                        "precious_pair"]
    assert list(fortune7.odds(8).bets) == ["banker", "player", "tie", "fortune7", "one_up"]
    assert list(fortune6.odds(8).bets) == ["banker", "player", "tie", "fortune6", "pair"]


def _probabilities(decks):
    bets = fortune6.odds(decks).bets  # fortune6's banker and player are plain 1:1
    rows = {o.outcome: o.probability for o in bets["banker"].outcomes}
    return rows["banker wins"], rows["lose"], rows["tie"]


# published (Wizard of Odds, "Baccarat"): house edge of banker with 5% commission, player, tie 8:1
@pytest.mark.parametrize("decks,banker,player,tie", [(8, "1.0579", "1.2351", "14.3596"), (6, "1.0558", "1.2374", "14.4382")])
def test_standard_baccarat_house_edges(decks, banker, player, tie):
    b, p, t = _probabilities(decks)
    assert f"{float((p - b * Fraction(95, 100)) * 100):.4f}" == banker
    assert f"{float(fortune6.odds(decks).bets['player'].house_edge * 100):.4f}" == player
    assert f"{float(fortune6.odds(decks).bets['tie'].house_edge * 100):.4f}" == tie
    assert f"{float(b):.6f}" == ("0.458597" if decks == 8 else "0.458653")


def test_fortune7_edges_match_ez_baccarat():
    """Fortune 7's banker (push on a winning three-card 7) and 40:1 bonus are EZ Baccarat's
    banker (1.02%) and Dragon 7 (7.61%) (Wizard of Odds, "EZ Baccarat")."""
    bets = fortune7.odds(8).bets
    assert f"{float(bets['banker'].house_edge * 100):.4f}" == "1.0183"
    assert f"{float(bets['fortune7'].house_edge * 100):.4f}" == "7.6113"


def test_fortune6_banker_without_commission_favours_the_player():
    """Ruling 10: 1:1 with no commission; the edge is the player's edge with the sign turned."""
    bets = fortune6.odds(8).bets
    assert bets["banker"].house_edge == -bets["player"].house_edge < 0


def test_pair_odds_closed_form():
    for decks in (4, 8, 10):
        pair = fortune6.odds(decks).bets["pair"]
        win = {o.outcome: o.probability for o in pair.outcomes}["pair"]
        assert win == Fraction(4 * decks - 1, 52 * decks - 1)
    assert fortune6.odds(8).bets["pair"].house_edge == Fraction(43, 415)  # 10.36%


def test_precious_pair_closed_form():
    d = 8
    n = 65 * d
    rows = {o.outcome: o.probability for o in fafa4.odds(d).bets["precious_pair"].outcomes}
    ordered = n * (n - 1)
    assert rows["pair of gold 4s"] == Fraction(d * (d - 1), ordered)
    assert rows["other pair of 4s"] == Fraction(5 * d * (5 * d - 1) - d * (d - 1), ordered)
    assert rows["gold pair"] == Fraction(12 * d * (d - 1), ordered)
    assert rows["other pair"] == Fraction(12 * 5 * d * (5 * d - 1) - 12 * d * (d - 1), ordered)  # ranks but 4


def test_element_eights_count():
    """Both hands 4+4: the four initial cards are four of the shoe's 5d fours, in order."""
    d = 8
    tie = {o.outcome: o.count for o in fafa4.odds(d).bets["tie"].outcomes}
    n = 65 * d
    assert tie["tie on element eights"] == falling(5 * d, 4) * falling(n - 4, 2)


def test_odds_refuse_a_deck_count_the_game_does_not_use():
    with pytest.raises(ValueError, match="not 6"):
        fortune7.odds(6)
