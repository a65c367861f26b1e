"""The daemon on a journal that failed its start-up check: it does not deal.

`check_journal` (controller/journal/startup.py) found the journal edited, truncated,
replaced, emptied, missing or unreadable. Nothing may be appended to it and no round dealt on
it, so the daemon opens no journal, no table and no shoe. It says so wherever people look,
and waits for the documented recovery:

- its log: `journal_broken` (critical) with the first broken record, the problem and why, as
  `tablectl journal verify` names them (on a journal larger than `journal.walk_at_start`, a
  walk in the background names them a second time once it is done);
- STATUS= (with READY=1, so the unit stays up for the recovery instead of being restarted
  into the same refusal): `journal broken at record 3976 (truncated): ... · not dealing · ...`;
- `tablectl status`: `state: journal_broken`, the check (`journal_check`) and the key;
- the lamps: all off but "error" and "supervisor", fast blink;
- every panel button and every table command is refused, saying why.

The recovery is `new_chain reason=...` from someone who may command (root, the daemon's user
or group), with the supervisor key on: `start_new_chain` archives the old files and writes
record 1 of a new chain naming the old head, the problem and who gave the command (`by`).
`run()` then returns the new chain and the daemon goes on starting on it as usual.

The watchdog is fed while the control socket and the two drivers are alive: refusing to deal
is what the daemon must do here, and a restart would find the same journal.
"""
from __future__ import annotations

import os
from dataclasses import replace

import structlog

from controller.control import ControlServer, Request
from controller.daemon.device_options import driver_options
from controller.daemon.health import Health
from controller.daemon.journal_walk import BackgroundWalk
from controller.daemon.lamps_out import LampOutput
from controller.daemon.supervisor import Supervisor
from controller.journal import JournalError, NewChain, VerifyReport, start_new_chain
from controller.journal.startup import NOT_NAMED_BY_WALK, StartupCheck
from controller.table import Pattern, lamp_ids
from drivers import events as ev

log = structlog.get_logger("daemon")
BROKEN_LAMPS = {"error": Pattern.FAST.value, "supervisor": Pattern.FAST.value}
RECOVERY = "the supervisor starts a new chain (key on): tablectl send new_chain reason=... (docs/journal.md, Recovery)"


def refusal(check: StartupCheck) -> str:
    at = "" if check.broken_seq is None else f" at record {check.broken_seq}"
    return f"journal broken{at} ({check.problem}): {check.reason} · not dealing · {RECOVERY}"


class BrokenJournal:
    def __init__(self, daemon, check: StartupCheck, *, name_in_background: bool = False) -> None:
        """name_in_background: the check did not walk the records before the anchor (a large
        journal): a walk of its own names the first broken record once it is done."""
        self.daemon, self.check = daemon, check
        self.name_in_background = name_in_background and check.problem not in NOT_NAMED_BY_WALK
        self.config, self.reactor, self.notifier = daemon.config, daemon.reactor, daemon.notifier
        self.line = refusal(check)
        self.key_on = False
        self.new_chain: NewChain | None = None
        self.stop_reason: str | None = None
        self.drivers: dict = {}
        self.server: ControlServer | None = None
        self.health = Health()
        # READY=1 at once with the refusal as its line; pings while the socket and drivers live
        self.supervisor = Supervisor(self.notifier, self.reactor, self.health, line=lambda ready, note: self.line)

    def run(self) -> NewChain | str:
        """Until a new chain is started (returned, open for writing) or a signal stops the
        daemon (its name is returned)."""
        log.critical("journal_broken", journal=self.check.journal, first_broken_record=self.check.broken_seq,
                     problem=self.check.problem, reason=self.check.reason, last_good_record=self.check.head_seq,
                     recovery=RECOVERY)
        try:
            self._open()
            self.supervisor.refresh()  # READY=1 first, then the watchdog
            self.supervisor.start()
            if self.name_in_background:
                BackgroundWalk(self.check.journal, self.daemon.signer,
                               lambda report: self.reactor.call_soon_threadsafe(lambda: self._named(report))).start()
            self.reactor.run_until(lambda: self.new_chain is not None or self.stop_reason is not None, None)
        finally:
            self._close()
        return self.new_chain if self.new_chain is not None else str(self.stop_reason)

    def _named(self, report: VerifyReport) -> None:
        """The walk of every record answered: the first broken record as `verify` names it."""
        if report.ok or self.new_chain is not None:
            return
        self.check = replace(self.check, broken_seq=report.broken_seq, head_seq=report.head_seq,
                             head_hash=report.head_hash, reason=report.reason)
        self.line = refusal(self.check)
        log.critical("journal_broken", journal=self.check.journal, first_broken_record=self.check.broken_seq,
                     problem=self.check.problem, reason=self.check.reason, last_good_record=self.check.head_seq,
                     recovery=RECOVERY, named_by="the walk of every record")
        self.supervisor.refresh()

    def request_stop(self, reason: str) -> None:
        """From the signal handler."""
        self.stop_reason = reason
        self.reactor.call_soon_threadsafe(lambda: None)  # wake the reactor to see it

    def _open(self) -> None:
        config = self.config
        self.server = ControlServer(config.control.socket, self._request, reactor=self.reactor, mode=config.control.mode,
                                    client_buffer_bytes=config.control.client_buffer_bytes,
                                    reply_timeout_s=config.control.reply_timeout_s,
                                    max_clients=config.control.max_clients).start()
        self.health.watch("control socket", self.server.problem)
        for kind in ("panel", "lights"):
            self.drivers[kind] = driver = self.daemon.open_driver(
                kind, getattr(config.devices, kind), self._device_event, reactor=self.reactor, start=True,
                **{**driver_options(config, kind), "durable_acks": False})  # nothing is journaled: ack at once
            self.health.watch(kind, driver.problem)
        picture = {name: Pattern.OFF.value for name in lamp_ids(config.game)} | BROKEN_LAMPS
        LampOutput(self.drivers["lights"], config.game).show(picture)  # sent when the board is there

    def _close(self) -> None:
        self.supervisor.stop()
        if self.server is not None:
            self.server.stop()  # what was answered goes out first
        for driver in self.drivers.values():
            driver.close()

    # ------------------------------------------------------------ inputs
    def _device_event(self, event: ev.DeviceEvent) -> None:
        """Only the panel is heard: the key (the recovery needs it on) and a button, refused."""
        heard = {ev.KeyTurned: lambda e: self._key(e.on), ev.PanelState: lambda e: self._key(e.key_on),
                 ev.ButtonPressed: self._refuse_button}.get(type(event))
        if heard is not None:
            heard(event)

    def _key(self, on: bool) -> None:
        if on != self.key_on:
            self.key_on = on
            self._publish({"event": "supervisor_key", "on": on})

    def _refuse_button(self, event: ev.ButtonPressed) -> None:
        self._publish({"event": "command", "source": "panel", "button": event.button, "command": None,
                       "ok": False, "message": self.line, "by": {"source": "panel", "button": event.button}})

    def _publish(self, event: dict) -> None:
        if self.server is not None:
            self.server.publish(event)

    def _request(self, request: Request) -> None:
        if request.cmd == "status":
            request.respond({"message": self.line, "state": "journal_broken", "journal_check": self.check.to_json(),
                             "supervisor_key": self.key_on, "daemon": self._info()})
        elif request.cmd == "new_chain":
            self._start_new_chain(request)
        else:
            request.fail(f"{request.cmd}: {self.line}")

    def _info(self) -> dict:
        return {"ready": True, "pid": os.getpid(), "status": self.line, "dealing": False,
                "alive": not self.health.problems(), "problems": self.health.problems(),
                "control": self.server.to_json() if self.server is not None else None}

    def _start_new_chain(self, request: Request) -> None:
        if not self.key_on:
            request.fail("new_chain needs the supervisor key")
            return
        peer = request.peer
        by = {**peer.by(), "user": peer.user or f"uid {peer.uid}"}
        try:
            done = start_new_chain(self.config.journal.path, by=by, reason=request.args["reason"],
                                   sync=self.config.journal.sync, signer=self.daemon.signer)
        except JournalError as error:
            log.error("new_chain_failed", error=str(error), by=by)
            request.fail(f"new_chain: {error}")
            return
        archived = [path.name for path in done.archived]
        log.warning("new_chain_started", by=by, reason=request.args["reason"], archived=archived,
                    previous=done.first.payload.get("previous"))
        request.reply(message=f"the broken journal was archived ({', '.join(archived) or 'nothing to archive'}); "
                              "a new chain starts at record 1, naming the old head; the table starts dealing on it",
                      archived=archived, first_record=done.first.to_json())
        self.new_chain = done
