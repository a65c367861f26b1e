"""`tablectl chips import | list | retire`: the CSV checked line by line, then sent as the
contract's `chips_import` / `chips` / `chips_retire` requests in batches that fit the control
socket's line bound.

The daemon answers those commands only with the table's chip registry (built elsewhere), so
these tests talk to a small stand-in daemon instead: a real Unix socket server in a thread,
speaking the control protocol (JSON lines, one reply per request, its id echoed), refusing
any line longer than the real server's MAX_LINE as the real one does. It records every
request so the batches can be checked whole."""
from __future__ import annotations

import json
import socket
import threading
from pathlib import Path

import pytest

from cli import main
from cli.chips import MAX_FILE_BYTES, batches
from controller.control.protocol import MAX_LINE, encode
from controller.table.chip_registry import MAX_ROWS


class FakeDaemon:
    def __init__(self, path: Path, refuse_at: int | None = None, registry: list[dict] | None = None):
        self.path, self.refuse_at, self.registry = str(path), refuse_at, registry or []
        self.requests: list[dict] = []
        self.lines: list[int] = []  # each request line's length, newline included
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        self.server.listen()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn:
                buf = b""
                while data := conn.recv(65536):
                    buf += data
                    while b"\n" in buf:
                        line, _, buf = buf.partition(b"\n")
                        self.lines.append(len(line) + 1)
                        if len(line) + 1 > MAX_LINE:
                            conn.sendall(encode({"id": None, "ok": False, "error": f"longer than {MAX_LINE}"}))
                            return
                        conn.sendall(encode(self._answer(json.loads(line))))

    def _answer(self, request: dict) -> dict:
        self.requests.append(request)
        if self.refuse_at is not None and len(self.requests) == self.refuse_at:
            return {"id": request["id"], "ok": False, "error": "the key must be on"}
        if request["cmd"] == "chips":
            chips = [c for c in self.registry if request.get("uid") in (None, c["uid"])]
            return {"id": request["id"], "ok": True, "message": "ok", "chips": chips}
        return {"id": request["id"], "ok": True, "message": "ok"}

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def daemon(tmp_path):
    started: list[FakeDaemon] = []

    def start(**options) -> FakeDaemon:
        fake = FakeDaemon(tmp_path / f"control{len(started)}.sock", **options)
        started.append(fake)
        return fake

    yield start
    for fake in started:
        fake.close()


def run(capsys, *argv):
    code = main(["chips", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def registry_file(tmp_path, rows, header="uid,value,set") -> str:
    path = tmp_path / "chips.csv"
    path.write_text("\n".join([header, *rows]) + "\n")
    return str(path)


def test_a_registry_goes_in_batches_that_fit_the_line_and_nothing_is_left_out(tmp_path, capsys, daemon):
    rows = [f"047B{n:010X},{[25, 5, 100, 2.5][n % 4]},Lotus {n % 3}" for n in range(6000)]
    fake = daemon()
    code, out, err = run(capsys, "import", registry_file(tmp_path, rows), "--socket", fake.path)
    assert code == 0, err
    sent = [row for request in fake.requests for row in request["chips"]]
    assert [request["cmd"] for request in fake.requests] == ["chips_import"] * len(fake.requests)
    assert len(fake.requests) > 1 and max(fake.lines) <= MAX_LINE  # several lines, none too long
    assert max(len(request["chips"]) for request in fake.requests) == MAX_ROWS  # no more than the table takes at once
    assert sent == [f"047b{n:010x},{['25', '5', '100', '2.5'][n % 4]},Lotus {n % 3}" for n in range(6000)]
    assert out == f"imported 6000 chips in {len(fake.requests)} requests\n"
    assert max(len(request["chips"]) for request in fake.requests) <= MAX_ROWS  # the most the table takes at once


def test_short_rows_go_at_most_as_many_a_batch_as_the_table_takes():
    items = [f"{n:08x},1,a" for n in range(2 * MAX_ROWS + 1)]
    assert [len(batch) for batch in batches("chips_import", "chips", items)] == [MAX_ROWS, MAX_ROWS, 1]


def test_batches_fill_each_line_as_far_as_it_goes():
    items = [f"{n:020x},1000000,{'x' * 40}" for n in range(3000)]
    lines = [len(encode({"id": 10**9, "cmd": "chips_import", "chips": batch})) for batch in batches("chips_import", "chips", items)]
    assert max(lines) <= MAX_LINE and min(lines[:-1]) > MAX_LINE - 80  # one row more would not have fit
    assert [row for batch in batches("chips_import", "chips", items) for row in batch] == items
    assert list(batches("chips_import", "chips", ["a"], max_line=200)) == [["a"]]
    assert [len(b) for b in batches("chips_import", "chips", ["a"] * 5, max_rows=2)] == [2, 2, 1]


def test_every_bad_line_is_named_and_nothing_is_sent(tmp_path, capsys, daemon):
    rows = ["047b0000000001,25,Lotus", "zz7b0000000002,25,Lotus", "047b0000000003,-5,Lotus", "047b0000000004,0,Lotus",
            "047b00,25,Lotus", "047b0000000005,25", "047b0000000001,5,Lotus", "047b0000000006,1e3,Lotus",
            "047b0000000007,25,", ""]
    fake = daemon()
    path = registry_file(tmp_path, rows)
    code, out, err = run(capsys, "import", path, "--socket", fake.path)
    assert code == 2 and fake.requests == []
    assert err.splitlines() == [
        f"tablectl chips: {path}:3: UID 'zz7b0000000002' is not hex bytes (e.g. 047b0000000001)",
        f"tablectl chips: {path}:4: amount '-5' is negative",
        f"tablectl chips: {path}:5: value '0' is not positive",
        f"tablectl chips: {path}:6: UID '047b00' is 3 bytes: a chip's UID is 4 to 10",
        f"tablectl chips: {path}:7: 2 fields, expected 3 (uid,value,set)",
        f"tablectl chips: {path}:8: UID 047b0000000001 is already on line 2",
        f"tablectl chips: {path}:9: amount '1e3' is not a decimal number (e.g. 25 or 2.50)",
        f"tablectl chips: {path}:10: the chip set's name is empty",
        "tablectl chips: nothing was imported"]


@pytest.mark.parametrize("content, message", [
    ("uid;value;set\n047b0000000001;25;Lotus\n", ":1: the header must be `uid,value,set`, got 'uid;value;set'"),
    ("", ":1: the header must be `uid,value,set`, got 'nothing'"),
    ("uid,value,set\n", ": no chips (only the header)"),
    (b"uid,value,set\n\xff\xfe,25,x\n", ": not UTF-8 text (invalid start byte at byte 14)"),
])
def test_a_file_that_is_not_a_registry(tmp_path, capsys, content, message):
    path = tmp_path / "chips.csv"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    code, _, err = run(capsys, "import", str(path), "--socket", str(tmp_path / "none.sock"))
    assert code == 2 and err == f"tablectl chips: {path}{message}\n"


def test_a_file_too_large_is_refused_before_it_is_read_whole(tmp_path, capsys):
    path = tmp_path / "chips.csv"
    with open(path, "wb") as file:
        file.truncate(MAX_FILE_BYTES + 1)
    code, _, err = run(capsys, "import", str(path), "--socket", str(tmp_path / "none.sock"))
    assert code == 2 and err == f"tablectl chips: {path}: larger than {MAX_FILE_BYTES} bytes: not a chip list (split it)\n"


def test_a_refused_batch_says_what_was_taken_and_what_was_not(tmp_path, capsys, daemon):
    rows = [f"047b{n:010x},25,Lotus" for n in range(5000)]
    fake = daemon(refuse_at=2)
    code, out, err = run(capsys, "import", registry_file(tmp_path, rows), "--socket", fake.path)
    first = len(fake.requests[0]["chips"])
    assert code == 1 and len(fake.requests) == 2  # nothing sent after the refusal
    assert err == (f"tablectl chips: chips_import refused: the key must be on ({first} of 5000 chips taken before, "
                   f"in 1 request; the {5000 - first} from chip {first + 1} on were not)\n")


def test_retire_checks_every_uid_and_sends_them(tmp_path, capsys, daemon):
    fake = daemon()
    code, _, err = run(capsys, "retire", "047B0000000001", "nothex", "--socket", fake.path)
    assert code == 2 and err == "tablectl chips: UID 'nothex' is not hex bytes (e.g. 047b0000000001)\n"
    assert fake.requests == []
    code, out, err = run(capsys, "retire", "047B0000000001", "047b0000000002", "047b0000000001", "--socket", fake.path)
    assert code == 0, err
    assert [(r["cmd"], r["uids"]) for r in fake.requests] == [("chips_retire", ["047b0000000001", "047b0000000002"])]
    assert out == "retired 2 chips in 1 request\n"


def test_list_shows_the_registry_as_the_daemon_answers(tmp_path, capsys, daemon):
    registry = [{"uid": "047b0000000001", "value": "25", "set": "Lotus", "retired": False},
                {"uid": "047b0000000002", "value": "2.5", "set": "Lotus", "retired": True}]
    fake = daemon(registry=registry)
    code, out, err = run(capsys, "list", "--socket", fake.path)
    assert code == 0, err
    assert out.splitlines() == ["2 chips", "047b0000000001          25  Lotus  retired=False",
                                "047b0000000002         2.5  Lotus  retired=True"]
    code, out, _ = run(capsys, "list", "--uid", "047B0000000002", "--json", "--socket", fake.path)
    assert fake.requests[-1] == {"id": 1, "cmd": "chips", "uid": "047b0000000002"}
    assert json.loads(out)["chips"] == registry[1:]


def test_no_daemon_is_exit_1_naming_the_socket(tmp_path, capsys):
    path = registry_file(tmp_path, ["047b0000000001,25,Lotus"])
    code, _, err = run(capsys, "import", path, "--socket", str(tmp_path / "none.sock"))
    assert code == 1 and "none.sock" in err


def test_batches_hold_no_more_rows_than_the_daemon_takes_in_one_command():
    """Short rows fit many to a line; the daemon refuses more than MAX_ROWS in one command."""
    items = [f"047b{n:010x},1,demo" for n in range(2 * MAX_ROWS + 1)]
    sizes = [len(batch) for batch in batches("chips_import", "chips", items)]
    assert sizes == [MAX_ROWS, MAX_ROWS, 1]
