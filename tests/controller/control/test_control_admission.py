"""Who gets a connection (controller/control/admission.py), with real other uids: one user's
cap, the slots kept for root and the daemon's user, and everyone's cap. Each user's
connections are made by a forked child that drops to that uid (SO_PEERCRED is the
connector's), each checked with a status before the next, and handed back to the test
(SCM_RIGHTS) so that they stay open. The daemon's user is 64010, as in test_control_peers."""
from __future__ import annotations

import json
import os
import socket
import time

import pytest

from controller.control import ControlServer
from controller.control.peers import Commanders
from simulation.rig.other_users import fork_as, read_all

pytestmark = [pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as other users"),
              pytest.mark.timeout(120)]
DAEMON = DAEMON_GROUP = 64_010
WAIT = 30.0


def connect_as(path: str, uid: int, count: int) -> tuple[list[dict], list[socket.socket]]:
    """`count` connections made by `uid` one after the other, each asked for its status:
    the answer (or the refusal line) of each, and the connections still open."""
    parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)

    def body(write: int) -> None:
        answers, kept = [], []
        for _ in range(count):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(WAIT)
            sock.connect(path)
            try:
                sock.sendall(b'{"id":1,"cmd":"status"}\n')
            except OSError:
                pass  # refused and closed already: its line is still there to read
            answers.append(json.loads(sock.makefile("rb").readline()))
            if answers[-1]["id"] == 1:
                kept.append(sock)  # the object, not just its fd: it would be closed when collected
        socket.send_fds(child, [b"x"], [sock.fileno() for sock in kept])
        os.write(write, json.dumps(answers).encode())

    pid, read = fork_as(uid, uid, [], body)
    child.close()
    answers = json.loads(read_all(read))
    os.waitpid(pid, 0)
    _, fds, _, _ = socket.recv_fds(parent, 1, count) if any(a["id"] == 1 for a in answers) else (b"", [], 0, None)
    parent.close()
    return answers, [socket.socket(fileno=fd) for fd in fds]


@pytest.fixture
def held():
    socks: list[socket.socket] = []
    yield socks
    for sock in socks:
        sock.close()


@pytest.fixture
def open_server(sock_dir, loop):
    os.chmod(sock_dir, 0o755)
    with ControlServer(f"{sock_dir}/control.sock", loop.post, mode=0o666, reply_timeout_s=3600, max_clients=8,
                       max_clients_per_uid=2, owner_slots=3, commanders=Commanders(DAEMON, DAEMON_GROUP)) as server:
        yield server


def ok(answers: list[dict]) -> list[bool]:
    return [a["ok"] for a in answers]


def test_one_user_gets_at_most_its_cap(open_server, held):
    answers, socks = connect_as(open_server.path, 64_012, 3)
    held += socks
    assert ok(answers) == [True, True, False]
    assert answers[2]["error"].startswith("too many clients for uid 64012")
    assert answers[2]["error"].endswith("at most 2 per user at once (control.max_clients_per_uid); close one of yours first")
    info = open_server._on_reactor(open_server.to_json)
    assert info["refused"]["per_uid"] == 1 and info["clients"] == 2 and info["max_clients_per_uid"] == 2


def test_the_last_slots_are_kept_for_root_and_the_daemons_user(open_server, held):
    for uid in (64_012, 64_013):  # other users fill max_clients - owner_slots = 5 ...
        answers, socks = connect_as(open_server.path, uid, 2)
        held += socks
        assert ok(answers) == [True, True]
    answers, socks = connect_as(open_server.path, 64_014, 2)
    held += socks
    assert ok(answers) == [True, False]  # ... the fifth is the last another user gets
    assert answers[1]["error"] == ("too many clients: the last 3 of the daemon's 8 connections are kept for root and "
                                   "the daemon's user (uid 64010) (control.owner_slots); try again when one has "
                                   "disconnected")
    answers, socks = connect_as(open_server.path, DAEMON, 1)  # the daemon's user: not capped per user either
    held += socks
    answers_root, socks = connect_as(open_server.path, 0, 3)
    held += socks
    assert ok(answers) == [True] and ok(answers_root) == [True, True, False]
    assert answers_root[2]["error"].startswith("too many clients: the daemon serves at most 8 at once (control.max_clients)")
    info = open_server._on_reactor(open_server.to_json)
    assert info["clients"] == 8 and info["owner_slots"] == 3
    assert info["refused"] == {"max_clients": 1, "out_of_descriptors": 0, "per_uid": 0, "kept_for_owners": 1}


def test_a_user_that_leaves_makes_room_again(open_server, held):
    answers, socks = connect_as(open_server.path, 64_012, 2)
    assert ok(answers) == [True, True]
    socks[0].close()
    held.append(socks[1])
    deadline = time.monotonic() + WAIT
    while True:  # the server sees the close within a turn or two
        answers, socks = connect_as(open_server.path, 64_012, 1)
        held += socks
        if ok(answers) == [True] or time.monotonic() > deadline:
            break
    assert ok(answers) == [True]
