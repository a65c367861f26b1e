"""The reactor: one thread, one `selectors` loop, for every file descriptor and deadline.

On the model of Klipper's klippy/reactor.py, without greenlets:

    reactor = Reactor()
    handle = reactor.register_fd(fd, on_readable)        # on_readable(mask) on the loop thread
    reactor.register_fd(fd, on_readable, late=True)      # after the turn's other ready fds
    reactor.set_writable(handle, True)                   # also call it when fd takes bytes again
    timer = reactor.timer(on_due)                        # on_due(now); timer.at(when) / .cancel()
    reactor.call_soon(fn)                                 # later in this turn, before the next select
    reactor.call_soon_threadsafe(fn)                      # the one way in from another thread
    reactor.run()                                         # until reactor.stop()

Each turn: wait in select() no longer than the earliest timer (not at all when something is
queued), call the callbacks of the ready fds (the device links first: an fd registered
`late`, a control socket client, waits behind every other ready fd of its turn), then the due timers, then what was queued by
call_soon (which may queue more: it runs until the queue is empty). A timer moved later keeps
its heap entry; when that entry comes due it is pushed again at the new time instead of
firing, so the link timers that move with every frame cost no heap churn.

Another thread (a pyusb reader, a signal handler, a test) hands work over with
`call_soon_threadsafe`: a deque and one byte down a wake-up pipe (python-can's Notifier hands
its messages over the same way). Everything else must be called on the reactor's thread.
An exception from a callback ends run() and propagates: a component catches what it can
handle itself.
"""
from __future__ import annotations

import collections
import heapq
import itertools
import os
import selectors
import threading
import time
from collections.abc import Callable
from typing import Any

NEVER = float("inf")


class Timer:
    """A one-shot deadline on the reactor, re-armed with `at(when)`; `cancel()` disarms it."""

    __slots__ = ("_reactor", "_callback", "when", "_queued")

    def __init__(self, reactor: Reactor, callback: Callable[[float], None]) -> None:
        self._reactor = reactor
        self._callback = callback
        self.when = NEVER  # NEVER: not armed
        self._queued = NEVER  # the time of this timer's live heap entry (NEVER: none)

    def at(self, when: float | None) -> None:
        """Fire at `when` (reactor clock); None or NEVER disarms."""
        self.when = NEVER if when is None else when
        if self.when < self._queued:
            self._queued = self.when
            self._reactor._push(self)

    def after(self, seconds: float) -> None:
        self.at(self._reactor.now() + seconds)

    def cancel(self) -> None:
        self.when = NEVER

    @property
    def armed(self) -> bool:
        return self.when != NEVER


class FdHandle:
    __slots__ = ("fd", "callback", "writable", "late", "registered")

    def __init__(self, fd: int, callback: Callable[[int], None], late: bool = False) -> None:
        self.fd, self.callback, self.writable, self.late = fd, callback, False, late
        self.registered = True


class Reactor:
    READ, WRITE = selectors.EVENT_READ, selectors.EVENT_WRITE

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.now = clock
        self._selector = selectors.DefaultSelector()
        self._heap: list[tuple[float, int, Timer]] = []
        self._order = itertools.count()
        self._soon: collections.deque[Callable[[], Any]] = collections.deque()
        self._from_threads: collections.deque[Callable[[], Any]] = collections.deque()
        self._wake_r, self._wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._running = False
        self._stopping = False
        self.thread: int | None = None  # the ident of the thread in run(), while it runs
        self.closed = False

    # ------------------------------------------------------------ file descriptors
    def register_fd(self, fd: int, callback: Callable[[int], None], *, late: bool = False) -> FdHandle:
        """Call `callback(mask)` whenever `fd` is readable (or, after set_writable, writable);
        `late`: only after every fd registered without it that is ready in the same turn."""
        handle = FdHandle(fd, callback, late)
        self._selector.register(fd, selectors.EVENT_READ, handle)
        return handle

    def set_writable(self, handle: FdHandle, wanted: bool) -> None:
        if handle.writable != wanted:
            handle.writable = wanted
            self._selector.modify(handle.fd, selectors.EVENT_READ | (selectors.EVENT_WRITE if wanted else 0), handle)

    def unregister_fd(self, handle: FdHandle) -> None:
        handle.registered = False  # a late callback already selected in this turn is skipped
        try:
            self._selector.unregister(handle.fd)
        except (KeyError, ValueError):
            pass  # already gone (closed twice, or the fd was closed first)

    # ------------------------------------------------------------ time
    def timer(self, callback: Callable[[float], None], when: float | None = None) -> Timer:
        timer = Timer(self, callback)
        if when is not None:
            timer.at(when)
        return timer

    def call_later(self, seconds: float, callback: Callable[[float], None]) -> Timer:
        return self.timer(callback, self.now() + seconds)

    def call_soon(self, callback: Callable[[], Any]) -> None:
        """Run `callback()` in this turn, after what is running now (reactor thread only)."""
        self._soon.append(callback)

    def call_soon_threadsafe(self, callback: Callable[[], Any]) -> None:
        """From any thread (or a signal handler): run `callback()` on the reactor thread soon."""
        self._from_threads.append(callback)
        try:
            os.write(self._wake_w, b"\0")
        except (BlockingIOError, OSError):
            pass  # the pipe is full (a wake-up is pending anyway) or closed (the reactor is gone)

    def call(self, fn: Callable[[], Any], timeout: float = 30.0) -> Any:
        """Run `fn()` on the reactor thread and return its result (or raise its exception).
        Called on that thread, or while no thread runs the reactor, it runs at once. For tests
        and tools that drive a reactor running on a thread of their own."""
        if not self._running or self.thread == threading.get_ident():
            return fn()
        done = threading.Event()
        result: list[tuple[bool, Any]] = []

        def run() -> None:
            try:
                result.append((True, fn()))
            except BaseException as error:  # noqa: BLE001 - handed to the caller
                result.append((False, error))
            done.set()

        self.call_soon_threadsafe(run)
        if not done.wait(timeout):
            raise TimeoutError(f"the reactor did not run {fn!r} within {timeout} s")
        ok, value = result[0]
        if not ok:
            raise value
        return value

    # ------------------------------------------------------------ running
    def run(self) -> None:
        """Turn until stop() (from a callback, or call_soon_threadsafe(reactor.stop))."""
        self._run(lambda: False, None)

    def run_until(self, condition: Callable[[], bool], timeout: float | None) -> bool:
        """Turn until `condition()` holds (checked after every turn) or `timeout` seconds
        passed; returns condition(). For whoever owns the reactor outside of its callbacks:
        start-up, shutdown, tests."""
        deadline = None if timeout is None else self.now() + timeout
        return self._run(condition, deadline)

    def stop(self) -> None:
        self._stopping = True

    def _run(self, condition: Callable[[], bool], deadline: float | None) -> bool:
        if self._running:
            raise RuntimeError("the reactor is already running (run_until inside a callback?)")
        self._running, self._stopping = True, False
        self.thread = threading.get_ident()
        try:
            while not self._stopping:
                if condition():
                    return True
                now = self.now()
                if deadline is not None and now >= deadline:
                    return condition()
                self._turn(now, deadline)
            return condition()
        finally:
            self._running, self.thread = False, None

    def _turn(self, now: float, deadline: float | None) -> None:
        if self._soon or self._from_threads:
            wait: float | None = 0.0
        else:
            first = self._heap[0][0] if self._heap else NEVER
            if deadline is not None:
                first = min(first, deadline)
            wait = None if first == NEVER else max(0.0, first - now)
        late: list[tuple[FdHandle, int]] = []
        for key, mask in self._selector.select(wait):
            handle = key.data
            if handle is None:
                self._drain_wake_pipe()
            elif handle.late:
                late.append((handle, mask))
            else:
                handle.callback(mask)
        for handle, mask in late:
            if handle.registered:
                handle.callback(mask)
        self._fire_timers()
        self._run_soon()

    def _drain_wake_pipe(self) -> None:
        try:
            while os.read(self._wake_r, 4096):
                pass
        except BlockingIOError:
            pass
        while self._from_threads:
            self._soon.append(self._from_threads.popleft())

    def _push(self, timer: Timer) -> None:
        heapq.heappush(self._heap, (timer._queued, next(self._order), timer))

    def _fire_timers(self) -> None:
        heap = self._heap
        if not heap:
            return
        now = self.now()
        while heap and heap[0][0] <= now:
            queued, _, timer = heapq.heappop(heap)
            if queued != timer._queued:
                continue  # superseded by an earlier entry of the same timer
            timer._queued = NEVER
            if timer.when == NEVER:
                continue  # cancelled
            if timer.when > queued:  # moved later since this entry was pushed: due or not, it goes
                timer._queued = timer.when  # back in the heap, behind the timers due before it
                self._push(timer)
                continue
            timer.when = NEVER
            timer._callback(now)

    def _run_soon(self) -> None:
        soon = self._soon
        while soon:
            soon.popleft()()
        if self._from_threads:  # arrived during this turn: next turn does not wait
            self._drain_wake_pipe()

    def close(self) -> None:
        """Release the selector and the wake-up pipe (idempotent)."""
        if self.closed:
            return
        self.closed = True
        self._selector.close()
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)

    def __enter__(self) -> Reactor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
