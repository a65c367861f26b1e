"""Inputs handled in memory, before their commit: a driver event (through DeviceSessions) or
a control request becomes table inputs, `Table.handle` gives their effects, and the input's
own record (`device`, `tamper`, `command`, `timer_expired`) goes first among its records.

An exception in the table is logged and becomes an `error` record, a published `error`
event and a refusal: the daemon goes on. While the journal failed its background walk, a
`new_shoe` is refused (the round and shoe in play finish).
"""
from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import structlog

from controller.control import Request
from controller.daemon.committer import Entry, Handled
from controller.daemon.effects import Effects
from controller.daemon.sessions import DeviceSessions
from controller.journal import RecordKind
from controller.table import Journal as JournalEffect
from controller.table import Publish, Reply, Table, button_map
from controller.table import inputs as i
from drivers import events as ev

log = structlog.get_logger("daemon")


def input_json(inp: Any) -> dict[str, Any]:
    fields: dict[str, Any] = (dataclasses.asdict(inp) if dataclasses.is_dataclass(inp) and not isinstance(inp, type)
                              else {"value": repr(inp)})
    return {"input": type(inp).__name__, **{k: (dict(v) if k == "args" else v) for k, v in fields.items()}}


class Handling:
    def __init__(self, table: Table, sessions: DeviceSessions, effects: Effects, *,
                 shoe_held: Callable[[], str | None], status: Callable[[], dict[str, Any]],
                 lag: Callable[[float], None]) -> None:
        """shoe_held: why no new shoe may be declared; status: the daemon's part of `tablectl
        status`; lag: notes how long a driver event waited."""
        self.table, self.sessions, self.effects = table, sessions, effects
        self._shoe_held, self._status, self._lag = shoe_held, status, lag

    def device_event(self, event: ev.DeviceEvent, release: Callable[[], None] | None = None) -> list[Handled]:
        """The event's session changes (sessions.py), each its own record and published change,
        the last one with the event's inputs and the device's ack (`release`)."""
        self._lag(event.at)
        translation = self.sessions.translate(event)
        handled = [self.inputs((step.kind, step.record), [], before=step.change) for step in translation.prior]
        extra: list[Any] = []
        if translation.problem is not None:  # an unknown button: refused by name, the daemon goes on
            extra = [JournalEffect(RecordKind.ERROR, {"detail": translation.problem, "device": event.device}),
                     Publish({"event": "command", "source": "panel", "button": translation.button, "command": None,
                              "ok": False, "message": translation.problem})]
            log.warning("button_refused", button=translation.button, reason=translation.problem)
        record = (translation.kind, translation.record) if translation.journaled else None
        handled.append(self.inputs(record, translation.inputs, extra=extra, reply=self._panel_reply(translation.button),
                                   before=translation.change, release=release))
        return handled

    def request(self, request: Request) -> list[Handled]:
        """A validated control-socket request (controller.control.Request)."""
        if request.cmd == "new_chain":  # the recovery of a journal that failed its start-up check
            request.fail("new_chain: the journal passed its start-up check: there is nothing to recover "
                         "(a new chain is started only on a journal that failed it)")
            return []
        by = request.peer.by()
        command = i.Command(request.cmd, dict(request.args), source="socket", by=by)
        record = None if request.cmd == "status" else (
            RecordKind.COMMAND, {"name": request.cmd, "args": dict(request.args), "source": "socket",
                                 "client": request.client_id, "by": by})

        def reply(answer: Reply) -> None:
            fields = dict(answer.fields)
            if request.cmd == "status":
                fields["daemon"] = self._status()
            else:
                self.effects.publish({"event": "command", "source": "socket", "command": request.cmd,
                                      "ok": answer.ok, "message": answer.message, "by": by})
            body = {"ok": True, "message": answer.message} if answer.ok else {"ok": False, "error": answer.message}
            request.respond({**fields, **body})

        return [self.inputs(record, [command], reply=reply, durable=record is not None)]

    def timer(self, name: str) -> Handled:
        """A table timer expired: its own `timer_expired` record first."""
        return self.inputs(("timer_expired", {"name": name}), [i.Timer(name)])

    def inputs(self, record: tuple[str, dict[str, Any]] | None, inputs: list[Any], *, extra: Any = (),
               reply: Callable[[Reply], None] | None = None, before: dict[str, Any] | None = None,
               release: Callable[[], None] | None = None, durable: bool = False) -> Handled:
        """Handle `inputs` (the table's); `record` and every Journal effect are its entries.
        The record is durable when someone is told "got it" once it is written: a device's
        ack (`release`), a socket command's reply (`durable`)."""
        was_betting = self.table.state == "betting"
        started = time.perf_counter()
        effects = list(extra)
        for inp in inputs:
            effects += self._handle(inp)
        entries: list[Entry] = [(record[0], record[1], None, durable or release is not None)] if record is not None else []
        entries += [(e.kind, e.payload, None, e.durable) for e in effects if type(e) is JournalEffect]
        return Handled(entries, effects, reply, before, bool(inputs), time.perf_counter() - started,
                       opened_betting=self.table.state == "betting" and not was_betting, release=release)

    def _handle(self, inp: Any) -> list[Any]:
        held = self._shoe_held()
        if held is not None and type(inp) is i.Command and inp.name == "new_shoe":
            detail = f"new_shoe refused: {held}"
            return [JournalEffect(RecordKind.ERROR, {"detail": detail, **input_json(inp), "state": self.table.state}),
                    Publish({"event": "error", "detail": detail}), Reply(False, detail)]
        try:
            return self.table.handle(inp)
        except Exception as error:  # a bug must not end the table: record it, refuse, go on
            log.exception("handle_failed", **input_json(inp))
            detail = f"{type(error).__name__} while handling {type(inp).__name__}: {error}"
            effects: list[Any] = [
                JournalEffect(RecordKind.ERROR, {"detail": detail, **input_json(inp), "state": self.table.state}),
                Publish({"event": "error", "detail": detail})]
            if type(inp) is i.Command:
                effects.append(Reply(False, f"internal error, the command was not carried out: {detail}"))
            return effects

    def _panel_reply(self, button: int | None) -> Callable[[Reply], None] | None:
        if button is None:
            return None

        def reply(answer: Reply) -> None:
            found = button_map(self.table.game.key).get(button)
            command = found.command if found else None
            self.effects.publish({"event": "command", "source": "panel", "button": button, "command": command,
                                  "ok": answer.ok, "message": answer.message, "by": {"source": "panel", "button": button}})
            (self.effects.round_log.info if answer.ok else self.effects.round_log.warning)(
                "panel_command", button=button, command=command, ok=answer.ok, message=answer.message)
        return reply
