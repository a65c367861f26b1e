"""Deal a whole shoe through a Table as a dealer at a clean table would.

Used by bench/bench_table.py and the tests (and handy for a demo): new shoe, the burn, then
rounds (place bets, no more bets, the cards the game asks for, decisions, confirm) until the
shoe is finished or its cards run out. Pure: the cards are given, in shoe order.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from controller.journal.kinds import RecordKind as R
from controller.table import inputs as i
from controller.table import machine as m
from controller.table.effects import Effect, Journal, Reply
from games.cards import Card

Decider = Callable[[int, tuple[str, ...]], str | None]  # (spot, options) -> decision (None: the game's default)


@dataclass
class DealtShoe:
    results: list[dict] = field(default_factory=list)  # the `result` journal payloads, in order
    voids: list[dict] = field(default_factory=list)
    cards_fed: int = 0
    inputs: int = 0


def deal_shoe(table, cards: Sequence[Card], cut_at: int | None = None, decide: Decider | None = None,
              on_effects: Callable[[list[Effect]], None] | None = None) -> DealtShoe:
    """Play `cards` (shoe order) through `table`; the cut card shows after card `cut_at`."""
    dealt = DealtShoe()

    def feed(inp) -> Reply | None:
        effects = table.handle(inp)
        dealt.inputs += 1
        if on_effects is not None:
            on_effects(effects)
        for effect in effects:
            if isinstance(effect, Journal) and effect.kind in (R.RESULT, R.VOID):
                (dealt.results if effect.kind == R.RESULT else dealt.voids).append(dict(effect.payload))
        return next((e for e in effects if isinstance(e, Reply)), None)

    def command(name: str, args: dict | None = None) -> Reply:
        reply = feed(i.Command(name, args or {}))
        if reply is None:  # the table answers every command
            raise RuntimeError(f"{name}: the table gave no reply")
        return reply

    def draw() -> bool:
        if dealt.cards_fed >= len(cards):
            feed(i.ShoeEmpty())
            return False
        card = cards[dealt.cards_fed]
        dealt.cards_fed += 1
        feed(i.Card(card.code, dealt.cards_fed))
        if cut_at is not None and dealt.cards_fed == cut_at:
            feed(i.CutCard())
        return True

    feed(i.Command("new_shoe"))
    while table.shoe.burning and draw():
        pass
    while command("place_bets").ok:
        if not command("no_more_bets").ok:
            continue
        while table.state in (m.BETS_CLOSED, m.DEALING, m.DRAWING, m.AWAITING):
            if table.state == m.AWAITING:
                awaited = table.play.awaited()
                choice = decide(awaited.spot, awaited.options) if decide else None
                args = {"spot": awaited.spot} if choice is None else {"spot": awaited.spot, "decision": choice}
                if not command("decide", args).ok:
                    break
            elif not draw():
                break
        if table.state == m.RESULT:
            feed(i.Command("confirm"))
        if dealt.cards_fed >= len(cards):  # out of cards (a deck-per-round table never finishes its shoe)
            break
    return dealt
