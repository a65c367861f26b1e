"""The lamp and button maps of every game, and each game's irregularity rules, as Markdown
tables in docs/table.md (the one place they are printed; README.md links there).

    python3 -m docgen.mapdocs           # rewrite the generated sections
    python3 -m docgen.mapdocs --check   # exit 1 if a section is out of date

Each section sits between its BEGIN/END markers; tests keep both equal to the data.
"""
from __future__ import annotations

import argparse
import pathlib
import sys

from controller.table.buttons import button_list
from controller.table.lamps import STATUS_LAMPS, lamp_list
from games.registry import GAME_KEYS, get_game
from games.round import IrregularityKind

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "table.md"
PAGES = (PAGE,)
BEGIN, END = "<!-- BEGIN lamp and button maps (python3 -m docgen.mapdocs) -->", "<!-- END lamp and button maps -->"
RULES_BEGIN = "<!-- BEGIN irregularity rules per game (python3 -m docgen.mapdocs) -->"
RULES_END = "<!-- END irregularity rules per game -->"


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
              "", RULES_END]
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
        for page in stale:
            print(f"{page}: the lamp and button maps or the irregularity rules are out of date: "
                  "python3 -m docgen.mapdocs", file=sys.stderr)
        return 1 if stale else 0
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        text = text.replace(current(page), render()).replace(current(page, RULES_BEGIN, RULES_END), render_rules())
        page.write_text(text, encoding="utf-8")
        print(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
