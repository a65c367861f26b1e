"""Taking new clients off the control socket's listener, on the reactor, without ever dying.

- A cap on concurrent clients (control.max_clients): a client beyond it is accepted, told
  why in one line ({"id": null, "ok": false, "error": "too many clients: ..."}) and closed.
  `on_client(sock)` may refuse one the same way, by the rules of controller/control/
  admission.py (per user, the slots kept for the table's owners): it returns the refusal.
- Out of file descriptors (EMFILE for the process, ENFILE for the system; ENOBUFS/ENOMEM
  alike): accept() cannot create the client's socket. The clients already waiting are
  told why with the one descriptor kept in reserve for this (libuv's "EMFILE trick": close
  the reserve, accept, refuse, reopen it; at most a backlog's worth), then accepting pauses for ACCEPT_PAUSE_S on a
  reactor timer, so a flood costs one round of refusals per pause and never a busy loop;
  the connected clients are served throughout.
- An error that concerns one connection only (it was aborted before accept) is skipped.
- Any other error means the listener itself is broken: it is closed and `problem()` says
  why (the daemon's watchdog then stops: controller/daemon/health.py).

At most ACCEPTS_PER_TURN clients are taken per reactor turn, so a burst of connects never
keeps the devices' reads waiting.
"""
from __future__ import annotations

import errno
import os
import socket
from collections.abc import Callable

import structlog

from controller.control.listener import LISTEN_BACKLOG
from controller.control.protocol import encode
from drivers.reactor import Reactor

log = structlog.get_logger("control")

ACCEPT_PAUSE_S = 0.25
ACCEPTS_PER_TURN = 64
OUT_OF_DESCRIPTORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
ONE_CONNECTION = frozenset({errno.ECONNABORTED, errno.EPROTO, errno.EINTR})
ACCEPTING = "yes"
PAUSED = "paused: out of file descriptors"


def refusal(error: str) -> bytes:
    """The one line a refused client gets before the connection closes."""
    return encode({"id": None, "ok": False, "error": error})


class Acceptor:
    """Accepts clients from `listener` (a listening, non-blocking socket) and hands each to
    `on_client(sock)`, which takes it (None) or returns (refusals counter, error line) to have
    it refused; `clients()` is how many are connected now."""

    def __init__(self, reactor: Reactor, listener: socket.socket,
                 on_client: Callable[[socket.socket], tuple[str, str] | None], *,
                 max_clients: int, clients: Callable[[], int]) -> None:
        self.reactor, self.listener = reactor, listener
        self._on_client, self._clients, self.max_clients = on_client, clients, max_clients
        self.state = ACCEPTING  # ACCEPTING, PAUSED, or "failed: ..." (the listener is closed)
        self.refused = {"max_clients": 0, "out_of_descriptors": 0, "per_uid": 0, "kept_for_owners": 0}
        self._reserve: int | None = _open_reserve()
        self._handle = reactor.register_fd(listener.fileno(), lambda mask: self._accept(), late=True)
        self._resume = reactor.timer(lambda now: self._resume_accepting())

    def problem(self) -> str | None:
        """Why new clients cannot be taken (None: accepting, or deliberately paused)."""
        return None if self.state in (ACCEPTING, PAUSED) else f"the control socket's listener {self.state}"

    def to_json(self) -> dict:
        return {"accepting": self.state, "max_clients": self.max_clients, "refused": dict(self.refused)}

    def _accept(self) -> None:
        for _ in range(ACCEPTS_PER_TURN):
            try:
                sock, _ = self.listener.accept()
            except BlockingIOError:
                return
            except OSError as error:
                if error.errno in ONE_CONNECTION:
                    continue
                if error.errno in OUT_OF_DESCRIPTORS:
                    self._out_of_descriptors(error)
                else:
                    self._fail(error)
                return
            if self._clients() >= self.max_clients:
                self.refused["max_clients"] += 1
                _refuse(sock, f"too many clients: the daemon serves at most {self.max_clients} at once "
                              f"(control.max_clients); try again when one has disconnected")
                continue
            try:
                refusal = self._on_client(sock)
            except Exception:  # noqa: BLE001 - one client's trouble (its credentials unreadable) never ends the listener
                log.exception("client_not_taken")
                sock.close()
                continue
            if refusal is not None:
                counter, why = refusal
                self.refused[counter] += 1
                _refuse(sock, why)

    def _out_of_descriptors(self, error: OSError) -> None:
        refused = self._refuse_waiting(f"the daemon has no file descriptor free for another client "
                                       f"({os.strerror(error.errno or 0)}); try again later")
        self.refused["out_of_descriptors"] += refused
        if self.state == ACCEPTING:
            log.warning("accept_paused", reason=str(error), connected=self._clients(), refused=refused,
                        pause_s=ACCEPT_PAUSE_S)
        self.state = PAUSED
        self.reactor.unregister_fd(self._handle)
        self._resume.after(ACCEPT_PAUSE_S)

    def _refuse_waiting(self, error: str) -> int:
        """Tell the clients waiting in the backlog why, with the reserve descriptor."""
        refused = 0
        while self._reserve is not None and refused < LISTEN_BACKLOG:
            os.close(self._reserve)
            self._reserve = None
            try:
                sock, _ = self.listener.accept()
            except OSError:
                sock = None
            if sock is not None:
                _refuse(sock, error)
                refused += 1
            self._reserve = _open_reserve()
            if sock is None:
                break
        return refused

    def _resume_accepting(self) -> None:
        if self.state != PAUSED:
            return
        self.state = ACCEPTING
        self._handle = self.reactor.register_fd(self.listener.fileno(), lambda mask: self._accept(), late=True)
        self._accept()  # still out of descriptors: pauses again at once
        if self.state == ACCEPTING:
            log.info("accept_resumed", connected=self._clients(), refused=dict(self.refused))

    def _fail(self, error: OSError) -> None:
        self.state = f"failed: accept(): {error}"
        log.error("listener_failed", error=str(error))
        self.close()

    def close(self) -> None:
        self._resume.cancel()
        self.reactor.unregister_fd(self._handle)
        self.listener.close()
        if self._reserve is not None:
            os.close(self._reserve)
            self._reserve = None


def _refuse(sock: socket.socket, error: str) -> None:
    try:
        sock.setblocking(False)
        sock.send(refusal(error))  # a fresh connection's buffer takes one line
    except OSError:
        pass  # gone already
    finally:
        sock.close()


def _open_reserve() -> int | None:
    try:
        return os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None  # out of descriptors right now: the next refusal round tries again
