"""The control socket under a connection flood, against the real daemon process.

Over a thousand idle connections are opened at once. With the daemon's RLIMIT_NOFILE
lowered (prlimit, as LimitNOFILE= would) its accept() runs out of descriptors: it pauses
accepting on a timer, tells each waiting client why with a line of its own, keeps serving
the clients already connected, and deals on. With a cap below the limit (control.max_clients)
every client beyond it gets the cap's line. Once the flood closes, new clients are served."""
from __future__ import annotations

import errno
import json
import socket

import pytest

from controller.control import ControlClient, ControlError

pytestmark = pytest.mark.hil
WAIT = 20.0  # guards against hanging, never a measure of speed
FLOOD = 1200


class Flood:
    """`count` idle connections opened as fast as the kernel takes them (non-blocking: a
    connect the backlog cannot take fails with EAGAIN and is not kept)."""

    def __init__(self, path: str, count: int) -> None:
        self.socks: list[socket.socket] = []
        self.turned_away = 0  # not connected
        self.lines: list[dict] = []
        self.closed: set[int] = set()
        for _ in range(count):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_NONBLOCK)
            try:
                sock.connect(path)
            except OSError:  # the backlog is full (EAGAIN), or nobody listens any more
                sock.close()
                self.turned_away += 1
                continue
            self.socks.append(sock)

    def answers(self) -> tuple[list[dict], int]:
        """Every line the daemon has sent the flood so far, and how many connections it closed."""
        for n, sock in enumerate(self.socks):
            if n in self.closed:
                continue
            try:
                data = sock.recv(4096)
            except BlockingIOError:
                continue
            except ConnectionResetError:
                data = b""
            if not data:
                self.closed.add(n)
            self.lines += [json.loads(line) for line in data.splitlines() if line]
        return self.lines, len(self.closed)

    def close(self) -> None:
        for sock in self.socks:
            sock.close()


def new_client_status(path: str) -> dict:
    with ControlClient(path, timeout=WAIT) as client:
        return client.request("status")


def served_again(rig) -> bool:
    try:
        return new_client_status(rig.socket_path)["ok"]
    except ControlError:
        return False


@pytest.fixture
def floods():
    made: list[Flood] = []

    def flood(path: str, count: int = FLOOD) -> Flood:
        made.append(Flood(path, count))
        return made[-1]

    yield flood
    for f in made:
        f.close()


def test_out_of_descriptors_the_daemon_pauses_accepting_refuses_clearly_and_deals_on(start_rig, floods):
    rig = start_rig("fortune6", seed=5, nofile=64)
    pid = rig.daemon.pid
    rig.new_shoe()
    flood = floods(rig.socket_path)
    assert len(flood.socks) > 64, (flood.turned_away, rig.daemon.output())

    def refused() -> bool:
        lines, _ = flood.answers()
        return any("file descriptor" in line.get("error", "") for line in lines)

    rig.wait_until(refused, WAIT, "the flood to be told the daemon is out of file descriptors")
    status = rig.status()  # the rig's own connection, made before the flood, is still served
    assert status["ok"] and status["daemon"]["control"]["accepting"] == "paused: out of file descriptors"
    with pytest.raises(ControlError, match="file descriptor"):
        new_client_status(rig.socket_path)
    result = rig.play_round()  # the table deals on
    assert result["event"] == "result"
    assert rig.daemon.child.running and rig.daemon.pid == pid

    flood.close()
    rig.wait_until(lambda: served_again(rig), WAIT, "a new client to be served once the flood closed")
    assert rig.status()["daemon"]["control"]["accepting"] == "yes"
    assert rig.verify().ok


def test_beyond_the_cap_each_client_is_refused_with_the_caps_line(start_rig, floods):
    rig = start_rig("fortune6", seed=6, config={"control": {"max_clients": 16}})
    rig.new_shoe()
    flood = floods(rig.socket_path)
    cap_line = "too many clients: the daemon serves at most 16 at once (control.max_clients)"

    def all_answered() -> bool:
        lines, closed = flood.answers()
        return closed >= len(flood.socks) - 16

    rig.wait_until(all_answered, WAIT, "every client beyond the cap to be refused")
    lines, _ = flood.answers()
    assert lines and all(cap_line in line["error"] and line["ok"] is False for line in lines)
    with pytest.raises(ControlError, match="too many clients"):
        new_client_status(rig.socket_path)
    assert rig.status()["daemon"]["control"]["clients"] == 16  # the rig's two and 14 of the flood
    assert rig.play_round()["event"] == "result"

    flood.close()
    rig.wait_until(lambda: served_again(rig), WAIT, "a new client to be served once the flood closed")
    assert rig.verify().ok


def test_the_listen_backlog_takes_a_burst_of_a_hundred(start_rig):
    """The daemon is stopped (SIGSTOP) so nothing is accepted: every connect of the burst
    must still find room in the listen backlog (it was 16)."""
    rig = start_rig("fortune6", seed=7)
    rig.daemon.child.signal(19)  # SIGSTOP
    try:
        socks = []
        for _ in range(100):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_NONBLOCK)
            socks.append(sock)
            err = sock.connect_ex(rig.socket_path)
            assert err == 0, (len(socks), errno.errorcode.get(err))
    finally:
        rig.daemon.child.signal(18)  # SIGCONT
        for sock in socks:
            sock.close()
    rig.wait_until(lambda: served_again(rig), WAIT, "the daemon to serve after the burst")
