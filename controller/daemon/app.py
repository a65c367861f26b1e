"""`tablectl run`: start-up, the loop, and shutdown.

Start-up, in order: the config (an error names the file and key: exit 2), logging, the
notifier (NOTIFY_SOCKET; removed from the environment), the reactor (the daemon's one
thread), the journal (locked: one daemon per journal; SQLite busy timeout 0: a journal locked
by another process is retried from a timer, never waited for in SQLite) and recovery
(the table restores from the journal's tail, with the round's money and the chip registry
from every `chips` record, and its effects are carried out: the restore's
records are journaled with `daemon_started`, its lamp picture becomes the board's wanted
picture; the shoe integrity checks get the shoes dealt before, up to integrity.history_shoes,
and the shoe in play: controller/daemon/shoe_memory.py), the control socket (mode from the config), the drivers (the bet sensor's only when
[devices] names one). The loop then runs;
READY=1 goes out once every device has had a session (a device absent at boot: STATUS= says
which and why, the loop keeps serving `tablectl status`, and READY waits; systemd's
TimeoutStartSec decides how long).

SIGTERM / SIGINT: no more input is taken (what was queued before the signal is handled),
STOPPING=1, the control socket closes, every lamp goes off (ALL_OFF, confirmed by reading
the board back when it is connected), `daemon_stopped` is journaled (durable), the drivers
and the journal close, exit 0. A journal that cannot be written ends the daemon with exit 1
(systemd restarts it, and the restart recovers from what was journaled).
"""
from __future__ import annotations

import logging
import os
import resource
import signal
import sqlite3
import time

import structlog

from controller.config import ConfigError, load_config
from controller.config.table_settings import table_settings
from controller.control import ControlError, ControlServer
from controller.daemon.broken_journal import BrokenJournal
from controller.daemon.device_options import configured_devices, driver_options
from controller.daemon.health import Health
from controller.daemon.inbox import Inbox
from controller.daemon.journal_walk import BackgroundWalk
from controller.daemon.lamps_out import LampOutput
from controller.daemon.loop import DaemonFatal, EventLoop
from controller.daemon.shoe_memory import shoe_memory
from controller.daemon.shoe_resends import cards_heard_last
from controller.daemon.status_json import freeze_start_up
from controller.journal import Journal, JournalError, RecordKind, check_journal, open_readonly, read_anchor, read_tail
from controller.journal.chips import chip_records
from controller.journal.signing import TableSigner
from controller.journal.table_key import table_signer
from controller.logs import configure_logging
from controller.sdnotify import Notifier, NotifyConfigError
from controller.table import SettingsError, Table, TableRecovery
from controller.table.money_recovery import RecoveredMoney
from drivers.errors import DriverError, LinkDownError
from drivers.factory import driver_for
from drivers.reactor import Reactor
from firmware_bridge.enums import LampPattern

log = structlog.get_logger("daemon")
BUSY_TIMEOUT_MS = 0  # a locked journal answers "busy" at once; the loop retries from a timer
LAMPS_CONFIRM_S = 1.0
OWN_DESCRIPTORS = 64  # the daemon's own descriptors (devices, journal, reactor) with room to spare


def main(config_path: str, log_format: str | None = None) -> int:
    """Raises ConfigError for a config it cannot run with (`tablectl run` reports it: exit 2)."""
    config = load_config(config_path)
    try:
        settings = table_settings(config)
    except SettingsError as error:  # the file is valid, but the table cannot be dealt that way
        raise ConfigError(config_path, [(error.key, str(error).removeprefix(f"{error.key}: "))]) from None
    configure_logging(log_format or config.log.format, config.log.level)
    if config.log.level != "debug":  # transitions logs every state change at info: noise for journald
        logging.getLogger("transitions").setLevel(logging.WARNING)
    try:
        notifier = Notifier.from_environment(unset=True)
    except NotifyConfigError as error:
        log.error("bad_environment", error=str(error))
        return 2
    return TableDaemon(config, settings, notifier).run()


def _step(what: str, action):
    """One shutdown step; a failure is logged and the next step runs."""
    try:
        return action()
    except Exception:  # noqa: BLE001 - shutdown goes on: the socket file and daemon_stopped matter more
        log.exception("shutdown_step_failed", step=what)
        return None


def check_descriptor_limit(max_clients: int) -> None:
    """Warn when RLIMIT_NOFILE leaves too few descriptors for control.max_clients clients
    beside the daemon's own (devices, journal, reactor): accept() would then run out before
    the cap and pause (controller/control/accepting.py). LimitNOFILE= in the unit sets it."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < max_clients + OWN_DESCRIPTORS:
        log.warning("descriptor_limit_low", limit=soft, max_clients=max_clients,
                    needed=max_clients + OWN_DESCRIPTORS,
                    consequence="new clients are refused for want of descriptors before the cap is reached")


def _records_to_walk(path: str) -> int:
    """The records a full walk would take before dealing: those up to the anchor, or every
    record when there is no anchor (0 when it cannot say: the check itself reports why)."""
    try:
        anchor = read_anchor(path)
        if anchor is not None:
            return anchor.seq
        conn = open_readonly(path)
    except (JournalError, OSError):
        return 0
    try:
        return int(conn.execute("SELECT MAX(seq) FROM records").fetchone()[0] or 0)
    except sqlite3.DatabaseError:
        return 0
    finally:
        conn.close()


class TableDaemon:
    def __init__(self, config, settings, notifier: Notifier, *, open_driver=driver_for):
        self.config, self.settings, self.notifier = config, settings, notifier
        self.open_driver = open_driver
        self.reactor = Reactor()
        self.journal: Journal | None = None
        self.server: ControlServer | None = None
        self.drivers: dict = {}
        self.loop: EventLoop | None = None
        self.broken: BrokenJournal | None = None  # while the journal, broken at start, waits for a new chain
        self.signer: TableSigner | None = None  # the table's key (None: journal.unsigned = true)
        self.walk: BackgroundWalk | None = None  # the walk of the records before the anchor, on a large journal

    def run(self) -> int:
        code, reason, stopped = 0, "stopped", None
        previous = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            stopped = self.start()
            if stopped is not None:  # a signal while the journal was broken: nothing was dealt
                return 0
            freeze_start_up()  # the modules, the table, the drivers: apart from the collector
            assert self.loop is not None  # start() built it
            reason = self.loop.run()
        except DaemonFatal as error:
            log.critical("journal_failed", error=str(error))
            code, reason = 1, f"journal failed: {error}"
        except (JournalError, ControlError, DriverError, ValueError) as error:
            log.error("cannot_start", error=str(error))
            code, reason = 1, f"cannot start: {error}"
        except Exception as error:  # a bug: journal why and exit non-zero, so Restart=on-failure restarts it
            log.critical("crashed", error=f"{type(error).__name__}: {error}", exc_info=True)
            code, reason = 1, f"crashed: {type(error).__name__}: {error}"
        else:
            if self.loop is not None and self.loop.stop_requested is None:  # the loop ended unasked
                log.critical("crashed", error="the loop stopped without being asked to")
                code, reason = 1, f"crashed: the loop stopped without being asked to ({reason})"
        finally:
            self.shutdown(stopped if stopped is not None else reason)
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return code

    def _on_signal(self, signum, frame) -> None:
        if self.broken is not None:
            self.broken.request_stop(signal.Signals(signum).name)
        elif self.loop is not None:
            self.loop.request_stop(signal.Signals(signum).name)
        else:  # still opening the journal: stop before the loop starts
            raise DaemonFatal(f"{signal.Signals(signum).name} during start-up")

    # ------------------------------------------------------------ start-up
    def start(self) -> str | None:
        """Everything the loop needs; returns the signal's name instead when one stopped a
        daemon whose journal failed its start-up check (nothing is dealt then)."""
        config = self.config
        log.info("starting", game=config.game, decks=config.decks, config=config.source, pid=os.getpid())
        options = {kind: driver_options(config, kind) for kind in configured_devices(config)}  # key files read first
        self.signer = signer = table_signer(config)  # SigningKeyError (a JournalError): cannot start
        if signer is None:
            log.warning("journal_unsigned", consequence="nothing vouches for the journal (journal.unsigned = true)")
        self.notifier.status(f"starting: checking the journal {config.journal.path}")
        in_background = signer is not None and _records_to_walk(config.journal.path) > config.journal.walk_at_start
        check = check_journal(config.journal.path, signer, full=not in_background)
        if check.ok:
            self.journal = Journal(config.journal.path, sync=config.journal.sync, signer=signer)
            log.info("journal_checked", records=check.head_seq, checked=check.checked,
                     anchor=None if check.anchor is None else check.anchor.seq,
                     signed_by=None if signer is None else f"table {signer.table}, key {signer.key_id}",
                     before_anchor="walked in the background" if in_background else "walked")
        else:
            self.broken = BrokenJournal(self, check, name_in_background=in_background)
            try:
                outcome = self.broken.run()
            finally:
                self.broken = None
            if isinstance(outcome, str):
                return outcome
            self.journal = outcome.journal
        journal = self.journal
        self.anchor()  # signed; mirrored into the journal at the first checkpoint (when bets first open)
        journal.connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        table = Table(config.game, config.decks, self.settings)
        inbox = Inbox(self.reactor)  # what the drivers and the socket post, for the loop built below
        lights = self.open_driver("lights", config.devices.lights, inbox.post, reactor=self.reactor, start=False,
                                  **options["lights"])
        self.drivers["lights"] = lights
        self.server = server = ControlServer(config.control.socket, inbox.post, reactor=self.reactor, mode=config.control.mode,
                                    client_buffer_bytes=config.control.client_buffer_bytes,
                                    reply_timeout_s=config.control.reply_timeout_s,
                                    max_clients=config.control.max_clients,
                                    max_clients_per_uid=config.control.max_clients_per_uid,
                                    owner_slots=config.control.owner_slots,
                                    idle_timeout_s=config.control.idle_timeout_s)
        if signer is None:
            signing: dict = {"signed": False}
        else:
            signing = {"signed": True, "table": signer.table, "key_id": signer.key_id,
                       "walk": "in the background" if in_background and check.ok else "done at start"}
        lamps = LampOutput(lights, config.game)
        self.loop = loop = EventLoop(
            table, journal, lamps, self.notifier, inbox=inbox, publish=server.publish, health=Health(),
            control_info=server.to_json, subscribers=lambda: server.subscribers, signing=signing,
            journal_note="journal unsigned (journal.unsigned = true): nothing vouches for it" if signer is None else "")
        self._recover(loop, table, lamps)
        self.server.start()
        for kind in configured_devices(config):
            if kind != "lights":  # the bet sensor too, when the table has one
                self.drivers[kind] = self.open_driver(kind, getattr(config.devices, kind), inbox.post, reactor=self.reactor,
                                                      start=True, **options[kind])
        remember = getattr(self.drivers["shoe"], "remember", None)  # a test's stand-in driver may not
        if remember is not None:  # a card journaled but not acknowledged before a crash comes again
            remember(*cards_heard_last(journal))
        lights.start()
        loop.health.watch("control socket", self.server.problem)
        for kind, driver in self.drivers.items():
            loop.health.watch(kind, driver.problem)
            loop.sessions.watch(kind, driver)
        for kind in loop.sessions.unauthenticated():  # a forged frame cannot be told from the device's
            log.warning("unauthenticated_device", device=kind,
                        fix=f"tablectl keys provision {kind}, program the key into the {kind} and name it in [keys]")
        check_descriptor_limit(config.control.max_clients)
        if in_background and check.ok and signer is not None:
            self.walk = BackgroundWalk(config.journal.path, signer,
                                       lambda report: self.reactor.call_soon_threadsafe(lambda: loop.trust.walked(report)))
            self.walk.start()
        loop.refresh_status()
        return None

    def anchor(self) -> None:
        """Anchor the journal's head (controller/journal/anchor.py): at start, once the journal
        passed its check, and at the end; the loop anchors at every checkpoint. A failure (a
        full disk) leaves the previous anchor, which the next start checks from."""
        if self.journal is None:
            return
        try:
            self.journal.anchor()
        except JournalError as error:
            log.warning("anchor_failed", error=str(error))

    def _recover(self, loop: EventLoop, table: Table, lamps: LampOutput) -> None:
        """Take up from the journal; the restore's records go with `daemon_started`."""
        started = (RecordKind.DAEMON_STARTED, {
            "pid": os.getpid(), "game": self.config.game, "decks": table.decks, "config": self.config.source,
            "journal_sync": self.config.journal.sync,
            "devices": {k: getattr(self.config.devices, k) for k in configured_devices(self.config)}})
        effects = []
        if loop.journal.head_seq:
            tail = read_tail(loop.journal)
            recovery, money = TableRecovery.from_tail(tail), RecoveredMoney.from_journal(tail.pairs())
            number = recovery.shoe.number if recovery.shoe is not None else None
            reading_since = time.perf_counter()
            shoes = shoe_memory(loop.journal, table.game.key, table.decks, number, self.config.integrity.history_shoes)
            log.info("shoe_history_loaded", shoes=shoes.history.shoes, in_play=shoes.label, cards_in_play=len(shoes.cards),
                     seconds=round(time.perf_counter() - reading_since, 3), cap=self.config.integrity.history_shoes)
            effects = table.restore(recovery, shoes, money=money, chips=chip_records(loop.journal))
        loop.handle_inputs(started, [], extra=effects)
        lamps.show(table.snapshot()["lamps"])  # the whole picture: every lamp, off ones too

    # ------------------------------------------------------------ shutdown
    def shutdown(self, reason: str) -> None:
        """Every step is taken whatever the one before did: the socket file goes, the lamps go
        off, `daemon_stopped` is journaled with the reason, on every stop that can run code."""
        self.notifier.stopping(status=f"stopping: {reason}")
        log.info("stopping", reason=reason)
        if self.server is not None:
            _step("close the control socket", self.server.stop)
        lamps = _step("switch the lamps off", self._lamps_off) or "not confirmed: switching them off failed"
        if self.journal is not None and self.loop is not None:
            try:
                self.journal.append(RecordKind.DAEMON_STOPPED, {"reason": reason, "lamps": lamps}, durable=True)
            except JournalError as error:
                log.error("journal_failed", error=str(error), record="daemon_stopped")
            self.anchor()
        for driver in self.drivers.values():
            _step(f"close the {driver.name}", driver.close)
        if self.journal is not None:
            _step("close the journal", self.journal.close)
        self.reactor.close()
        log.info("stopped", reason=reason, lamps=lamps)
        self.notifier.close()

    def _lamps_off(self) -> str:
        lights = self.drivers.get("lights")
        if lights is None or self.loop is None or self.loop.lamps is None:
            return "not started"
        self.loop.lamps.all_off()
        try:  # the reactor turns until the board answers (the loop takes no more input)
            board = lights.read_back(timeout=LAMPS_CONFIRM_S)
        except LinkDownError:
            log.warning("lamps_not_confirmed", reason="the lamp board is not connected")
            return "off requested; the lamp board is not connected"
        except DriverError as error:
            log.warning("lamps_not_confirmed", reason=str(error))
            return f"off requested; not confirmed: {error}"
        lit = sorted(lamp for lamp, pattern in board.items() if pattern != LampPattern.OFF)
        return "off (read back from the board)" if not lit else f"lamps still lit on the board: {lit}"
