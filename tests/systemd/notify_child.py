"""A stand-in for the daemon's event loop, run as a real child process by the notify tests.

It uses controller.sdnotify exactly as `tablectl run` will: READY=1 once "started", then a
loop that waits for input no longer than the watchdog allows and pings from each turn.
Commands on stdin, one a line:
    status TEXT   send STATUS=TEXT
    stall         send STATUS=stalled, then block forever: a stuck loop, no more pings
    stop          send STOPPING=1 and exit 0 (so does end of input)
"""
from __future__ import annotations

import os
import selectors
import sys
import threading
import time

from controller.sdnotify import Notifier


def main() -> int:
    notifier = Notifier.from_environment(unset=True)
    notifier.status("starting: opening devices")
    notifier.ready(status=f"ready; watchdog every {notifier.watchdog_interval}s")
    selector = selectors.DefaultSelector()
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ)
    pending = b""
    while True:
        notifier.ping_if_due(time.monotonic())
        if not selector.select(notifier.seconds_until_due(time.monotonic())):
            continue
        chunk = os.read(sys.stdin.fileno(), 4096)
        if not chunk:  # end of input: shut down like `stop`
            notifier.stopping()
            return 0
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            command, _, arg = line.decode().partition(" ")
            if command == "status":
                notifier.status(arg)
            elif command == "stall":
                notifier.status("stalled")
                threading.Event().wait()
            elif command == "stop":
                notifier.stopping()
                return 0


if __name__ == "__main__":
    sys.exit(main())
