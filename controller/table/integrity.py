"""The shoe integrity checks at the table, and their consequence (local ruling L7).

`ShoeIntegrity` owns the ShoeWatch (games.integrity): the openings of the shoes dealt before,
which the daemon reads from the journal at start-up and hands in (`IntegrityStart`), and the
shoe in play, fed every card that leaves it (the burn included; not a card dealt again out of
a hold, nor one keyed in by the supervisor). On a deck-per-round table each deck is a shoe.

An alarm is journaled as an `irregularity` (kind `shoe_integrity`, clause "local ruling L7",
consequence `block`, the alarm as evidence) and published. The round in progress completes
normally. The alarm then waits until the supervisor, with the key, accepts the shoe
(`accept_shoe`: a `shoe` record, event `accepted`, naming the alarms it answers) or calls a new
shoe (`new_shoe`, whose record names them too); meanwhile no round opens (`refusal`) and the
lamps show it (controller.table.lamps).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.journal.kinds import RecordKind
from controller.table.output import Out
from controller.table.settings import TableSettings
from controller.table.shoe import Shoe
from games.cards import Card
from games.integrity import BLOCK, CLAUSE, IRREGULARITY_KIND, Alarm, ShoeHistory, ShoeWatch
from games.round import Game


@dataclass(frozen=True)
class IntegrityStart:
    """What the journal tells the checks at start-up (controller.journal.shoes.shoe_history):
    the shoes dealt before, and the shoe (or deck) in play, to resume."""

    history: ShoeHistory  # read with the table's history_shoes as its limit: it keeps to it as shoes are added
    label: str | None = None  # the shoe in play as the journal labels it ("shoe 4", "shoe 1 deck 7"); None: none
    deck: int = 0  # its deck within the shoe number on a deck-per-round table (0: a whole shoe)
    cards: tuple[tuple[Card | None, int | None], ...] = ()  # its cards so far (None: unread), with draw counters
    cards_to_deal: int | None = None  # the most cards it can deal (a deck per round: the round's)


def answered(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The alarms an answer names: check, shoe, the places and draw counters of the evidence."""
    out = []
    for record in records:
        evidence = record.get("evidence") or {}
        out.append({"check": record.get("check"), "shoe": evidence.get("shoe"), "round": record.get("round"),
                    "positions": evidence.get("positions"), "draw_counters": evidence.get("draw_counters")})
    return out


class ShoeIntegrity:
    def __init__(self, game: Game, decks: int, settings: TableSettings, shoe: Shoe):
        self.game, self.decks, self.shoe = game, decks, shoe
        self.false_alarm_rate = settings.false_alarm_rate
        self.watch = ShoeWatch(game.deck_kind, decks, ShoeHistory(limit=settings.history_shoes), self.false_alarm_rate)
        self.deck = 0  # the deck in play within the shoe number (deck per round)
        self.waiting: list[dict[str, Any]] = []  # the irregularity records of alarms not answered yet

    # ------------------------------------------------------------ shoes
    def new_shoe(self) -> list[dict[str, Any]]:
        """A new shoe is in (after Shoe.load): it answers every alarm waiting (returned, for its
        record); the shoe before joins the history."""
        answers, self.waiting = answered(self.waiting), []
        self.deck = 0
        self.watch.new_shoe(f"shoe {self.shoe.number}")
        return answers

    def new_deck(self, cards_to_deal: int) -> None:
        """Deck per round: the round about to open gets a fresh deck, a shoe of its own."""
        self.deck += 1
        self.watch.new_shoe(f"shoe {self.shoe.number} deck {self.deck}", cards_to_deal)

    def accept(self) -> list[dict[str, Any]]:
        """The supervisor accepts the shoe: the alarms waiting are answered (returned)."""
        answers, self.waiting = answered(self.waiting), []
        return answers

    # ------------------------------------------------------------ cards
    def on_card(self, out: Out, card: Card | None, draw_counter: int | None, round_no: int | None,
                state: str) -> None:
        """A card left the shoe (None: unread or not a card): any alarm it raises is journaled."""
        if self.watch.label is None:  # no shoe is watched (none declared since the start)
            return
        for alarm in self.watch.feed(card, draw_counter):
            self._raise(out, alarm, round_no, state)

    def _raise(self, out: Out, alarm: Alarm, round_no: int | None, state: str) -> None:
        record: dict[str, Any] = {
            "round": round_no, "kind": IRREGULARITY_KIND, "clause": alarm.clause, "consequence": BLOCK,
            "detail": alarm.detail, "evidence": alarm.to_json(), "state": state, "check": alarm.check.value,
            "shoe": self.shoe.number,
        }
        out.journal(RecordKind.IRREGULARITY, record)
        out.publish("irregularity", **record)
        self.waiting.append(record)

    # ------------------------------------------------------------ after a restart
    def restore(self, out: Out, start: IntegrityStart, fired: Sequence[str], waiting: Sequence[Mapping[str, Any]],
                round_no: int | None, state: str) -> None:
        """Take up from the journal: the history, the shoe in play fed again (`fired`: the checks
        whose alarm the journal holds for it; any other alarm its cards raise now, under this
        configuration, is journaled), and the alarms journaled and never answered, which still block."""
        self.watch = ShoeWatch(self.game.deck_kind, self.decks, start.history, self.false_alarm_rate)
        self.waiting = [dict(record) for record in waiting]
        self.deck = start.deck
        if start.label is None:
            return
        self.watch.new_shoe(start.label, start.cards_to_deal)
        for alarm in self.watch.resume(start.cards, fired):
            self._raise(out, alarm, round_no, state)

    # ------------------------------------------------------------ what the others ask
    @property
    def blocked(self) -> bool:
        return bool(self.waiting)

    def refusal(self) -> str | None:
        """Why no round may open (L7), or None."""
        if not self.waiting:
            return None
        checks = sorted({str(record.get("check")) for record in self.waiting})
        shoe = (self.waiting[0].get("evidence") or {}).get("shoe") or f"shoe {self.shoe.number}"
        return (f"{CLAUSE}: {shoe} failed the integrity check{'s' if len(checks) > 1 else ''} {', '.join(checks)} "
                f"({self.waiting[0].get('detail')}): no new round until the supervisor, with the key, accepts "
                "the shoe (accept_shoe) or calls a new shoe (new_shoe)")

    def snapshot(self) -> dict[str, Any]:
        return {
            "shoe": self.watch.label, "blocked": self.blocked, "why": self.refusal(),
            "waiting": [{key: record.get(key) for key in ("check", "round", "detail")}
                        | {"probability": (record.get("evidence") or {}).get("probability")} for record in self.waiting],
            "checks_fired": [alarm.check.value for alarm in self.watch.alarms],
            "history": self.watch.history.shoes, "false_alarm_rate": str(self.false_alarm_rate),
        }
