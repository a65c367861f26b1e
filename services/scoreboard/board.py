"""`Board`: the table's story as the scoreboard shows it, folded from journal records in order.

The baccarat games: the current shoe's decided rounds make the roads
(games/baccarat/roads.py), the counts and the game's own counts; a void takes its round off
the roads (a result stands until the next round opens: an extra card under §5.2 and then the
supervisor's void can still undo it) and raises the banner with its clause. Fu Bacc and
Pai Gow have no roads: each spot's result and the recent rounds' history.

`apply(record)` says which parts changed ("board", "round"); `board_json()` and
`round_json()` are what the page draws. No I/O: the caller reads the journal.
"""
from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.journal import Record
from games.baccarat.engine import BaccaratGame
from games.baccarat.roads import Outcome, roads
from games.baccarat.round_marks import RoundMarks, game_event_names, round_marks
from games.cards import CardError, parse_cards
from games.registry import GAME_KEYS, get_game, get_table_profile
from games.table_profile import BOARD_LANGUAGES
from services.scoreboard.live_round import LiveRound

HISTORY = 20  # recent rounds kept for a spot game's history
BOARD, ROUND = "board", "round"


@dataclass(frozen=True)
class ShoeRound:
    """A decided round of the current shoe, on the roads unless a void takes it off."""

    round: int
    seq: int
    marks: RoundMarks
    result: dict[str, Any]


class Board:
    def __init__(self, game: str, table_name: str = "", lang: str = "en") -> None:
        self.table_name, self.lang = table_name, lang
        self.seq = 0  # the last record folded
        self.problems: list[str] = []  # records the board could not read (kept, shown, never fatal)
        self._start(game)

    def _start(self, game: str) -> None:
        spec = get_game(game)  # an unknown game is an error (UnknownGame), never another game
        self.game = game
        self.title = spec.title
        self.baccarat = isinstance(spec, BaccaratGame)
        self.live: LiveRound | None = None
        self.history: deque[dict[str, Any]] = deque(maxlen=HISTORY)
        self._new_shoe(None)

    def _new_shoe(self, number: int | None) -> None:
        self.shoe = number
        self.rounds: list[ShoeRound] = []
        self.voids: list[dict[str, Any]] = []
        self.last_void: dict[str, Any] | None = None
        self.cut_card = self.shoe_finished = False

    # ------------------------------------------------------------------ folding
    def apply(self, record: Record) -> set[str]:
        self.seq = record.seq
        handler = _HANDLERS.get(record.kind)
        if handler is None:
            return set()
        payload = record.payload
        try:
            return handler(self, record, payload)
        except (CardError, KeyError, TypeError, ValueError) as error:
            self.problems = [*self.problems[-9:], f"record {record.seq} ({record.kind}): {error}"]
            return {BOARD}

    def _daemon_started(self, record: Record, p: Mapping[str, Any]) -> set[str]:
        if p.get("game") and p["game"] != self.game:
            self._start(str(p["game"]))
            return {BOARD, ROUND}
        return set()

    def _shoe(self, record: Record, p: Mapping[str, Any]) -> set[str]:
        event = p.get("event")
        if event == "new":
            self._new_shoe(p.get("shoe"))
        elif event == "cut_card" and not p.get("ignored"):
            self.cut_card = True
        elif event == "finished":
            self.shoe_finished = True
        else:
            return set()
        return {BOARD}

    def _round_opened(self, record: Record, p: Mapping[str, Any]) -> set[str]:
        changed = {ROUND}
        if p.get("game") and p["game"] != self.game:
            self._start(str(p["game"]))
            changed.add(BOARD)
        if self.baccarat and p.get("shoe") is not None and p["shoe"] != self.shoe:
            self._new_shoe(p["shoe"])  # first seen here when the board starts mid-shoe
            changed.add(BOARD)
        self.live = LiveRound(int(p["round"]), self.game, p.get("shoe"), list(p.get("spots") or []), self.baccarat)
        return changed

    def _this_round(self, record: Record) -> LiveRound | None:
        return self.live if self.live is not None and record.round == self.live.round else None

    def _bets_closed(self, record: Record, p: Mapping[str, Any]) -> set[str]:
        live = self._this_round(record)
        if live is None or live.state != "betting":
            return set()
        live.state = "dealing"
        return {ROUND}

    def _card(self, record: Record, p: Mapping[str, Any]) -> set[str]:
        live = self._this_round(record)
        return {ROUND} if live is not None and live.card(p) else set()

    def _irregularity(self, record: Record, p: Mapping[str, Any]) -> set[str]:
        live = self._this_round(record)
        if live is None:
            return set()
        live.irregularity(p)
        return {ROUND}

    def _resumed(self, record: Record, p: Mapping[str, Any]) -> set[str]:
        live = self._this_round(record)
        if live is None:
            return set()
        live.resumed()
        return {ROUND}

    def _decision(self, record: Record, p: Mapping[str, Any]) -> set[str]:
        live = self._this_round(record)
        if live is None:
            return set()
        live.decisions.append({"spot": p.get("spot"), "decision": p.get("decision")})
        return {ROUND}

    def _result(self, record: Record, p: Mapping[str, Any]) -> set[str]:
        number = int(record.round or p["round"])
        view = self._baccarat_result(record, number, p) if self.baccarat else self._spot_result(number, p)
        live = self._this_round(record)
        if live is not None:
            live.result, live.state = view, "decided"
        return {BOARD, ROUND}

    def _baccarat_result(self, record: Record, number: int, p: Mapping[str, Any]) -> dict[str, Any]:
        hands = p["hands"]
        player, banker = parse_cards(hands["player"]["cards"]), parse_cards(hands["banker"]["cards"])
        game = get_game(self.game)
        assert isinstance(game, BaccaratGame)
        marks = round_marks(game, str(p["winner"]), player, banker)
        view = {
            "round": number, "winner": p["winner"], "natural": marks.natural, "events": list(marks.events),
            "banker_pair": marks.outcome.banker_pair, "player_pair": marks.outcome.player_pair,
            "hands": {name: {"cards": list(hands[name]["cards"]), "total": hands[name].get("total")}
                      for name in ("player", "banker")},
        }
        self.rounds = [r for r in self.rounds if r.round != number] + [ShoeRound(number, record.seq, marks, view)]
        return view

    def _spot_result(self, number: int, p: Mapping[str, Any]) -> dict[str, Any]:
        main = next(iter(get_game(self.game).wagers))  # ante / standard: a spot's main wager
        spots = {}
        for spot, detail in sorted((p.get("spots") or {}).items(), key=lambda item: int(item[0])):
            hand = detail.get("hand") or detail.get("high") or {}
            spots[spot] = {
                "main": (detail.get("bets") or {}).get(main, {}).get("result"),
                "decision": detail.get("decision") or detail.get("setting"),
                "hand": hand, "low": detail.get("low"), "high": detail.get("high"),
                "bets": detail.get("bets") or {},
            }
        dealer = (p.get("hands") or {}).get("dealer")
        view = {"round": number, "main_wager": main, "dealer": dealer, "spots": spots}
        self._remember(number, view)
        return view

    def _remember(self, number: int, entry: dict[str, Any]) -> None:
        kept = [e for e in self.history if e["round"] != number]
        self.history = deque([*kept, entry], maxlen=HISTORY)

    def _void(self, record: Record, p: Mapping[str, Any]) -> set[str]:
        number = int(record.round or p["round"])
        taken_off = any(r.round == number for r in self.rounds)
        self.rounds = [r for r in self.rounds if r.round != number]
        void = {"round": number, "clause": p.get("clause"), "reason": p.get("reason"), "kind": p.get("kind"),
                "by": p.get("by"), "after_result": taken_off, "seq": record.seq}
        self.voids.append(void)
        self.last_void = void
        if not self.baccarat:
            had_result = any(e["round"] == number and "void" not in e for e in self.history)
            void["after_result"] = had_result
            self._remember(number, {"round": number, "void": void})
        live = self._this_round(record)
        if live is not None:
            live.void, live.state, live.hold = void, "void", None
            live.result = None
        return {BOARD, ROUND}

    def _settled(self, record: Record, p: Mapping[str, Any]) -> set[str]:
        live = self._this_round(record)
        if live is None or live.state == "void":
            return set()
        live.state = "settled"
        return {ROUND}

    # ------------------------------------------------------------------ what the page draws
    def outcomes(self) -> list[Outcome]:
        return [r.marks.outcome for r in self.rounds]

    def board_json(self) -> dict[str, Any]:
        latest_result = self.rounds[-1].seq if self.rounds else 0
        banner = self.last_void if self.last_void and self.last_void["seq"] > latest_result else None
        out: dict[str, Any] = {
            "table": self.table_name, "lang": self.lang, "game": self.game, "game_title": self.title,
            "has_roads": self.baccarat, "shoe": self.shoe, "round": self.live.round if self.live else None,
            "cut_card": self.cut_card, "shoe_finished": self.shoe_finished, "seq": self.seq,
            "voids": self.voids, "banner": banner, "problems": self.problems,
        }
        if self.baccarat:
            numbers = [r.round for r in self.rounds]
            board = roads(self.outcomes())
            for bead, number in zip(board["bead_plate"], numbers):
                bead["round"] = number
            for cell in board["big_road"]:
                cell["round"] = numbers[cell["index"]]
            events = game_event_names(self.game)
            out.update(board)
            out["game_counts"] = {"naturals": sum(r.marks.natural for r in self.rounds),
                                  **{name: sum(name in r.marks.events for r in self.rounds) for name in events}}
            out["count_labels"] = {count.name: dict(count.labels) for count in get_table_profile(self.game).board_counts}
            out["last_result"] = self.rounds[-1].result if self.rounds else None
        else:
            out["history"] = list(self.history)
            out["last_result"] = next((e for e in reversed(self.history) if "void" not in e), None)
        return out

    def round_json(self) -> dict[str, Any] | None:
        return self.live.to_json() if self.live is not None else None


def game_labels() -> dict[str, dict[str, str]]:
    """language -> count name -> label, for every registered game's board counts."""
    labels: dict[str, dict[str, str]] = {lang: {} for lang in BOARD_LANGUAGES}
    for key in GAME_KEYS:
        for count in get_table_profile(key).board_counts:
            for lang in BOARD_LANGUAGES:
                if labels[lang].setdefault(count.name, count.labels[lang]) != count.labels[lang]:
                    raise ValueError(f"board count {count.name!r}: {key} calls it {count.labels[lang]!r} in {lang}, "
                                     f"another game {labels[lang][count.name]!r}")
    return labels


def game_labels_script() -> str:
    """/game-labels.js: the games' own words added to the page's LABELS (static/labels.js)."""
    lines = ['"use strict";', "// The games' own words (each game's table profile: its board counts), from games.registry."]
    lines += [f"Object.assign(LABELS[{json.dumps(lang)}], {json.dumps(words, ensure_ascii=False, sort_keys=True)});"
              for lang, words in game_labels().items()]
    return "\n".join(lines) + "\n"


_HANDLERS = {
    "daemon_started": Board._daemon_started, "shoe": Board._shoe, "round_opened": Board._round_opened,
    "bets_closed": Board._bets_closed, "card": Board._card, "irregularity": Board._irregularity,
    "round_resumed": Board._resumed, "decision": Board._decision, "result": Board._result,
    "void": Board._void, "settled": Board._settled,
}
