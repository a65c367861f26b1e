"""Fixtures for the simulator tests: child processes and short temp dirs, always cleaned up."""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from sim_host import Host, SimProcess


@pytest.fixture
def sim_dir():
    """A short directory (Unix socket paths are limited to 108 bytes), removed afterwards."""
    path = tempfile.mkdtemp(prefix="fbsim-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def start_sim(sim_dir):
    """start_sim("shoe", "--seed", "3") -> a running SimProcess; stopped by PID at teardown,
    and its symlink and control socket must be gone once it has exited."""
    started: list[SimProcess] = []

    def start(device: str, *args: str, **options) -> SimProcess:
        sim = SimProcess(device, sim_dir, *args, **options)
        started.append(sim)
        return sim

    yield start
    for sim in started:
        sim.stop()
    for sim in started:
        assert sim.proc.returncode == 0, sim.stderr()
        assert not os.path.lexists(sim.link), f"{sim.link} left behind"
        assert not os.path.exists(sim.control), f"{sim.control} left behind"


@pytest.fixture
def open_host():
    """open_host(path) -> a connected Host; its port is closed at teardown."""
    hosts: list[Host] = []

    def open_(path: str, **link_options) -> Host:
        host = Host(path, **link_options)
        hosts.append(host)
        host.open()
        return host

    yield open_
    for host in hosts:
        host.close()


def _children() -> set[int]:
    me, found = str(os.getpid()), set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me and fields[0] != "Z":
            found.add(int(pid))
    return found


def _pty_fds() -> set[int]:
    fds = set()
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{name}").startswith(("/dev/pts/", "/dev/ptmx")):
                fds.add(int(name))
        except OSError:
            pass
    return fds


@pytest.fixture(autouse=True)
def no_leaks():
    """Fail a test that leaves a child process or an open pty behind."""
    children, ptys = _children(), _pty_fds()
    yield
    assert _children() - children == set(), "test left child processes running"
    assert _pty_fds() - ptys == set(), "test left ptys open"
