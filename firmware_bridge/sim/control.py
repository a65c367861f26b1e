"""Where simulator commands come from: a Unix socket of JSON lines, and text lines on stdin.

Both hand complete lines to the device through a callback and send its reply back
(to the socket client, or to stdout for stdin). Everything runs in the device's one
selector loop; nothing here blocks.
"""
from __future__ import annotations

import os
import selectors
import socket
import sys
from collections.abc import Callable
from typing import BinaryIO

# A complete line and how to answer it (the reply is one encoded JSON line).
LineHandler = Callable[[str, Callable[[bytes], None]], None]


class ControlServer:
    """JSON lines over a Unix stream socket; any number of clients, one reply per line."""

    def __init__(self, path: str, selector: selectors.BaseSelector, on_line: LineHandler):
        self.path = os.path.abspath(path)
        self._selector = selector
        self._on_line = on_line
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        if os.path.exists(self.path):
            os.unlink(self.path)  # a stale socket from a killed simulator
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(self.path)
        self._inode = os.stat(self.path).st_ino  # unlink only our own socket at close
        self._listener.listen(8)
        self._listener.setblocking(False)
        selector.register(self._listener, selectors.EVENT_READ, self._accept)
        self._clients: dict[socket.socket, bytearray] = {}

    def _accept(self) -> None:
        client, _ = self._listener.accept()
        client.setblocking(False)
        self._clients[client] = bytearray()
        self._selector.register(client, selectors.EVENT_READ, lambda: self._read(client))

    def _read(self, client: socket.socket) -> None:
        try:
            data = client.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._drop(client)
            return
        buf = self._clients[client]
        buf += data
        while b"\n" in buf:
            line, _, rest = bytes(buf).partition(b"\n")
            buf[:] = rest
            self._on_line(line.decode("utf-8", errors="replace"), lambda reply: self._send(client, reply))

    def _send(self, client: socket.socket, data: bytes) -> None:
        try:
            client.setblocking(True)
            client.sendall(data)
            client.setblocking(False)
        except OSError:
            self._drop(client)

    def _drop(self, client: socket.socket) -> None:
        if client in self._clients:
            del self._clients[client]
            self._selector.unregister(client)
            client.close()

    def close(self) -> None:
        for client in list(self._clients):
            self._drop(client)
        self._selector.unregister(self._listener)
        self._listener.close()
        try:
            if os.stat(self.path).st_ino == self._inode:
                os.unlink(self.path)
        except FileNotFoundError:
            pass


class StdinScript:
    """Text command lines from stdin, held back while the script sleeps or waits."""

    def __init__(self, selector: selectors.BaseSelector, stream: BinaryIO | None = None):
        self._stream = stream or sys.stdin.buffer
        self._fd = self._stream.fileno()
        self._selector = selector
        self._buf = bytearray()
        self.lines: list[str] = []  # complete lines not yet run
        self.eof = False
        os.set_blocking(self._fd, False)
        selector.register(self._fd, selectors.EVENT_READ, self._read)

    def _read(self) -> None:
        try:
            data = os.read(self._fd, 65536)
        except BlockingIOError:
            return
        if not data:
            self.eof = True
            self._selector.unregister(self._fd)
            if self._buf:
                self.lines.append(self._buf.decode("utf-8", errors="replace"))
                self._buf.clear()
            return
        self._buf += data
        while b"\n" in self._buf:
            line, _, rest = bytes(self._buf).partition(b"\n")
            self._buf[:] = rest
            self.lines.append(line.decode("utf-8", errors="replace"))

    def close(self) -> None:
        if not self.eof:
            self._selector.unregister(self._fd)
            self.eof = True
