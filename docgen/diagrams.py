"""Draw each game's round machine and shoe machine from the real machine specs.

    python3 -m docgen.diagrams            # rewrite docs/diagrams/*.dot and *.svg
    python3 -m docgen.diagrams --check    # exit 1 if a committed .dot is out of date

The machines are built by transitions' GraphMachine from the very (states, transitions) data
the Table runs (controller.table.machine), so the drawing cannot drift from the code without
tests/controller/table/test_table_diagrams.py failing. The DOT text is the source of truth;
the SVG is rendered from it with graphviz's `dot`.
"""
from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
from collections.abc import Callable
from typing import Any

from controller.table import machine as m
from controller.table.settings import TableSettings
from games.registry import GAME_KEYS, get_game

DIAGRAMS = pathlib.Path(__file__).resolve().parents[1] / "docs" / "diagrams"


class _Model:
    get_graph: Callable[[], Any]  # put on the model by transitions' GraphMachine


def _dot(title: str, states: list[str], transitions: list[dict], initial: str) -> str:
    from transitions.extensions import GraphMachine  # needs the graphviz package: tooling only

    model = _Model()
    m.build(model, states, transitions, initial, machine_class=GraphMachine, show_conditions=True, title=title)
    return model.get_graph().source


def round_dot(game_key: str) -> str:
    states, transitions = m.round_spec(m.game_shape(game_key))
    return _dot(f"{game_key}: round", states, transitions, m.IDLE)


def shoe_dot(game_key: str) -> str:
    settings = TableSettings.for_game(get_game(game_key))
    states, transitions = m.shoe_spec(settings.burn, settings.deck_per_round)
    return _dot(f"{game_key}: shoe (default settings)", states, transitions, m.NO_SHOE)


def sources() -> dict[str, str]:
    """File name (without extension) -> DOT text, for every game."""
    out = {}
    for key in GAME_KEYS:
        out[key] = round_dot(key)
        out[f"{key}-shoe"] = shoe_dot(key)
    return out


def stale(directory: pathlib.Path = DIAGRAMS) -> list[str]:
    """The diagrams whose committed .dot differs from the machine (or is missing)."""
    bad = []
    for name, text in sources().items():
        path = directory / f"{name}.dot"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            bad.append(name)
    return bad


def write(directory: pathlib.Path = DIAGRAMS, svg: bool = True) -> list[pathlib.Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in sources().items():
        dot_path = directory / f"{name}.dot"
        dot_path.write_text(text, encoding="utf-8")
        written.append(dot_path)
        if svg:
            svg_path = directory / f"{name}.svg"
            svg_path.write_bytes(subprocess.run(["dot", "-Tsvg", str(dot_path)], check=True,
                                                capture_output=True).stdout)
            written.append(svg_path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m docgen.diagrams", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a committed diagram is out of date")
    parser.add_argument("--out", type=pathlib.Path, default=DIAGRAMS, help="directory (default docs/diagrams)")
    parser.add_argument("--no-svg", action="store_true", help="write the .dot files only")
    args = parser.parse_args(argv)
    if args.check:
        bad = stale(args.out)
        for name in bad:
            print(f"{args.out / name}.dot is out of date: python3 -m docgen.diagrams", file=sys.stderr)
        return 1 if bad else 0
    for path in write(args.out, svg=not args.no_svg):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
