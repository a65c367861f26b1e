"""Shared fixtures for drivers tests: leak checks (pymodbus pattern) and real ptys."""
from __future__ import annotations

import os
import threading
import time
import tty

import pytest

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
    drivers run on (on the test's thread, as the daemon's one thread does)."""

    def __init__(self, reactor: Reactor) -> None:
        self.reactor = reactor
        self.events: list = []

    def __call__(self, event) -> None:
        self.events.append(event)

    def of(self, cls) -> list:
        return [e for e in self.events if isinstance(e, cls)]

    def wait_for(self, cls, count: int = 1, where=lambda e: True, timeout: float = 15.0) -> list:
        """Turn the reactor until `count` events of `cls` matching `where` arrived; return them all."""
        def matching():
            return [e for e in self.events if isinstance(e, cls) and where(e)]
        if not self.reactor.run_until(lambda: len(matching()) >= count, timeout):
            kinds = [type(e).__name__ for e in self.events]
            raise AssertionError(f"waited for {count} x {cls.__name__}; got {kinds}")
        return matching()

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
