"""ControlClient's errors, against real sockets that misbehave in each way (a reply too long or
too deep is refused before it is parsed)."""
import socket
import threading

import pytest

from controller.control import ControlClient, ControlError, parse_request
from controller.control.client import REPLY_BYTES
from controller.control.protocol import BadRequest


def test_no_socket_file(sock_dir):
    with pytest.raises(ControlError, match=f"^no control socket at {sock_dir}/none.sock \\(is the daemon running\\?\\)$"):
        ControlClient(f"{sock_dir}/none.sock")


def test_a_socket_file_nobody_listens_on(sock_dir):
    path = f"{sock_dir}/dead.sock"
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(path)
    dead.close()
    with pytest.raises(ControlError, match=f"^nothing is listening on {path} \\(the daemon is not running\\)$"):
        ControlClient(path)


def _listener(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    sock.listen(1)
    return sock


def test_a_daemon_that_never_answers(sock_dir):
    path = f"{sock_dir}/mute.sock"
    with _listener(path), ControlClient(path, timeout=0.05) as client:
        with pytest.raises(ControlError, match=f"^no answer from the daemon on {path} within 0.05 s$"):
            client.request("status")


def test_a_daemon_that_hangs_up_or_talks_nonsense(sock_dir):
    path = f"{sock_dir}/rude.sock"
    with _listener(path) as listener:
        def serve(reply: bytes):
            conn, _ = listener.accept()
            with conn:
                conn.recv(1024)
                conn.sendall(reply)

        for reply, message in ((b"", f"the daemon closed {path} before answering 'status'"),
                               (b"<html>\n", "the daemon sent a line that is not JSON"),
                               (b"[" * 50_000 + b"\n", "the daemon sent a line that is not JSON within bounds: nested deeper"),
                               (b"[1]\n", "the daemon sent a line that is not a JSON object"),
                               (b"x" * (REPLY_BYTES + 70_000), f"the daemon sent a line longer than {REPLY_BYTES} bytes")):
            thread = threading.Thread(target=serve, args=(reply,))
            thread.start()
            with ControlClient(path, timeout=30) as client, pytest.raises(ControlError, match=message):
                client.request("status")
            thread.join()


def test_parse_request_gives_typed_commands():
    parsed = parse_request(b'{"id": "x", "cmd": "spots", "spots": [1, 3]}')
    assert (parsed.id, parsed.cmd, parsed.args) == ("x", "spots", {"spots": [1, 3]})
    with pytest.raises(BadRequest, match="select_spot: missing field 'spot' \\(an integer\\)"):
        parse_request(b'{"cmd": "select_spot"}')


def test_the_socket_takes_exactly_the_tables_commands():
    """One vocabulary: what the socket validates is what controller/table handles."""
    from controller.control import COMMANDS
    from controller.control.protocol import DAEMON_COMMANDS
    from controller.table.inputs import COMMANDS as TABLE_COMMANDS

    assert set(COMMANDS) == set(TABLE_COMMANDS) | {"subscribe"} | DAEMON_COMMANDS
