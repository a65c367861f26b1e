"""Acting as another local user, for tests that run as root: a forked child drops to a uid,
gid and supplementary groups (setgroups/setgid/setuid) and runs code already imported, so the
kernel sees that user's real credentials (file permissions, SO_PEERCRED on a socket). The
project's Python may live where other users cannot enter, so the child never execs.

    pid, read = fork_as(uid, gid, groups, body)     # body(write_fd) in the child; its traceback comes back
    text = read_all(read)                            # what it wrote (until it exits)
    pid, value = call_as(uid, gid, groups, fn)       # fn() -> JSON; the child's pid and its value
"""
from __future__ import annotations

import json
import os
import traceback
from collections.abc import Callable
from typing import Any


def fork_as(uid: int, gid: int, groups: list[int], body: Callable[[int], object], umask: int = 0o022) -> tuple[int, int]:
    """Fork; in the child drop to uid/gid/groups and run body(write_fd): (pid, read end). A
    child that raises writes its traceback to the pipe and exits 99."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller
        code = 0
        try:
            os.close(read)
            os.setgroups(groups)
            os.setgid(gid)
            os.setuid(uid)
            os.umask(umask)
            body(write)
        except BaseException:  # noqa: BLE001 - reported to the parent through the pipe
            os.write(write, traceback.format_exc().encode())
            code = 99
        finally:
            os._exit(code)
    os.close(write)
    return pid, read


def read_all(fd: int) -> str:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode()


def call_as(uid: int, gid: int, groups: list[int], fn: Callable[[], Any]) -> tuple[int, Any]:
    """fn() as that user in a child; (the child's pid, fn's JSON-able value). AssertionError
    with the child's traceback when it raised."""
    pid, read = fork_as(uid, gid, groups, lambda write: os.write(write, json.dumps(fn()).encode()))
    text = read_all(read)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, text
    return pid, json.loads(text)
