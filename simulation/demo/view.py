"""The live view: a compact terminal screen of the table, drawn from plain data so a test can
render captured state. render(ViewState) -> text; the live loop redraws it with ANSI codes."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from controller.table.lamps import STATUS_LAMPS
from games.baccarat.engine import BaccaratGame
from games.baccarat.table_of_play import cards_total
from games.cards import parse_card
from games.registry import get_game

HISTORY = 24  # results shown in the history row
LOG_LINES = 6  # irregularities, voids and the demo's own actions shown
RULE = "─" * 72
SPOT_LAMP = re.compile(r"spot\d+|player_dealer_\d+")
WINNER_TOKEN = {"player": "P", "banker": "B", "tie": "T"}


@dataclass
class ViewState:
    game: str
    decks: int
    seed: int
    fault_rate: float = 0.0
    status: dict = field(default_factory=dict)  # the daemon's snapshot (`status` on its socket)
    lamps: dict = field(default_factory=dict)  # the lights simulator's board: name -> off/on/slow/fast
    last: dict | None = None  # the last round's JSON line
    history: list = field(default_factory=list)  # one token per round: P B T, spots won "2/3", V void
    log: list = field(default_factory=list)  # newest last
    rounds: int = 0

    def round_ended(self, line: dict) -> None:
        self.last = line
        self.rounds += 1
        self.history = (self.history + [history_token(line)])[-HISTORY:]

    def note(self, text: str) -> None:
        self.log = (self.log + [text])[-LOG_LINES:]


def history_token(line: dict) -> str:
    if line["void"]:
        return "V"
    if line["winner"] is not None:
        return WINNER_TOKEN.get(line["winner"], line["winner"][:1].upper())
    main = next(iter(get_game(line["game"]).wagers))  # ante / standard: the spot's main wager
    won = sum(1 for spot in line["spots"].values() if spot.get("bets", {}).get(main, {}).get("result") == "win")
    return f"{won}/{len(line['spots'])}"


def lamp_groups(lamps: dict[str, str]) -> dict[str, list[str]]:
    """Lit lamps by group (result / status / spots), blinking ones marked with their pattern."""
    groups: dict[str, list[str]] = {"result": [], "status": [], "spots": []}
    for name, pattern in lamps.items():
        if pattern == "off":
            continue
        group = "status" if name in STATUS_LAMPS else "spots" if SPOT_LAMP.fullmatch(name) else "result"
        groups[group].append(name if pattern == "on" else f"{name}({pattern})")
    return groups


def _running_total(game: str, cards: list) -> str:
    """Baccarat hands count every card dealt to them; other games' totals come with the result."""
    if isinstance(get_game(game), BaccaratGame) and cards and None not in cards:
        return str(cards_total(parse_card(c) for c in cards))
    return ""


def _hand_rows(view: ViewState) -> list[str]:
    hands = view.status.get("hands") or {}
    rows = []
    for name, cards in hands.items():
        shown = " ".join(c if c is not None else "??" for c in cards)
        rows.append(f"  {name:<8} {shown:<28} {_running_total(view.game, cards)}".rstrip())
    return rows or ["  (no cards yet)"]


def _bets_text(bets: dict) -> str:
    return ", ".join(f"{key} {bet['result']}" + (f" {bet['pays']}" if bet.get("pays") else "")
                     for key, bet in bets.items())


def summary(line: dict) -> list[str]:
    """The last round in a few lines: the winner and bets, each spot, or the void and its clause."""
    head = f"round {line['round']}"
    if line["void"]:
        return [f"{head}: VOID ({line['clause']}): {line['detail']}"]
    rows = []
    hands = line.get("hands", {})
    totals = " · ".join(f"{name} {hand['total']}" for name, hand in hands.items() if not name.startswith("dealer_"))
    rows.append(f"{head}: " + (f"{line['winner']} wins · " if line["winner"] else "") + totals)
    if line["bets"]:
        rows.append("  " + _bets_text(line["bets"]))
    for spot, detail in line.get("spots", {}).items():
        hand = detail.get("hand") or detail.get("high")
        shown = hand["total"] if hand else ""
        if "low" in detail:
            shown = f"{detail['high']['total']} / {detail['low']['total']}"
        decided = f" [{detail['decision']}]" if detail.get("decision") else ""
        rows.append(f"  spot {spot}{decided}: {shown} · {_bets_text(detail.get('bets', {}))}")
    return rows


def render(view: ViewState) -> str:
    status = view.status
    shoe = status.get("shoe") or {}
    number = (status.get("round") or {}).get("number")
    title = get_game(view.game).title
    faults = f" · faults {view.fault_rate:g}" if view.fault_rate else ""
    lines = [f"tablectl demo · {title} ({view.game}) · {view.decks} deck{'s' if view.decks != 1 else ''}"
             f" · seed {view.seed}{faults}",
             f"shoe {shoe.get('number', '-')} ({shoe.get('remaining', '-')} cards left) · round {number or '-'}"
             f" · {status.get('state', 'starting')} · {view.rounds} played",
             RULE, *_hand_rows(view), RULE]
    groups = lamp_groups(view.lamps)
    for group in ("result", "status", "spots"):
        lines.append(f"lamps {group + ':':<8} " + ("  ".join(groups[group]) or "-"))
    lines.append(RULE)
    lines += summary(view.last) if view.last else ["no round played yet"]
    lines.append("history  " + (" ".join(view.history) or "-"))
    lines.append(RULE)
    lines += view.log or ["no irregularities"]
    lines.append("Ctrl-C stops the demo and every process it started")
    return "\n".join(lines)


def event_line(event: dict) -> str | None:
    """An event from the daemon's stream worth a line in the view: irregularities, holds,
    resumes, voids (each with its clause), shoe changes and device links."""
    kind, r = event.get("event"), event.get("round")
    where = f"round {r}: " if r is not None else ""
    if kind == "irregularity":
        return f"{where}{event['kind']} ({event['clause']}): {event['consequence']}: {event['detail']}"
    if kind == "held":
        return f"{where}held for the supervisor ({event['kind']}, {event['clause']}): needs {event['need']}"
    if kind == "resumed":
        return f"{where}resumed: {event['how']}"
    if kind == "void":
        return f"{where}VOID ({event['clause']}) by the {event['by']}: {event['reason']}"
    if kind == "shoe" and event.get("what") in ("new", "cut_card", "finished"):
        return {"new": f"shoe {event['shoe']} in", "cut_card": f"shoe {event['shoe']}: the cut card is out",
                "finished": f"shoe {event['shoe']} finished"}[event["what"]]
    if kind == "device" and event.get("link") in ("lost", "restored"):
        return f"{event['device']}: link {event['link']}"
    return None
