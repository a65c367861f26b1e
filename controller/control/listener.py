"""Create the control socket file safely: refuse to steal a live daemon's socket, replace a
stale one, and give it its mode before any client can see it (bind aside, chmod, rename)."""
from __future__ import annotations

import errno
import os
import socket
import stat
from pathlib import Path

from controller.control.protocol import ControlError


def _live(path: Path) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
        return True
    except OSError as error:
        if error.errno in (errno.ECONNREFUSED, errno.ENOENT):
            return False
        raise
    finally:
        probe.close()


# Connections the kernel holds until they are accepted: a burst of clients (services and
# `tablectl` commands starting together) fits; beyond it a connect waits or fails with EAGAIN.
LISTEN_BACKLOG = 128


def listen_unix(path: str | os.PathLike, mode: int, backlog: int = LISTEN_BACKLOG) -> tuple[socket.socket, int]:
    """A listening, non-blocking socket at `path` with `mode`; returns it and the file's inode."""
    path = Path(path)
    if os.path.lexists(path):
        if not stat.S_ISSOCK(os.lstat(path).st_mode):
            raise ControlError(f"{path} exists and is not a socket; not replacing it")
        if _live(path):
            raise ControlError(f"another daemon is listening on {path}")
    path.parent.mkdir(parents=True, exist_ok=True)
    aside = path.with_name(f".{path.name}.{os.getpid()}")
    bind_to = aside if len(str(aside).encode()) <= 107 else path  # too long: bind in place, chmod after
    if bind_to == aside and os.path.lexists(aside):
        os.unlink(aside)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(bind_to))
        os.chmod(bind_to, mode)
        if bind_to != path:
            os.rename(bind_to, path)  # atomic: clients only ever see the final mode
        sock.listen(backlog)
        sock.setblocking(False)
        return sock, os.stat(path).st_ino
    except OSError as error:
        sock.close()
        raise ControlError(f"cannot listen on {path}: {error}") from None


def remove_if_ours(path: str | os.PathLike, inode: int) -> None:
    """Unlink the socket file unless another daemon has since replaced it."""
    try:
        if os.stat(path).st_ino == inode:
            os.unlink(path)
    except FileNotFoundError:
        pass
