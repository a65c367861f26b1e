"""Who is on the other end of a control connection, and whether they may command the table.

The kernel tells a Unix socket who connected (SO_PEERCRED: pid, uid, gid; SO_PEERGROUPS:
the supplementary groups), as they were at connect() time: nothing the client sends can
change it. Root, the daemon's own user and members of the daemon's group (its effective gid,
`Group=tablectl` in the unit) may command; anyone else who can connect (the socket's mode
already keeps others out; an ACL or a changed mode could let them in) may read `status` and
follow the event stream, and is refused every command with a line saying who may.
"""
from __future__ import annotations

import grp
import os
import pwd
import socket
import struct
from dataclasses import dataclass
from functools import lru_cache

SO_PEERGROUPS = getattr(socket, "SO_PEERGROUPS", 59)  # Linux 4.13; Python 3.11 lacks the name
_UCRED = struct.Struct("3i")  # pid, uid, gid
_GID = struct.Struct("I")
READ_ONLY = frozenset({"status", "subscribe"})  # requests that change nothing: open to whoever can connect


@dataclass(frozen=True)
class Peer:
    pid: int
    uid: int
    gid: int
    groups: tuple[int, ...]
    user: str | None  # the uid's name, None when the system has none for it

    def by(self) -> dict:
        """Who gave a command, as the journal and the event stream carry it."""
        return {"source": "socket", "uid": self.uid, "user": self.user, "pid": self.pid}

    def text(self) -> str:
        return f"uid {self.uid}" + (f" ({self.user})" if self.user else "") + f", pid {self.pid}"


def peer_of(sock: socket.socket) -> Peer:
    pid, uid, gid = _UCRED.unpack(sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _UCRED.size))
    return Peer(pid, uid, gid, _peer_groups(sock), user_name(uid))


def _peer_groups(sock: socket.socket) -> tuple[int, ...]:
    size = 64 * _GID.size
    while True:
        try:
            data = sock.getsockopt(socket.SOL_SOCKET, SO_PEERGROUPS, size)
        except OSError as error:
            if error.errno == 34 and size < 65536 * _GID.size:  # ERANGE: more groups than fit
                size *= 16
                continue
            return ()  # a kernel without SO_PEERGROUPS: the primary gid still counts
        return tuple(gid for (gid,) in _GID.iter_unpack(data[:len(data) - len(data) % _GID.size]))


@lru_cache(maxsize=256)
def user_name(uid: int) -> str | None:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return None


@lru_cache(maxsize=64)
def group_name(gid: int) -> str:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return f"gid {gid}"


class Commanders:
    """The rule: root, the daemon's user, members of the daemon's group."""

    def __init__(self, uid: int | None = None, gid: int | None = None) -> None:
        self.uid = os.geteuid() if uid is None else uid
        self.gid = os.getegid() if gid is None else gid

    def may_command(self, peer: Peer) -> bool:
        return peer.uid in (0, self.uid) or peer.gid == self.gid or self.gid in peer.groups

    def refusal(self, peer: Peer, cmd: str) -> str:
        owner = user_name(self.uid) or f"uid {self.uid}"
        return (f"{cmd}: {peer.text()} may not command the table: only root, the daemon's user ({owner}) "
                f"and members of its group ({group_name(self.gid)}) may; status and the event stream are open")
