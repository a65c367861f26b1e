"""A raw-mode pty published at a stable symlink, like a udev name for a real device.

`unplug()` closes the pty and removes the link: the host's open port hangs up.
`replug()` makes a new pty at the same link: the host reopens by path, never by the
old handle. The device keeps its own copy of the slave end open so the line settings
stay raw and reading the master never fails with EIO while no host has it open.
"""
from __future__ import annotations

import errno
import os
import tty


class PtyPort:
    def __init__(self, link_path: str):
        self.link_path = os.path.abspath(link_path)
        self.master: int | None = None
        self._slave: int | None = None
        self.tty_name: str | None = None
        self.dropped_bytes = 0  # written while nobody read: lost, as on a real line
        self.replug()

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def replug(self) -> None:
        if self.plugged:
            return
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self.master, self._slave = master, slave
        self.tty_name = os.ttyname(slave)
        self._publish(self.tty_name)

    def _publish(self, tty_name: str) -> None:
        """Point the link at the new pty in one step: the path never names a stale device."""
        os.makedirs(os.path.dirname(self.link_path), exist_ok=True)
        temporary = f"{self.link_path}.{os.getpid()}.tmp"
        if os.path.lexists(temporary):
            os.unlink(temporary)
        os.symlink(tty_name, temporary)
        os.replace(temporary, self.link_path)

    def unplug(self) -> None:
        if self.master is None or self._slave is None:  # not plugged (the two are set together)
            return
        self._unlink()
        for fd in (self.master, self._slave):
            os.close(fd)
        self.master = self._slave = None
        self.tty_name = None

    def _unlink(self) -> None:
        try:
            if os.readlink(self.link_path) == self.tty_name:
                os.unlink(self.link_path)
        except OSError as error:
            if error.errno not in (errno.ENOENT, errno.EINVAL):
                raise

    def read(self) -> bytes:
        if self.master is None:  # unplugged
            return b""
        try:
            return os.read(self.master, 4096)
        except BlockingIOError:
            return b""
        except OSError as error:
            if error.errno == errno.EIO:
                return b""
            raise

    def write(self, data: bytes) -> None:
        if self.master is None:  # unplugged
            self.dropped_bytes += len(data)
            return
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.master, view):]
        except BlockingIOError:
            self.dropped_bytes += len(view)  # nobody is reading: the bytes are lost
        except OSError as error:
            if error.errno != errno.EIO:
                raise
            self.dropped_bytes += len(view)

    def close(self) -> None:
        self.unplug()
