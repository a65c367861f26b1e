"""Who may command, by the kernel's word (SO_PEERCRED, SO_PEERGROUPS), with real other uids.

A real ControlServer whose daemon user and group are 64010 ("tablectl"); each client is a
forked child that drops to its uid, gid and groups before connecting (the tests run as root).
The socket's directory and mode let everyone connect here, so the rule itself decides.
The whole path, with the journal's record of who gave each command, runs against the real
daemon in tests/hil/test_hil_access_audit.py."""
from __future__ import annotations

import json
import os

import pytest

from controller.control import ControlClient, ControlError, ControlServer
from controller.control.peers import Commanders
from simulation.rig.other_users import call_as

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as other users")
DAEMON = DAEMON_GROUP = 64_010
WAIT = 30.0


def requests_as(path: str, uid: int, gid: int, groups: list[int], *cmds: str) -> tuple[int, list]:
    def requests() -> list:
        try:
            with ControlClient(path, timeout=WAIT) as client:
                return [client.request(cmd) for cmd in cmds]
        except ControlError as error:
            return [str(error)]

    return call_as(uid, gid, groups, requests)


@pytest.fixture
def open_server(sock_dir, loop):
    os.chmod(sock_dir, 0o755)
    with ControlServer(f"{sock_dir}/control.sock", loop.post, mode=0o666, reply_timeout_s=3600,
                       commanders=Commanders(DAEMON, DAEMON_GROUP)) as server:
        yield server


@pytest.mark.parametrize(("who", "uid", "gid", "groups"), [
    ("root", 0, 0, []),
    ("the daemon's user", DAEMON, 100, []),
    ("a member by a supplementary group", 64_011, 64_011, [DAEMON_GROUP]),
    ("a member by its primary group", 64_013, DAEMON_GROUP, []),
])
def test_root_the_daemons_user_and_its_group_may_command(open_server, loop, who, uid, gid, groups):
    _, [reply] = requests_as(open_server.path, uid, gid, groups, "no_more_bets")
    assert reply == {"id": 1, "ok": True, "accepted": "no_more_bets"}, who
    assert loop.received == [("no_more_bets", {})]


def test_anyone_else_reads_status_and_is_refused_every_command_naming_who_may(open_server, loop, server_log):
    pid, [status, refused, again] = requests_as(open_server.path, 64_012, 64_012, [100], "status", "void", "status")
    assert status["ok"] and again["ok"]  # status stays open, and the connection with it
    assert refused == {"id": 2, "ok": False, "error": (
        f"void: uid 64012, pid {pid} may not command the table: only root, the daemon's user (uid 64010) "
        f"and members of its group (gid 64010) may; status and the event stream are open")}
    assert loop.received == [("status", {}), ("status", {})]  # the command never reached the loop
    logged = [json.loads(line) for line in server_log.getvalue().splitlines()]
    assert any(line["event"] == "command_refused" and line["uid"] == 64_012 and line["pid"] == pid
               and line["command"] == "void" for line in logged)


def test_the_request_carries_its_senders_credentials(open_server, loop):
    seen = []
    original = loop.post

    def keep(request):
        seen.append(request.peer)
        original(request)

    open_server._handle = keep
    pid, _ = requests_as(open_server.path, 64_011, 64_011, [7, DAEMON_GROUP], "place_bets")
    [peer] = seen
    assert (peer.pid, peer.uid, peer.gid, peer.user) == (pid, 64_011, 64_011, None)
    assert set(peer.groups) == {7, DAEMON_GROUP}
    assert peer.by() == {"source": "socket", "uid": 64_011, "user": None, "pid": pid}
