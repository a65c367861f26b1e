"""The dealer's panel as the table knows it: the supervisor key and the selected spot or seat."""
from __future__ import annotations


class Panel:
    def __init__(self) -> None:
        self.key_on = False
        self.selected: int | None = None  # the spot (or, at a player-dealer table, the seat) last selected
