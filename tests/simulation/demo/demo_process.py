"""`tablectl demo` as a real subprocess (sys.executable -m cli, not the `tablectl` shim:
on pyenv machines the shim is a bash script, and signalling it would leave Python running),
and the checks that every process it started is gone when it exits."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DEMO = [sys.executable, "-m", "cli", "demo"]
READY = re.compile(r"daemon pid (\d+) ready; simulators shoe (\d+), panel (\d+), lights (\d+), bets (\d+); in (\S+)")


@dataclass
class DemoRun:
    code: int
    lines: list[dict]
    stderr: str

    @property
    def started(self) -> tuple[list[int], Path]:
        """The PIDs the demo started (daemon, shoe, panel, lights, bets) and the rig's directory."""
        return started_by(self.stderr)


def started_by(stderr: str) -> tuple[list[int], Path]:
    found = READY.search(stderr)
    assert found, f"the demo did not report its processes:\n{stderr}"
    return [int(pid) for pid in found.groups()[:5]], Path(found.group(6))


def run_demo(*args: str, timeout: float = 120) -> DemoRun:
    """Run the demo to its end; stdout parsed as JSON lines (a line that is not JSON fails)."""
    proc = subprocess.run([*DEMO, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    return DemoRun(proc.returncode, [json.loads(line) for line in proc.stdout.splitlines()], proc.stderr)


def still_running(pids: list[int]) -> list[str]:
    """Those of `pids` that are still a live process of ours (a reused PID running something
    else is not ours)."""
    alive = []
    for pid in pids:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            continue
        if state != "Z" and ("-m cli" in cmdline or "firmware_bridge" in cmdline):
            alive.append(f"{pid}: {cmdline}")
    return alive


def assert_all_stopped(stderr: str) -> None:
    """No process of the demo's left, and in its directory (kept: the journal, config and logs
    stay) no socket or pty link."""
    pids, directory = started_by(stderr)
    assert not still_running(pids), f"left running: {still_running(pids)}"
    left = [entry.name for entry in directory.iterdir() if entry.is_socket() or entry.is_symlink()] if directory.exists() else []
    assert not left, f"left in {directory}: {left}"


def kill_leftovers(pids: list[int]) -> None:
    """Test teardown after a failure: stop what the demo left, by PID (only if it is ours)."""
    for entry in still_running(pids):
        os.kill(int(entry.split(":")[0]), signal.SIGKILL)


@dataclass
class Interrupted:
    code: int
    seen: object  # what `when` returned
    stdout: str  # what followed on stdout
    stderr: str
    left_running: list[str]  # what the demo left running (the test killed it)


def interrupt_demo(*args: str, when: Callable[[subprocess.Popen], object]) -> Interrupted:
    """Start the demo headless, wait for `when(proc)` to return, press Ctrl-C (SIGINT to its
    PID) and collect what follows. Whatever it left running is stopped before returning."""
    proc = subprocess.Popen([*DEMO, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        seen = when(proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    left = still_running(started_by(err)[0]) if READY.search(err) else []
    if left:
        kill_leftovers(started_by(err)[0])
    return Interrupted(proc.returncode, seen, out, err, left)


def children_started(proc: subprocess.Popen, guard: float = 60.0) -> list[int]:
    """Wait until `proc` has started a child process (the rig's first simulator); its PIDs."""
    deadline = time.monotonic() + guard
    while True:
        try:
            children = [int(p) for p in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()]
        except FileNotFoundError:
            children = []
        if children:
            return children
        assert time.monotonic() < deadline and proc.poll() is None, "the demo started no process"
        time.sleep(0.005)
