"""`tablectl odds` for a baccarat game, built from the game's own pay tables.

Main wagers are counted over Coups (counting.py); wagers on a hand's first two cards over
every ordered pair of cards in the shoe, scaled to the same 6-card-prefix convention, so
every bet of a report shares one total. The outcome rows are the wager's pay lines (pushes
included) plus "lose", so each bet's counts sum to the total.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from games.analysis import BetOdds, OddsReport, bet_odds
from games.baccarat.counting import ROUND_PREFIX, coup_counts, falling, point_counts, total_prefixes
from games.baccarat.engine import BaccaratGame, PairJudge
from games.round import Wager

LOSE_ROW = ("lose", "lose")

CONVENTION = (
    "counts are ordered 6-card prefixes of a full shoe of N cards (total N(N-1)...(N-5)): "
    "a round using k cards counts once per ordered choice of its k cards times the "
    "(N-k)...(N-5) ways to fill the unused positions"
)


def _rows(wager: Wager, counts: Mapping[str | None, int]) -> list[tuple[str, str, int, Fraction]]:
    rows = []
    for line in wager.lines:
        net = Fraction(0) if line.pays is None else line.pays.ratio
        rows.append((line.outcome, line.pays_text, counts.get(line.outcome, 0), net))
    rows.append((*LOSE_ROW, counts.get(None, 0), Fraction(-1)))
    return rows


def main_bet_odds(game: BaccaratGame, odds_key: str, wager_key: str, decks: int) -> BetOdds:
    """A wager settled on the finished hands, counted over every Coup."""
    counts = point_counts(game.deck_kind, decks)
    by_outcome: dict[str | None, int] = {}
    for coup, count in coup_counts(counts).items():
        outcome = game.settle_coup(coup)[wager_key]
        by_outcome[outcome] = by_outcome.get(outcome, 0) + count
    return bet_odds(odds_key, _rows(game.wagers[wager_key], by_outcome), total_prefixes(counts))


def pair_bet_odds(game: BaccaratGame, odds_key: str, wager_key: str, judge: PairJudge, decks: int,
                  notes: Iterable[str] = ()) -> BetOdds:
    """A wager on one hand's first two cards: every ordered pair of cards of the shoe,
    times the ways to fill the round's other four positions."""
    cards = game.deck_kind.cards
    n = len(cards) * decks
    fill = falling(n - 2, ROUND_PREFIX - 2)
    by_outcome: dict[str | None, int] = {}
    for first in cards:
        for second in cards:
            pairs = decks * (decks - 1) if first == second else decks * decks
            outcome = judge(first, second)
            by_outcome[outcome] = by_outcome.get(outcome, 0) + pairs * fill
    total = falling(n, ROUND_PREFIX)
    return bet_odds(odds_key, _rows(game.wagers[wager_key], by_outcome), total, notes)


def report(game: BaccaratGame, decks: int, main: Mapping[str, str], pairs: Mapping[str, str]) -> OddsReport:
    """`main`: odds key -> wager key settled on the hands; `pairs`: odds key -> pair wager key
    (one side stands for both: the two sides are symmetric)."""
    if decks not in game.deck_counts:
        raise ValueError(f"{game.key} is played with {game.deck_counts[0]}-{game.deck_counts[-1]} decks, not {decks}")
    bets = {key: main_bet_odds(game, key, wager, decks) for key, wager in main.items()}
    for key, wager in pairs.items():
        _, judge = game.pair_wagers[wager]
        note = f"{wager} shown; the other side's pair wager has the same odds"
        bets[key] = pair_bet_odds(game, key, wager, judge, decks, notes=(note,))
    return OddsReport(game=game.key, decks=decks, bets=bets, notes=(CONVENTION,))
