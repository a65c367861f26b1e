"""The shoe as the table's inputs tell it: heard, or lost and why.

Not the link's state (the daemon's Links owns that, for STATUS= and `tablectl status`): lost
at ShoeLinkLost, heard again only once the shoe's draw counter has been heard (the first
status of the new session, or a card; local ruling L4), so it can lag the link by that
status. The table decides from its journaled inputs alone, so replaying them gives the
same decisions.
"""
from __future__ import annotations


class ShoeLink:
    def __init__(self) -> None:
        self.up = True
        self.reason = ""  # why the shoe is not heard

    def lost(self, reason: str) -> None:
        self.up, self.reason = False, reason

    def heard(self) -> None:
        self.up, self.reason = True, ""
