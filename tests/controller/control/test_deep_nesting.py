"""A request nested deeper than the JSON reader recurses (50,000 `[`) gets a clear error
reply, through parse_request and through a real ControlServer, and the connection and the
server go on serving."""
import json
import socket

import pytest

from controller.control import ControlClient, parse_request
from controller.control.protocol import MAX_LINE, BadRequest, request_id

DEEP = b"[" * 50_000  # under MAX_LINE: it reaches the JSON reader
DEEP_IN_AN_OBJECT = b'{"id": 4, "cmd": "spots", "spots": ' + b"[" * 50_000 + b"}"


@pytest.mark.parametrize("line", [DEEP, DEEP_IN_AN_OBJECT, b'{"a":' * 12_000])
def test_parse_request_refuses_deep_nesting_with_a_clear_error(line):
    assert len(line) < MAX_LINE
    with pytest.raises(BadRequest, match=r"^bad JSON: nested too deeply \(a request is one object of plain fields\)$"):
        parse_request(line)
    assert request_id(line) is None


def test_a_real_server_answers_a_deeply_nested_request_and_keeps_serving(server, sock_path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(30)
    sock.connect(sock_path)
    reader = sock.makefile("rb")
    try:
        for line in (DEEP, DEEP_IN_AN_OBJECT):
            sock.sendall(line + b"\n")
            reply = json.loads(reader.readline())
            assert reply == {"id": None, "ok": False,
                             "error": "bad JSON: nested too deeply (a request is one object of plain fields)"}
        sock.sendall(b'{"id": 5, "cmd": "status"}\n')  # the same connection still works
        assert json.loads(reader.readline())["id"] == 5
    finally:
        reader.close()
        sock.close()
    with ControlClient(sock_path) as client:  # and so does the server
        assert client.request("status")["ok"]
