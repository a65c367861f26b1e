"""Test helpers: a simulator as a child process, and a tiny host (pyserial + Link) to talk to it.

The real host driver is drivers/'s; this one is just enough to check the simulators
over a real pty. Waiting for an event has a generous bound that fails the test when
it runs out: a liveness check, never a timing assertion.
"""
from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import time

import serial

from firmware_bridge.enums import DeviceKind
from firmware_bridge.link import Link
from firmware_bridge.messages import Hello

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WAIT = 15.0  # seconds before a wait gives up (a loaded CI machine is slow, never this slow)


class SimProcess:
    """`python -m firmware_bridge.sim.<device>` with its pty link and control socket in ``directory``."""

    def __init__(self, device: str, directory: str, *args: str, stdin: bytes | None = None,
                 module: tuple[str, ...] | None = None, name: str | None = None):
        self.device = device
        name = name or device
        self.link = os.path.join(directory, name)
        self.control = os.path.join(directory, f"{name}.sock")
        self.stdout_path = os.path.join(directory, f"{name}.out")
        self.stderr_path = os.path.join(directory, f"{name}.err")
        command = [sys.executable, "-m", *(module or (f"firmware_bridge.sim.{device}",)),
                   "--link", self.link, "--control", self.control, *args]
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=err,
                                         stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL)
        if stdin is not None:
            self.proc.stdin.write(stdin)
            self.proc.stdin.close()
        self._sock: socket.socket | None = None
        self._buf = b""
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"{self.device} simulator exited {self.proc.returncode}: {self.stderr()}")
            if os.path.exists(self.control) and self.stdout().endswith("\n"):  # the ready line
                try:
                    self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    self._sock.connect(self.control)
                    self._sock.settimeout(WAIT)
                    return
                except OSError:
                    self._sock.close()
            time.sleep(0.02)
        raise AssertionError(f"{self.device} simulator never became ready: {self.stderr()}")

    def command(self, cmd: str, **fields) -> dict:
        self._sock.sendall((json.dumps({"cmd": cmd, **fields}) + "\n").encode())
        while b"\n" not in self._buf:
            data = self._sock.recv(65536)
            if not data:
                raise AssertionError(f"{self.device} control socket closed: {self.stderr()}")
            self._buf += data
        line, _, self._buf = self._buf.partition(b"\n")
        return json.loads(line)

    def ok(self, cmd: str, **fields) -> dict:
        reply = self.command(cmd, **fields)
        assert reply["ok"], reply
        return reply

    def stdout(self) -> str:
        with open(self.stdout_path, encoding="utf-8") as f:
            return f.read()

    def stderr(self) -> str:
        with open(self.stderr_path, encoding="utf-8") as f:
            return f.read()

    def stop(self) -> None:
        if self._sock:
            self._sock.close()
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


class Host:
    """The table PC's end of one device: a pyserial port opened by path, and a Link."""

    def __init__(self, path: str, boot_id: int = 0x7AB1E, **link_options):
        self.path = path
        self.link = Link(Hello(DeviceKind.HOST, boot_id=boot_id, serial="test-host"), **link_options)
        self.port: serial.Serial | None = None
        self.events: list = []
        self.hung_up = False

    def open(self) -> None:
        self.port = serial.Serial(self.path, baudrate=115200, timeout=0, exclusive=True)
        self.hung_up = False
        self.link.start(time.monotonic())
        self._write()

    def reopen(self) -> None:
        """After a hang-up: a new session on whatever the stable path now names."""
        self.close()
        self.link.reset()
        self.open()

    def close(self) -> None:
        if self.port is not None:
            self.port.close()
            self.port = None

    def send(self, msg) -> None:
        self.link.send(msg, time.monotonic())
        self._write()

    def _write(self) -> None:
        data = self.link.outgoing()
        if data and self.port is not None and not self.hung_up:
            self.port.write(data)

    def _step(self, timeout: float) -> None:
        readable = []
        if self.port is not None and not self.hung_up:
            readable, _, _ = select.select([self.port.fileno()], [], [], timeout)
        else:
            time.sleep(timeout)
        now = time.monotonic()
        if readable:
            try:
                data = self.port.read(self.port.in_waiting or 1)
            except (serial.SerialException, OSError):
                self.hung_up = True  # the device was unplugged
                data = b""
            if data:
                self.events += self.link.receive(data, now)
        self.events += self.link.poll(now)
        self._write()

    def wait_for(self, predicate, what: str) -> list:
        """Run the link until ``predicate(events)`` holds; returns the events and clears them."""
        deadline = time.monotonic() + WAIT
        while not predicate(self.events):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; events: {self.events}")
            link_deadline = self.link.next_deadline()
            timeout = 0.05 if link_deadline is None else min(0.05, max(0.0, link_deadline - time.monotonic()))
            self._step(timeout)
        events, self.events = self.events, []
        return events

    def wait_messages(self, kind, count: int = 1) -> list:
        def enough(events):
            return sum(isinstance(e, kind) for e in events) >= count
        events = self.wait_for(enough, f"{count} {kind.__name__}")
        self.events = [e for e in events if not isinstance(e, kind)]
        return [e for e in events if isinstance(e, kind)]

    def wait_event(self, kind) -> object:
        events = self.wait_for(lambda evs: any(isinstance(e, kind) for e in evs), kind.__name__)
        found = next(e for e in events if isinstance(e, kind))
        self.events = [e for e in events if e is not found]
        return found

    def settle(self, seconds: float) -> None:
        """Keep the link running for a while (acks out, retransmissions in)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self._step(min(0.05, max(0.0, end - time.monotonic())))
