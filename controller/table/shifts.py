"""The table's shifts: opened and closed by the `shift` command, each journaled as a `shift`
record ({"action": "open" | "close", "shift": N, "name": ...}); the meters sum a shift's
rounds (controller/journal/meters.py). Who gave the command is on its own `command` record,
just before. Shifts change between hands: a round belongs to the shift open when it opened.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.journal.kinds import RecordKind as R
from controller.table.output import Out

MAX_NAME = 64  # a shift's name, as the pit shows it
ACTIONS = ("open", "close")


class ShiftRefusal(ValueError):
    """A shift command the table cannot take; the message says why."""


@dataclass
class Shifts:
    number: int = 0  # the last shift opened (0: none yet)
    open: bool = False
    name: str | None = None

    def restore(self, last: Mapping[str, Any] | None) -> None:
        """Take up from the last `shift` record (None: the journal has none)."""
        if last is not None and isinstance(last.get("shift"), int):
            self.number, self.open, self.name = last["shift"], last.get("action") == "open", last.get("name")

    def command(self, args: Mapping[str, Any], round_text: str | None, out: Out) -> None:
        """`round_text`: the round in progress, if any (shifts change between hands)."""
        action, name = args.get("action"), args.get("name")
        if action not in ACTIONS:
            raise ShiftRefusal(f"action {action!r}: expected open or close")
        if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME
                                 or not name.isprintable()):
            raise ShiftRefusal(f"name: expected up to {MAX_NAME} printable characters")
        if round_text is not None:
            raise ShiftRefusal(f"shifts change between hands; {round_text} is in progress")
        if action == "open":
            if self.open:
                raise ShiftRefusal(f"shift {self.number}{self._named()} is open: close it first")
            self.number, self.open, self.name = self.number + 1, True, name
        else:
            if not self.open:
                raise ShiftRefusal("no shift is open")
            self.open = False
        payload = {"action": action, "shift": self.number, "name": self.name}
        out.journal(R.SHIFT, payload, durable=True)
        out.publish("shift", **payload)
        out.answer(True, f"shift {self.number}{self._named()} {'opened' if self.open else 'closed'}",
                   shift=self.number)

    def _named(self) -> str:
        return f" ({self.name})" if self.name else ""
