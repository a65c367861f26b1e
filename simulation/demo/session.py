"""A demo session: the rig (simulators + a real daemon) started and always stopped, and the two
ways to run it: headless JSON lines (`--rounds N`) and the live terminal view."""
from __future__ import annotations

import json
import shutil
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from games.registry import DEFAULT_GAME, get_game, get_table_profile
from simulation.demo.bettors import BANKED_SCHEDULE, import_registry, write_registry
from simulation.demo.choices import Choices
from simulation.demo.colour import colour_wanted, paint
from simulation.demo.paced_rig import PacedRig
from simulation.demo.place import demo_directory
from simulation.demo.rounds import DemoTable
from simulation.demo.stopping import Interrupted, before_saying, deferred, say, shielded, stoppable
from simulation.demo.view import ViewState, event_line, render
from simulation.rig import RigError

INTERRUPTED = 130  # headless runs stopped before their N rounds (the shell's code for SIGINT)
RESULT_PAUSE = 2  # the live view shows a round's end this many paces before the next opens
REGISTRY = "chips.csv"  # the demo's chip registry, beside its config
DEMO_CONFIG = {"money": {"chip_unit": "1"}}  # the demo's chip tags carry whole currency units, as its rack is written


@dataclass(frozen=True)
class DemoOptions:
    game: str = DEFAULT_GAME
    rounds: int | None = None  # None: the live view until Ctrl-C
    seed: int = 1
    decks: int | None = None  # None: the game's default
    pace: float = 1.0  # seconds per card or step in the live view
    faults: float = 0.0  # the chance per round of a shoe fault
    directory: Path | None = None  # kept after the demo (config, journal, logs); None: a temporary one


def home_relative(path: Path) -> str:
    """`~/.local/state/...` for a path under the home directory, else the path."""
    home = str(Path.home())
    return "~" + str(path)[len(home):] if str(path).startswith(home + "/") else str(path)


@contextmanager
def running_rig(options: DemoOptions):
    with ExitStack() as stack:
        directory = None
        if options.directory is not None:
            directory, why_not = stack.enter_context(demo_directory(options.directory))
            if directory is None:
                say(f"{why_not}: this demo runs in a temporary directory, removed when it ends")
        # a player-dealer game's section (named for the game) sets the collection schedule the stakes fit
        config = {**DEMO_CONFIG, **({options.game: {"collection_schedule": BANKED_SCHEDULE}}
                                    if get_table_profile(options.game).player_dealer else {})}
        rig = PacedRig(options.game, seed=options.seed, decks=options.decks, directory=directory, bets=True,
                       config=config)
        registry = rig.dir / REGISTRY  # the cage's chips: the sensor's rack, and the daemon's registry
        chips = write_registry(registry)
        rig.sim_args["bets"] = ["--chips", str(registry)]
        try:
            with deferred():  # said even when Ctrl-C came meanwhile: what was started, and stopped
                rig.start()
                sims = ", ".join(f"{kind} {sim.pid}" for kind, sim in rig.sims.items())
                say(f"{options.game}, seed {options.seed}: daemon pid {rig.started_daemon.pid} ready; simulators {sims}; in {rig.dir}")
                say(f"journal {rig.journal_path}, control socket {rig.socket_path}"
                    + (" (the journal stays there after the demo)" if directory else ""))
                say(f"{import_registry(rig, registry)} ({chips} demo chips in {registry.name})")
            yield rig
        finally:
            with shielded():
                rig.stop()
            if directory is not None:
                say(f"this demo's journal: tablectl recall --journal {rig.journal_path}")


def run_headless(options: DemoOptions, out: TextIO) -> int:
    """`options.rounds` rounds, one JSON line each on `out`; 0, or 130 when interrupted."""
    if options.rounds is None:
        raise ValueError("run_headless plays options.rounds rounds: None is the live view's (run_live)")
    rounds, played = options.rounds, 0
    with stoppable():
        try:
            with running_rig(options) as rig:
                table = DemoTable(rig, Choices(options.seed, get_game(options.game), options.faults))
                for _ in range(rounds):
                    out.write(json.dumps(table.play(), separators=(",", ":")) + "\n")
                    out.flush()
                    table.log.clear()  # the live view's lines: the JSON line already says it all
                    played += 1
        except Interrupted:
            say(f"interrupted after {played} of {options.rounds} rounds")
            return INTERRUPTED
        except RigError as error:
            say(f"stopped after {played} rounds: {error}")
            return 1
    return 0


class Screen:
    """Redraws the whole view in place (ANSI: home, clear to end), rendered for the terminal's
    size (one column spare, and no newline after the last row, so nothing ever scrolls), in
    colour unless NO_COLOR says otherwise. Writes to a terminal that is gone are dropped: the
    demo still stops everything it started."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.colour = colour_wanted(out)
        self.drawn = False  # the cursor is at the end of the footer
        self._write("\x1b[?25l\x1b[2J")  # hide the cursor, clear the screen
        before_saying.append(self.leave)

    def _write(self, text: str) -> None:
        try:
            self.out.write(text)
            self.out.flush()
        except OSError:
            pass

    def draw(self, view: ViewState) -> None:
        size = shutil.get_terminal_size((80, 24))
        text = render(view, size.columns - 1, size.lines)
        self._write("\x1b[H\x1b[J" + (paint(text) if self.colour else text))
        self.drawn = True

    def leave(self) -> None:
        """The cursor to a line of its own below the view, so what is printed next starts there."""
        if self.drawn:
            self._write("\n")
            self.drawn = False

    def close(self) -> None:
        self.leave()
        self._write("\x1b[?25h")  # the cursor back
        before_saying.remove(self.leave)


def run_live(options: DemoOptions, out: TextIO) -> int:
    """Rounds at a human pace with the live view on `out`, until Ctrl-C (exit 0)."""
    game = get_game(options.game)
    view = ViewState(options.game, options.decks or game.default_decks, options.seed, options.faults)
    screen = Screen(out)
    with stoppable():
        try:
            with running_rig(options) as rig:
                table = DemoTable(rig, Choices(options.seed, game, options.faults))
                cursor = rig.events.mark()
                if rig.dir == options.directory:  # kept after the demo: say where
                    view.journal = home_relative(rig.journal_path)

                def step() -> None:
                    nonlocal cursor
                    view.status, view.lamps = rig.status(), rig.lamps()
                    new = rig.events.since(cursor)
                    cursor += len(new)
                    for text in table.log:  # the demo's acts, then the daemon's
                        view.note(text)
                    for event in new:
                        if (line := event_line(event)) is not None:
                            view.note(line, event.get("clause"))
                    table.log.clear()
                    if view.summary_behind():  # drawn once play() returns the round's line
                        return
                    screen.draw(view)
                    view.page += 1
                    time.sleep(options.pace)

                rig.on_card = table.on_step = step
                while True:
                    view.round_ended(table.play())
                    for _ in range(RESULT_PAUSE):
                        step()
        except Interrupted:
            say(f"stopped after {view.rounds} rounds")
            return 0
        except RigError as error:
            say(f"stopped after {view.rounds} rounds: {error}")
            return 1
        finally:
            screen.close()
