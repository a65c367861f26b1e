"""A real small filesystem to fill, for tests of a full disk (they run as root): a tmpfs
mounted for the test, and a filler file written until the kernel says ENOSPC.

    with small_tmpfs("4m") as mount_point:     # None when mount is not allowed here: skip, saying why
        filler = fill(mount_point)             # ENOSPC from now on; os.unlink(filler) frees it
"""
from __future__ import annotations

import errno
import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager


class CannotMount(RuntimeError):
    """mount(8) refused (not root, or a container without the right): the caller skips."""


@contextmanager
def small_tmpfs(size: str) -> Iterator[str]:
    mount_point = tempfile.mkdtemp(prefix="tablectl-full-")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", mount_point],
                          capture_output=True, text=True)
    if done.returncode != 0:
        os.rmdir(mount_point)
        raise CannotMount(f"cannot mount a tmpfs here ({done.stderr.strip()})")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", mount_point], check=True)
        os.rmdir(mount_point)


def fill(directory: str) -> str:
    """Write a filler file until the filesystem says ENOSPC, to the last small block; its path."""
    path = os.path.join(directory, "filler")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for block in (65536, 512):
            try:
                while True:
                    os.write(fd, b"\0" * block)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
    finally:
        os.close(fd)
    return path
