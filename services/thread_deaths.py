"""A thread that dies of an exception ends the process with an error, so systemd restarts it.

The feed and the pit each run several threads (the broker's network thread, the journal
follower, timers). One that dies leaves the process up with nothing flowing, and `Restart=`
never fires. So:

    deaths = ThreadDeaths(stop, log).install()   # threading.excepthook
    feed.run(stop)                               # returns once `stop` is set
    return deaths.exit_status()                  # 0, or EXIT_THREAD_DIED

A death is logged (`thread_died`: the thread, the error, the traceback) and sets `stop`, the
event SIGTERM sets: the process ends as it does on a stop (the feed saves its cursor, the pit
acknowledges only what it committed), then exits EXIT_THREAD_DIED. If that clean stop has not
ended the process within GRACE_S (a lock the dead thread held), it is ended at once with the
same status: nothing acknowledged depends on the clean stop.
"""
from __future__ import annotations

import os
import sys
import threading
import traceback
from typing import Any

EXIT_THREAD_DIED = 70  # EX_SOFTWARE: an internal error
GRACE_S = 20.0  # the clean stop's time before the process is ended at once


class ThreadDeaths:
    def __init__(self, stop: threading.Event, log: Any, *, grace_s: float = GRACE_S) -> None:
        self.stop = stop
        self.log = log
        self.grace_s = grace_s
        self.died: list[str] = []  # "thread: error", in the order they died

    def install(self) -> ThreadDeaths:
        threading.excepthook = self._died
        return self

    def exit_status(self) -> int:
        if not self.died:
            return 0
        print(f"ended because a thread died: {'; '.join(self.died)}", file=sys.stderr, flush=True)
        return EXIT_THREAD_DIED

    def _died(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:
            return  # a thread that chose to end
        name = args.thread.name if args.thread is not None else "a thread"
        error = f"{args.exc_type.__name__}: {args.exc_value}"
        self.died.append(f"{name}: {error}")
        self.log.critical("thread_died", thread=name, error=error, note="the process stops and exits with an error",
                          traceback="".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback)))
        self.stop.set()
        deadline = threading.Timer(self.grace_s, self._end_now)
        deadline.daemon = True
        deadline.start()

    def _end_now(self) -> None:
        self.log.critical("thread_died_stop_too_slow", waited_s=self.grace_s, died=self.died)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(EXIT_THREAD_DIED)
