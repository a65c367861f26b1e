"""A settled wager in a few words, as `tablectl recall` and the demo's view show it:
"banker win 1:1", "player push", "tie lose" (a push or a loss has no pay line to name)."""
from __future__ import annotations

from collections.abc import Mapping


def bet_text(key: str, bet: Mapping[str, object]) -> str:
    result = str(bet.get("result"))
    pays = bet.get("pays")
    return f"{key} {result}" + (f" {pays}" if pays and result == "win" else "")


def bets_text(bets: Mapping[str, Mapping[str, object]], separator: str = " · ") -> str:
    return separator.join(bet_text(key, bet) for key, bet in bets.items())
