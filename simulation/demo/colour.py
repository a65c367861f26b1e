"""Colour for the live view, where it helps a person read the table at a glance: banker red,
player blue, tie green, a void in reverse red and a hold in bold yellow, so they stand out.
Only on a terminal, and never when NO_COLOR is set (https://no-color.org) or TERM is dumb."""
from __future__ import annotations

import os
import re
from typing import TextIO

RESET = "\x1b[0m"
STYLES = {
    "banker": "\x1b[31m", "player": "\x1b[34m", "tie": "\x1b[32m",
    "void": "\x1b[1;7;31m", "held": "\x1b[1;33m",
}
WORDS = re.compile(r"(?<![\w-])(banker|player|tie|VOID|void|BURNING|held|HELD)(?![\w-])")
HISTORY_TOKEN = re.compile(r"(?<= )([PBTV])(?= |$)")
TOKEN_STYLE = {"P": "player", "B": "banker", "T": "tie", "V": "void"}
WORD_STYLE = {"VOID": "void", "void": "void", "BURNING": "held", "held": "held", "HELD": "held"}


def colour_wanted(out: TextIO) -> bool:
    return out.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def _styled(style: str, text: str) -> str:
    return f"{STYLES[style]}{text}{RESET}"


def paint(text: str) -> str:
    """The view's text with ANSI colours; the characters a person reads are unchanged."""
    lines = []
    for line in text.split("\n"):
        if line.startswith("history "):
            line = HISTORY_TOKEN.sub(lambda m: _styled(TOKEN_STYLE[m[1]], m[1]), line)
        else:
            line = WORDS.sub(lambda m: _styled(WORD_STYLE.get(m[1], m[1]), m[1]), line)
        lines.append(line)
    return "\n".join(lines)
