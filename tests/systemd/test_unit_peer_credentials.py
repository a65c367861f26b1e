"""Why the unit has no PrivateUsers=: the daemon journals who gave each command from the
kernel's word on its socket clients (SO_PEERCRED), and in a user namespace mapped as
PrivateUsers=yes maps it (root and the unit's own user and group to themselves, everyone
else to nobody) an operator would read as uid 65534.

Shown with a real user namespace mapped that way (unshare(CLONE_NEWUSER) in a child, its
uid_map and gid_map written by the parent: what systemd does), a real Unix socket inside it,
and a client with another real uid outside; systemd itself is not started. Then the unit is
checked to keep it out."""
from __future__ import annotations

import ctypes
import os
import socket
import tempfile
import time
from pathlib import Path

import pytest

from controller.control.peers import peer_of

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to map a user namespace and act as others")
UNIT = Path(__file__).resolve().parents[2] / "systemd" / "tablectl.service"
CLONE_NEWUSER = 0x10000000
DAEMON = DAEMON_GROUP = 64_010
OPERATOR = 64_011  # in the daemon's group by a supplementary group


def seen_from_a_private_users_namespace(path: str) -> tuple[int, int, tuple[int, ...]]:
    """(uid, gid, groups) of the operator as the socket's owner inside the namespace sees it."""
    to_parent, from_child = os.pipe()
    to_child, from_parent = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            if ctypes.CDLL(None, use_errno=True).unshare(CLONE_NEWUSER) != 0:
                raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER)")
            os.write(from_child, b"n")
            os.read(to_child, 1)  # the maps are written
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(path)
            os.chmod(path, 0o666)
            listener.listen()
            os.write(from_child, b"l")
            client, _ = listener.accept()
            peer = peer_of(client)
            os.write(from_child, f"{peer.uid} {peer.gid} {','.join(map(str, peer.groups))}".encode())
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            os.write(from_child, f"error {error!r}".encode())
            code = 99
        finally:
            os._exit(code)
    assert os.read(to_parent, 1) == b"n"
    maps = f"0 0 1\n{DAEMON} {DAEMON} 1\n"  # root and the unit's own user/group; nothing else
    Path(f"/proc/{pid}/uid_map").write_text(maps)
    Path(f"/proc/{pid}/setgroups").write_text("deny")
    Path(f"/proc/{pid}/gid_map").write_text(maps)
    os.write(from_parent, b"g")
    assert os.read(to_parent, 1) == b"l"
    operator = os.fork()
    if operator == 0:
        os.setgroups([DAEMON_GROUP])
        os.setgid(OPERATOR)
        os.setuid(OPERATOR)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        time.sleep(0.5)
        os._exit(0)
    answer = os.read(to_parent, 4096).decode()
    os.waitpid(operator, 0)
    os.waitpid(pid, 0)
    for fd in (to_parent, from_child, to_child, from_parent):
        os.close(fd)
    assert not answer.startswith("error"), answer
    uid, gid, groups = answer.split(" ")
    return int(uid), int(gid), tuple(int(g) for g in groups.split(",") if g)


def test_in_a_private_users_namespace_an_operator_reads_as_nobody():
    with tempfile.TemporaryDirectory(prefix="tablectl-") as directory:
        os.chmod(directory, 0o755)
        uid, gid, groups = seen_from_a_private_users_namespace(f"{directory}/control.sock")
    assert (uid, gid) == (65534, 65534)  # the operator's uid 64011 is lost: the audit would name nobody
    assert DAEMON_GROUP in groups  # (membership would still be seen: access control alone would work)


def test_the_unit_keeps_private_users_off():
    lines = [line.strip() for line in UNIT.read_text().splitlines()]
    assert not [line for line in lines if line.startswith("PrivateUsers=")]
