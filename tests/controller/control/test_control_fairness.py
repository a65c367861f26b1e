"""No client can starve the reactor: a bounded number of requests read per turn, `status`
requests sharing the answer on its way (in each client's order), a client that does not read
its replies dropped, idle connections closed. Real ControlServer, real Unix sockets; the
daemon's loop is a handler on the reactor (answering later in the same turn, as the loop
does). The whole path under a flood, against the real daemon: tests/hil/test_hil_status_flood.py."""
import json
import socket

import pytest
from structlog.testing import capture_logs

from controller.control import ControlServer
from controller.control.server import REQUESTS_PER_WAKE, UNREAD_REPLIES_BYTES
from drivers.reactor import Reactor

WAIT = 30.0
pytestmark = pytest.mark.timeout(120)


def raw(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(WAIT)
    sock.connect(path)
    return sock, sock.makefile("rb")


def turns(reactor: Reactor, count: int) -> None:
    """Exactly `count` reactor turns (run_until checks its condition before each), none
    waiting long for an fd: a timer wakes each."""
    left = [count + 1]

    def done() -> bool:
        left[0] -= 1
        reactor.call_later(0.05, lambda now: None)
        return left[0] <= 0

    reactor.run_until(done, None)


class Handler:
    """The loop's stand-in on the reactor: answers each request later in the same turn
    (call_soon, as the daemon's loop takes its inbox), or holds them while `hold` is set."""

    def __init__(self, reactor: Reactor, body_bytes: int = 0) -> None:
        self.reactor, self.body = reactor, "x" * body_bytes
        self.seen: list = []
        self.hold = False
        self.held: list = []

    def __call__(self, request) -> None:
        self.seen.append((request.cmd, request.client_id))
        if self.hold:
            self.held.append(request)
        else:
            self.reactor.call_soon(lambda: self.answer(request))

    def answer(self, request) -> None:
        request.reply(built=len(self.seen), cmd=request.cmd, body=self.body)


@pytest.fixture
def reactor():
    with Reactor() as made:
        yield made


def test_at_most_requests_per_wake_of_a_clients_lines_are_read_in_one_turn(sock_path, reactor):
    handler = Handler(reactor)
    with ControlServer(sock_path, handler, reactor=reactor, reply_timeout_s=3600):
        sock, reader = raw(sock_path)
        sock.sendall(b"".join(b'{"id":%d,"cmd":"place_bets"}\n' % n for n in range(40)))
        turns(reactor, 2)  # the accept, then the first read
        assert len(handler.seen) == REQUESTS_PER_WAKE
        turns(reactor, 1)
        assert len(handler.seen) == 2 * REQUESTS_PER_WAKE
        reactor.run_until(lambda: len(handler.seen) == 40, WAIT)
        replies = [json.loads(reader.readline()) for _ in range(40)]
        assert [r["id"] for r in replies] == list(range(40)) and all(r["ok"] for r in replies)
        sock.close()


def test_status_requests_in_one_turn_share_one_answer_each_with_its_own_id(sock_path, reactor):
    handler = Handler(reactor)
    with ControlServer(sock_path, handler, reactor=reactor, reply_timeout_s=3600):
        sock, reader = raw(sock_path)
        sock.sendall(b"".join(b'{"id":%d,"cmd":"status"}\n' % n for n in range(64)))
        reactor.run_until(lambda: len(handler.seen) == 64 // REQUESTS_PER_WAKE, WAIT)  # answered in that turn
        replies = [json.loads(reader.readline()) for _ in range(64)]
        assert [r["id"] for r in replies] == list(range(64))
        assert len(handler.seen) == 64 // REQUESTS_PER_WAKE  # one status built per turn, not 64
        assert {r["built"] for r in replies[:REQUESTS_PER_WAKE]} == {1}
        assert all(r["ok"] and r["cmd"] == "status" for r in replies)
        sock.close()


def test_a_status_after_the_clients_own_command_is_not_answered_from_before_it(sock_path):
    """A status may join one already on its way only if the client sent nothing after that
    one: a command then status must see the command's effect."""
    with Reactor() as reactor:
        handler = Handler(reactor)
        handler.hold = True
        server = ControlServer(sock_path, handler, reactor=reactor, reply_timeout_s=3600).start()
        first, first_reader = raw(sock_path)
        joiner, joiner_reader = raw(sock_path)
        commander, commander_reader = raw(sock_path)
        first.sendall(b'{"id":"a","cmd":"status"}\n')
        reactor.run_until(lambda: len(handler.seen) == 1, WAIT)
        joiner.sendall(b'{"id":"b","cmd":"status"}\n')
        commander.sendall(b'{"id":"c1","cmd":"no_more_bets"}\n{"id":"c2","cmd":"status"}\n')
        reactor.run_until(lambda: len(handler.seen) == 3, WAIT)
        turns(reactor, 1)
        assert [cmd for cmd, _ in handler.seen] == ["status", "no_more_bets", "status"]  # b joined a; c2 did not
        for request in handler.held:
            handler.answer(request)
        turns(reactor, 1)
        a, b = json.loads(first_reader.readline()), json.loads(joiner_reader.readline())
        c1, c2 = json.loads(commander_reader.readline()), json.loads(commander_reader.readline())
        assert (a["id"], b["id"], c1["id"], c2["id"]) == ("a", "b", "c1", "c2")
        assert {k: v for k, v in a.items() if k != "id"} == {k: v for k, v in b.items() if k != "id"}
        assert c2["built"] == 3 and a["built"] == 3  # every one answered once the loop had seen all three
        for sock in (first, joiner, commander):
            sock.close()
        server.stop()


def test_a_client_that_sends_without_reading_its_replies_is_dropped_early(sock_path):
    """Replies of 8 KiB each: once the kernel's buffer and UNREAD_REPLIES_BYTES are full the
    next request drops the client, long before it has sent all of its requests."""
    with Reactor() as reactor:
        handler = Handler(reactor, body_bytes=8192)
        server = ControlServer(sock_path, handler, reactor=reactor, reply_timeout_s=3600).start()
        flooder = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_NONBLOCK)
        flooder.connect(sock_path)
        requests = b"".join(b'{"id":%d,"cmd":"place_bets"}\n' % n for n in range(20000))
        sent = 0
        with capture_logs() as logs:
            while not server.dropped["not_reading_replies"]:
                try:
                    sent += flooder.send(requests[sent:sent + 65536])
                except BlockingIOError:
                    pass
                except OSError:
                    break  # dropped
                turns(reactor, 1)
                assert sent < len(requests), "every request was sent and the client was never dropped"
        assert server.dropped == {"idle": 0, "not_reading_replies": 1, "too_far_behind": 0}
        assert len(handler.seen) < 2000  # the replies the kernel holds plus UNREAD_REPLIES_BYTES, not 20000
        assert len(handler.seen) * 8192 > UNREAD_REPLIES_BYTES
        [line] = [e for e in logs if e["event"] == "client_dropped"]
        assert "bytes of its replies wait unread" in line["reason"]
        assert server.to_json()["clients"] == 0
        flooder.close()
        server.stop()


def test_an_idle_connection_is_closed_with_a_line_and_a_follower_of_the_stream_is_not(sock_path):
    with Reactor() as reactor:
        handler = Handler(reactor)
        server = ControlServer(sock_path, handler, reactor=reactor, reply_timeout_s=3600, idle_timeout_s=1).start()
        idle, idle_reader = raw(sock_path)
        follower, follower_reader = raw(sock_path)
        follower.sendall(b'{"id":1,"cmd":"subscribe"}\n')
        with capture_logs() as logs:
            assert reactor.run_until(lambda: server.dropped["idle"] == 1, WAIT)
        assert json.loads(idle_reader.readline()) == {"id": None, "ok": False, "error": (
            "closed: no request for 1 s (control.idle_timeout_s); connect again to go on")}
        assert idle_reader.readline() == b""  # closed
        assert [e["event"] for e in logs if e["event"] == "client_idle_closed"] == ["client_idle_closed"]
        assert json.loads(follower_reader.readline())["subscribed"] is True
        server.publish({"event": "card", "card": "AS"})
        turns(reactor, 1)
        assert json.loads(follower_reader.readline()) == {"event": "card", "card": "AS"}
        assert server.to_json()["clients"] == 1 and server.to_json()["dropped"]["idle"] == 1
        idle.close()
        follower.close()
        server.stop()


def test_a_connection_that_keeps_asking_is_not_idle(sock_path):
    with Reactor() as reactor:
        handler = Handler(reactor)
        server = ControlServer(sock_path, handler, reactor=reactor, reply_timeout_s=3600, idle_timeout_s=1).start()
        idle, _ = raw(sock_path)
        busy, busy_reader = raw(sock_path)
        for n in range(3):  # a request every ~0.5 s: always within the timeout
            busy.sendall(b'{"id":%d,"cmd":"status"}\n' % n)
            reactor.run_until(lambda: False, 0.5)
            assert json.loads(busy_reader.readline())["id"] == n
        assert server.dropped["idle"] == 1 and server.to_json()["clients"] == 1  # the other one went
        idle.close()
        busy.close()
        server.stop()
