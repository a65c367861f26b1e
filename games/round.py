"""The shape every game shares: the deal, decisions, results, pay tables, irregularities.

A game is a stateless object (see `Game`); a round is an immutable `RoundState`
that the game advances card by card and decision by decision. The controller and
`tablectl play` drive every game through this one interface:

    state = game.start(decks=8, spots=(1, 3))
    while not isinstance(step := game.next_step(state), Complete):
        if isinstance(step, Deal):           state = game.with_card(state, card_from_shoe)
        elif isinstance(step, AwaitDecision): state = game.with_decision(state, step.spot, choice)
    result = game.result(state)

A card the rules do not call for, a card of another deck kind, an impossible
duplicate, a wrong decision: each raises `Irregular` naming the kind and clause.
"""
from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

from games.cards import Card, DeckKind

# ---------------------------------------------------------------- pay tables


@dataclass(frozen=True)
class Pay:
    """Odds paid on a winning wager: `win` to `per` (2:1, 1:2, 8:1), with an optional label.
    `commission` is the share of the stake the house keeps of a gross win; the odds are already
    net of it (Pai Gow's 1:1 less 5% is 19:20 with commission 1/20)."""

    win: int
    per: int = 1
    label: str = ""
    commission: Fraction = Fraction(0)

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.win, self.per)

    def __str__(self) -> str:
        return self.label or f"{self.win}:{self.per}"


@dataclass(frozen=True)
class PayLine:
    """One line of a wager's pay table: the outcome named as the rules name it."""

    outcome: str
    pays: Pay | None  # None = push (the stake is returned)

    @property
    def pays_text(self) -> str:
        return "push" if self.pays is None else str(self.pays)


@dataclass(frozen=True)
class Needs:
    """A wager that may stand only beside one of `any_of` (wager keys) at the same seat."""

    any_of: tuple[str, ...]
    clause: str


@dataclass(frozen=True)
class StakeOf:
    """A stake fixed by another: `multiple` x the `wager` at the same spot (Fu Bacc's Play)."""

    wager: str
    multiple: int
    clause: str


@dataclass(frozen=True)
class FixedBonus:
    """Fixed money a spot's result names under `field` (Pai Gow's Envy), paid to a spot that
    holds this wager whatever the wager's own result."""

    field: str
    clause: str


@dataclass(frozen=True)
class Wager:
    """A betting area and its whole pay table, as data. Any outcome not listed loses.
    The optional rest is what games.money needs beyond the pay table."""

    key: str  # as in `tablectl odds` / `play`: "banker", "tie", "player_precious_pair", ...
    title: str
    clause: str  # where the pay table is: "fafa §4.1"
    lines: tuple[PayLine, ...]
    needs: Needs | None = None  # a bonus that needs a line wager beside it
    stake_of: StakeOf | None = None  # placed at a multiple of another when the result puts it in action
    presupposed_by: str = ""  # clause: the spot's decisions presuppose this wager wherever it is settled
    fixed_bonus: FixedBonus | None = None  # fixed money the holder of this wager is paid

    def line(self, outcome: str) -> PayLine:
        for line in self.lines:
            if line.outcome == outcome:
                return line
        raise KeyError(f"{self.key}: no pay line {outcome!r}")


class Result(str, enum.Enum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


@dataclass(frozen=True)
class BetResult:
    result: Result
    line: PayLine | None = None  # the pay-table line that applied (None for a plain loss)

    @property
    def pays(self) -> str | None:
        return None if self.line is None else self.line.pays_text

    @cached_property
    def result_text(self) -> str:
        """"win", "lose" or "push", kept: the results a game settles are shared (LOSE, its wins)
        and shown after every round."""
        return self.result.value

    def net(self, stake: Fraction | int) -> Fraction:
        """Exact money won (+) or lost (-) on `stake`; a push is 0."""
        stake = Fraction(stake)
        if self.result is Result.LOSE:
            return -stake
        if self.result is Result.PUSH or self.line is None or self.line.pays is None:
            return Fraction(0)
        return stake * self.line.pays.ratio

    def to_json(self) -> dict[str, Any]:
        return dict(self._json)  # a copy: the kept one is shared

    @cached_property
    def _json(self) -> dict[str, Any]:
        return {"result": self.result_text, "pays": self.pays}


def win(wager: Wager, outcome: str) -> BetResult:
    line = wager.line(outcome)
    return BetResult(Result.PUSH if line.pays is None else Result.WIN, line)


LOSE = BetResult(Result.LOSE)
PUSH = BetResult(Result.PUSH)


# ---------------------------------------------------------------- irregularities


class IrregularityKind(str, enum.Enum):
    EXTRA_CARD = "extra_card"  # a card beyond what the rules call for
    MISSING_CARD = "missing_card"  # the round cannot complete (a gap, or no card in time)
    FOREIGN_CARD = "foreign_card"  # not of the deck kind, or more copies than the shoe holds
    MISREAD = "misread"  # the shoe could not read a card
    DOUBLE_DRAW = "double_draw"  # two cards drawn at once during the initial deal
    WRONG_HAND_SIZE = "wrong_hand_size"  # a hand with the wrong number of cards
    INSUFFICIENT_CARDS = "insufficient_cards"  # not enough cards left to complete the round
    ORDER_ALTERED = "order_altered"  # shoe door opened / shoe removed mid-round
    CARD_BEFORE_NO_MORE_BETS = "card_before_no_more_bets"
    LATE_WAGER = "late_wager"  # a wager placed or changed after "No more bets"
    DEVICE_LOST = "device_lost"  # the shoe rebooted or its link dropped mid-round
    BAD_DECISION = "bad_decision"  # a player decision the rules do not allow here
    CARD_DISPUTED = "card_disputed"  # the shoe's line carried two different frames for one card
    # money at the table, as the bet sensor reads it (local ruling L10)
    FOREIGN_CHIP = "foreign_chip"  # a chip the registry does not know, has retired, or whose tag value differs
    WAGER_REMOVED = "wager_removed"  # a chip taken from a space after "No more bets"
    MISPAY = "mispay"  # at confirm, a space holds other than its wager's payout


class Consequence(str, enum.Enum):
    VOID = "void"  # the round is void; previous results stand
    HOLD = "hold"  # hold for the supervisor: reconstruct if possible, else void
    REFUSE = "refuse"  # the input is refused; the round goes on


@dataclass(frozen=True)
class IrregularityRule:
    kind: IrregularityKind
    clause: str  # "fafa §5.1", "ruling 17", "local ruling L2"
    consequence: Consequence
    summary: str  # one line a supervisor can read


UNHEARD_RULING = "ruling 24"  # cards that left the shoe unheard are judged as if heard (Game.unheard_rule)


class Irregular(Exception):
    """Raised by a game when the cards or decisions break its rules."""

    def __init__(self, rule: IrregularityRule, detail: str):
        self.rule = rule
        self.detail = detail
        super().__init__(f"{rule.kind.value} ({rule.clause}, {rule.consequence.value}): {detail}")


# ---------------------------------------------------------------- the deal


@dataclass(frozen=True)
class Deal:
    """The next card from the shoe goes to `hand` (e.g. "player", "banker", "spot3", "dealer")
    as its card number `position` (0-based). `initial` is True during the initial deal (the
    rules' term: two cards each in baccarat, every packet in Fu Bacc and Pai Gow), False for
    cards drawn by the Table of Play afterwards (a double draw voids only in the initial deal)."""

    hand: str
    position: int
    initial: bool = True


@dataclass(frozen=True)
class AwaitDecision:
    """No card is due until `spot` decides; `options` are the decisions the rules allow now."""

    spot: int
    options: tuple[str, ...]


@dataclass(frozen=True)
class Complete:
    """The round needs no more cards or decisions."""


Step = Deal | AwaitDecision | Complete


@dataclass(frozen=True)
class RoundState:
    """Everything a round has seen, in order. Games keep their own derived state in `extra`."""

    game: str
    decks: int
    spots: tuple[int, ...] = ()
    cards: tuple[Card, ...] = ()
    dealt_to: tuple[Deal, ...] = ()  # dealt_to[i] is where cards[i] went
    decisions: tuple[tuple[int, str], ...] = ()  # (spot, decision) in the order made
    extra: Mapping[str, object] = field(default_factory=dict)

    def hand(self, name: str) -> tuple[Card, ...]:
        return tuple([c for c, d in zip(self.cards, self.dealt_to) if d.hand == name])

    def decision_of(self, spot: int) -> tuple[str, ...]:
        return tuple(d for s, d in self.decisions if s == spot)

    def evolve(self, **changes: Any) -> RoundState:  # RoundState's fields
        # built directly: dataclasses.replace reads every field's metadata again on each card
        return RoundState(**{**self.__dict__, **changes})


@dataclass(frozen=True)
class HandView:
    cards: tuple[Card, ...]
    total: int | str | None  # baccarat point total; a poker rank name for pai gow

    def to_json(self) -> dict[str, Any]:
        return {"cards": [str(c) for c in self.cards], "total": self.total}


@dataclass(frozen=True)
class RoundResult:
    """The decided round. `bets` holds one entry per betting area of the layout; games with
    several spots put each spot's results under `spots`."""

    game: str
    winner: str | None  # "player", "banker", "tie", or None where each spot has its own
    hands: Mapping[str, HandView]
    bets: Mapping[str, BetResult]
    spots: Mapping[int, Mapping[str, object]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"void": False, "clause": None, "winner": self.winner}
        out.update({name: hand.to_json() for name, hand in self.hands.items()})
        out["bets"] = {key: bet.to_json() for key, bet in self.bets.items()}
        if self.spots:
            out["spots"] = {str(spot): _jsonable(v) for spot, v in self.spots.items()}
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def _jsonable(value: object) -> Any:
    if isinstance(value, (BetResult, HandView)):
        return value.to_json()
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    return value


def void_json(rule: IrregularityRule, detail: str, cards: Iterable[Card] = ()) -> dict[str, Any]:
    """What `tablectl play` prints for a void round."""
    return {
        "void": True,
        "clause": rule.clause,
        "irregularity": rule.kind.value,
        "detail": detail,
        "cards": [str(c) for c in cards],
        "winner": None,
        "bets": {},
    }


# ---------------------------------------------------------------- a game


class Game(ABC):
    """One game's rules. Stateless: every method takes and returns immutable values."""

    key: str  # "fafa4", "fortune7", "fortune6", "fubacc", "paigow"
    title: str
    deck_kind: DeckKind
    deck_counts: tuple[int, ...]  # allowed deck counts
    default_decks: int
    uses_spots: bool = False  # Fu Bacc and Pai Gow deal to live spots
    max_spots: int = 0
    wagers: Mapping[str, Wager]  # every betting area, key -> pay table
    irregularities: Mapping[IrregularityKind, IrregularityRule]
    # what a wager outside the table's limits is refused under (games.money.limits); the rules
    # texts that name none leave it to local ruling L11
    limits_clause: str = "local ruling L11"

    def rule(self, kind: IrregularityKind) -> IrregularityRule:
        return self.irregularities[kind]

    def double_draw_rule(self, initial: bool) -> IrregularityRule:
        """The rule for two cards drawn at once, `initial` as in Deal.initial. Baccarat's §5.3
        voids only during the initial deal and overrides this for later cards (local ruling L6)."""
        return self.rule(IrregularityKind.DOUBLE_DRAW)

    def unheard_rule(self, kind: IrregularityKind) -> IrregularityRule:
        """Ruling 24: a card that left the shoe while the shoe was unheard (its draw counter
        jumped across a link loss, a reboot or the daemon down) is what it would have been had
        the shoe been heard: `kind`'s own rule (a missing card held under §5.2 of the game for
        the supervisor to key in), cited "<its clause> (ruling 24)"."""
        rule = self.rule(kind)
        return replace(rule, clause=f"{rule.clause} ({UNHEARD_RULING})")

    def start(self, decks: int | None = None, spots: tuple[int, ...] = ()) -> RoundState:
        decks = self.default_decks if decks is None else decks
        if decks not in self.deck_counts:
            raise ValueError(f"{self.key} is played with {self.deck_counts[0]}-{self.deck_counts[-1]} decks, not {decks}")
        return RoundState(game=self.key, decks=decks, spots=tuple(sorted(spots)))

    @abstractmethod
    def max_cards(self, spots: tuple[int, ...] = ()) -> int:
        """The most cards a round with these live spots can take from the shoe
        (the controller checks the shoe holds that many before dealing: §5.5)."""

    @abstractmethod
    def next_step(self, state: RoundState) -> Step:
        """Who gets the next card, whose decision is awaited, or Complete."""

    @abstractmethod
    def with_card(self, state: RoundState, card: Card) -> RoundState:
        """The state after `card` leaves the shoe; raises Irregular (extra or foreign card)."""

    def with_decision(self, state: RoundState, spot: int, decision: str) -> RoundState:
        raise Irregular(self.rule(IrregularityKind.BAD_DECISION), f"{self.key} takes no decisions")

    def default_decision(self, state: RoundState, spot: int) -> str | None:
        """The decision taken when none is given (Pai Gow: the House Way); None = must ask."""
        return None

    @abstractmethod
    def result(self, state: RoundState) -> RoundResult:
        """The decided round; raises Irregular (missing card) when the round is not complete."""
