"""Collects the effects of one `Table.handle` call in the order the contract promises."""
from __future__ import annotations

from controller.journal.kinds import RecordKind
from controller.table.effects import CancelTimer, Effect, FollowUp, Journal, Lamps, Publish, Reply, StartTimer


class Out:
    def __init__(self):
        self.journals: list[Journal] = []
        self.timers: list[StartTimer | CancelTimer] = []
        self.events: list[Publish] = []
        self.reply: Reply | None = None
        self.follow_ups: list[FollowUp] = []

    def journal(self, kind: RecordKind, payload: dict, durable: bool = False) -> None:
        self.journals.append(Journal(kind, payload, durable))

    def publish(self, event: str, /, **fields) -> None:
        self.events.append(Publish({"event": event, **fields}))

    def follow_up(self, inp: object) -> None:
        """Have `inp` handed back to the table once every other effect is carried out."""
        self.follow_ups.append(FollowUp(inp))

    def answer(self, ok: bool, message: str, **fields) -> None:
        if self.reply is None:  # the first answer stands: it is the one that decided
            self.reply = Reply(ok, message, fields)

    def effects(self, lamps: Lamps) -> list[Effect]:
        out: list[Effect] = [*self.journals, lamps]
        out += self.timers
        out += self.events
        if self.reply is not None:
            out.append(self.reply)
        out += self.follow_ups
        return out
