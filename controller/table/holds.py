"""Rounds held for the supervisor or for the shoe, and the rules the table itself applies.

A hold freezes the round where it stood: cards that leave the shoe meanwhile wait in
`pending` and are dealt, in order, once the hold is resolved. What resolves it (`need`):
  card     the supervisor keys in the unread card(s) (a misread, local ruling L5; a card the
           shoe's counter says left unheard, while heard or not: ruling 24, where the game
           holds a missing card)
  order    the supervisor confirms the order of cards drawn together (local ruling L6)
  confirm  the supervisor confirms the hands were reconstructed (§5.2 of the game)
  counter  the shoe comes back and its draw counter speaks (local ruling L4): it resumes the
           round, and any card it shows unheard is then judged as if heard (ruling 24)
If it cannot be resolved the round is void under `void_rule`.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from games.cards import Card
from games.round import Consequence, Game, IrregularityRule
from games.round import IrregularityKind as K

NEEDS = ("card", "order", "confirm", "counter")
# What the supervisor must do to resume a hold, by the kind that caused it (default: confirm).
_NEED = {K.MISREAD: "card", K.DOUBLE_DRAW: "order", K.DEVICE_LOST: "counter"}


@dataclass(frozen=True)
class Arrival:
    """A card as it left the shoe, decoded: `card` is None when it was not read."""

    code: int
    card: Card | None
    draw_counter: int | None
    double_draw: bool = False
    misread: bool = False
    foreign: str | None = None  # why the card cannot be in this shoe (not of the deck, one copy too many)
    replayed: bool = False  # already counted out of the shoe and journaled (it waited in a hold)
    keyed_in: bool = False  # named by the supervisor for a card the shoe did not read

    @property
    def text(self) -> str | None:
        return None if self.card is None else str(self.card)

    @property
    def label(self) -> str:
        """The card in a message: its name, or "an unread card"."""
        return self.text or "an unread card"

    def to_json(self) -> dict:
        return {"card": self.text, "code": self.code, "draw_counter": self.draw_counter,
                "double_draw": self.double_draw, "misread": self.misread}


@dataclass
class Hold:
    rule: IrregularityRule  # why the round is held
    detail: str
    need: str  # one of NEEDS
    resume_to: str  # the round state to go back to
    void_rule: IrregularityRule  # what a void out of this hold cites
    pending: list[Arrival] = field(default_factory=list)  # cards drawn meanwhile (and the held ones)
    keyed: int = 0  # need "card": how many unread cards at the front of `pending` the supervisor keys in

    def to_json(self) -> dict:
        return {
            "kind": self.rule.kind.value, "clause": self.rule.clause, "detail": self.detail,
            "need": self.need, "keyed": self.keyed, "resume_to": self.resume_to, "void_clause": self.void_rule.clause,
            "pending": [a.text for a in self.pending],
        }


def derived(rule: IrregularityRule, ruling: str, consequence: Consequence | None = None,
            summary: str | None = None, kind: K | None = None) -> IrregularityRule:
    """`rule` cited through a local ruling: clause "local ruling L4, fafa §5.4"."""
    clause = rule.clause if rule.clause.startswith(ruling) else f"{ruling}, {rule.clause}"
    return IrregularityRule(kind or rule.kind, clause, consequence or rule.consequence, summary or rule.summary)


def order_altered_via(game: Game, ruling: str) -> IrregularityRule:
    """The void out of a misread (L5) or double-draw (L6) hold: order altered (§5.4)."""
    return derived(game.rule(K.ORDER_ALTERED), ruling, Consequence.VOID)


def device_lost_void(game: Game) -> IrregularityRule:
    """Local ruling L4: the shoe's counter cannot prove the order of the cards (it went back,
    it has none, the round does not replay, or the shoe never came back): order altered (§5.4).
    A counter that moved on is no void of L4's: those cards are judged as if heard (ruling 24)."""
    return derived(game.rule(K.ORDER_ALTERED), "local ruling L4", Consequence.VOID)


def as_void(rule: IrregularityRule) -> IrregularityRule:
    return rule if rule.consequence is Consequence.VOID else replace(rule, consequence=Consequence.VOID)


class Holding:
    """The hold on the round in play, if any, and whether it is being resolved now (the
    round machine's `hold_resolved` guard)."""

    def __init__(self, game: Game):
        self.game = game
        self.current: Hold | None = None
        self.resolving = False

    def start(self, rule: IrregularityRule, detail: str, state: str, pending: list[Arrival], keyed: int) -> Hold:
        """Hold the round where it stands (`state`) for what `rule` asks; `keyed` unread cards
        at the front of `pending` are for the supervisor to key in."""
        need = "card" if keyed else _NEED.get(rule.kind, "confirm")
        if rule.kind is K.MISREAD:
            void_rule = order_altered_via(self.game, "local ruling L5")
        elif rule.kind is K.DOUBLE_DRAW:
            void_rule = order_altered_via(self.game, rule.clause)
        elif rule.kind is K.DEVICE_LOST:
            void_rule = device_lost_void(self.game)
        else:
            void_rule = as_void(rule)
        self.current = Hold(rule, detail, need, state, void_rule, pending, keyed)
        return self.current

    @property
    def held(self) -> Hold:
        """The hold in force, where the round machine's state says the round is held."""
        if self.current is None:
            raise RuntimeError("the round is not held")
        return self.current

    def waits_for(self, need: str) -> bool:
        return self.current is not None and self.current.need == need

    @contextmanager
    def resolved(self) -> Iterator[Hold]:
        """While the round machine resumes: its guard lets the resume through."""
        assert self.current is not None
        self.resolving = True
        try:
            yield self.current
        finally:
            self.resolving = False

    def release(self) -> Hold | None:
        held, self.current = self.current, None
        return held
