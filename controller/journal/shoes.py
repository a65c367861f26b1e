"""The shoes the journal has seen: every card in the order it left the shoe, per load.

A *load* is what went into the shoe at once: a shoe (`shoe` record, event `new`) or, on a
deck-per-round table, one deck (`new_deck`). The integrity checks work per load; a shoe report
covers a shoe number with all its loads.

    for load in iter_loads(path):        # oldest first, streamed
        load.label, load.game, load.decks, load.cards, load.cut_after
    history, last = shoe_history(path)   # games.integrity.ShoeHistory of every load but the last

A card's place is its record's place. Burn cards are `card` records (status `burn`) or, in older
journals, listed in the `burn`/`burn_done` shoe event. A card keyed in by the supervisor for an
unread one (`keyed_in`) fills the first unread place of the load; a card dealt again from a hold
(`reconstructed`, not keyed in) is not a new card.
"""
from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.journal.kinds import SHOE_STARTS, RecordKind, ShoeEvent
from controller.journal.readonly import reading
from controller.journal.records import COLUMNS, Record, record_from_row
from controller.journal.store import Journal
from games.cards import Card, CardError, parse_card
from games.integrity import ShoeHistory
from games.integrity.openings import DEPTH
from games.registry import GAME_KEYS, get_game

READ_KINDS = (RecordKind.SHOE, RecordKind.CARD, RecordKind.ROUND_OPENED, RecordKind.DAEMON_STARTED)


@dataclass
class ShoeCard:
    seq: int
    at: str
    card: str | None  # None: unread (and not keyed in since)
    status: str | None  # "burn", "dealt", "extra", "misread", ...
    round: int | None
    hand: str | None
    position: int | None
    draw_counter: int | None
    keyed_in: bool = False  # the face was keyed in by the supervisor afterwards

    @property
    def burn(self) -> bool:
        return self.status == "burn"

    def parsed(self) -> Card | None:
        """The card, or None when unread or not a card tablectl knows."""
        try:
            return None if self.card is None else parse_card(self.card)
        except CardError:
            return None

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "card": self.card, "status": self.status, "round": self.round, "hand": self.hand,
                "position": self.position, "draw_counter": self.draw_counter, "keyed_in": self.keyed_in}


@dataclass
class ShoeLoad:
    shoe: int | None  # the shoe number
    deck: int  # 0: a whole shoe; 1, 2, ...: the decks of a deck-per-round table within the shoe number
    start_seq: int
    started_at: str
    game: str | None
    decks: int | None
    cards: list[ShoeCard] = field(default_factory=list)
    cut_after: int | None = None  # cards out of this load when the cut card came out
    spots: list[int] = field(default_factory=list)  # the live spots of its rounds (the most seen)
    rounds: list[int] = field(default_factory=list)
    end_seq: int = 0  # the last record read before the next load began

    @property
    def label(self) -> str:
        shoe = f"shoe {self.shoe}" if self.shoe is not None else f"load at record {self.start_seq}"
        return shoe if not self.deck else f"{shoe} deck {self.deck}"

    def card_list(self) -> list[Card | None]:
        return [c.parsed() for c in self.cards]

    def cards_to_deal(self) -> int | None:
        """The most cards this load could deal: a deck per round deals one round; a shoe, all."""
        if not self.deck or self.game not in GAME_KEYS:
            return None
        return get_game(self.game).max_cards(tuple(self.spots))

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "shoe": self.shoe, "deck": self.deck, "start_seq": self.start_seq,
                "started_at": self.started_at, "game": self.game, "decks": self.decks, "cut_after": self.cut_after,
                "rounds": self.rounds, "spots": self.spots, "cards": [c.to_json() for c in self.cards]}


def iter_loads(source: Journal | str | os.PathLike, since: int = 0) -> Iterator[ShoeLoad]:
    """Every load in the journal, oldest first (records after `since`). Streams the records."""
    with reading(source) as conn:
        marks = ",".join("?" * len(READ_KINDS))
        rows = conn.execute(f"SELECT {COLUMNS} FROM records WHERE kind IN ({marks}) AND seq > ? ORDER BY seq",
                            (*READ_KINDS, since))
        yield from fold_loads(record_from_row(row) for row in rows)


def fold_loads(records: Iterable[Record], game: str | None = None, decks: int | None = None,
               deck_in_shoe: int = 0) -> Iterator[ShoeLoad]:
    """Loads from records in seq order (kinds other than READ_KINDS are ignored). `game`,
    `decks`, `deck_in_shoe`: what the records before these said (when reading from the middle)."""
    load: ShoeLoad | None = None
    for record in records:
        p = record.payload
        if record.kind == RecordKind.DAEMON_STARTED:
            game, decks = p.get("game", game), p.get("decks", decks)
        elif record.kind == RecordKind.ROUND_OPENED:
            game, decks = p.get("game", game), p.get("decks", decks)
            if load is not None:
                load.game, load.decks = game, decks
                load.rounds.append(record.round or 0)
                spots = list(p.get("spots") or [])
                load.spots = spots if len(spots) > len(load.spots) else load.spots
        elif record.kind == RecordKind.SHOE and p.get("event") in SHOE_STARTS:
            if load is not None:
                yield load
            deck_in_shoe = 0 if p.get("event") == ShoeEvent.NEW else deck_in_shoe + 1
            load = ShoeLoad(p.get("shoe"), deck_in_shoe, record.seq, record.at, game, decks)
        elif load is not None:
            _apply(load, record, p)
        if load is not None:
            load.end_seq = record.seq
    if load is not None:
        yield load


def _apply(load: ShoeLoad, record: Record, p: Mapping[str, Any]) -> None:
    if record.kind == RecordKind.CARD:
        if p.get("keyed_in") and p.get("card"):
            unread = next((c for c in load.cards if c.card is None), None)
            if unread is not None:
                unread.card, unread.keyed_in = p["card"], True
            return
        if p.get("reconstructed"):
            return
        load.cards.append(ShoeCard(record.seq, record.at, p.get("card"), p.get("status"), record.round,
                                   p.get("hand"), p.get("position"), p.get("draw_counter")))
    elif record.kind == RecordKind.SHOE:
        event = p.get("event")
        if event in (ShoeEvent.BURN, ShoeEvent.BURN_DONE):
            for card in p.get("cards") or []:  # burn cards listed in the event (not card records)
                load.cards.append(ShoeCard(record.seq, record.at, card, "burn", None, None, None, None))
        elif event == ShoeEvent.CUT_CARD and not p.get("ignored") and load.cut_after is None:
            load.cut_after = len(load.cards)


def current_load_start(source: Journal | str | os.PathLike) -> int | None:
    """The seq of the record that began the shoe (or deck) in the shoe now, None before any."""
    with reading(source) as conn:
        starts = _load_starts(conn, 1)
    return starts[-1][0] if starts else None


def last_game(source: Journal | str | os.PathLike) -> tuple[str, int] | None:
    """(game, decks) of the last round opened (else of the last daemon start); None if neither."""
    with reading(source) as conn:
        for query in ("SELECT payload FROM records WHERE kind = 'round_opened' ORDER BY round DESC LIMIT 1",
                      "SELECT payload FROM records WHERE kind = 'daemon_started' ORDER BY seq DESC LIMIT 1"):
            row = conn.execute(query).fetchone()
            if row:
                payload = json.loads(row[0])
                if payload.get("game") in GAME_KEYS and isinstance(payload.get("decks"), int):
                    return payload["game"], payload["decks"]
    return None


def shoe_history(source: Journal | str | os.PathLike, depth: int = DEPTH,
                 keep: int | None = None) -> tuple[ShoeHistory, ShoeLoad | None]:
    """The integrity checks' memory of the table: every load but the last, in order (with
    `keep`, a history that keeps only the `keep` most recent, as it will while the daemon runs,
    and the load before the last whatever `keep` is); and the last load (the shoe in progress,
    to resume), whole. Of the loads before the last two only the opening is read (the replay
    index keeps `depth` cards a shoe; the slug check needs the previous load whole), so a
    start-up reads a few dozen records a shoe, not the journal; with `keep` it reads the
    journal's shoe records backwards only as far as the oldest load kept."""
    history = ShoeHistory(depth, keep)
    last: ShoeLoad | None = None
    with reading(source) as conn:
        starts = _load_starts(conn, None if keep is None else max(keep, 1) + 1)
        game, decks = _game_before(conn, starts[0][0]) if starts else (None, None)
        deck_in_shoe = 0
        for n, (start, _) in enumerate(starts):
            end = starts[n + 1][0] if n + 1 < len(starts) else None
            whole = n >= len(starts) - 2
            query = f"SELECT {COLUMNS} FROM records WHERE seq >= ?" + ("" if end is None else " AND seq < ?")
            query += f" AND kind IN ({','.join('?' * len(READ_KINDS))}) ORDER BY seq"
            args: list[Any] = [start] + ([] if end is None else [end]) + list(READ_KINDS)
            if not whole:  # the opening: the cards, their burn and round records, a keyed-in card or two
                query += " LIMIT ?"
                args.append(2 * depth + 24)
            rows = conn.execute(query, args)
            # the game: its own first round says (in the opening read), else the load before's
            load = next(fold_loads((record_from_row(row) for row in rows), game, decks, deck_in_shoe))
            game, decks, deck_in_shoe = load.game, load.decks, load.deck
            if last is not None:
                add_to_history(history, last)
            last = load
    return history, last


def _game_before(conn: sqlite3.Connection, seq: int) -> tuple[str | None, int | None]:
    """(game, decks) as the last daemon start or round opened before `seq` said."""
    row = conn.execute("SELECT payload FROM records WHERE seq < ? AND kind IN ('daemon_started', 'round_opened') "
                       "ORDER BY seq DESC LIMIT 1", (seq,)).fetchone()
    payload = json.loads(row[0]) if row else {}
    return payload.get("game"), payload.get("decks")


def _load_starts(conn: sqlite3.Connection, last: int | None = None) -> list[tuple[int, str]]:
    """(seq, event) of every record that began a load, oldest first (the shoe_events index);
    with `last`, only the last that many, read from the newest backwards."""
    out: list[tuple[int, str]] = []
    if last is not None and last <= 0:
        return out
    for seq, payload in conn.execute("SELECT seq, payload FROM records WHERE kind = 'shoe' ORDER BY seq DESC"):
        event = json.loads(payload).get("event")
        if event in SHOE_STARTS:
            out.append((seq, event))
            if last is not None and len(out) >= last:
                break
    return out[::-1]


def add_to_history(history: ShoeHistory, load: ShoeLoad) -> None:
    if load.game in GAME_KEYS and load.decks:
        history.add(load.label, get_game(load.game).deck_kind, load.decks, load.card_list())
