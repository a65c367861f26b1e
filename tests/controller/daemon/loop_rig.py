"""An EventLoop on a real Table and a real SQLite journal, fed driver events directly.

The lamp board is the one stand-in (BoardStandIn): it records what the loop sets and reads
the journal at that moment through a separate read-only connection, so a test can see what
was committed before the lamps changed. The HIL tests (tests/hil) drive the real board
simulator over a pty.
"""
from __future__ import annotations

import threading

from controller.daemon.lamps_out import LampOutput
from controller.daemon.loop import EventLoop
from controller.journal import Journal, iter_records, open_readonly
from controller.sdnotify import Notifier
from controller.table import Table, TableSettings, button_map
from drivers import events as ev
from drivers.lights import changed_lamps
from firmware_bridge.enums import LampPattern
from games.registry import get_game


class BoardStandIn:
    """The lamp board with the LightsDriver's own diff (drivers.lights.changed_lamps): `sets`
    holds what the driver would send, one entry per picture that changes something; the
    first picture goes whole (what the board shows is not known yet)."""

    def __init__(self, journal_path):
        self.journal_path = journal_path
        self.desired: dict = {}
        self.known = False  # a picture was sent: the board shows `desired`
        self.sets: list[tuple[dict, list[str]]] = []  # (lamps set, record kinds committed at that moment)

    def set_lamps(self, lamps):
        changed = changed_lamps(lamps, self.desired) if self.known else dict(lamps)
        self.desired.update(lamps)
        self.known = True
        if not changed:
            return
        conn = open_readonly(self.journal_path)
        try:
            kinds = [r.kind for r in iter_records(conn)]
        finally:
            conn.close()
        self.sets.append(({lamp: int(pattern) for lamp, pattern in changed.items()}, kinds))

    def all_off(self):
        self.desired = {lamp: LampPattern.OFF for lamp in self.desired}
        self.sets.append(({"all": "off"}, []))


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class LoopRig:
    """The loop plus helpers that post what the drivers would."""

    def __init__(self, tmp_path, notifier=None, publish=None, **settings):
        game = get_game("fortune6")
        self.table = Table("fortune6", 8, TableSettings.for_game(game, **settings))
        self.journal_path = tmp_path / "journal.sqlite"
        self.journal = Journal(self.journal_path)
        self.board = BoardStandIn(self.journal_path)
        self.published: list[dict] = []
        self.clock = FakeClock()
        self.loop = EventLoop(self.table, self.journal, LampOutput(self.board, "fortune6"),
                              notifier or Notifier(None), publish=publish or self.published.append, clock=self.clock)
        self.counter = 0

    def press(self, command: str) -> None:
        button = next(b.id for b in button_map("fortune6").values() if b.command == command)
        self.loop.dispatch(ev.ButtonPressed(device="panel", at=0.0, button=button))

    def card(self, code: int) -> None:
        self.counter += 1
        self.loop.dispatch(ev.CardDrawn(device="shoe", at=0.0, code=code, draw_counter=self.counter, device_time=0))

    def records(self):
        conn = open_readonly(self.journal_path)
        try:
            return list(iter_records(conn))
        finally:
            conn.close()

    def kinds(self, since: int = 0) -> list[str]:
        return [r.kind for r in self.records()[since:]]

    def events(self, name: str) -> list[dict]:
        return [e for e in self.published if e.get("event") == name]

    def run_with(self, dealer, wait: float = 20.0) -> str:
        """Run the loop's real run() (its reactor) on this thread (it owns the journal) while
        `dealer` posts to it from another (through the reactor's wake-up pipe); `dealer` must
        end by stopping the loop. Returns the stop reason."""
        thread = threading.Thread(target=dealer)
        thread.start()
        try:
            return self.loop.run()
        finally:
            thread.join(wait)
            self.close()

    def close(self):
        self.journal.close()
        self.loop.reactor.close()


