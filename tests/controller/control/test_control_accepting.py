"""Taking clients off the listener: the cap's refusal line, a listener that breaks (reported,
never fatal to the reactor), and the socket file the daemon's watchdog checks. Real Unix
sockets throughout; running out of descriptors is shown against the real daemon process
with a lowered RLIMIT_NOFILE (tests/hil/test_hil_socket_flood.py)."""
import json
import os
import socket
import time

import pytest

from controller.control import ControlClient, ControlError, ControlServer
from controller.control.accepting import Acceptor
from drivers.reactor import Reactor


def raw(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(30)
    sock.connect(path)
    return sock


def served_soon(path, wait=30.0) -> bool:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            with ControlClient(path, timeout=wait) as client:
                return client.request("status")["ok"]
        except ControlError:
            time.sleep(0.01)
    return False


def test_a_client_beyond_the_cap_gets_one_line_and_is_closed(sock_path, loop):
    with ControlServer(sock_path, loop.post, max_clients=3, reply_timeout_s=3600) as server:
        kept = [ControlClient(sock_path, timeout=30) for _ in range(3)]
        assert all(client.request("status")["ok"] for client in kept)  # each served: all three are connected
        extra = raw(sock_path)
        line = extra.makefile("rb").readline()
        assert json.loads(line) == {"id": None, "ok": False, "error": (
            "too many clients: the daemon serves at most 3 at once (control.max_clients); "
            "try again when one has disconnected")}
        assert extra.recv(1) == b""  # and closed
        extra.close()
        with pytest.raises(ControlError, match="refused the connection: too many clients"):
            ControlClient(sock_path, timeout=30).request("status")
        kept.pop().close()
        assert served_soon(sock_path)  # one left: once the server has seen it go, there is room again
        info = server._on_reactor(server.to_json)
        assert info["accepting"] == "yes" and info["max_clients"] == 3 and info["refused"]["max_clients"] >= 2
        for client in kept:
            client.close()


def test_a_broken_listener_is_reported_and_the_reactor_goes_on():
    """A socket that is not listening is always readable and accept() fails with EINVAL: the
    stand-in for a listener broken in a way nobody planned for."""
    with Reactor() as reactor:
        broken = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        broken.setblocking(False)
        acceptor = Acceptor(reactor, broken, lambda sock: pytest.fail("no client can come"), max_clients=4,
                            clients=lambda: 0)
        assert acceptor.problem() is None
        assert reactor.run_until(lambda: acceptor.problem() is not None, 5.0)
        assert acceptor.problem() == "the control socket's listener failed: accept(): [Errno 22] Invalid argument"
        assert broken.fileno() == -1  # closed: no busy loop on an fd that stays readable
        ticks = []
        reactor.call_later(0.01, ticks.append)
        assert reactor.run_until(lambda: ticks, 5.0)  # the reactor still turns


def test_the_socket_file_gone_or_replaced_is_a_problem(sock_dir, loop):
    path = f"{sock_dir}/control.sock"
    with ControlServer(path, loop.post) as server:
        assert server._on_reactor(server.problem) is None
        os.unlink(path)
        assert server._on_reactor(server.problem) == f"the control socket file {path} is gone (No such file or directory)"
        other = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        other.bind(path)  # another process's socket at the path
        try:
            assert server._on_reactor(server.problem) == f"the control socket file {path} was replaced by another"
        finally:
            other.close()
            os.unlink(path)
    assert server.problem() == "the control socket is closed"


def test_the_backlog_takes_a_burst_of_a_hundred_before_any_accept(sock_dir, loop):
    server = ControlServer(f"{sock_dir}/c.sock", loop.post, reactor=Reactor())
    server.start()  # on a reactor nobody turns: nothing is accepted
    socks = [socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_NONBLOCK) for _ in range(100)]
    try:
        assert [s.connect_ex(server.path) for s in socks] == [0] * 100
    finally:
        for s in socks:
            s.close()
        server.stop()
        server.reactor.close()
