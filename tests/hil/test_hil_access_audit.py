"""Local access control and the audit trail, against the real daemon, with real other uids.

The tests run as root; each client below is a forked child that drops to another uid and
gid (setgroups/setgid/setuid) before it connects, so the daemon reads the child's real
credentials from the kernel (SO_PEERCRED, SO_PEERGROUPS). The rig's daemon runs as root,
so its group is gid 0: the member is `nobody` (uid 65534) with gid 0 as a supplementary
group; the outsider is uid 64012 in no group of the daemon's (a uid with no passwd entry:
the kernel checks numbers). The children run the already imported client in-process."""
from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys

import pytest

from controller.control import ControlClient, ControlError
from simulation.rig.other_users import call_as
from simulation.rig.processes import ROOT, child_env

pytestmark = [pytest.mark.hil, pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as other users")]
MEMBER, MEMBER_GID, DAEMON_GROUP = 65534, 65534, 0
OUTSIDER = 64_012
WAIT = 20.0


def as_user(uid: int, gid: int, groups: list[int], path: str, *requests: dict) -> tuple[int, list]:
    """Send `requests` over one connection as uid/gid/groups: (the child's pid, the replies,
    or ["refused: <why>"] when it cannot connect or is refused)."""
    def send() -> list:
        try:
            with ControlClient(path, timeout=WAIT) as client:
                return [client.request(r["cmd"], **{k: v for k, v in r.items() if k != "cmd"}) for r in requests]
        except ControlError as error:
            return [f"refused: {error}"]

    return call_as(uid, gid, groups, send)


def member(path, *requests):
    return as_user(MEMBER, MEMBER_GID, [DAEMON_GROUP], path, *requests)


def outsider(path, *requests):
    return as_user(OUTSIDER, OUTSIDER, [], path, *requests)


def command_records(rig, since=0):
    return [r for r in rig.records(since) if r.kind == "command"]


def tablectl(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *argv], cwd=ROOT, env=child_env(), capture_output=True,
                          text=True, timeout=WAIT)


def test_members_command_others_read_and_every_command_names_who_gave_it(start_rig):
    rig = start_rig("fortune6", seed=11)
    path = rig.socket_path
    os.chmod(rig.dir, 0o750)  # as systemd's RuntimeDirectoryMode=0750 gives /run/tablectl to the group
    rig.new_shoe()
    nobody = pwd.getpwuid(MEMBER).pw_name

    mark = rig.events.mark()
    pid, [opened] = member(path, {"cmd": "place_bets"})
    assert opened["ok"], opened
    [record] = command_records(rig)[-1:]
    assert record.payload["by"] == {"source": "socket", "uid": MEMBER, "user": nobody, "pid": pid}
    event = rig.events.wait_for("command", after=mark, source="socket", command="place_bets")
    assert event["by"] == record.payload["by"]

    # outside the group: the socket's mode (0660) keeps them out altogether
    _, [kept_out] = outsider(path, {"cmd": "status"})
    assert kept_out == f"refused: {path}: permission denied (are you in the daemon's group?)"
    # modes (or ACLs) that let others in: they may read, never command
    os.chmod(rig.dir, 0o751)
    os.chmod(path, 0o666)
    head = len(rig.records())
    outsider_pid, [status, refused] = outsider(path, {"cmd": "status"}, {"cmd": "no_more_bets"})
    assert status["ok"] and status["state"] == "betting"
    assert refused == {"id": 2, "ok": False, "error": (
        f"no_more_bets: uid {OUTSIDER}, pid {outsider_pid} may not command the table: only root, "
        f"the daemon's user (root) and members of its group (root) may; status and the event stream are open")}
    assert rig.status()["state"] == "betting"  # nothing changed
    assert rig.records(head) == []  # and nothing of it was journaled
    assert '"event":"command_refused"' in rig.daemon.output()

    pid, [closed] = member(path, {"cmd": "no_more_bets"})
    assert closed["ok"], closed
    result = rig.finish_round()
    assert result["event"] == "result"

    # a supervisor's void from the socket names its user
    number = rig.open_round()
    rig.key(True)
    void_pid, [voided] = member(path, {"cmd": "void", "kind": "order_altered", "reason": "a test of the audit"})
    assert voided["ok"], voided
    rig.key(False)
    by_nobody = f"{nobody} (uid {MEMBER}, pid {void_pid})"

    rounds = {view.round: view for view in rig.recall(2)}
    first = rounds[number - 1]
    assert [(c["command"], c["by"].get("user") or c["by"].get("button")) for c in first.commands][:2] == [
        ("place_bets", nobody), ("no_more_bets", nobody)]
    assert any(c["by"]["source"] == "panel" and c["command"] == "confirm" for c in first.commands)
    voided_round = rounds[number]
    assert voided_round.status == "void"
    assert voided_round.voided_by == {"source": "socket", "uid": MEMBER, "user": nobody, "pid": void_pid}
    assert [c["command"] for c in voided_round.commands] == ["place_bets", "no_more_bets", "void"]

    recall = tablectl("recall", "--last", "2", "--journal", str(rig.journal_path))
    assert recall.returncode == 0, recall.stderr
    assert f"(by {by_nobody})" in recall.stdout
    assert f"void ({by_nobody})" in recall.stdout and "no_more_bets (panel button" in recall.stdout
    exported = tablectl("journal", "export", "--journal", str(rig.journal_path))
    records = [json.loads(line) for line in exported.stdout.splitlines()]
    voids = [r for r in records if r["kind"] == "command" and r["payload"]["name"] == "void"]
    assert voids[-1]["payload"]["by"] == {"source": "socket", "uid": MEMBER, "user": nobody, "pid": void_pid}
    keys = [r for r in records if r["kind"] == "device" and r["payload"]["event"] == "KeyTurned"]
    assert keys[-2]["payload"]["by"] == {"source": "panel", "key": "on"}
    assert rig.verify().ok

