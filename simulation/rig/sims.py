"""A simulated device (`python -m firmware_bridge.sim.<kind>`) as a child process, and its
control socket (JSON lines: one command, one reply)."""
from __future__ import annotations

import json
import socket
import time
from pathlib import Path

from simulation.rig.processes import Child, RigError, python_module

START_WAIT = 20.0  # a loaded CI machine starts a simulator in well under this


class Sim:
    def __init__(self, kind: str, directory: Path, *args: str) -> None:
        self.kind = kind
        self.link = str(directory / kind)  # the pty's stable symlink: the daemon's device path
        self.control = str(directory / f"{kind}.sock")
        self.args = list(args)
        self.child = Child(f"sim-{kind}", python_module(f"firmware_bridge.sim.{kind}", "--link", self.link,
                                                         "--control", self.control, *args), directory)
        self._sock: socket.socket | None = None
        self._buf = b""
        try:
            self.ready = self._wait_ready()
        except BaseException:  # a RigError, or Ctrl-C while waiting: never leave the child behind
            self.child.kill()
            raise

    @property
    def pid(self) -> int:
        return self.child.pid

    def _wait_ready(self) -> dict:
        deadline = time.monotonic() + START_WAIT
        while time.monotonic() < deadline:
            if not self.child.running:
                raise RigError(f"the {self.kind} simulator exited ({self.child.proc.returncode}): {self.child.output()}")
            text = self.child.stdout_path.read_text(errors="replace")
            if text.endswith("\n"):
                try:
                    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    sock.settimeout(START_WAIT)
                    sock.connect(self.control)
                except OSError:
                    sock.close()
                else:
                    self._sock = sock
                    return json.loads(text.splitlines()[0])
            time.sleep(0.01)
        self.child.kill()
        raise RigError(f"the {self.kind} simulator did not start within {START_WAIT:g} s: {self.child.output()}")

    def command(self, cmd: str, *, check: bool = True, **fields) -> dict:
        """Send one command; RigError when the simulator refuses it (unless check=False)."""
        if self._sock is None:
            raise RigError(f"the {self.kind} simulator is not running")
        self._sock.sendall((json.dumps({"cmd": cmd, **fields}) + "\n").encode())
        while b"\n" not in self._buf:
            data = self._sock.recv(65536)
            if not data:
                raise RigError(f"the {self.kind} simulator closed its control socket: {self.child.output()}")
            self._buf += data
        line, _, self._buf = self._buf.partition(b"\n")
        reply = json.loads(line)
        if check and not reply.get("ok"):
            raise RigError(f"the {self.kind} simulator refused {cmd} {fields}: {reply.get('error')}")
        return reply

    def state(self) -> dict:
        return self.command("state")

    def stop(self) -> int:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        return self.child.stop()
