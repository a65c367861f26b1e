"""The shoe's link as the table knows it: heard or not, and why not."""
from __future__ import annotations


class ShoeLink:
    def __init__(self) -> None:
        self.up = True
        self.reason = ""  # why the shoe is not heard

    def lost(self, reason: str) -> None:
        self.up, self.reason = False, reason

    def heard(self) -> None:
        self.up, self.reason = True, ""
