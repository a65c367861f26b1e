"""`ControlServer`: the local control socket. Its own thread does only I/O (a selector over
the listening socket, every client, and a wake-up socketpair); the daemon's loop thread owns
all state.

How a command reaches the loop and its answer comes back:
  1. the server thread reads a line, validates it (protocol.parse_request) and calls
     `handle_command(request)`, which must not block: the daemon posts the request into its
     loop's inbox and returns;
  2. the loop handles it and calls `request.reply(**fields)` or `request.fail(error)` (from any
     thread, once; later calls are ignored);
  3. the server thread writes {"id": ..., "ok": ...}. No answer within reply_timeout_s: the
     client gets an error reply, and a late answer is dropped.

`publish(event)` (thread-safe, from the loop) queues one JSON line for every subscriber and
returns at once. Each client has a bounded output buffer; a client that falls further behind
is dropped with a log line, so a stalled `tablectl watch` can never stall the loop.

Inside `gathered()` (the loop, carrying out a batch's effects) events and answers wait in the
outbox, and at its end the calling thread sends them itself (non-blocking sends; what a
client cannot take yet stays in its buffer for the server thread): no hand-off to the server
thread per batch. A lock keeps the server thread's work and such a delivery apart.
"""
from __future__ import annotations

import collections
import contextlib
import heapq
import itertools
import os
import selectors
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import structlog

from controller.control.listener import listen_unix, remove_if_ours
from controller.control.protocol import COMMANDS, MAX_LINE, BadRequest, CommandSpec, encode, parse_request, request_id

log = structlog.get_logger("control")


class Request:
    """A validated command for the daemon's loop. Answer it once, from any thread."""

    def __init__(self, server: ControlServer, token: int, client_id: int, cmd: str, args: dict):
        self._server, self._token = server, token
        self.client_id, self.cmd, self.args = client_id, cmd, args

    def reply(self, **fields: Any) -> None:
        self.respond({"ok": True, **fields})

    def fail(self, error: str) -> None:
        self.respond({"ok": False, "error": error})

    def respond(self, result: Mapping[str, Any]) -> None:
        """A whole reply body; "ok" defaults to true."""
        self._server._post(("reply", self._token, {"ok": True, **result}))

    def __repr__(self) -> str:
        return f"Request({self.cmd!r}, {self.args!r}, client={self.client_id})"


@dataclass(eq=False)
class _Client:
    sock: socket.socket
    id: int
    inbuf: bytearray = field(default_factory=bytearray)
    outbuf: bytearray = field(default_factory=bytearray)
    subscribed: bool = False
    close_when_flushed: bool = False
    closed: bool = False


class ControlServer:
    def __init__(self, path: str | os.PathLike, handle_command: Callable[[Request], None], *, mode: int = 0o660,
                 client_buffer_bytes: int = 262144, reply_timeout_s: float = 5.0,
                 commands: Mapping[str, CommandSpec] = COMMANDS):
        self.path = os.fspath(path)
        self._handle = handle_command
        self._mode, self._cap, self._reply_timeout = mode, client_buffer_bytes, reply_timeout_s
        self._commands = commands
        self._outbox: collections.deque = collections.deque()  # from any thread to the server thread
        self._wake_pending = False
        self._subscribed = 0  # subscribed connections; changed on the server thread only
        self._gathering: int | None = None  # the thread inside gathered(), if any
        # Held by the server thread while it handles what select() returned, and by a thread
        # delivering its gathered outbox: clients, their buffers, pending answers.
        self._lock = threading.Lock()
        self._running = False
        self._thread: threading.Thread | None = None
        self._clients: dict[int, _Client] = {}
        self._pending: dict[int, tuple[int, Any]] = {}  # token -> (client id, request id)
        self._deadlines: list[tuple[float, int]] = []
        self._ids = itertools.count(1)

    # ------------------------------------------------------------ from any thread

    def start(self) -> ControlServer:
        self._listener, self._inode = listen_unix(self.path, self._mode)
        self._wake_r, self._wake_w = socket.socketpair()
        for end in (self._wake_r, self._wake_w):
            end.setblocking(False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._listener, selectors.EVENT_READ, "listener")
        self._selector.register(self._wake_r, selectors.EVENT_READ, "wake")
        self._running = True
        self._thread = threading.Thread(target=self._run, name="control-socket", daemon=True)
        self._thread.start()
        log.info("listening", path=self.path, mode=oct(self._mode))
        return self

    def stop(self) -> None:
        if not self._running:
            return
        self._running = False
        self._wake()
        self._thread.join()

    @property
    def subscribers(self) -> int:
        """How many connections follow the event stream now (for status and tests)."""
        return self._subscribed

    def publish(self, event: Mapping[str, Any]) -> None:
        """Queue `event` for every subscriber; never blocks. Raises TypeError if not JSON.
        With nobody subscribed it is only checked: the socket thread is not woken for it
        (a subscriber gets the events published after its subscription was answered)."""
        if self._running:
            data = encode(event)
            if self._subscribed:
                self._post(("event", data))

    def __enter__(self) -> ControlServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @contextlib.contextmanager
    def gathered(self):
        """Within it, what this thread publishes or answers waits in the outbox; at the end
        this thread delivers it all, in order: the loop carries out a batch's effects without
        waking the socket thread (and handing it the GIL) for them."""
        self._gathering = threading.get_ident()
        try:
            yield
        finally:
            self._gathering = None
            if self._outbox:
                self._deliver()

    def _deliver(self) -> None:
        """Drain the outbox on the calling thread (sends never block; a rest a client cannot
        take yet stays in its buffer and the selector watches for room, as on the server thread)."""
        with self._lock:
            if not self._running:
                return
            try:
                self._drain_outbox()
            except Exception:  # e.g. an answer that is not JSON: the caller (the loop) goes on
                log.exception("delivery_failed")
                self._wake()  # whatever is left goes out from the server thread

    def _post(self, item) -> None:
        self._outbox.append(item)
        if self._gathering != threading.get_ident():
            self._wake()

    def _wake(self) -> None:
        # One byte per batch, not per item: the loop pays for a syscall only when needed.
        if not self._wake_pending:
            self._wake_pending = True
            try:
                self._wake_w.send(b"\0")
            except OSError:  # full (a wake-up is pending anyway) or closed (stopping)
                pass

    # ------------------------------------------------------------ the server thread

    def _run(self) -> None:
        try:
            while self._running:
                ready = self._selector.select(self._next_timeout())
                with self._lock:
                    for key, events in ready:
                        self._dispatch(key.data, events)
                    self._drain_outbox()
                    self._expire()
        finally:
            with self._lock:
                self._shutdown()

    def _dispatch(self, what, events: int) -> None:
        if what == "listener":
            self._accept()
        elif what == "wake":
            try:
                while self._wake_r.recv(4096):
                    pass
            except BlockingIOError:
                pass
            # Cleared after the bytes are read and before the outbox is drained: a post that
            # saw the flag still set is drained below; any later post sends a new byte.
            self._wake_pending = False
        else:
            try:
                if events & selectors.EVENT_READ:
                    self._read(what)
                if events & selectors.EVENT_WRITE and not what.closed:
                    self._flush(what)
            except Exception:  # one client's trouble must not end the server
                log.exception("client_error", client=what.id)
                self._close(what)

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            sock.setblocking(False)
            client = _Client(sock, next(self._ids))
            self._clients[client.id] = client
            self._selector.register(sock, selectors.EVENT_READ, client)
            log.debug("client_connected", client=client.id)

    def _read(self, client: _Client) -> None:
        try:
            data = client.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._close(client)
            return
        client.inbuf += data
        start = 0
        while (end := client.inbuf.find(b"\n", start)) >= 0 and not client.close_when_flushed:
            line = bytes(client.inbuf[start:end]).strip()
            start = end + 1
            if line:
                self._request(client, line)
        del client.inbuf[:start]
        if len(client.inbuf) > MAX_LINE:
            self._refuse(client, None, f"request line longer than {MAX_LINE} bytes")
            client.inbuf.clear()
            client.close_when_flushed = True
        self._flush(client)

    def _request(self, client: _Client, line: bytes) -> None:
        try:
            parsed = parse_request(line, self._commands)
        except BadRequest as error:
            self._refuse(client, request_id(line), str(error))
            return
        if parsed.cmd == "subscribe":
            if not client.subscribed:
                client.subscribed = True
                self._subscribed += 1
            self._queue(client, encode({"id": parsed.id, "ok": True, "subscribed": True}))
            return
        token = next(self._ids)
        self._pending[token] = (client.id, parsed.id)
        heapq.heappush(self._deadlines, (time.monotonic() + self._reply_timeout, token))
        request = Request(self, token, client.id, parsed.cmd, parsed.args)
        try:
            self._handle(request)
        except Exception as error:
            log.exception("handler_failed", command=parsed.cmd)
            request.fail(f"the daemon could not take the command: {error}")

    def _refuse(self, client: _Client, rid, error: str) -> None:
        self._queue(client, encode({"id": rid, "ok": False, "error": error}))

    def _drain_outbox(self) -> None:
        dirty: set[_Client] = set()
        while self._outbox:
            item = self._outbox.popleft()
            if item[0] == "event":
                for client in [c for c in self._clients.values() if c.subscribed]:
                    if self._queue(client, item[1], flush=False):
                        dirty.add(client)
            else:
                self._answer(item[1], item[2], dirty)
        for client in dirty:
            if not client.closed:
                self._flush(client)

    def _answer(self, token: int, body: dict, dirty: set) -> None:
        pending = self._pending.pop(token, None)
        if pending is None:
            log.info("reply_ignored", reason="already answered or timed out", token=token)
            return
        client = self._clients.get(pending[0])
        reply = {"id": pending[1], **{k: v for k, v in body.items() if k != "id"}}
        try:
            data = encode(reply)
        except (TypeError, ValueError) as error:  # a bug in the answer: the client still gets one
            log.error("answer_not_json", error=str(error), token=token)
            data = encode({"id": pending[1], "ok": False, "error": f"the daemon's answer could not be sent: {error}"})
        if client is not None and self._queue(client, data, flush=False):
            dirty.add(client)

    def _queue(self, client: _Client, data: bytes, flush: bool = True) -> bool:
        if client.closed:
            return False
        if len(client.outbuf) + len(data) > self._cap:
            log.warning("client_dropped", client=client.id, subscribed=client.subscribed,
                        reason=f"more than {self._cap} bytes waiting: it does not read fast enough")
            self._close(client)
            return False
        client.outbuf += data
        if flush:
            self._flush(client)
        return True

    def _flush(self, client: _Client) -> None:
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
        wanted = selectors.EVENT_READ | (selectors.EVENT_WRITE if client.outbuf else 0)
        if self._selector.get_key(client.sock).events != wanted:
            self._selector.modify(client.sock, wanted, client)

    def _close(self, client: _Client) -> None:
        if client.closed:
            return
        client.closed = True
        if client.subscribed:
            self._subscribed -= 1
        self._clients.pop(client.id, None)
        self._selector.unregister(client.sock)
        client.sock.close()
        log.debug("client_closed", client=client.id)

    def _next_timeout(self) -> float | None:
        if not self._deadlines:
            return None
        return max(0.0, self._deadlines[0][0] - time.monotonic())

    def _expire(self) -> None:
        now, dirty = time.monotonic(), set()
        while self._deadlines and self._deadlines[0][0] <= now:
            _, token = heapq.heappop(self._deadlines)
            if token in self._pending:
                log.warning("reply_timeout", token=token, seconds=self._reply_timeout)
                self._answer(token, {"ok": False, "error": f"the daemon did not answer within {self._reply_timeout:g} s"}, dirty)
        for client in dirty:
            if not client.closed:
                self._flush(client)

    def _shutdown(self) -> None:
        self._drain_outbox()  # what was published or answered before stop() still goes out
        for client in list(self._clients.values()):
            self._close(client)
        self._selector.close()
        for sock in (self._listener, self._wake_r, self._wake_w):
            sock.close()
        remove_if_ours(self.path, self._inode)
        log.info("stopped", path=self.path)
