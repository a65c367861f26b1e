"""Child processes the rig starts (simulators, the daemon), stopped only by their own PID, and
ended by the kernel when the process that started them dies, whatever killed it."""
from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: children import the same code


class RigError(RuntimeError):
    """The rig could not do what was asked (a process did not start, a wait ran out, ...)."""


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_libc = ctypes.CDLL(None, use_errno=True)


def die_with_parent() -> Callable[[], None] | None:
    """A preexec_fn asking the kernel for SIGTERM to the child when its parent dies — even by
    SIGKILL, when no handler of ours runs — so a killed demo or test leaves no daemon or
    simulator behind with PPID 1. Only from the main thread: the kernel sends it when the
    thread that forked ends, and only the main thread's end is the process's."""
    if threading.current_thread() is not threading.main_thread():
        return None
    parent = os.getpid()

    def preexec() -> None:
        _libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent died before the request was in place
            os._exit(1)

    return preexec


class Child:
    """One child process, its stdout and stderr in files under the rig's directory."""

    def __init__(self, name: str, argv: list[str], directory: Path, env: dict | None = None,
                 stdout_pipe: bool = False) -> None:
        """stdout_pipe: stdout is a pipe the caller reads (`proc.stdout`) instead of a file."""
        self.name = name
        self.argv = argv
        self.stdout_path = directory / f"{name}.out"
        self.stderr_path = directory / f"{name}.err"
        with open(self.stdout_path, "ab") as out, open(self.stderr_path, "ab") as err:
            # its own session: a Ctrl-C at the terminal (SIGINT to the foreground process group)
            # reaches only the one who started it, which stops it by PID in its own order
            self.proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.PIPE if stdout_pipe else out, stderr=err,
                                         env=env if env is not None else child_env(), start_new_session=True,
                                         preexec_fn=die_with_parent())
        self.pid = self.proc.pid

    @property
    def running(self) -> bool:
        return self.proc.poll() is None

    def signal(self, signum: int) -> None:
        if self.running:
            os.kill(self.pid, signum)

    def wait(self, timeout: float) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise RigError(f"{self.name} (pid {self.pid}) still running after {timeout:g} s") from None

    def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM, then SIGKILL if it has not exited within `timeout`; returns the exit code."""
        self.signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return self.proc.returncode

    def kill(self) -> int:
        self.signal(signal.SIGKILL)
        return self.proc.wait()

    def output(self, tail: int = 4000) -> str:
        """The end of its stdout and stderr, for error messages."""
        text = ""
        for path in (self.stdout_path, self.stderr_path):
            try:
                text += path.read_text(errors="replace")[-tail:]
            except FileNotFoundError:
                pass
        return text


def child_env(**extra: str) -> dict:
    """This environment without systemd's variables (a child must not notify in our name)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env.update(extra)
    return env


def python_module(module: str, *args: str) -> list[str]:
    return [sys.executable, "-m", module, *args]
