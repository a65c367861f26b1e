"""The live view: a terminal screen of the table, drawn from plain data so a test can render
captured state. render(ViewState, width, height) -> text of at most `height` lines of at most
`width` characters: the header always first, nothing cut mid-word (a line that does not fit
ends in "…" at a word boundary), spot games' hands in two columns and their results paged
(view.page turns the page at each redraw). colour.paint() colours it for a terminal."""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

from controller.table.lamps import STATUS_LAMPS
from games.baccarat.engine import BaccaratGame
from games.baccarat.table_of_play import cards_total
from games.bet_text import bets_text
from games.cards import parse_card
from games.clauses import summary as clause_summary
from games.registry import get_game

HISTORY = 24  # results kept for the history row
LOG_LINES = 6  # irregularities, voids and the demo's own actions kept
SPOT_LAMP = re.compile(r"spot\d+|player_dealer_\d+")
SPOT_BET_LAMP = re.compile(r"spot(\d+)_(\w+)")
WINNER_TOKEN = {"player": "P", "banker": "B", "tie": "T"}
HAND_ROWS = 4  # rows for the hands; more hands than this go in two columns
RESULT_ROWS = 5  # rows for the last round's result; a spot game's spots beyond it are paged
FOOTER = "Ctrl-C stops the demo and every process it started"
SHORT_FOOTER = "Ctrl-C stops the demo"
ELLIPSIS = "…"
ENDED_STATES = ("result", "settled", "void")  # the daemon's states once a round's outcome is known
PATH = re.compile(r"(?<![\w.~])/(?:[^\s/'\"]+/)+([^\s/'\":,]+)")  # an absolute path: its last part is what a reader needs


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
    log: list = field(default_factory=list)  # (text, what its clause says), newest last
    rounds: int = 0
    page: int = 0  # the live loop turns it at each redraw: which spots of the last result show
    journal: str = ""  # where the demo's journal is, for the footer

    def round_ended(self, line: dict) -> None:
        self.last = line
        self.rounds += 1
        self.history = (self.history + [history_token(line)])[-HISTORY:]

    def note(self, text: str, clause: str | None = None) -> None:
        self.log = (self.log + [(short_paths(text), clause_summary(clause))])[-LOG_LINES:]

    def summary_behind(self) -> bool:
        """The daemon has ended a round (its lamps show it) whose line the demo has not had yet:
        a screen now would show the new lamps over the last round's summary."""
        number = (self.status.get("round") or {}).get("number")
        ended = self.status.get("state") in ENDED_STATES
        return ended and number is not None and number != (self.last or {}).get("round")


def fit(text: str, width: int) -> str:
    """`text` if it fits, else cut at the last word boundary that leaves room for "…"."""
    if len(text) <= width:
        return text
    room = width - 1  # for the ellipsis
    cut = text[:room]
    if text[room] != " " and " " in cut.strip():  # it ends mid-word: back to the last whole word
        cut = cut[:cut.rstrip().rfind(" ")]
    return cut.rstrip(" ·,:;") + ELLIPSIS


def wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    """Word-wrapped lines, continuation lines indented."""
    return textwrap.wrap(text, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False) or [""]


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


def _short_lamps(names: list[str]) -> list[str]:
    """Result lamps in few words: bet_banker -> banker; spot3_ante, spot3_play -> 3:ante,play."""
    out: list[str] = []
    by_spot: dict[str, list[str]] = {}
    for name in names:
        if (match := SPOT_BET_LAMP.fullmatch(name.split("(")[0])) is not None:
            by_spot.setdefault(match[1], []).append(match[2] + name[len(name.split("(")[0]):])
        else:
            out.append(name.removeprefix("bet_"))
    return out + [f"{spot}:{','.join(bets)}" for spot, bets in by_spot.items()]


def short_paths(text: str) -> str:
    """`cannot open /home/ann/.local/state/tablectl/demo/shoe` -> `cannot open …/shoe`: a
    device's or file's full path would take a line of its own in the view."""
    return PATH.sub(lambda match: f"{ELLIPSIS}/{match[1]}", text)


def _running_total(game: str, cards: list) -> str:
    """Baccarat hands count every card dealt to them (`= 7`, not to be read as a card); other
    games' totals come with the result."""
    if isinstance(get_game(game), BaccaratGame) and cards and None not in cards:
        return f"= {cards_total(parse_card(c) for c in cards)}"
    return ""


def _hand_rows(view: ViewState, width: int) -> list[str]:
    hands = view.status.get("hands") or {}
    cells = []
    for name, cards in hands.items():
        shown = " ".join(c if c is not None else "??" for c in cards)
        cells.append(f"{name:<7} {shown} {_running_total(view.game, cards)}".rstrip())
    if not cells:
        return ["  (no cards yet)"]
    if len(cells) <= HAND_ROWS:
        return [fit("  " + cell, width) for cell in cells]
    column = (width - 2) // 2
    rows = (len(cells) + 1) // 2
    return [fit("  " + cells[i].ljust(column) + (cells[i + rows] if i + rows < len(cells) else ""), width).rstrip()
            for i in range(rows)]


def _shoe_line(view: ViewState) -> str:
    status = view.status
    shoe = status.get("shoe") or {}
    number = (status.get("round") or {}).get("number")
    state = status.get("state", "starting")
    if shoe.get("state") == "burning":
        left = shoe.get("burn_remaining")
        burn = ("burning: turn the first card" if left is None
                else f"BURNING: {left} more to burn (first card {shoe.get('burn_card')})")
        return f"shoe {shoe.get('number', '-')} {burn} · {view.rounds} played"
    held = " for the supervisor" if state == "held" else ""
    return (f"shoe {shoe.get('number', '-')}: {shoe.get('remaining', '-')} cards left · round {number or '-'} "
            f"{state}{held} · {view.rounds} played")


def _spot_text(spot: str, detail: dict) -> str:
    hand = detail.get("hand") or detail.get("high")
    shown = f"{detail['high']['total']} / {detail['low']['total']}" if "low" in detail else (hand or {}).get("total", "")
    bets = detail.get("bets", {})
    paying = {key: bet for key, bet in bets.items() if bet.get("result") != "lose"}
    decided = f" [{detail['decision']}]" if detail.get("decision") else ""
    return f"  spot {spot}{decided}: {shown} · " + (bets_text(paying, ", ") if paying else "all lose")


def summary(line: dict, width: int = 80, rows: int = RESULT_ROWS, page: int = 0) -> list[str]:
    """The last round in at most `rows` lines: the winner and bets, the spots (a page of them),
    or the void with its clause and what the clause says."""
    head = f"round {line['round']}"
    if line["void"]:
        said = clause_summary(line["clause"])
        out = wrap(f"{head}: VOID ({line['clause']}): {short_paths(line['detail'])}", width)
        return (out + (wrap(f"  {said}", width, "    ") if said else []))[:rows]
    hands = line.get("hands", {})
    totals = " · ".join(f"{name} {hand['total']}" for name, hand in hands.items() if not name.startswith("dealer_"))
    first = f"{head}: " + (f"{line['winner']} wins · " if line["winner"] else "") + totals
    spots = list(line.get("spots", {}).items())
    if not spots:
        return ([fit(first, width)] + wrap("  " + bets_text(line["bets"], ", "), width, "  "))[:rows]
    per_page = rows - 1
    pages = (len(spots) + per_page - 1) // per_page
    shown = spots[(page % pages) * per_page:][:per_page]
    if pages > 1:
        at = (page % pages) * per_page
        first += f" · spots {at + 1}-{at + len(shown)} of {len(spots)}"
    return [fit(first, width)] + [fit(_spot_text(spot, detail), width) for spot, detail in shown]


def _by_seat(rows: list[dict], shown, seat: str = "seat") -> str:
    """`seat 1 banker 25, tie 5 · seat 3 player 50`: rows grouped by seat (or spot), each as `shown(row)`."""
    seats: dict[int, list[str]] = {}
    for row in rows:  # in the order the dealer settles
        seats.setdefault(row["seat"], []).append(f"{row['bet']} {shown(row)}")
    return " · ".join(f"{seat} {number} {', '.join(bets)}" for number, bets in seats.items())


def money_lines(view: ViewState, width: int) -> list[str]:
    """Two lines: the wagers of record of the round in play (the daemon's status), and the last
    round's payouts (stake -> what stands after settlement), the house's net and any mispay."""
    if view.last is None or "money" not in view.last:
        if not (view.status.get("money") or {}).get("wagers"):
            return []
    seat = "spot" if get_game(view.game).uses_spots else "seat"
    now = (view.status.get("money") or {}).get("wagers") or []
    number = (view.status.get("round") or {}).get("number")
    wagers = f"wagers round {number}: " + _by_seat(now, lambda w: w["stake"], seat) if now and number else "wagers -"
    if view.last is None or "money" not in view.last:
        return [fit(wagers, width), "paid -"]
    last = view.last["money"]
    net = last["house_net"]
    paid = f"round {view.last['round']} paid: house {'+' if not net.startswith('-') and net != '0' else ''}{net}"
    for mispay in last["mispays"]:  # first: the line may not hold every payout
        paid += (f" · MISPAY {seat} {mispay['seat']} {mispay['bet']} {mispay['found']} for {mispay['expected']} "
                 f"({mispay['direction']}, {'accepted' if last['accepted'] else 'corrected'})")
    if last["wagers"]:
        paid += " · " + _by_seat(last["wagers"], lambda w: f"{w['stake']}→{w['back']}", seat)
    return [fit(wagers, width), fit(paid, width)]


def _lamp_lines(view: ViewState, width: int) -> list[str]:
    groups = lamp_groups(view.lamps)
    result = "lit  result: " + (" ".join(_short_lamps(groups["result"])) or "-")
    status = "     status: " + (" ".join(groups["status"]) or "-")
    spots = [name.removeprefix("spot").replace("player_dealer_", "bank ") for name in groups["spots"]]
    if spots:
        status += "  spots: " + " ".join(spots)
    return [fit(result, width), fit(status, width)]


def _log_lines(view: ViewState, width: int, rows: int) -> list[str]:
    if rows <= 0:
        return []
    if not view.log:
        return ["no irregularities"]
    out: list[str] = []
    entries, last_said = [], ""
    for text, said in view.log:  # what a clause says, shown once while the same clause goes on
        entries.append((text, said if said != last_said else ""))
        last_said = said or last_said
    for text, said in reversed(entries):  # newest first, until the rows are full
        entry = wrap(text, width) + (wrap(f"  = {said}", width, "    ") if said else [])
        if len(out) + len(entry) > rows:
            if not out:  # the newest alone is too long: as much of it as fits
                out = entry[:rows - 1] + [fit(entry[rows - 1], width - 2).rstrip(ELLIPSIS) + " " + ELLIPSIS]
            break
        out = entry + out
    return out


def render(view: ViewState, width: int = 80, height: int = 24) -> str:
    rule = "─" * min(width, 72)
    title = get_game(view.game).title
    faults = f" · faults {view.fault_rate:g}" if view.fault_rate else ""
    header = fit(f"tablectl demo · {view.game} · {view.decks} deck{'s' if view.decks != 1 else ''} · seed {view.seed}"
                 f"{faults} · {title}", width)
    top = [header, fit(_shoe_line(view), width), rule, *_hand_rows(view, width), rule, *_lamp_lines(view, width), rule]
    last = summary(view.last, width, RESULT_ROWS, view.page) if view.last else ["no round played yet"]
    tokens = list(view.history)
    while len("history  " + " ".join(tokens)) > width:  # the oldest give way
        tokens.pop(0)
    history = "history  " + (" ".join(tokens) or "-")
    footers = [f"{FOOTER} · journal {view.journal}", f"{SHORT_FOOTER} · journal {view.journal}"] if view.journal else []
    footer = next((text for text in footers if len(text) <= width), fit(FOOTER, width))
    middle = [*last, *money_lines(view, width), history, rule]
    room = height - len(top) - len(middle) - 1
    lines = top + middle + _log_lines(view, width, room) + [footer]
    return "\n".join(lines if len(lines) <= height else lines[:height - 1] + [footer])


def event_line(event: dict) -> str | None:
    """An event from the daemon's stream worth a line in the view: irregularities, holds,
    resumes, voids (each with its clause), shoe changes and device links; paths shortened."""
    line = _event_text(event)
    return short_paths(line) if line is not None else None


def _event_text(event: dict) -> str | None:
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
