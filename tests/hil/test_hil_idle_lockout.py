"""Idle connections cannot lock the table's owners out, against the real daemon, with real
other uids.

Members of the daemon's group (uids of their own, the daemon's gid as a supplementary group:
they may connect and command, but are not root or the daemon's user) open idle connections
as fast as they can, more than the daemon serves. Each user gets at most
control.max_clients_per_uid, the last control.owner_slots stay free for root, whose status
is answered at once; after control.idle_timeout_s every idle connection gets a line saying
why and is closed, and the members are served again. Connections are made by forked
children that drop to the member's uid and hand them back (SCM_RIGHTS), so they stay open."""
from __future__ import annotations

import json
import os
import socket

import pytest

from controller.control import ControlClient
from simulation.rig.other_users import call_as, fork_as, read_all

# slow: it waits out a real idle timeout (control.idle_timeout_s), as the abuse it guards against does
pytestmark = [pytest.mark.hil, pytest.mark.slow, pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as other users"),
              pytest.mark.timeout(600)]
DAEMON_GROUP = 0  # the rig's daemon runs as root
MEMBERS = (65534, 64_013, 64_014)
EACH = 12
WAIT = 30.0
CONTROL = {"max_clients": 24, "max_clients_per_uid": 8, "owner_slots": 2, "idle_timeout_s": 10}


def idle_connections_as(uid: int, path: str, count: int) -> list[socket.socket]:
    """`count` connections made by `uid` (a member of the daemon's group) that send nothing."""
    parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)

    def body(write: int) -> None:
        socks = []
        for _ in range(count):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(path)
            socks.append(sock)
        socket.send_fds(child, [b"x"], [sock.fileno() for sock in socks])

    pid, read = fork_as(uid, uid, [DAEMON_GROUP], body)
    child.close()
    _, fds, _, _ = socket.recv_fds(parent, 1, count)
    assert not read_all(read)  # the child's traceback, if it failed
    os.waitpid(pid, 0)
    parent.close()
    socks = [socket.socket(fileno=fd) for fd in fds]
    for sock in socks:
        sock.settimeout(WAIT)
    return socks


def first_line(sock: socket.socket) -> dict:
    """The line the daemon sends a connection it refuses or closes (waits for it)."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return json.loads(data)


def status_as(uid: int, path: str) -> dict:
    def ask() -> dict:
        with ControlClient(path, timeout=WAIT) as client:
            return client.request("status")

    return call_as(uid, uid, [DAEMON_GROUP], ask)[1]


@pytest.fixture
def held():
    socks: list[socket.socket] = []
    yield socks
    for sock in socks:
        sock.close()


def test_idle_readers_cannot_lock_root_out_and_are_closed_after_the_idle_timeout(start_rig, held):
    rig = start_rig("fortune6", seed=12, config={"control": CONTROL})
    rig.new_shoe()
    os.chmod(rig.dir, 0o750)  # as systemd's RuntimeDirectoryMode=0750 gives /run/tablectl to the group
    per_member = [idle_connections_as(uid, rig.socket_path, EACH) for uid in MEMBERS]
    for socks in per_member:
        held += socks
    with ControlClient(rig.socket_path, timeout=WAIT) as root:
        answer = root.request("status")
    # answered while the members held theirs: the rig's two connections (root), 20 of the
    # members' (8, 8 and 4: 24 - 2 slots are open to them) and this one
    assert answer["ok"] and answer["daemon"]["control"]["clients"] == 23

    lines = [first_line(sock)["error"] for sock in held]  # a refusal at once, or the idle timeout's line
    per_uid = [e for e in lines if "(control.max_clients_per_uid)" in e]
    kept = [e for e in lines if "(control.owner_slots)" in e]
    idle = [e for e in lines if e == f"closed: no request for {CONTROL['idle_timeout_s']} s (control.idle_timeout_s); "
                                     f"connect again to go on"]
    assert (len(per_uid), len(kept), len(idle)) == (2 * (EACH - 8), EACH - 4, 20), lines
    assert per_uid[0].startswith(f"too many clients for uid {MEMBERS[0]}")
    assert kept[0].startswith("too many clients: the last 2 of the daemon's 24 connections are kept for root")

    assert status_as(MEMBERS[0], rig.socket_path)["ok"]  # room again for the members
    rig.connect()  # the rig's own request connection was idle as well
    control = rig.status()["daemon"]["control"]
    assert control["refused"]["per_uid"] == len(per_uid) and control["refused"]["kept_for_owners"] == len(kept)
    assert control["dropped"]["idle"] >= 20
    assert rig.play_round()["event"] == "result"
    assert rig.verify().ok
