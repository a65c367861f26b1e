"""Rounds held for the supervisor or for the shoe, and the rules the table itself applies.

A hold freezes the round where it stood: cards that leave the shoe meanwhile wait in
`pending` and are dealt, in order, once the hold is resolved. What resolves it (`need`):
  card     the supervisor keys in the unread card(s) (a misread, local ruling L5; a card the
           shoe's counter says left unheard, while heard or not: ruling 24, where the game
           holds a missing card)
  order    the supervisor confirms the order of cards drawn together (local ruling L6)
  confirm  the supervisor confirms the hands were reconstructed (§5.2 of the game), or, for
           a card disputed on the shoe's line (local ruling L8), match the cards on the table
  counter  the shoe comes back and its draw counter speaks (local ruling L4): it resumes the
           round, and any card it shows unheard is then judged as if heard (ruling 24)
If it cannot be resolved the round is void under `void_rule`.

The hold is journaled whole, in its irregularity record's `hold` field (`Hold.to_journal`),
and every card that joins it later has its own `held` card record: after a restart the table
rebuilds the same hold from the journal (`hold_from_journal`, controller.table.recovery).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from controller.table.arrival import Arrival
from games.cards import CardError
from games.round import Consequence, Game, IrregularityRule
from games.round import IrregularityKind as K

NEEDS = ("card", "order", "confirm", "counter")
# What the supervisor must do to resume a hold, by the kind that caused it (default: confirm).
_NEED = {K.MISREAD: "card", K.DOUBLE_DRAW: "order", K.DEVICE_LOST: "counter"}


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

    def to_journal(self) -> dict:
        """The whole hold, for its irregularity record: `hold_from_journal` rebuilds it."""
        return {"kind": self.rule.kind.value, "clause": self.rule.clause, "detail": self.detail, "need": self.need,
                "keyed": self.keyed, "resume_to": self.resume_to, "void_kind": self.void_rule.kind.value,
                "void_clause": self.void_rule.clause, "pending": [a.to_journal() for a in self.pending]}


def hold_from_journal(game: Game, data: Mapping) -> Hold:
    """The hold `Hold.to_journal` wrote (its `pending` extended by the `held` cards journaled
    since). ValueError says what the journal cannot prove: a rule the game does not name, a
    void clause other than the one the rule gives, a malformed card."""
    try:
        kind = K(data["kind"])
        need, keyed, resume_to = str(data["need"]), int(data["keyed"]), str(data["resume_to"])
        pending = [Arrival.from_journal(a) for a in data["pending"]]
        detail, void_clause = str(data["detail"]), data["void_clause"]
    except (KeyError, TypeError, ValueError, CardError) as err:
        raise ValueError(f"the journaled hold is incomplete or malformed ({type(err).__name__}: {err})") from None
    named = [*game.irregularities.values(), *(game.unheard_rule(k) for k in game.irregularities),
             game.double_draw_rule(True), game.double_draw_rule(False)]
    rule = next((r for r in named if r.kind is kind and r.clause == data["clause"]
                 and r.consequence is Consequence.HOLD), None)
    if rule is None:
        raise ValueError(f"the journaled hold cites {kind.value} ({data['clause']}), which is no hold {game.key} names")
    if need not in NEEDS or need != _need(rule, keyed) or not 0 <= keyed <= len(pending):
        raise ValueError(f"the journaled hold waits for {need!r} with {keyed} card(s) to key in, "
                         f"which {rule.clause} does not give")
    hold = Hold(rule, detail, need, resume_to, _void_rule(game, rule), pending, keyed)
    if hold.void_rule.clause != void_clause:
        raise ValueError(f"the journaled hold's void cites {void_clause}, not {hold.void_rule.clause}")
    return hold


def _need(rule: IrregularityRule, keyed: int) -> str:
    return "card" if keyed else _NEED.get(rule.kind, "confirm")


def _void_rule(game: Game, rule: IrregularityRule) -> IrregularityRule:
    """What a void out of a hold under `rule` cites."""
    if rule.kind is K.MISREAD:
        return order_altered_via(game, "local ruling L5")
    if rule.kind in (K.DOUBLE_DRAW, K.CARD_DISPUTED):
        return order_altered_via(game, rule.clause)
    if rule.kind is K.DEVICE_LOST:
        return device_lost_void(game)
    return as_void(rule)


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
        # the cards of a resolved hold still to be dealt after the one being dealt now: a new
        # hold on the way takes them, in order (controller.table.cards CardFlow.drain)
        self.queued: list[Arrival] = []

    def start(self, rule: IrregularityRule, detail: str, state: str, pending: list[Arrival], keyed: int) -> Hold:
        """Hold the round where it stands (`state`) for what `rule` asks; `keyed` unread cards
        at the front of `pending` are for the supervisor to key in."""
        self.current = Hold(rule, detail, _need(rule, keyed), state, _void_rule(self.game, rule),
                            [*pending, *self.queued], keyed)
        self.queued = []
        return self.current

    def restore(self, hold: Hold) -> None:
        """The hold in force when the daemon stopped (`hold_from_journal`)."""
        self.current = hold

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
