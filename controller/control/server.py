"""`ControlServer`: the local control socket, on the daemon's reactor (drivers/reactor.py).

The listening socket and every client are non-blocking fds registered with the reactor;
each client has an input buffer (requests arrive in pieces) and a bounded output buffer.

How a command reaches the loop and its answer comes back, all on the reactor's thread:
  1. a client's line is read and validated (protocol.parse_request), and
     `handle_command(request)` is called; it must not block (the daemon's loop queues it);
  2. the loop handles it and calls `request.reply(**fields)` or `request.fail(error)` (once;
     later calls are ignored);
  3. the answer {"id": ..., "ok": ...} goes into the client's buffer. No answer within
     reply_timeout_s (the journal is locked, say): the client gets an error reply, and a late
     answer is dropped.

No client can starve the table (the reactor's one thread), however it behaves:
  - at most REQUESTS_PER_WAKE of a client's requests are read per reactor turn; the rest
    wait in the kernel's socket buffer (a flooding sender blocks there, not the daemon), and
    client fds are served after the device links' (Reactor.register_fd(late=True));
  - `status` requests that arrive while one is on its way to the loop wait for that one and
    share its answer (built and encoded once; each gets its own id), unless the client has
    a request of its own sent after it: its answers keep their order;
  - a client that sends a request while more than UNREAD_REPLIES_BYTES of its replies wait
    unread is dropped: it is not reading what it asks for;
  - who may connect: controller/control/admission.py (per user, slots kept for the owners);
  - a connection with no request for idle_timeout_s (none in flight, not following the
    event stream) gets a line saying so and is closed.

`publish(event)` queues one JSON line for every subscriber. What was queued in a reactor turn
is sent at the end of that turn (non-blocking; what a client cannot take yet waits for its
fd to be writable), so a batch's events and answers leave together, after its lamps. A
client that falls further behind than its buffer is dropped with a log line: a stalled
`tablectl watch` never stalls the daemon.

Without a reactor given, start() makes one and runs it on a thread of its own ("control-
socket"), and the public methods hand their work to it: for tests and tools that need a
socket server beside other threads. The daemon passes its own reactor: no thread.
"""
from __future__ import annotations

import functools
import heapq
import itertools
import os
import socket
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import structlog

from controller.control.accepting import Acceptor
from controller.control.admission import Admission
from controller.control.listener import listen_unix, remove_if_ours
from controller.control.peers import READ_ONLY, Commanders, Peer, peer_of
from controller.control.protocol import COMMANDS, MAX_LINE, BadRequest, CommandSpec, encode, parse_request, request_id
from drivers.reactor import FdHandle, Reactor

log = structlog.get_logger("control")

REQUESTS_PER_WAKE = 16  # a client's requests read in one reactor turn; the rest wait in the kernel
READ_BYTES = 16384  # looked at (MSG_PEEK) per turn to find them; a longer line comes in pieces
UNREAD_REPLIES_BYTES = 65536  # replies waiting beyond what the kernel holds: sending more drops the client


class Request:
    """A validated command for the daemon's loop. Answer it once."""

    def __init__(self, server: ControlServer, token: int, client_id: int, cmd: str, args: dict, peer: Peer):
        self._server, self._token = server, token
        self.client_id, self.cmd, self.args = client_id, cmd, args
        self.peer = peer  # who sent it (the kernel's word: SO_PEERCRED)

    def reply(self, **fields: Any) -> None:
        self.respond({"ok": True, **fields})

    def fail(self, error: str) -> None:
        self.respond({"ok": False, "error": error})

    def respond(self, result: Mapping[str, Any]) -> None:
        """A whole reply body; "ok" defaults to true."""
        body = {"ok": True, **result}
        self._server._on_reactor(lambda: self._server._answer(self._token, body))

    def __repr__(self) -> str:
        return f"Request({self.cmd!r}, {self.args!r}, client={self.client_id})"


@dataclass(eq=False)
class _Client:
    sock: socket.socket
    id: int
    peer: Peer
    handle: FdHandle | None = None
    inbuf: bytearray = field(default_factory=bytearray)
    outbuf: bytearray = field(default_factory=bytearray)
    subscribed: bool = False
    close_when_flushed: bool = False
    closed: bool = False
    active_at: float = 0.0  # its last request or answer (reactor clock), for the idle timeout
    in_flight: int = 0  # its requests not yet answered
    last_token: int = 0  # the token its latest request waits on


class ControlServer:
    def __init__(self, path: str | os.PathLike, handle_command: Callable[[Request], None], *,
                 reactor: Reactor | None = None, mode: int = 0o660, client_buffer_bytes: int = 262144,
                 reply_timeout_s: float = 5.0, commands: Mapping[str, CommandSpec] = COMMANDS,
                 max_clients: int = 64, commanders: Commanders | None = None, max_clients_per_uid: int = 16,
                 owner_slots: int = 2, idle_timeout_s: float = 300.0):
        self.path = os.fspath(path)
        self._handle = handle_command
        self._mode, self._cap, self._reply_timeout = mode, client_buffer_bytes, reply_timeout_s
        self._commands = commands
        self.max_clients = max_clients
        self.commanders = commanders if commanders is not None else Commanders()
        self.admission = Admission(max_clients=max_clients, max_per_uid=max_clients_per_uid,
                                   owner_slots=owner_slots, owner_uid=self.commanders.uid)
        self._idle_timeout = idle_timeout_s
        self.dropped = {"idle": 0, "not_reading_replies": 0, "too_far_behind": 0}
        self.reactor = reactor
        self._thread: threading.Thread | None = None  # only when the server runs its own reactor
        self._running = False
        self._subscribed = 0  # subscribed connections
        self._clients: dict[int, _Client] = {}
        self._pending: dict[int, list[tuple[int, Any]]] = {}  # token -> [(client id, request id)], shared by a status
        self._status_token = 0  # the status on its way to the loop that others may join (while pending)
        self._deadlines: list[tuple[float, int]] = []
        self._ids = itertools.count(1)
        self._dirty: set[_Client] = set()  # clients with output queued in this turn
        self._flush_queued = False

    # ------------------------------------------------------------ start and stop

    def start(self) -> ControlServer:
        if self.reactor is None:
            self.reactor = Reactor()
            self._open()
            running = threading.Event()
            self.reactor.call_soon(running.set)
            self._thread = threading.Thread(target=self.reactor.run, name="control-socket", daemon=True)
            self._thread.start()
            running.wait()
        else:
            self._open()
        return self

    def _open(self) -> None:
        assert self.reactor is not None
        listener, self._inode = listen_unix(self.path, self._mode)
        self._acceptor = Acceptor(self.reactor, listener, self._add_client, max_clients=self.max_clients,
                                  clients=lambda: len(self._clients))
        self._expiry = self.reactor.timer(lambda now: self._expire(now))
        self._idle = self.reactor.timer(lambda now: self._close_idle(now))
        self._idle.after(self._idle_timeout)
        self._running = True
        log.info("listening", path=self.path, mode=oct(self._mode))

    def stop(self) -> None:
        """Send what is queued (as far as each client takes it now), close every connection
        and the listening socket, and remove the socket file."""
        if not self._running:
            return
        self._on_reactor(self._shutdown)
        if self._thread is not None and self.reactor is not None:
            self.reactor.call_soon_threadsafe(self.reactor.stop)
            self._thread.join()
            self._thread = None
            self.reactor.close()

    def __enter__(self) -> ControlServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def _started(self) -> Reactor:
        """The reactor the server runs on, once started."""
        if self.reactor is None:
            raise RuntimeError("the control server is not started")
        return self.reactor

    def _on_reactor(self, fn: Callable[[], Any]) -> Any:
        """Run fn on the reactor's thread: at once when called there (the daemon)."""
        if self._thread is None or self.reactor is None:
            return fn()
        return self.reactor.call(fn)

    # ------------------------------------------------------------ for the loop

    @property
    def subscribers(self) -> int:
        """How many connections follow the event stream now (for status and tests)."""
        return self._subscribed

    def problem(self) -> str | None:
        """Why clients cannot reach the daemon now, or None: the listener is broken, or the
        socket file at the path is gone or is another's (then `tablectl status` would say the
        daemon is not running while it deals on). For the daemon's watchdog; reactor thread."""
        if not self._running:
            return "the control socket is closed"
        if (problem := self._acceptor.problem()) is not None:
            return problem
        try:
            inode = os.stat(self.path).st_ino
        except OSError as error:
            return f"the control socket file {self.path} is gone ({error.strerror})"
        return None if inode == self._inode else f"the control socket file {self.path} was replaced by another"

    def to_json(self) -> dict:
        """For `tablectl status`: accepting or why not, clients connected, the cap, refusals."""
        return {**self._acceptor.to_json(), **self.admission.to_json(), "idle_timeout_s": self._idle_timeout,
                "clients": len(self._clients), "subscribers": self._subscribed, "dropped": dict(self.dropped)}

    def publish(self, event: Mapping[str, Any]) -> None:
        """Queue `event` for every subscriber; never blocks. Raises TypeError if not JSON
        (checked even when nobody follows the stream)."""
        if self._running:
            data = encode(event)
            if self._subscribed:
                self._on_reactor(lambda: self._to_subscribers(data))

    def _to_subscribers(self, data: bytes) -> None:
        for client in [c for c in self._clients.values() if c.subscribed]:
            self._queue(client, data)

    # ------------------------------------------------------------ clients

    def _add_client(self, sock: socket.socket) -> tuple[str, str] | None:
        """Take a new connection, or say why not (the Acceptor refuses it)."""
        peer = peer_of(sock)
        if (refusal := self.admission.refusal(peer, len(self._clients))) is not None:
            return refusal
        sock.setblocking(False)
        client = _Client(sock, next(self._ids), peer, active_at=self._started.now())
        self._clients[client.id] = client
        self.admission.taken(peer)
        client.handle = self._started.register_fd(sock.fileno(), functools.partial(self._on_client, client), late=True)
        log.debug("client_connected", client=client.id, uid=client.peer.uid, pid=client.peer.pid)
        return None

    def _on_client(self, client: _Client, mask: int) -> None:
        if client.closed:
            return
        try:
            if mask & Reactor.READ:
                self._read(client)
            if mask & Reactor.WRITE and not client.closed:
                self._send(client)
        except Exception:  # one client's trouble must not end the server
            log.exception("client_error", client=client.id)
            self._close(client)

    def _read(self, client: _Client) -> None:
        """Up to REQUESTS_PER_WAKE requests: looked at first, so only they leave the kernel's
        buffer (the fd stays readable and the rest is read in the next turns)."""
        try:
            data = client.sock.recv(READ_BYTES, socket.MSG_PEEK)
            take, lines = 0, 0
            while lines < REQUESTS_PER_WAKE and (end := data.find(b"\n", take)) >= 0:
                take, lines = end + 1, lines + 1
            if lines < REQUESTS_PER_WAKE:
                take = len(data)
            data = client.sock.recv(take) if take else b""
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._close(client)
            return
        client.inbuf += data
        start = 0
        while (end := client.inbuf.find(b"\n", start)) >= 0 and not client.close_when_flushed and not client.closed:
            line = bytes(client.inbuf[start:end]).strip()
            start = end + 1
            if line:
                self._request(client, line)
        if client.closed:
            return
        del client.inbuf[:start]
        if len(client.inbuf) > MAX_LINE:
            self._refuse(client, None, f"request line longer than {MAX_LINE} bytes")
            client.inbuf.clear()
            client.close_when_flushed = True

    def _request(self, client: _Client, line: bytes) -> None:
        if len(client.outbuf) > UNREAD_REPLIES_BYTES:
            self.dropped["not_reading_replies"] += 1
            log.warning("client_dropped", client=client.id, uid=client.peer.uid, pid=client.peer.pid,
                        reason=f"it sends requests while {len(client.outbuf)} bytes of its replies wait unread")
            self._close(client)
            return
        client.active_at = self._started.now()
        try:
            parsed = parse_request(line, self._commands)
        except BadRequest as error:
            self._refuse(client, request_id(line), str(error))
            return
        if parsed.cmd not in READ_ONLY and not self.commanders.may_command(client.peer):
            log.warning("command_refused", command=parsed.cmd, uid=client.peer.uid, user=client.peer.user,
                        pid=client.peer.pid, reason="not root, the daemon's user or a member of its group")
            self._refuse(client, parsed.id, self.commanders.refusal(client.peer, parsed.cmd))
            return
        if parsed.cmd == "subscribe":
            if not client.subscribed:
                client.subscribed = True
                self._subscribed += 1
            self._queue(client, encode({"id": parsed.id, "ok": True, "subscribed": True}))
            return
        if parsed.cmd == "status" and client.last_token <= self._status_token and self._status_token in self._pending:
            self._pending[self._status_token].append((client.id, parsed.id))  # the answer on its way serves it too
            client.in_flight += 1
            client.last_token = self._status_token
            return
        token = next(self._ids)
        self._pending[token] = [(client.id, parsed.id)]
        client.in_flight += 1
        client.last_token = token
        if parsed.cmd == "status":
            self._status_token = token
        deadline = self._started.now() + self._reply_timeout
        heapq.heappush(self._deadlines, (deadline, token))
        if len(self._deadlines) == 1:
            self._expiry.at(deadline)
        request = Request(self, token, client.id, parsed.cmd, parsed.args, client.peer)
        try:
            self._handle(request)
        except Exception as error:
            log.exception("handler_failed", command=parsed.cmd)
            request.fail(f"the daemon could not take the command: {error}")

    def _refuse(self, client: _Client, rid, error: str) -> None:
        self._queue(client, encode({"id": rid, "ok": False, "error": error}))

    def _answer(self, token: int, body: dict) -> None:
        waiting = self._pending.pop(token, None)
        if waiting is None:
            log.info("reply_ignored", reason="already answered or timed out", token=token)
            return
        try:
            data = encode({k: v for k, v in body.items() if k != "id"})  # once, however many share it
        except (TypeError, ValueError) as error:  # a bug in the answer: the client still gets one
            log.error("answer_not_json", error=str(error), token=token)
            data = encode({"ok": False, "error": f"the daemon's answer could not be sent: {error}"})
        now = self._started.now()
        for client_id, rid in waiting:
            client = self._clients.get(client_id)
            if client is not None:
                client.in_flight -= 1
                client.active_at = now
                self._queue(client, with_id(rid, data))

    def _queue(self, client: _Client, data: bytes) -> None:
        """Add to the client's buffer; it is sent at the end of this reactor turn."""
        if client.closed:
            return
        if len(client.outbuf) + len(data) > self._cap:
            self.dropped["too_far_behind"] += 1
            log.warning("client_dropped", client=client.id, subscribed=client.subscribed,
                        reason=f"more than {self._cap} bytes waiting: it does not read fast enough")
            self._close(client)
            return
        client.outbuf += data
        self._dirty.add(client)
        if not self._flush_queued:
            self._flush_queued = True
            self._started.call_soon(self._flush_dirty)

    def _flush_dirty(self) -> None:
        self._flush_queued = False
        dirty, self._dirty = self._dirty, set()
        for client in dirty:
            if not client.closed:
                self._send(client)

    def _send(self, client: _Client) -> None:
        try:
            while client.outbuf:
                sent = client.sock.send(client.outbuf)
                del client.outbuf[:sent]
        except BlockingIOError:
            pass
        except OSError:  # the client went away
            self._close(client)
            return
        if client.close_when_flushed and not client.outbuf:
            self._close(client)
            return
        if client.handle is not None:
            self._started.set_writable(client.handle, bool(client.outbuf))

    def _close(self, client: _Client) -> None:
        if client.closed:
            return
        client.closed = True
        if client.subscribed:
            self._subscribed -= 1
        if self._clients.pop(client.id, None) is not None:
            self.admission.left(client.peer)
        self._dirty.discard(client)
        if client.handle is not None:
            self._started.unregister_fd(client.handle)
        client.sock.close()
        log.debug("client_closed", client=client.id)

    def _expire(self, now: float) -> None:
        while self._deadlines and self._deadlines[0][0] <= now:
            _, token = heapq.heappop(self._deadlines)
            if token in self._pending:
                log.warning("reply_timeout", token=token, seconds=self._reply_timeout)
                self._answer(token, {"ok": False, "error": f"the daemon did not answer within {self._reply_timeout:g} s"})
        if self._deadlines:
            self._expiry.at(self._deadlines[0][0])

    def _close_idle(self, now: float) -> None:
        """Close every connection idle for idle_timeout_s: no request sent or in flight, not
        following the event stream; then wake for the next one to come due."""
        first = now
        for client in list(self._clients.values()):
            if client.subscribed or client.in_flight or client.closed:
                continue
            if client.active_at + self._idle_timeout <= now:
                self.dropped["idle"] += 1
                log.info("client_idle_closed", client=client.id, uid=client.peer.uid, pid=client.peer.pid,
                         idle_timeout_s=self._idle_timeout)
                self._refuse(client, None, f"closed: no request for {self._idle_timeout:g} s "
                                           f"(control.idle_timeout_s); connect again to go on")
                client.close_when_flushed = True
                self._send(client)
                self._close(client)  # flushed or not: a client that does not read is not waited for
            else:
                first = min(first, client.active_at)
        self._idle.at(first + self._idle_timeout)

    def _shutdown(self) -> None:
        self._running = False
        self._flush_dirty()  # what was published or answered before stop() still goes out
        for client in list(self._clients.values()):
            self._close(client)
        self._expiry.cancel()
        self._idle.cancel()
        self._acceptor.close()
        remove_if_ours(self.path, self._inode)
        log.info("stopped", path=self.path)


def with_id(rid: Any, body: bytes) -> bytes:
    """A reply line: the request's id first, then the encoded body's fields."""
    head = encode({"id": rid})[:-2]  # b'{"id":1'
    return head + (b"}\n" if body == b"{}\n" else b"," + body[1:])
