"""The lamp and button maps of every game, and each game's irregularity rules, as Markdown
tables in docs/table.md (the one place they are printed; README.md links there), and the
clause local ruling L4 cites for cards missed while the shoe was unheard (ruling 24) in
docs/local-rulings.md.

    python3 -m docgen.mapdocs           # rewrite the generated sections
    python3 -m docgen.mapdocs --check   # exit 1 if a section is out of date

Each section sits between its BEGIN/END markers; tests keep both equal to the data.
"""
from __future__ import annotations

import argparse
import pathlib
import sys

from controller.table import machine as m
from controller.table.buttons import button_list
from controller.table.cards import unheard_kind
from controller.table.lamps import STATUS_LAMPS, lamp_list
from games.registry import GAME_KEYS, get_game
from games.round import IrregularityKind

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "table.md"
PAGES = (PAGE,)
BEGIN, END = "<!-- BEGIN lamp and button maps (python3 -m docgen.mapdocs) -->", "<!-- END lamp and button maps -->"
RULES_BEGIN = "<!-- BEGIN irregularity rules per game (python3 -m docgen.mapdocs) -->"
RULES_END = "<!-- END irregularity rules per game -->"
RULINGS_PAGE = ROOT / "docs" / "local-rulings.md"
L4_BEGIN = "<!-- BEGIN local ruling L4: cards missed while the shoe was unheard (python3 -m docgen.mapdocs) -->"
L4_END = "<!-- END local ruling L4 -->"
# where the round stands when the shoe's counter shows cards that left it unheard
UNHEARD_WHEN = (("bets open", m.BETTING), ("cards due (bets closed, dealing, drawing)", m.DEALING),
                ("a decision awaited, or the result shown", m.RESULT))


def _rows(header: tuple[str, ...], rows) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def render_rules() -> str:
    """The games' own irregularity table (games/ owns it), with what each clause says in
    docs/clauses.md."""
    lines = [RULES_BEGIN, ""]
    lines += _rows(("kind", *GAME_KEYS), [
        (f"`{kind.value}`", *(f"{get_game(key).rule(kind).clause}: {get_game(key).rule(kind).consequence.value}"
                              for key in GAME_KEYS)) for kind in IrregularityKind])
    lines += ["", "A double draw after the initial deal follows `game.double_draw_rule(initial=False)`: "
              + "; ".join(f"{key} {get_game(key).double_draw_rule(False).clause}" for key in GAME_KEYS) + ".",
              "", "Cards the draw counter shows left the shoe while it was unheard (link lost, reboot, the daemon "
              "down) are what a card arriving then would be (`controller.table.cards.unheard_kind`), cited "
              "through ruling 24 (`game.unheard_rule(kind)`):", ""]
    lines += _rows(("the round", "kind", *GAME_KEYS), [
        (when, f"`{unheard_kind(state).value}`",
         *(f"{(rule := get_game(key).unheard_rule(unheard_kind(state))).clause}: {rule.consequence.value}"
           for key in GAME_KEYS)) for when, state in UNHEARD_WHEN])
    lines += ["", RULES_END]
    return "\n".join(lines)


def render_l4() -> str:
    """Local ruling L4's one citation, per game, for a card missed while the shoe was unheard."""
    lines = [L4_BEGIN, ""]
    lines += _rows(("game", "a card missed while the shoe was unheard: held, and voided if it cannot be keyed in"), [
        (key, f"`{get_game(key).unheard_rule(unheard_kind(m.DEALING)).clause}`") for key in GAME_KEYS])
    lines += ["", L4_END]
    return "\n".join(lines)


def render() -> str:
    lines = [BEGIN, "", "### Status lamps (every game)", ""]
    lines += _rows(("id", "lamp", "meaning"), [(lamp_id, f"`{name}`", meaning)
                                              for name, (lamp_id, meaning) in STATUS_LAMPS.items()])
    for key in GAME_KEYS:
        own = [lamp for lamp in lamp_list(key) if lamp.name not in STATUS_LAMPS]
        lines += ["", f"### {key}: lamps", ""]
        lines += _rows(("id", "lamp", "meaning"), [(lamp.id, f"`{lamp.name}`", lamp.meaning) for lamp in own])
        lines += ["", f"### {key}: buttons", ""]
        lines += _rows(("id", "command", "args", "key", "meaning"), [
            (b.id, f"`{b.command}`", ", ".join(f"{k}={v}" for k, v in b.args.items()) or "-",
             "yes" if b.key else "-", b.meaning) for b in button_list(key)])
    lines += ["", END]
    return "\n".join(lines)


def current(page: pathlib.Path = PAGE, begin: str = BEGIN, end: str = END) -> str:
    text = page.read_text(encoding="utf-8")
    return text[text.index(begin):text.index(end) + len(end)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m docgen.mapdocs")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    if args.check:
        stale = [page for page in PAGES
                 if current(page) != render() or current(page, RULES_BEGIN, RULES_END) != render_rules()]
        if current(RULINGS_PAGE, L4_BEGIN, L4_END) != render_l4():
            stale.append(RULINGS_PAGE)
        for page in stale:
            print(f"{page}: the lamp and button maps or the irregularity rules are out of date: "
                  "python3 -m docgen.mapdocs", file=sys.stderr)
        return 1 if stale else 0
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        text = text.replace(current(page), render()).replace(current(page, RULES_BEGIN, RULES_END), render_rules())
        page.write_text(text, encoding="utf-8")
        print(page)
    text = RULINGS_PAGE.read_text(encoding="utf-8")
    RULINGS_PAGE.write_text(text.replace(current(RULINGS_PAGE, L4_BEGIN, L4_END), render_l4()), encoding="utf-8")
    print(RULINGS_PAGE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
