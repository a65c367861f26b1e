"""Rig: simulators and a real daemon process in a temp dir (see simulation/rig/__init__.py)."""
from __future__ import annotations

import random
import shutil
import signal
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from controller.control import ControlClient, ControlError
from controller.journal import Record, RoundView, iter_records, last_rounds, open_readonly, verify
from controller.table import lamp_ids
from firmware_bridge.sim.lights import DEFAULT_LAMPS
from firmware_bridge.sim.panel import DEFAULT_BUTTONS
from games.registry import DEFAULT_GAME, get_game
from simulation.rig.config_file import rig_config, toml_text
from simulation.rig.daemon_process import DaemonProcess
from simulation.rig.dealer import DealerMixin
from simulation.rig.events import WAIT, EventStream
from simulation.rig.notify import NotifyListener
from simulation.rig.processes import RigError
from simulation.rig.sims import Sim

DEVICES = ("shoe", "panel", "lights")
PANEL_BUTTONS = DEFAULT_BUTTONS  # the simulators' defaults: every game's ids fit
BOARD_LAMPS = DEFAULT_LAMPS
CUT_CARD_FROM_END = 60  # the cut card goes this many cards before the end of a multi-deck shoe
SIM_PATTERN = {"off": "off", "on": "on", "slow_blink": "slow", "fast_blink": "fast"}


class Rig(DealerMixin):
    def __init__(self, game: str = DEFAULT_GAME, *, seed: int = 1, decks: int | None = None,
                 cards: list[str] | str | None = None, cut_card: int | None = None, config: dict | None = None,
                 directory: str | Path | None = None, notify: bool = True, watchdog_usec: int | None = None,
                 absent: tuple[str, ...] = (), log_format: str = "json", keep: bool = False,
                 nofile: int | None = None, stdout_pipe: bool = False, daemon_module: str = "cli.run",
                 sim_args: dict[str, list[str]] | None = None, bets: bool = False) -> None:
        self.game = game
        spec = get_game(game)
        self.decks = decks if decks is not None else spec.default_decks
        self.deck_kind = spec.deck_kind.value
        self.seed, self.rng = seed, random.Random(seed)
        self.cards, self.cut_card = cards, cut_card
        self.overrides = config or {}
        self.deck_per_round = self.overrides.get("shoe", {}).get("deck_per_round", spec.uses_spots)
        size = len(spec.deck_kind.cards) * self.decks
        self.default_cut_card = None if self.deck_per_round or size < 2 * CUT_CARD_FROM_END else size - CUT_CARD_FROM_END
        self._own_dir = directory is None
        self.dir = Path(tempfile.mkdtemp(prefix="rig-", dir="/tmp") if directory is None else directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.notify_wanted, self.watchdog_usec = notify, watchdog_usec
        self.absent, self.log_format, self.keep = tuple(absent), log_format, keep
        self.nofile, self.stdout_pipe, self.daemon_module = nofile, stdout_pipe, daemon_module
        self.sim_args = {kind: list(args) for kind, args in (sim_args or {}).items()}
        self.devices = DEVICES + (("bets",) if bets else ())  # the bet sensor only when asked for
        self.sims: dict[str, Sim] = {}
        self.notify: NotifyListener | None = None
        self.daemon: DaemonProcess | None = None
        self._events: EventStream | None = None
        self._client: ControlClient | None = None
        self._shoe_used = False
        self.config_path = self.dir / "tablectl.toml"
        self.journal_path = Path(self.overrides.get("journal", {}).get("path", self.dir / "journal.sqlite"))
        self.socket_path = str(self.dir / "control.sock")

    # ------------------------------------------------------------ start and stop
    def start(self, wait_ready: bool = True) -> Rig:
        try:
            for kind in self.devices:
                if kind not in self.absent:
                    self.start_sim(kind)
            links = {kind: str(self.dir / kind) for kind in self.devices}
            config = rig_config(self.game, self.decks, self.dir, links, self.overrides)
            self.config_path.write_text(toml_text(config))
            if self.notify_wanted:
                self.notify = NotifyListener(str(self.dir / "notify.sock"))
            self.start_daemon(wait_ready=wait_ready and not self.absent)
        except BaseException:
            self.stop()
            raise
        return self

    def start_sim(self, kind: str) -> Sim:
        if kind == "shoe":
            args = ["--deck-kind", self.deck_kind, "--decks", str(self.decks)]
            if self.cards is not None:
                args += ["--cards", self.cards if isinstance(self.cards, str) else " ".join(self.cards)]
            else:
                args += ["--seed", str(self.seed)]
            cut = self.cut_card if self.cut_card is not None else (None if self.cards is not None else self.default_cut_card)
            args += ["--cut-card", str(cut)] if cut is not None else []
        elif kind == "panel":
            args = ["--buttons", str(PANEL_BUTTONS)]
        elif kind == "bets":
            args = ["--game", self.game]  # the game's layout
        else:
            args = ["--lamps", str(BOARD_LAMPS)]
        self.sims[kind] = sim = Sim(kind, self.dir, *args, *self.sim_args.get(kind, ()))
        return sim

    def start_daemon(self, wait_ready: bool = True) -> DaemonProcess:
        """Start `tablectl run` on the rig's config and journal; follow its events."""
        if self.daemon is not None and self.daemon.child.running:
            raise RigError(f"the daemon is already running (pid {self.daemon.pid})")
        self.daemon = DaemonProcess(self.config_path, self.dir, self.socket_path, notify=self.notify,
                                    watchdog_usec=self.watchdog_usec, log_format=self.log_format, nofile=self.nofile,
                                    stdout_pipe=self.stdout_pipe, module=self.daemon_module)
        if wait_ready:
            self.daemon.wait_ready()
        self.connect()
        if wait_ready and "bets" in self.devices and "bets" not in self.absent:
            # as a dealer waits for the table: the sensor's session reads every space after its layout
            self.wait_until(lambda: self.status()["money"]["unread"] == 0, WAIT, "the bet sensor to read every space")
        return self.daemon

    def connect(self, timeout: float = WAIT) -> None:
        """(Re)connect the control client and the event stream to the running daemon."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._close_client()
                self._client = ControlClient(self.socket_path, timeout=WAIT)
                if self._events is None:
                    self._events = EventStream(self.socket_path)
                else:
                    self._events.reconnect()
                return
            except (ControlError, RigError) as error:
                daemon = self.started_daemon
                if not daemon.child.running or time.monotonic() > deadline:
                    raise RigError(f"cannot reach the daemon on {self.socket_path}: {error}\n{daemon.output()}") from None
                time.sleep(0.02)

    def stop_daemon(self, sig: int = signal.SIGTERM, timeout: float = WAIT) -> int:
        """Send `sig` (SIGTERM: a clean stop) and wait; returns the exit code."""
        child = self.started_daemon.child
        child.signal(sig)
        code = child.wait(timeout)
        self._close_client()
        return code

    def kill_daemon(self) -> int:
        """SIGKILL: the daemon dies mid-whatever, as in a crash."""
        code = self.started_daemon.child.kill()
        self._close_client()
        return code

    def restart_daemon(self, wait_ready: bool = True) -> DaemonProcess:
        if self.daemon is not None and self.daemon.child.running:
            self.stop_daemon()
        return self.start_daemon(wait_ready)

    def stop(self) -> None:
        """Stop everything the rig started, by PID; remove the directory unless `keep`."""
        self._close_client()
        if self._events is not None:
            self._events.close()
        if self.daemon is not None and self.daemon.child.running:
            self.daemon.child.stop(timeout=WAIT)
        for sim in self.sims.values():
            sim.stop()
        if self.notify is not None:
            self.notify.close()
        if self._own_dir and not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)

    def _close_client(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> Rig:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def events(self) -> EventStream:
        """The daemon's event stream, once the rig has connected to it."""
        if self._events is None:
            raise RigError("the rig has not connected to a daemon (start it first)")
        return self._events

    @property
    def started_daemon(self) -> DaemonProcess:
        """The daemon process the rig started (`daemon` is None before)."""
        if self.daemon is None:
            raise RigError("the rig has not started a daemon")
        return self.daemon

    # ------------------------------------------------------------ the simulators by kind
    @property
    def shoe(self) -> Sim:
        return self.sims["shoe"]

    @property
    def panel(self) -> Sim:
        return self.sims["panel"]

    @property
    def lights(self) -> Sim:
        return self.sims["lights"]

    @property
    def bets(self) -> Sim:
        """The bet sensor's simulator (Rig(bets=True))."""
        return self.sims["bets"]

    # ------------------------------------------------------------ the daemon's side
    def send(self, cmd: str, **fields) -> dict:
        """One control-socket request (the dealer's commands, `status`); the daemon's reply."""
        if self._client is None:
            raise RigError("the rig is not connected to a daemon")
        try:
            return self._client.request(cmd, **fields)
        except ControlError as error:
            raise RigError(f"{cmd}: {error}\n{self.daemon.output() if self.daemon else ''}") from None

    def status(self) -> dict:
        return self.send("status")

    def lamps(self) -> dict[str, str]:
        """What the lights simulator shows, by lamp name: off / on / slow / fast."""
        board = self.lights.state()["lamps"]
        return {name: SIM_PATTERN[board[lamp_id]] for name, lamp_id in lamp_ids(self.game).items()}

    def wait_lamps(self, expected: dict[str, str] | None = None, timeout: float = WAIT) -> dict[str, str]:
        """Until the board shows `expected` (lamp name -> pattern, the others as they are;
        default: the daemon's whole picture); returns the board's picture."""
        want = expected if expected is not None else self.status()["lamps"]
        shown: dict[str, str] = {}

        def matches() -> bool:
            nonlocal shown
            shown = self.lamps()
            return all(shown.get(name) == pattern for name, pattern in want.items())

        self.wait_until(matches, timeout, f"the lamps to show {want}")
        return shown

    def records(self, since: int = 0) -> list[Record]:
        """The journal's records (read-only, safe while the daemon writes)."""
        conn = open_readonly(self.journal_path)
        try:
            return list(iter_records(conn, since))
        finally:
            conn.close()

    def recall(self, last: int = 10) -> list[RoundView]:
        return last_rounds(self.journal_path, last)

    def verify(self):
        return verify(self.journal_path)

    @staticmethod
    def wait_until(condition: Callable[[], bool], timeout: float, what: str, poll: float = 0.005) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise RigError(f"timed out after {timeout:g} s waiting for {what}")
            time.sleep(poll)
