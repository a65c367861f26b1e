"""The shoe: which cards are still in it, the burn, the cut card, its door, its draw counter.

Pure bookkeeping over the shoe machine (controller.table.machine.shoe_spec). Cards are
counted across the whole shoe, not just the round, so a ninth Ace of spades in eight decks is
caught even when the eight others came out in earlier rounds. The draw counter and what it
proves are the DrawCounter's (controller.table.draw_counter), which the shoe's records read.
"""
from __future__ import annotations

from collections.abc import Callable

from controller.journal.kinds import RecordKind, ShoeEvent
from controller.table import machine as m
from controller.table.draw_counter import DrawCounter
from controller.table.output import Out
from controller.table.settings import TableSettings
from games.cards import Card, DeckKind, card_from_code


class ShoeFlow:
    """The model the shoe machine drives (its `state`)."""

    state: str
    trigger: Callable[[str], bool]  # put on the model by transitions' Machine (machine.build)


class Shoe:
    def __init__(self, deck_kind: DeckKind, decks: int, settings: TableSettings, counter: DrawCounter):
        self.deck_kind, self.decks, self.settings = deck_kind, decks, settings
        self.counter = counter
        self.size = decks * len(deck_kind.cards)
        self.flow = ShoeFlow()
        self.machine = m.build(self.flow, *m.shoe_spec(settings.burn, settings.deck_per_round), initial=m.NO_SHOE)
        self.number = 0
        self.door_open = False
        self._fresh()

    def _fresh(self) -> None:
        self.composition = self.deck_kind.shoe(self.decks)
        self.drawn = 0  # cards out of the shoe, known or not
        self.unknown = 0  # cards out whose face is unknown (misread, or a gap in the counter)
        self.burn_card: Card | None = None
        self.burn_remaining: int | None = None  # None while the first burn card is unknown
        self.burned = 0
        self.cut_card_seen = False
        self.rounds_left: int | None = None  # rounds still to play once the cut card is seen

    # ------------------------------------------------------------ lifecycle

    @property
    def state(self) -> str:
        return self.flow.state

    def load(self) -> None:
        """A new shoe (or, on a deck-per-round table, the first deck) is in."""
        self.number += 1
        self._fresh()
        self.flow.trigger("load")

    def new_deck(self) -> None:
        """Deck per round: the round about to open gets a whole fresh deck."""
        self._fresh()

    def remove(self) -> None:
        self.flow.trigger("remove")

    @property
    def burning(self) -> bool:
        return self.state == m.BURNING

    @property
    def in_play(self) -> bool:
        return self.state in (m.IN_PLAY, m.CUT_CARD)

    @property
    def remaining(self) -> int:
        return self.size - self.drawn

    def burn_value(self, card: Card) -> int:
        """How many cards the first burn card calls for: ace 1, two to nine face value,
        tens, pictures and the joker `burn_picture_value`."""
        return card.rank if 1 <= card.rank <= 9 else self.settings.burn_picture_value

    def burn(self, card: Card | None) -> None:
        """A burn card came out (`None`: unread). The first sets the count."""
        if self.burned == 0:
            self.burn_card = card
            self.burn_remaining = None if card is None else self.burn_value(card)
        elif self.burn_remaining is not None:
            self.burn_remaining -= 1
        self.burned += 1
        self._check_burn_done()

    def key_in_burn_card(self, card: Card) -> None:
        """The supervisor names the unread first burn card: the count follows from it."""
        self.burn_card = card
        self.burn_remaining = max(0, self.burn_value(card) - (self.burned - 1))
        self._check_burn_done()

    def _check_burn_done(self) -> None:
        if self.burn_remaining == 0 and self.burning:
            self.flow.trigger("burned")

    def see_cut_card(self, round_in_progress: bool) -> None:
        """Finish the round in progress (if any) and play `cut_card_rounds` more."""
        self.cut_card_seen = True
        self.rounds_left = self.settings.cut_card_rounds + (1 if round_in_progress else 0)
        self.flow.trigger("cut")
        if self.rounds_left == 0:
            self.flow.trigger("finish")

    def round_ended(self) -> None:
        if self.rounds_left is not None:
            self.rounds_left -= 1
            if self.rounds_left <= 0 and self.state == m.CUT_CARD:
                self.flow.trigger("finish")

    def finish(self) -> None:
        self.flow.trigger("finish")

    @property
    def last_round(self) -> bool:
        """The round in progress, or the next to open, is the last of this shoe."""
        return self.rounds_left == 1

    # ------------------------------------------------------------ cards

    def foreign_reason(self, card: Card) -> str | None:
        """Why `card` cannot be in this shoe, or None."""
        left = self.composition.get(card)  # every card of the deck has its count here (0 once all are out)
        if left is None:
            return f"{card} is not a card of the {self.deck_kind.value} deck"
        if left <= 0:
            held = self.decks
            return (f"{card} came out once more than the shoe holds "
                    f"({held} deck{'s' if held != 1 else ''} hold {held} cop{'ies' if held != 1 else 'y'})")
        return None

    def take(self, card: Card | None) -> None:
        """A card left the shoe (`None`: its face is unknown)."""
        self.drawn += 1
        if card is None:
            self.unknown += 1
        elif (left := self.composition[card]) > 0:
            self.composition[card] = left - 1

    def identify(self, card: Card) -> None:
        """An unknown card out of the shoe is now known (keyed in by the supervisor)."""
        if self.unknown > 0:
            self.unknown -= 1
        if self.composition[card] > 0:
            self.composition[card] -= 1

    def lose(self, count: int) -> None:
        """`count` cards left the shoe unheard (a gap in the draw counter)."""
        self.drawn += count
        self.unknown += count

    def restore(self, number: int, state: str, codes_out, **fields) -> None:
        """Back to what the journal knows after a crash: the shoe number and state, the codes
        of every known card out of it, and the counts (controller.table.recovery)."""
        if state not in self.machine.states:
            raise ValueError(f"shoe state {state!r} is not one of {', '.join(self.machine.states)}")
        self.number = number
        self._fresh()
        for code in codes_out:
            card = card_from_code(code)
            if self.composition[card] > 0:
                self.composition[card] -= 1
        burn_card = fields.pop("burn_card", None)
        self.burn_card = None if burn_card is None else card_from_code(burn_card)
        for name in ("drawn", "unknown", "burned", "burn_remaining", "cut_card_seen", "rounds_left"):
            if name in fields:
                setattr(self, name, fields[name])
        self.machine.set_state(state)

    # ------------------------------------------------------------ records

    def brief(self) -> dict:
        """The shoe as every record that changes it carries it (`shoe_state`)."""
        return {"number": self.number, "state": self.state, "drawn": self.drawn, "unknown": self.unknown,
                "burned": self.burned, "burn_remaining": self.burn_remaining,
                "burn_card": None if self.burn_card is None else self.burn_card.code,
                "cut_card_seen": self.cut_card_seen, "rounds_left": self.rounds_left, "draw_counter": self.counter.last}

    def event(self, out: Out, event: ShoeEvent, durable: bool = False, **fields) -> None:
        """Journal and publish a `shoe` record: what happened to the shoe, and where it stands."""
        payload = {"event": event, **fields, "shoe": self.number, "shoe_state": self.brief()}
        out.journal(RecordKind.SHOE, payload, durable)
        out.publish("shoe", what=event, **fields, shoe=self.number, shoe_state=payload["shoe_state"])

    def snapshot(self) -> dict:
        return {
            "number": self.number, "state": self.state, "decks": self.decks, "size": self.size,
            "drawn": self.drawn, "remaining": self.remaining, "unknown": self.unknown,
            "burn_card": None if self.burn_card is None else str(self.burn_card),
            "burned": self.burned, "burn_remaining": self.burn_remaining,
            "cut_card_seen": self.cut_card_seen, "rounds_left": self.rounds_left,
            "last_round": self.last_round, "draw_counter": self.counter.last,
        }
