"""A real `tablectl run` process (python -m cli.run) started by the rig, with
NOTIFY_SOCKET (and WATCHDOG_USEC when asked) pointing at the rig's listener, and
optionally a lower RLIMIT_NOFILE (as systemd's LimitNOFILE= would set)."""
from __future__ import annotations

import time
from pathlib import Path

from controller.control import ControlClient, ControlError
from simulation.rig.notify import NotifyListener
from simulation.rig.processes import Child, RigError, child_env, python_module

READY_WAIT = 30.0


class DaemonProcess:
    def __init__(self, config_path: Path, directory: Path, socket_path: str, *, notify: NotifyListener | None,
                 watchdog_usec: int | None = None, log_format: str = "json", env: dict | None = None,
                 nofile: int | None = None, stdout_pipe: bool = False, module: str = "cli.run") -> None:
        self.socket_path = socket_path
        self.notify = notify
        extra = dict(env or {})
        if notify is not None:
            extra["NOTIFY_SOCKET"] = notify.path
            if watchdog_usec is not None:
                extra["WATCHDOG_USEC"] = str(watchdog_usec)
        self.mark = len(notify.messages) if notify is not None else 0  # messages from this process on
        argv = python_module(module, "--config", str(config_path), "--log-format", log_format)
        if nofile is not None:  # util-linux's prlimit sets the limit and execs: the PID stays the daemon's
            argv = ["prlimit", f"--nofile={nofile}:{nofile}", "--", *argv]
        self.child = Child("daemon", argv, directory, child_env(**extra), stdout_pipe=stdout_pipe)

    @property
    def pid(self) -> int:
        return self.child.pid

    def wait_ready(self, timeout: float = READY_WAIT) -> None:
        """READY=1 on the notify socket (else: the control socket says ready)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.child.running:
                raise RigError(f"the daemon exited ({self.child.proc.returncode}) before it was ready:\n"
                               f"{self.child.output()}")
            if self.notify is not None:
                if any("READY" in m.fields and m.pid == self.pid for m in self.notify.messages[self.mark:]):
                    return
                time.sleep(0.02)
            else:
                if self._ready_by_socket():
                    return
                time.sleep(0.02)
        raise RigError(f"the daemon was not ready within {timeout:g} s:\n{self.child.output()}")

    def _ready_by_socket(self) -> bool:
        try:
            with ControlClient(self.socket_path, timeout=5.0) as client:
                return bool(client.request("status").get("daemon", {}).get("ready"))
        except ControlError:
            return False

    def output(self) -> str:
        return self.child.output()
