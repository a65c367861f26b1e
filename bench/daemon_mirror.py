"""For the daemon benchmarks: what a clean dealer does at a table, step by step, with a local
Table (the daemon's own, pure code) following the same inputs, so a benchmark knows before
each card whether the daemon's lamps will change and whether a durable record comes with it,
and how many cards each round takes.

    steps = dealer_steps(mirror_table(config), shoes=[cards], rounds=10)
    for step in steps: ...    # Step("press", "place_bets") / Step("card", card=Card) / ...

The benchmark carries each step out on a simulation.rig.Rig (the real daemon process).
"""
from __future__ import annotations

import pathlib
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from controller.config import load_config  # noqa: E402
from controller.config.table_settings import table_settings  # noqa: E402
from controller.table import Journal, Lamps, Publish, Reply, Table  # noqa: E402
from controller.table import inputs as i  # noqa: E402
from firmware_bridge.sim.shoe import shuffled_shoe  # noqa: E402
from games.cards import Card, DeckKind  # noqa: E402
from simulation.rig.dealer import plain_decision  # noqa: E402

CARD_STATES = ("bets_closed", "dealing", "drawing")


@dataclass
class Step:
    kind: str  # "press" (a panel command), "decide", "card", "load" (a new shoe/deck into the sim)
    name: str = ""
    args: dict = field(default_factory=dict)
    card: Card | None = None
    counter: int = 0  # the card's draw counter
    cards: list | None = None  # for "load"
    effects: list = field(default_factory=list)
    lamps_changed: int = 0  # lamps whose pattern this step changes (one LAMP_SET frame each)
    lamp_changes: dict = field(default_factory=dict)  # those lamps: name -> new pattern name

    @property
    def lamps_change(self) -> bool:
        return self.lamps_changed > 0

    @property
    def durable(self) -> bool:
        return any(isinstance(e, Journal) and e.durable for e in self.effects)

    @property
    def published(self) -> list[str]:
        return [e.event["event"] for e in self.effects if isinstance(e, Publish)]

    @property
    def ok(self) -> bool:
        return next((e.ok for e in self.effects if isinstance(e, Reply)), True)


def mirror_table(config_path) -> Table:
    config = load_config(config_path)
    return Table(config.game, config.decks, table_settings(config))


def shoe_cards(deck_kind: str, decks: int, seed: int) -> list[Card]:
    return shuffled_shoe(DeckKind(deck_kind), decks, seed)


class Dealer:
    """Feeds the mirror; yields each step with the mirror's effects. The draw counter runs on
    across shoes as the shoe simulator's does."""

    def __init__(self, table: Table, counter: int = 0):
        self.table, self.counter = table, counter
        self.cards: list[Card] = []
        self.position = 0
        self.picture = table.snapshot()["lamps"]  # what the daemon shows at start

    def _do(self, step: Step, inp) -> Step:
        step.effects = self.table.handle(inp)
        if not step.ok:
            raise RuntimeError(f"the mirror refused {step.kind} {step.name}: {step.effects[-1]}")
        for effect in step.effects:
            if isinstance(effect, Lamps):
                changes = {k: v for k, v in effect.states.items() if self.picture.get(k) != v}
                step.lamps_changed += len(changes)
                step.lamp_changes.update(changes)
                self.picture = dict(effect.states)
        return step

    def press(self, name: str, **args) -> Step:
        return self._do(Step("press", name, args), i.Command(name, args, source="panel"))

    def load(self, cards: list[Card]) -> Step:
        self.cards, self.position = list(cards), 0
        return Step("load", cards=[str(c) for c in cards])

    def next_card(self) -> Step:
        card = self.cards[self.position]
        self.position += 1
        self.counter += 1
        return self._do(Step("card", card=card, counter=self.counter), i.Card(card.code, self.counter))

    def shoe(self, cards: list[Card]) -> Iterator[Step]:
        yield self.load(cards)
        yield self.press("new_shoe")
        while self.table.shoe.burning:
            yield self.next_card()

    def round(self) -> Iterator[Step]:
        yield self.press("place_bets")
        yield self.press("no_more_bets")
        while self.table.state in CARD_STATES or self.table.state == "awaiting_decisions":
            if self.table.state == "awaiting_decisions":
                awaited = self.table.play.awaited()
                decision = plain_decision(awaited.spot, list(awaited.options))
                step = Step("decide", "decide", {"spot": awaited.spot, "decision": decision})
                yield self._do(step, i.Command("decide", step.args, source="socket"))
            else:
                yield self.next_card()
        if self.table.state != "result":
            raise RuntimeError(f"round {self.table.play.number} ended {self.table.state}, not with a result")
        yield self.press("confirm")

    def room_for_a_round(self, most: int, cut_card: int | None) -> bool:
        end = cut_card if cut_card is not None else len(self.cards)
        return self.position + most <= end


def draw_planned(rig, step: Step, pace: float, timeout: float | None = None) -> dict:
    """Step `step`'s card out of the rig's shoe simulator after `pace` seconds, checked against
    the plan, once the daemon has handled it (its `card` event; a burn card has none, so its
    status); returns the simulator's reply (`written_at`: when the CARD frame went out)."""
    mark = rig.events.mark()
    time.sleep(pace)
    reply = rig.shoe.command("draw", n=1)
    (drawn,) = reply["drawn"]
    assert drawn["card"] == str(step.card) and drawn["counter"] == step.counter, (drawn, step)
    if "card" in step.published:
        rig.events.wait_for("card", after=mark, draw_counter=step.counter,
                            **({} if timeout is None else {"timeout": timeout}))
    else:  # not in a measured round: the status poll runs there
        rig.wait_for_counter(step.counter)
    return reply
