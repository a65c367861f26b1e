"""ControlServer on real Unix sockets with real threads: the socket file, request/reply
through the loop thread, specific errors, many clients, the event stream, slow subscribers,
timeouts, and shutdown."""
import json
import os
import socket
import stat
import threading
import time

import pytest
from structlog.testing import capture_logs

from controller.control import ControlClient, ControlError, ControlServer


def raw(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(30)
    sock.connect(path)
    return sock, sock.makefile("rb")


def exchange(sock, reader, line: bytes) -> dict:
    sock.sendall(line)
    return json.loads(reader.readline())


def test_the_socket_file_has_mode_0660_and_goes_away_on_stop(sock_path, loop):
    with ControlServer(sock_path, loop.post):
        mode = os.stat(sock_path).st_mode
        assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o660
        assert sorted(os.listdir(os.path.dirname(sock_path))) == ["control.sock"]  # nothing left aside
    assert not os.path.exists(sock_path)


def test_the_mode_is_configurable_and_missing_directories_are_made(sock_dir, loop):
    path = f"{sock_dir}/run/c.sock"
    with ControlServer(path, loop.post, mode=0o600):
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_live_daemons_socket_is_not_stolen(server, sock_path, loop):
    with pytest.raises(ControlError, match=f"another daemon is listening on {sock_path}"):
        ControlServer(sock_path, loop.post).start()
    with ControlClient(sock_path) as client:  # the first one still serves
        assert client.request("status")["ok"]


def test_a_stale_socket_is_replaced_and_a_regular_file_is_not(sock_dir, loop):
    stale = f"{sock_dir}/stale.sock"
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(stale)
    dead.close()  # the file stays, nobody listens: a crashed daemon's leftover
    with ControlServer(stale, loop.post), ControlClient(stale) as client:
        assert client.request("status")["state"] == "betting"
    regular = f"{sock_dir}/notes.txt"
    open(regular, "w").close()
    with pytest.raises(ControlError, match=f"{regular} exists and is not a socket; not replacing it"):
        ControlServer(regular, loop.post).start()


def test_commands_are_handled_on_the_loop_thread_and_answered_by_id(server, sock_path, loop):
    with ControlClient(sock_path) as client:
        status = client.request("status")
        assert status == {"id": 1, "ok": True, "state": "betting", "round": 12, "thread": "fake-loop"}
        assert client.request("void", reason="shoe door opened") == {"id": 2, "ok": True, "accepted": "void"}
        assert client.request("void", reason="refuse") == {
            "id": 3, "ok": False, "error": "the supervisor key is off (void needs it)"}
    assert loop.received[1] == ("void", {"reason": "shoe door opened"})


BAD_LINES = [
    (b"not json\n", None, "bad JSON: Expecting value: line 1 column 1 (char 0)"),
    (b"[1, 2]\n", None, "a request must be a JSON object, got list"),
    (b'{"id": 7}\n', 7, "missing field 'cmd'"),
    (b'{"id": [7], "cmd": "status"}\n', None, "'id' must be an integer or a string, got [7]"),
    (b'{"id": 8, "cmd": "dance"}\n', 8, "unknown command 'dance' (one of status, subscribe, place_bets, spots, "
                                        "select_spot, no_more_bets, decide, confirm, void, reconstruct, misdeal, "
                                        "new_shoe, accept_shoe, player_dealer, wagers, chips_import, chips_retire, chips, accept_payouts, "
                                        "shift, new_chain)"),
    (b'{"id": 9, "cmd": "select_spot"}\n', 9, "select_spot: missing field 'spot' (an integer)"),
    (b'{"id": "a", "cmd": "decide", "spot": "3", "decision": "play"}\n', "a", "decide: field 'spot' must be an integer, got '3'"),
    (b'{"id": 10, "cmd": "confirm", "force": true}\n', 10, "confirm: unknown field 'force' (fields: none)"),
    (b'{"id": 11, "cmd": "spots", "spots": [1, "3"]}\n', 11, "spots: field 'spots' must be a list of integers, got [1, '3']"),
    (b'\xff\xfe{"cmd": "status"}\n', None, "not UTF-8: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"),
]


def test_bad_requests_get_specific_errors_and_the_connection_keeps_working(server, sock_path, loop):
    sock, reader = raw(sock_path)
    with sock, reader:
        for line, rid, error in BAD_LINES:
            assert exchange(sock, reader, line) == {"id": rid, "ok": False, "error": error}
        assert exchange(sock, reader, b'{"id": 12, "cmd": "status"}\n')["ok"] is True
    assert [cmd for cmd, _ in loop.received] == ["status"]  # nothing bad reached the loop


def test_requests_may_arrive_byte_by_byte_or_several_in_one_write(server, sock_path):
    sock, reader = raw(sock_path)
    with sock, reader:
        for byte in b'{"id": 1, "cmd": "status"}\n':
            sock.send(bytes([byte]))
        assert json.loads(reader.readline())["id"] == 1
        sock.sendall(b'{"id": 2, "cmd": "confirm"}\n\n{"id": 3, "cmd": "new_shoe"}\r\n{"id": 4, "cmd": "status"}\n')
        assert [json.loads(reader.readline())["id"] for _ in range(3)] == [2, 3, 4]


def test_many_clients_at_once_each_get_their_own_replies(server, sock_path):
    failures = []

    def client_thread(k):
        try:
            with ControlClient(sock_path, timeout=30) as client:
                for i in range(40):
                    reply = client.request("decide", spot=k, decision=f"play-{i}")
                    assert reply == {"id": i + 1, "ok": True, "accepted": "decide"}
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=client_thread, args=(k,)) for k in range(1, 7)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def subscribed(path):
    client = ControlClient(path, timeout=30)
    client.subscribe()  # returns once the server counts it as a subscriber
    return client


def collect(client, count, into):
    """Read `count` events on a thread of its own (a watcher)."""
    def run():
        for _, event in zip(range(count), client.events()):
            into.append(event)
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_every_subscriber_gets_every_event_in_order(server, sock_path, loop):
    clients = [subscribed(sock_path) for _ in range(3)]
    got = [[] for _ in clients]
    readers = [collect(client, 500, into) for client, into in zip(clients, got)]
    loop.run_in_loop(lambda: [server.publish({"event": "card", "n": n}) for n in range(500)])
    for reader in readers:
        reader.join()
    for client in clients:
        client.close()
    assert all([event["n"] for event in events] == list(range(500)) for events in got)


def test_events_and_replies_share_a_subscribed_connection(server, sock_path, loop):
    with subscribed(sock_path) as client:
        loop.run_in_loop(lambda: server.publish({"event": "state", "state": "dealing"}))
        assert client.request("status")["state"] == "betting"  # the event read meanwhile is kept
        assert next(client.events()) == {"event": "state", "state": "dealing"}


def test_a_slow_subscriber_is_dropped_and_never_stalls_the_loop(sock_path, loop):
    """The stalled watcher never reads. Publishing goes on in batches, each read in full by
    a live watcher, until the stalled one has been dropped."""
    payload = "x" * 200
    with capture_logs() as logs, ControlServer(sock_path, loop.post, client_buffer_bytes=65536) as server:
        stalled = subscribed(sock_path)
        live = subscribed(sock_path)
        received, sent = [], 0
        stream = live.events()
        while not any(entry["event"] == "client_dropped" for entry in list(logs)):
            assert sent < 200_000, "the stalled client was never dropped"
            loop.run_in_loop(lambda start=sent: [server.publish({"event": "card", "n": n, "pad": payload})
                                                 for n in range(start, start + 100)])
            sent += 100
            received += [event["n"] for _, event in zip(range(100), stream)]
        assert received == list(range(sent))  # the live watcher lost nothing
        stalled_got = [event["n"] for event in stalled.events()]  # what the kernel still held, then EOF
        assert stalled_got == list(range(len(stalled_got))) and len(stalled_got) < sent
        dropped = [entry for entry in logs if entry["event"] == "client_dropped"]
        assert len(dropped) == 1 and dropped[0]["subscribed"] is True and "65536 bytes waiting" in dropped[0]["reason"]
        assert dropped[0]["log_level"] == "warning" and server.subscribers == 1
        live.close()
        stalled.close()


def test_no_answer_in_time_is_an_error_reply_and_a_late_answer_is_dropped(sock_path, loop):
    loop.silent.add("new_shoe")
    with ControlServer(sock_path, loop.post, reply_timeout_s=0.05), ControlClient(sock_path, timeout=30) as client:
        assert client.request("new_shoe") == {"id": 1, "ok": False, "error": "the daemon did not answer within 0.05 s"}
        loop.run_in_loop(lambda: loop.held[0].reply(late=True))
        assert client.request("status")["id"] == 2  # the next line is its reply, not the late one


def test_a_second_answer_is_ignored(server, sock_path, loop):
    loop.silent.add("confirm")
    with ControlClient(sock_path) as client:
        client._send({"id": 99, "cmd": "confirm"})
        loop.wait_held(1)
        loop.run_in_loop(lambda: (loop.held[0].reply(n=1), loop.held[0].reply(n=2)))
        assert client._read_line() == {"id": 99, "ok": True, "n": 1}
        assert client.request("status")["id"] == 1  # the next line is its reply, not a second answer


def test_a_handler_that_raises_gets_an_error_reply(sock_path):
    def broken(request):
        raise RuntimeError("inbox closed")

    with capture_logs() as logs, ControlServer(sock_path, broken), ControlClient(sock_path) as client:
        assert client.request("confirm") == {"id": 1, "ok": False, "error": "the daemon could not take the command: inbox closed"}
        assert client.request("confirm")["id"] == 2
    assert [entry["event"] for entry in logs].count("handler_failed") == 2


def test_a_client_that_leaves_before_its_answer_does_no_harm(server, sock_path, loop):
    loop.silent.add("confirm")
    gone = ControlClient(sock_path)
    gone._send({"id": 1, "cmd": "confirm"})
    loop.wait_held(1)
    gone.close()
    loop.run_in_loop(lambda: loop.held[0].reply())
    with ControlClient(sock_path) as client:
        assert client.request("status")["ok"]


def test_an_overlong_line_is_refused_and_the_connection_closed(server, sock_path):
    sock, reader = raw(sock_path)
    with sock, reader:
        try:
            sock.sendall(b'{"cmd": "void", "reason": "' + b"x" * 70000)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may close before we finish writing
        assert json.loads(reader.readline()) == {"id": None, "ok": False, "error": "request line longer than 65536 bytes"}
        assert reader.readline() == b""
    with ControlClient(sock_path) as client:
        assert client.request("status")["ok"]


def test_stop_ends_every_connection_and_the_event_streams(sock_path, loop):
    server = ControlServer(sock_path, loop.post).start()
    watcher = subscribed(sock_path)
    other = ControlClient(sock_path)
    got = []
    reader = collect(watcher, 10, got)
    loop.run_in_loop(lambda: server.publish({"event": "last"}))
    server.stop()
    reader.join()
    assert got == [{"event": "last"}]
    with pytest.raises(ControlError, match="closed"):
        other.request("status")
    watcher.close()
    other.close()
    server.publish({"event": "after stop"})  # a no-op, not an error


def test_publish_refuses_what_is_not_json(server):
    with pytest.raises(TypeError):
        server.publish({"event": "card", "card": object()})


def test_the_count_follows_subscribers_that_come_and_go(server, sock_path, loop):
    first, second = ControlClient(sock_path, timeout=30), ControlClient(sock_path, timeout=30)
    first.subscribe()
    second.subscribe()
    assert second.request("subscribe")["subscribed"]  # asked twice on one connection: still one subscriber
    assert server.subscribers == 2
    second.close()
    _until(lambda: server.subscribers == 1, "the closed subscriber is no longer counted")
    loop.run_in_loop(lambda: server.publish({"event": "still", "n": 2}))
    assert next(first.events()) == {"event": "still", "n": 2}
    first.close()
    _until(lambda: server.subscribers == 0, "no subscriber left")
    loop.run_in_loop(lambda: server.publish({"event": "unheard"}))
    with pytest.raises(TypeError):  # checked although nobody follows the stream
        server.publish({"event": "card", "card": object()})


def test_an_answer_that_is_not_json_still_answers_and_the_rest_goes_out(server, sock_path, loop):
    """A bug in an answer does not reach the loop: the client gets an error naming it, and
    the events after it still go out."""
    loop.silent.add("confirm")
    asker, watcher = ControlClient(sock_path, timeout=30), ControlClient(sock_path, timeout=30)
    watcher.subscribe()
    answer = {}
    asking = threading.Thread(target=lambda: answer.update(asker.request("confirm")))
    asking.start()
    try:
        loop.wait_held(1)
        loop.run_in_loop(lambda: (loop.held[0].reply(state=object()), server.publish({"event": "after"})))
        asking.join(30)
        assert answer["ok"] is False and "answer could not be sent" in answer["error"]
        assert "not JSON serializable" in answer["error"]
        assert next(watcher.events()) == {"event": "after"}
    finally:
        asker.close()
        watcher.close()


def _until(condition, what: str) -> None:
    deadline = time.monotonic() + 30
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"never happened: {what}")
        time.sleep(0.005)
