"""Shared fixtures for drivers tests: leak checks (pymodbus pattern) and real ptys."""
from __future__ import annotations

import os
import threading
import time
import tty

import pytest

from drivers.events import AckWhenDurable
from drivers.reactor import Reactor


def _pty_fds() -> set[int]:
    fds = set()
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue
        if target.startswith("/dev/pts/") or target == "/dev/ptmx":
            fds.add(int(name))
    return fds


@pytest.fixture(autouse=True)
def no_leaks():
    """Fail a test that leaves a thread running or a pty open behind it."""
    threads_before = set(threading.enumerate())
    fds_before = _pty_fds()
    yield
    deadline = time.monotonic() + 5.0  # let threads that were told to stop finish exiting
    leaked = [t for t in threading.enumerate() if t not in threads_before]
    for thread in leaked:
        thread.join(max(0.0, deadline - time.monotonic()))
    alive = [t.name for t in leaked if t.is_alive()]
    assert not alive, f"test leaked threads: {alive}"
    fds = _pty_fds() - fds_before
    assert not fds, f"test leaked pty fds: {sorted(fds)}"


class PtyDevice:
    """The device end of a real pty, published at a stable symlink like a udev name.

    unplug() closes the pty and removes the link; replug() makes a new pty at the same link.
    """

    def __init__(self, link: str) -> None:
        self.link = link
        self.master: int | None = None
        self._slave: int | None = None
        self.replug()

    @property
    def slave_name(self) -> str:
        return os.ttyname(self._slave)

    def replug(self) -> None:
        self.unplug()
        self.master, self._slave = os.openpty()
        tty.setraw(self.master)
        tty.setraw(self._slave)
        tmp = self.link + ".new"
        os.symlink(self.slave_name, tmp)
        os.replace(tmp, self.link)

    def unplug(self) -> None:
        if os.path.lexists(self.link):
            os.unlink(self.link)
        for fd in (self.master, self._slave):
            if fd is not None:
                os.close(fd)
        self.master = self._slave = None

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def read_exactly(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            data += os.read(self.master, n - len(data))
        return data


@pytest.fixture
def pty_device(tmp_path):
    device = PtyDevice(str(tmp_path / "dev"))
    yield device
    device.unplug()


class EventSink:
    """The controller's side of `post`: collects events; waiting for one turns the reactor the
    drivers run on (on the test's thread, as the daemon's one thread does).

    Drivers report raw facts; what they mean for a device's session is the daemon's session
    owner's to judge (controller/daemon/sessions.py). The sink hands every event of a shoe,
    panel or lamp board to a real one, and keeps the `device` records it would journal
    (`journaled`): a test can then say what the daemon makes of what the driver reported."""

    def __init__(self, reactor: Reactor) -> None:
        self.reactor = reactor
        self.events: list = []
        self.records: list[dict] = []  # the session owner's `device` records, in order
        self._sessions = None

    def __call__(self, event) -> None:
        self.events.append(event)
        self._judge(event.event if isinstance(event, AckWhenDurable) else event)

    def _judge(self, event) -> None:
        if self._sessions is None:
            from controller.daemon.sessions import DeviceSessions
            from controller.table import Table
            self._sessions = DeviceSessions("fortune6", Table("fortune6"))
        if event.device not in self._sessions.devices:
            return
        out = self._sessions.translate(event)
        self.records += [step.record for step in [*out.prior, out] if step.journaled]

    def of(self, cls) -> list:
        return [e for e in self.events if isinstance(e, cls)]

    def journaled(self, name: str) -> list[dict]:
        """The `device` records named `name` ("LinkLost", "ShoeStatusChanged" ...) so far."""
        return [r for r in self.records if r["event"] == name]

    def wait_for(self, cls, count: int = 1, where=lambda e: True, timeout: float = 15.0) -> list:
        """Turn the reactor until `count` events of `cls` matching `where` arrived; return them all."""
        def matching():
            return [e for e in self.events if isinstance(e, cls) and where(e)]
        if not self.reactor.run_until(lambda: len(matching()) >= count, timeout):
            kinds = [type(e).__name__ for e in self.events]
            raise AssertionError(f"waited for {count} x {cls.__name__}; got {kinds}")
        return matching()

    def wait_journaled(self, name: str, count: int = 1, timeout: float = 15.0) -> list[dict]:
        """Turn the reactor until the session owner journaled `count` records named `name`."""
        if not self.reactor.run_until(lambda: len(self.journaled(name)) >= count, timeout):
            raise AssertionError(f"waited for {count} x {name}; journaled {[r['event'] for r in self.records]}")
        return self.journaled(name)

    def after(self, event) -> list:
        """Events posted after `event`."""
        return self.events[self.events.index(event) + 1:]


@pytest.fixture
def reactor():
    with Reactor() as running:
        yield running


@pytest.fixture
def sink(reactor):
    return EventSink(reactor)


@pytest.fixture
def sim(tmp_path):
    """Start simulators as separate processes: sim("shoe", "--cards", "9h 8d")."""
    from sim_process import SimProcess

    started = []

    def start(kind: str, *args: str) -> SimProcess:
        process = SimProcess(kind, tmp_path, *args)
        started.append(process)
        return process

    yield start
    for process in started:
        process.close()
