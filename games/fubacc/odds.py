"""`tablectl odds fubacc`: exact counts for Lucky Monkey, the Ante game and the Tie.

Single deck, one spot. The Ante game is played with the optimal strategy of `strategy`;
its counts are over ordered six-card deals (hand, hand, up card, player hit, dealer hole,
dealer hit): 52*51*50*49*48*47 equally likely cases. Lucky Monkey needs only the first three.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from games.analysis import BetOdds, OddsReport, bet_odds
from games.fubacc.hands import lucky_monkey_line
from games.fubacc.strategy import ACTIONS, PLAY_HIT, PLAY_STAY, POINTS, Choice, optimal_strategy_for, point_counts
from games.fubacc.wagers import ANTE, BONUS, FOLD, LUCKY_MONKEY, PLAY_MULTIPLE, TIE, bonus_net, showdown_net
from games.round import win

ACTION_LETTERS = {BONUS: "B", PLAY_STAY: "S", PLAY_HIT: "H", FOLD: "F"}
POINT_LABELS = ("M", "A", "2", "3", "4", "5", "6", "7", "8", "9")  # M: a monkey (10-K, 0 points)


def odds(decks: int = 1) -> OddsReport:
    return odds_for(point_counts(decks), decks, (
        "one spot, dealt from a full deck; the other spots' packets, unseen by this player, "
        "do not change these expectations",))


def odds_for(counts: tuple[int, ...], decks: int, notes: tuple[str, ...] = ()) -> OddsReport:
    """The report for one spot dealt from a deck holding `counts` cards of each point 0..9,
    played with the optimal strategy for that deck."""
    choices = optimal_strategy_for(counts)
    return OddsReport(
        game="fubacc",
        decks=decks,
        bets={
            "ante": _ante(choices),
            "tie": _tie(choices),
            "lucky_monkey": _lucky_monkey(choices),
        },
        tables={"strategy": strategy_rows(choices)},
        notes=notes,
    )


def _showdown_counts(choice: Choice) -> dict[str, int]:
    """win/lose/tie counts (over the unseen cards) of the hand as the strategy plays it."""
    s = choice.situation
    grid = s.hit if choice.action == PLAY_HIT else [s.stay if p == s.total else [0] * 10 for p in POINTS]
    out = {"win": 0, "lose": 0, "tie": 0}
    for p, row in enumerate(grid):
        for d, n in enumerate(row):
            out["win" if p > d else "lose" if p < d else "tie"] += n
    return out


def _ante(choices: Sequence[Choice]) -> BetOdds:
    counts = dict.fromkeys(("fold", "win", "lose", "tie") + tuple(line.outcome for line in ANTE.lines[1:]), 0)
    action_cases = dict.fromkeys(ACTIONS, 0)
    for c in choices:
        s = c.situation
        action_cases[c.action] += s.weight * s.unseen
        if c.action == FOLD:
            counts["fold"] += s.weight * s.unseen
        elif c.action == BONUS:
            if s.bonus is None:  # the strategy offers a bonus only where the hand has one
                raise AssertionError(f"a bonus chosen on {s.hand} against {s.up}, which has none")
            counts[s.bonus] += s.weight * s.unseen
        else:
            for outcome, n in _showdown_counts(c).items():
                counts[outcome] += s.weight * n
    total = sum(action_cases.values())
    nets = {"fold": Fraction(-1), "win": showdown_net(1, 0), "lose": showdown_net(0, 1), "tie": showdown_net(0, 0)}
    pays = {"fold": "lose", "win": "1:1+1:1", "lose": "lose", "tie": "lose+push"}
    rows = [
        (o, pays[o], n, nets[o]) if o in nets else (o, str(ANTE.line(o).pays), n, bonus_net(o))
        for o, n in counts.items()
    ]
    report = bet_odds("ante", rows, total)
    average_wager = 1 + PLAY_MULTIPLE * Fraction(action_cases[PLAY_STAY] + action_cases[PLAY_HIT], total)
    notes = (
        "house edge per unit Ante under the optimal strategy; win/lose/tie include the Play (2x Ante)",
        f"average total wager {float(average_wager):.6f} Ante; element of risk (edge per unit wagered) "
        f"{float(report.house_edge / average_wager):.6%}",
        "optimal player: " + ", ".join(f"{a} {float(Fraction(n, total)):.4%}" for a, n in action_cases.items()),
        "strategy: tables.strategy; exact ties between actions go to the first of bonus, play,stay, play,hit, fold",
    )
    return replace(report, notes=notes)


def _tie(choices: Sequence[Choice]) -> BetOdds:
    ties = alone = total = 0
    for c in choices:
        s = c.situation
        total += s.weight * s.unseen
        final = s.hit if c.action == PLAY_HIT else None  # ruling 14: otherwise the original two
        ties += s.weight * (sum(final[p][p] for p in POINTS) if final else s.stay[s.total])
        alone += s.weight * s.stay[s.total]
    win_net, lose_net = win(TIE, "tie").net(1), Fraction(-1)
    alone_edge = -(Fraction(alone, total) * win_net + Fraction(total - alone, total) * lose_net)
    notes = (
        "settled on the final hand as the optimal Ante strategy plays it (ruling 14)",
        f"a Tie alone (no Ante: the original two cards, procedure 1) has house edge {float(alone_edge):.6%} "
        f"({alone_edge})",
    )
    return bet_odds("tie", [("tie", str(TIE.line("tie").pays), ties, win_net), ("lose", "lose", total - ties, lose_net)],
                    total, notes)


def _lucky_monkey(choices: Sequence[Choice]) -> BetOdds:
    counts = {line.outcome: 0 for line in LUCKY_MONKEY.lines}
    total = 0
    for c in choices:
        s = c.situation
        total += s.weight
        line = lucky_monkey_line(s.monkeys, s.up)
        if line:
            counts[line] += s.weight
    rows = [(o, str(LUCKY_MONKEY.line(o).pays), n, win(LUCKY_MONKEY, o).net(1)) for o, n in counts.items()]
    rows.append(("lose", "lose", total - sum(counts.values()), Fraction(-1)))
    return bet_odds("lucky_monkey", rows, total, ("over the player's first two cards and the dealer's up card (ruling 13)",))


def strategy_rows(choices: Sequence[Choice]) -> list[str]:
    """One text row per two-card hand (by points) against each up card: B S H F."""
    cells: dict[tuple[int, int], dict[int, str]] = {}
    for c in choices:
        cells.setdefault(c.situation.hand, {})[c.situation.up] = ACTION_LETTERS[c.action]
    rows = [
        "B = bonus, S = play,stay, H = play,hit, F = fold; M = a monkey (10, J, Q, K)",
        "total  hand   up: " + " ".join(POINT_LABELS),
    ]
    for hand in sorted(cells, key=lambda h: (sum(h) % 10, h)):
        label = "+".join(POINT_LABELS[p] for p in hand)
        rows.append(f"{sum(hand) % 10:>5}  {label:<5}      " + " ".join(cells[hand].get(u, "-") for u in POINTS))
    return rows
