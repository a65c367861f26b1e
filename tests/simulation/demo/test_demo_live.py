"""The live view as a user sees it: `tablectl demo` on a real pseudo-terminal of 80x24, stopped
with Ctrl-C (SIGINT to the demo's PID, or to its whole process group as a terminal sends it)
after a few rounds: exit 0, every screen fitted the terminal with the header on top, in colour
unless NO_COLOR is set, and every process the demo started is gone (also when Ctrl-C is
pressed again during cleanup)."""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import termios
import time

import pytest
from demo_process import DEMO, ROOT, assert_all_stopped, kill_leftovers, started_by

WAIT = 60.0  # a guard against a hang, not a measurement
SCREEN = "\x1b[H\x1b[J"
FOOTER = "Ctrl-C stops the demo"
SGR = re.compile(r"\x1b\[[0-9;]*m")  # colour codes
COLUMNS, ROWS = 80, 24


class LiveDemo:
    """The demo with stdout on an 80x24 pty (it is a terminal there), stderr in a pipe, in its
    own process group (so a test can press Ctrl-C on the group as a terminal does)."""

    def __init__(self, *args: str, env: dict | None = None, stderr_on_terminal: bool = False) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.master, self.output = master, b""
        self.proc = subprocess.Popen([*DEMO, *args], cwd=ROOT, stdin=slave, stdout=slave,
                                     stderr=slave if stderr_on_terminal else subprocess.PIPE,
                                     env={**os.environ, **(env or {})}, start_new_session=True)
        os.close(slave)

    def read_screen_with(self, text: str) -> str:
        """Read until a whole screen (it ends with the footer) shows `text`; that screen."""
        deadline = time.monotonic() + WAIT
        while text not in (screen := self.last_screen()) or FOOTER not in screen:
            assert time.monotonic() < deadline, f"no {text!r} on the screen: {self.output[-2000:]!r}"
            assert self.proc.poll() is None, f"the demo exited ({self.proc.returncode}): {self.proc.stderr.read()}"
            self._read(0.2)
        return screen

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            self.output += os.read(self.master, 65536)
        except OSError:  # the demo closed the pty
            return False
        return True

    def finish(self) -> tuple[int, str]:
        """Drain the screen until the demo exits; its exit code and stderr."""
        deadline = time.monotonic() + WAIT
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.2)
        code = self.proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        while self._read(0):
            pass
        return code, self.proc.stderr.read().decode() if self.proc.stderr else ""

    def screens(self) -> list[str]:
        """Every whole screen drawn so far, as it was written (colour codes included)."""
        text = self.output.decode(errors="replace").replace("\r\n", "\n")  # the pty's newline
        return [_to_footer(screen) for screen in text.split(SCREEN)[1:] if FOOTER in screen]

    def last_screen(self) -> str:
        """The last screen as a person reads it (without colour codes)."""
        return SGR.sub("", self.output.decode(errors="replace").replace("\r\n", "\n").rsplit(SCREEN, 1)[-1])

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


def _to_footer(screen: str) -> str:
    """A screen up to the end of its footer's line (after the last one: the demo's own lines)."""
    end = screen.find("\n", screen.index(FOOTER))
    return screen if end == -1 else screen[:end]


@pytest.fixture
def live():
    demos = []

    def start(*args: str, env: dict | None = None, stderr_on_terminal: bool = False) -> LiveDemo:
        demos.append(LiveDemo(*args, env=env, stderr_on_terminal=stderr_on_terminal))
        return demos[-1]

    yield start
    for demo in demos:
        stderr = demo.proc.stderr.read().decode() if demo.proc.poll() is not None and demo.proc.stderr else ""
        demo.close()
        if "daemon pid" in stderr:
            kill_leftovers(started_by(stderr)[0])


def assert_fits(screen: str) -> None:
    lines = SGR.sub("", screen).split("\n")
    assert len(lines) <= ROWS and lines[0].startswith("tablectl demo · "), screen
    assert all(len(line) < COLUMNS for line in lines), [line for line in lines if len(line) >= COLUMNS]


def test_the_live_view_shows_the_table_and_ctrl_c_stops_everything(live):
    demo = live("--game", "fortune7", "--seed", "3", "--pace", "0.01")
    last = demo.read_screen_with("2 played")
    os.killpg(demo.proc.pid, signal.SIGINT)  # Ctrl-C at the terminal: the whole foreground group
    code, stderr = demo.finish()
    assert code == 0, stderr
    assert "stopped after" in stderr
    assert_all_stopped(stderr)
    screen = demo.output.decode(errors="replace")
    assert last.startswith("tablectl demo · fortune7 · 8 decks · seed 3 · Fortune 7 Baccarat\n")
    assert "player " in last and "banker " in last
    assert "lit  result:" in last and "     status:" in last and "spots: bank " in last  # the seat holding the position
    history = next(line for line in last.splitlines() if line.startswith("history"))
    assert len(history.split()) >= 3 and set(history.split()[1:]) <= {"P", "B", "T", "V"}
    assert "seat" in screen and "takes the player-dealer position" in screen
    assert demo.output.endswith(b"\x1b[?25h")  # the cursor is shown again
    for drawn in demo.screens():
        assert_fits(drawn)
    assert "\x1b[31mbanker\x1b[0m" in screen and "\x1b[34mplayer\x1b[0m" in screen  # banker red, player blue


@pytest.mark.parametrize("game", ["fubacc", "paigow"])
def test_spot_games_fit_80x24_and_no_color_means_none(live, game):
    demo = live("--game", game, "--seed", "5", "--pace", "0.01", "--faults", "0.3", env={"NO_COLOR": "1"})
    demo.read_screen_with("3 played")
    demo.proc.send_signal(signal.SIGINT)
    code, stderr = demo.finish()
    assert code == 0, stderr
    assert_all_stopped(stderr)
    assert demo.screens() and not SGR.search(demo.output.decode(errors="replace"))
    for drawn in demo.screens():
        assert_fits(drawn)


def test_a_second_ctrl_c_during_cleanup_still_stops_everything(live):
    demo = live("--game", "fubacc", "--seed", "5", "--pace", "0.01", "--faults", "0.5")
    screen = demo.read_screen_with("1 played")
    demo.proc.send_signal(signal.SIGINT)
    time.sleep(0.05)  # the second lands somewhere in the cleanup (or with the first: either must stop all)
    demo.proc.send_signal(signal.SIGINT)
    code, stderr = demo.finish()
    assert code == 0, stderr
    assert_all_stopped(stderr)
    assert "spot" in screen and "dealer" in screen


def test_after_ctrl_c_the_demos_lines_start_below_the_view(live):
    demo = live("--seed", "3", "--pace", "0.01", env={"NO_COLOR": "1"}, stderr_on_terminal=True)
    demo.read_screen_with("1 played")
    demo.proc.send_signal(signal.SIGINT)
    time.sleep(0.05)  # and again during the cleanup: "stopping; ..." also on a line of its own
    demo.proc.send_signal(signal.SIGINT)
    code, _ = demo.finish()
    text = demo.output.decode(errors="replace").replace("\r\n", "\n")
    after = text.rsplit(SCREEN, 1)[-1]
    footer = next(line for line in after.split("\n") if FOOTER in line)
    assert code == 0 and "\ntablectl demo: stopped after" in after, after
    assert "tablectl demo" not in footer  # the footer's line holds the footer only
    said = [line for line in after.split("\n") if "tablectl demo:" in line]
    assert said and all(line.startswith("tablectl demo: ") for line in said), said
    assert_all_stopped(text)


def test_sighup_stops_the_demo_and_everything_it_started(live):
    """The terminal closed or the SSH session dropped: the pty's far end is gone, then SIGHUP."""
    demo = live("--seed", "4", "--pace", "0.01")
    demo.read_screen_with("1 played")
    os.close(demo.master)
    demo.master = os.open("/dev/null", os.O_RDONLY)  # for close(); the terminal itself is gone
    demo.proc.send_signal(signal.SIGHUP)
    code = demo.proc.wait(timeout=WAIT)
    stderr = demo.proc.stderr.read().decode()
    assert code == 0 and "stopped after" in stderr, stderr
    assert_all_stopped(stderr)
