"""The daemon's side of systemd's notify protocol (sd_notify(3)), without libsystemd.

systemd (Type=notify) passes NOTIFY_SOCKET, an AF_UNIX datagram socket, and with
WatchdogSec= also WATCHDOG_USEC (and WATCHDOG_PID). The daemon sends one datagram per
message of newline-separated assignments: READY=1 once its devices are open and its
journal recovered, STATUS=... for `systemctl status`, WATCHDOG=1 from its event loop, and
STOPPING=1 on shutdown. When NOTIFY_SOCKET is unset (a shell, a test) every call is a
no-op, so the daemon calls the notifier unconditionally.

The daemon's loop pings from a reactor timer:

    notifier.ping_if_due(now)
    timer.at(now + notifier.seconds_until_due(now))      # the next ping's turn

Pings come only from the loop, so a loop that is stuck (or that cannot write its journal)
stops pinging and systemd restarts the service after WATCHDOG_USEC.
"""
from __future__ import annotations

import os
import socket
import struct
from collections.abc import Mapping, MutableMapping

SEND_TIMEOUT_S = 1
_TIMEVAL = struct.Struct("ll")  # struct timeval for SO_SNDTIMEO


class NotifyConfigError(ValueError):
    """NOTIFY_SOCKET, WATCHDOG_USEC or WATCHDOG_PID in the environment is malformed."""


def socket_address(value: str) -> str:
    """NOTIFY_SOCKET -> the address for sendto: a path, or an abstract name ('@x' -> '\\0x')."""
    if value.startswith("@") and len(value) > 1:
        return "\0" + value[1:]
    if value.startswith("/"):
        return value
    raise NotifyConfigError(
        f"NOTIFY_SOCKET={value!r}: expected an absolute socket path or an abstract name starting with '@'"
    )


def _positive_int(name: str, value: str) -> int:
    try:
        number = int(value, 10)
    except ValueError:
        number = 0
    if number <= 0:
        raise NotifyConfigError(f"{name}={value!r}: expected a positive integer")
    return number


def watchdog_usec(environ: Mapping[str, str], pid: int) -> int | None:
    """WATCHDOG_USEC when the watchdog is meant for process `pid`, else None (sd_watchdog_enabled)."""
    usec = environ.get("WATCHDOG_USEC")
    if not usec:
        return None
    usec_value = _positive_int("WATCHDOG_USEC", usec)
    owner = environ.get("WATCHDOG_PID")
    if owner and _positive_int("WATCHDOG_PID", owner) != pid:
        return None  # the watchdog belongs to another process (e.g. we are its child)
    return usec_value


def _one_line(text: str) -> str:
    # A newline would end the STATUS= assignment and start another (e.g. a device name
    # carrying "\nREADY=1"), so status text is always sent as one line.
    return " ".join(str(text).splitlines())


class Notifier:
    """Sends notify datagrams to systemd; every method is a no-op when `address` is None.

    Send failures (no listener, a queue still full after SEND_TIMEOUT_S) never raise: the
    daemon keeps running, the method returns False and `last_error` holds the OSError.
    """

    def __init__(self, address: str | None = None, watchdog_usec: int | None = None):
        self.address = address
        self.watchdog_usec = watchdog_usec if address else None
        self.last_error: OSError | None = None
        self._sock: socket.socket | None = None
        self._next_ping: float | None = None

    @classmethod
    def from_environment(
        cls, environ: MutableMapping[str, str] | None = None, *, pid: int | None = None, unset: bool = False
    ) -> Notifier:
        """Read NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID (os.environ by default).

        `unset=True` removes them from that environment afterwards, so child processes the
        daemon starts do not talk to systemd in its name. Raises NotifyConfigError naming
        the variable when one is malformed.
        """
        env = os.environ if environ is None else environ
        raw = env.get("NOTIFY_SOCKET")
        address = socket_address(raw) if raw else None
        usec = watchdog_usec(env, os.getpid() if pid is None else pid) if address else None
        if unset:
            for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
                env.pop(name, None)
        return cls(address, usec)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between pings: half of WATCHDOG_USEC, as sd_watchdog_enabled(3) advises."""
        if self.watchdog_usec is None:
            return None
        return self.watchdog_usec / 2_000_000

    def ready(self, status: str | None = None) -> bool:
        """READY=1 (with a STATUS line in the same datagram when given)."""
        return self._send("READY=1", status)

    def status(self, text: str) -> bool:
        return self._send(None, text)

    def stopping(self, status: str | None = None) -> bool:
        return self._send("STOPPING=1", status)

    def watchdog(self, now: float) -> bool:
        """WATCHDOG=1 now; the next one is due a `watchdog_interval` after `now`."""
        if self.watchdog_interval is None:
            return False
        self._next_ping = now + self.watchdog_interval
        return self._send("WATCHDOG=1", None)

    def ping_if_due(self, now: float) -> bool:
        """Called by the loop every turn (`now` from time.monotonic()): WATCHDOG=1 when due."""
        if self.watchdog_interval is None:
            return False
        if self._next_ping is not None and now < self._next_ping:
            return False
        return self.watchdog(now)

    def seconds_until_due(self, now: float) -> float | None:
        """How long the loop may wait before its next ping_if_due; None without a watchdog."""
        if self.watchdog_interval is None:
            return None
        if self._next_ping is None:
            return 0.0
        return max(0.0, self._next_ping - now)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self) -> Notifier:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _send(self, assignment: str | None, status: str | None) -> bool:
        if self.address is None:
            return False
        lines = [assignment] if assignment else []
        if status is not None:
            lines.append("STATUS=" + _one_line(status))
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                # When the manager's queue is full, wait for room (messages are not dropped),
                # but never longer than SEND_TIMEOUT_S: then give up on this one message.
                self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, _TIMEVAL.pack(SEND_TIMEOUT_S, 0))
            self._sock.sendto("\n".join(lines).encode("utf-8", "replace"), self.address)
        except OSError as error:
            self.last_error = error
            return False
        self.last_error = None
        return True
