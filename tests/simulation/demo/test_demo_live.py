"""The live view as a user sees it: `tablectl demo` on a real pseudo-terminal, stopped with
Ctrl-C (SIGINT to the demo's PID) after a few rounds: exit 0, the screen showed the table, and
every process the demo started is gone (also when Ctrl-C is pressed again during cleanup)."""
import os
import pty
import select
import signal
import subprocess
import time

import pytest
from demo_process import DEMO, ROOT, assert_all_stopped, kill_leftovers, started_by

WAIT = 60.0  # a guard against a hang, not a measurement
SCREEN = "\x1b[H\x1b[J"
FOOTER = "Ctrl-C stops the demo"


class LiveDemo:
    """The demo with stdout on a pty (it is a terminal there), stderr in a pipe."""

    def __init__(self, *args: str) -> None:
        master, slave = pty.openpty()
        self.master, self.output = master, b""
        self.proc = subprocess.Popen([*DEMO, *args], cwd=ROOT, stdin=slave, stdout=slave, stderr=subprocess.PIPE)
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
        return code, self.proc.stderr.read().decode()

    def last_screen(self) -> str:
        return self.output.decode(errors="replace").rsplit(SCREEN, 1)[-1]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


@pytest.fixture
def live():
    demos = []

    def start(*args: str) -> LiveDemo:
        demos.append(LiveDemo(*args))
        return demos[-1]

    yield start
    for demo in demos:
        stderr = demo.proc.stderr.read().decode() if demo.proc.poll() is not None else ""
        demo.close()
        if "daemon pid" in stderr:
            kill_leftovers(started_by(stderr)[0])


def test_the_live_view_shows_the_table_and_ctrl_c_stops_everything(live):
    demo = live("--game", "fortune7", "--seed", "3", "--pace", "0.01")
    last = demo.read_screen_with("2 played")
    demo.proc.send_signal(signal.SIGINT)
    code, stderr = demo.finish()
    assert code == 0, stderr
    assert "stopped after" in stderr
    assert_all_stopped(stderr)
    screen = demo.output.decode(errors="replace")
    assert "tablectl demo · Fortune 7 Baccarat (fortune7) · 8 decks · seed 3" in last
    assert "player " in last and "banker " in last
    assert "lamps result:" in last and "lamps status:" in last and "lamps spots:" in last
    assert "player_dealer_" in last  # the seat holding the position is lit
    history = next(line for line in last.splitlines() if line.startswith("history"))
    assert len(history.split()) >= 3 and set(history.split()[1:]) <= {"P", "B", "T", "V"}
    assert "seat" in screen and "takes the player-dealer position" in screen
    assert demo.output.endswith(b"\x1b[?25h")  # the cursor is shown again


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
