"""Run a firmware_bridge simulator as a separate process and talk to its control socket."""
from __future__ import annotations

import json
import os
import pathlib
import socket
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


class SimProcess:
    def __init__(self, kind: str, workdir: pathlib.Path, *args: str) -> None:
        self.kind = kind
        self.link = str(workdir / kind)
        self.control_path = str(workdir / f"{kind}.sock")
        self._stdout = open(workdir / f"{kind}.out", "w+")
        self._stderr = open(workdir / f"{kind}.err", "w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", f"firmware_bridge.sim.{kind}", "--link", self.link,
             "--control", self.control_path, *args],
            stdin=subprocess.DEVNULL, stdout=self._stdout, stderr=self._stderr, cwd=ROOT,
        )
        self.ready = self._wait_ready()
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.connect(self.control_path)
        self._replies = self._sock.makefile("r")

    def _wait_ready(self, timeout: float = 20.0) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._stdout.seek(0)
            line = self._stdout.readline()
            if line.endswith("\n"):
                return json.loads(line)
            if self.proc.poll() is not None:
                break
            time.sleep(0.01)
        self.close()
        raise RuntimeError(f"sim {self.kind} did not start: {self.stderr()}")

    def stderr(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read()

    def command(self, cmd: str, **fields) -> dict:
        """Send one JSON command; fail the test if the simulator refuses it."""
        self._sock.sendall((json.dumps({"cmd": cmd, **fields}) + "\n").encode())
        reply = json.loads(self._replies.readline())
        assert reply.get("ok"), f"sim {self.kind} refused {cmd} {fields}: {reply}"
        return reply

    def close(self) -> None:
        if getattr(self, "_sock", None) is not None:
            self._replies.close()
            self._sock.close()
            self._sock = None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, 9)
                self.proc.wait()
        self._stdout.close()
        self._stderr.close()
