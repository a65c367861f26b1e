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
from games.baccarat.counting import (
    ROUND_PREFIX,
    composition_points,
    coup_counts,
    falling,
    point_counts,
    total_prefixes,
)
from games.baccarat.engine import BaccaratGame, PairJudge
from games.cards import Card
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


def main_bets_for(game: BaccaratGame, counts: tuple[int, ...], keys: Mapping[str, str]) -> dict[str, BetOdds]:
    """Wagers settled on the finished hands (odds key -> wager key), dealt from a shoe holding
    `counts` cards of each point 0..9: every Coup counted once, settled once for all of them."""
    by_wager: dict[str, dict[str | None, int]] = {wager: {} for wager in keys.values()}
    for coup, count in coup_counts(counts).items():
        outcomes = game.settle_coup(coup)
        for wager, tally in by_wager.items():
            outcome = outcomes[wager]
            tally[outcome] = tally.get(outcome, 0) + count
    total = total_prefixes(counts)
    return {key: bet_odds(key, _rows(game.wagers[wager], by_wager[wager]), total) for key, wager in keys.items()}


def pair_bet_odds(game: BaccaratGame, odds_key: str, wager_key: str, judge: PairJudge, decks: int,
                  notes: Iterable[str] = ()) -> BetOdds:
    """A wager on one hand's first two cards, from a full shoe."""
    return pair_bet_odds_for(game, odds_key, wager_key, judge, game.deck_kind.shoe(decks), notes)


def pair_bet_odds_for(game: BaccaratGame, odds_key: str, wager_key: str, judge: PairJudge,
                      composition: Mapping[Card, int], notes: Iterable[str] = ()) -> BetOdds:
    """A wager on one hand's first two cards, dealt from a shoe holding `composition` (card ->
    copies): every ordered pair of its physical cards, times the ways to fill the round's other
    four positions (the 6-card-prefix convention of `main_bets_for`)."""
    cards = [card for card in game.deck_kind.cards if composition.get(card, 0) > 0]
    n = sum(composition[card] for card in cards)
    fill = falling(n - 2, ROUND_PREFIX - 2)
    by_outcome: dict[str | None, int] = {}
    for first in cards:
        copies = composition[first]
        for second in cards:
            pairs = copies * (copies - 1) if first == second else copies * composition[second]
            if pairs:
                outcome = judge(first, second)
                by_outcome[outcome] = by_outcome.get(outcome, 0) + pairs * fill
    return bet_odds(odds_key, _rows(game.wagers[wager_key], by_outcome), falling(n, ROUND_PREFIX), notes)


def layout_odds(game: BaccaratGame, composition: Mapping[Card, int]) -> dict[str, BetOdds]:
    """Every betting area of the game's layout (both sides' pair wagers included), for the next
    round dealt from a shoe holding `composition` (card -> copies, at least 6 cards)."""
    main = {key: key for key in game.wagers if key not in game.pair_wagers}
    bets = main_bets_for(game, composition_points(composition), main)
    for key, (_, judge) in game.pair_wagers.items():
        bets[key] = pair_bet_odds_for(game, key, key, judge, composition)
    return {key: bets[key] for key in game.wagers}


def edge_bets(game: BaccaratGame, left: Mapping[Card, int]) -> tuple[dict[str, BetOdds], tuple[str, ...]]:
    """`layout_odds` and the count convention, for games.live_edge."""
    return layout_odds(game, left), (CONVENTION.replace("a full shoe", "the remaining shoe"),)


def report(game: BaccaratGame, decks: int, main: Mapping[str, str], pairs: Mapping[str, str]) -> OddsReport:
    """`main`: odds key -> wager key settled on the hands; `pairs`: odds key -> pair wager key
    (one side stands for both: the two sides are symmetric)."""
    if decks not in game.deck_counts:
        raise ValueError(f"{game.key} is played with {game.deck_counts[0]}-{game.deck_counts[-1]} decks, not {decks}")
    bets = main_bets_for(game, point_counts(game.deck_kind, decks), main)
    for key, wager in pairs.items():
        _, judge = game.pair_wagers[wager]
        note = f"{wager} shown; the other side's pair wager has the same odds"
        bets[key] = pair_bet_odds(game, key, wager, judge, decks, notes=(note,))
    return OddsReport(game=game.key, decks=decks, bets=bets, notes=(CONVENTION,))
