"""Server-sent events from the real scoreboard process (uvicorn on 127.0.0.1:0) following a real
journal and a real control socket (ControlServer in this process, publishing as the daemon
does): a display that reconnects with Last-Event-ID gets exactly the updates it missed, an
unknown id gets a snapshot, the link follows the daemon, /roads.json is the board, a restart
of the scoreboard rebuilds the same board, SIGTERM ends it cleanly."""
from __future__ import annotations

import signal
import time

import pytest
from journal_script import HANDS, TableScript
from kiosk import WAIT, EventReader, ScoreboardProcess, wait_until

from controller.control import ControlServer
from controller.journal import Journal


def answer_nothing(request):
    request.fail("not a daemon")


class Table:
    """A journal and a control socket, written and published as the daemon would."""

    def __init__(self, directory) -> None:
        self.dir = directory
        self.journal = Journal(directory / "journal.sqlite")
        self.socket = str(directory / "control.sock")
        self.server: ControlServer | None = None
        self.script = TableScript(self.journal, publish=self.publish)
        self.config = directory / "tablectl.toml"
        self.config.write_text(f'game = "fortune6"\n[journal]\npath = "{self.journal.path}"\n'
                               f'[control]\nsocket = "{self.socket}"\n[scoreboard]\ntable_name = "Table 7"\n')

    def publish(self, event: dict) -> None:
        if self.server is not None:
            self.server.publish(event)

    def daemon_up(self) -> None:
        self.server = ControlServer(self.socket, answer_nothing).start()

    def daemon_down(self) -> None:
        assert self.server is not None
        self.server.stop()
        self.server = None

    def play(self, *tokens: str) -> int:
        """Rounds with these outcomes; returns the last record's seq."""
        for token in tokens:
            self.script.play(token[0], *HANDS[token])
        return self.last_seq()

    def last_seq(self) -> int:
        return self.journal.connection.execute("SELECT MAX(seq) FROM records").fetchone()[0]

    def close(self) -> None:
        if self.server is not None:
            self.daemon_down()
        self.journal.close()


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path)
    table.daemon_up()
    yield table
    table.close()


@pytest.fixture
def scoreboards(tmp_path):
    started: list[ScoreboardProcess] = []

    def start(config, *args) -> ScoreboardProcess:
        process = ScoreboardProcess(config, *args, directory=tmp_path)
        started.append(process)
        return process

    yield start
    for process in started:
        process.stop()
        assert process.child.poll() is not None


def updates_until(reader: EventReader, seq: int) -> list[tuple[str, dict]]:
    got = []
    while True:
        event_id, data = reader.next_update()
        got.append((event_id, data))
        if int(event_id) >= seq:
            return got


def test_a_display_that_reconnects_with_last_event_id_misses_nothing(table, scoreboards):
    table.script.new_shoe(1)
    board = scoreboards(table.config)
    steady = EventReader(board.host, board.port)
    assert steady.next()[0] == "link"
    first_id, snapshot = steady.next_update()
    assert snapshot["kind"] == "snapshot" and snapshot["board"]["shoe"] == 1
    flaky = EventReader(board.host, board.port)
    flaky.next(), flaky.next_update()

    middle = table.play("B", "P+pp", "T")
    seen_before = updates_until(flaky, middle)
    flaky.close()
    table.play("B6", "B", "P")
    table.script.open()
    table.script.card("2d", "player", 0)
    table.script.void("order_altered", "fortune6 §5.4", "the shoe door was opened mid-round")
    end = table.last_seq()
    everything = updates_until(steady, end)

    again = EventReader(board.host, board.port, last_event_id=str(middle))
    assert again.next()[0] == "link"
    missed = updates_until(again, end)
    assert [i for i, _ in missed] == [i for i, _ in everything if int(i) > middle]
    assert missed == [(i, d) for i, d in everything if int(i) > middle]  # the same updates, byte for byte as JSON
    assert [i for i, _ in seen_before] + [i for i, _ in missed] == [i for i, _ in everything]
    ids = [int(i) for i, _ in everything]
    assert ids == sorted(set(ids)), "each id once, in journal order"
    assert everything[-1][1]["board"]["banner"]["clause"] == "fortune6 §5.4"
    for reader in (steady, again):
        reader.close()


@pytest.mark.parametrize("last_event_id", ["1", "999999", "not-a-number"])
def test_an_id_the_log_does_not_cover_gets_a_snapshot(table, scoreboards, last_event_id):
    table.script.new_shoe(1)
    table.play("B", "P")
    board = scoreboards(table.config)  # the log starts where the board caught up
    head = table.last_seq()
    reader = EventReader(board.host, board.port, last_event_id=last_event_id)
    reader.next()
    event_id, data = reader.next_update()
    assert data["kind"] == "snapshot" and int(event_id) <= head
    assert [c["winner"] for c in data["board"]["big_road"]] == ["B", "P"]
    reader.close()


def test_roads_json_is_the_board_the_cli_shape_and_more(table, scoreboards):
    table.script.new_shoe(3)
    table.play("T", "B+bp", "B", "P+pp")
    board = scoreboards(table.config)
    state = board.get_json()
    for key in ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig", "ask", "counts"):
        assert key in state
    assert state["big_road"][0] | {"round": None} == {
        "col": 0, "row": 0, "winner": "B", "ties": 1, "banker_pair": True, "player_pair": False, "column": 0,
        "index": 1, "round": None}
    assert (state["game"], state["shoe"], state["round"], state["table"]) == ("fortune6", 3, 4, "Table 7")
    assert state["last_result"]["hands"]["player"]["cards"] == ["4s", "4h"]
    assert state["game_counts"] == {"naturals": 3, "fortune_six": 0}
    assert state["live"]["state"] == "settled"
    table.script.open()  # a round opens: /roads.json's round is the new one, the roads stay
    wait_until(lambda: board.get_json()["round"] == 5, "round 5 opened")
    assert board.get_json()["big_road"] == state["big_road"]
    wait_until(lambda: board.get_json()["link"] == {"online": True, "journal_error": None}, "the link online")


def test_the_link_follows_the_daemon_and_the_journal_is_polled_while_it_is_away(table, scoreboards):
    table.script.new_shoe(1)
    board = scoreboards(table.config)
    reader = EventReader(board.host, board.port)
    reader.until(lambda event, i, data: event == "link" and data == {"online": True, "journal_error": None})
    table.daemon_down()
    reader.until(lambda event, i, data: event == "link" and data["online"] is False)
    seq = table.play("B")  # journaled with nobody publishing: found by polling
    updates_until(reader, seq)
    table.daemon_up()
    reader.until(lambda event, i, data: event == "link" and data["online"] is True)
    seq = table.play("P")
    assert updates_until(reader, seq)[-1][1]["round"]["state"] == "settled"
    reader.close()


def test_a_missing_journal_is_shown_and_followed_once_it_appears(tmp_path, scoreboards):
    config = tmp_path / "tablectl.toml"
    config.write_text(f'[journal]\npath = "{tmp_path / "later.sqlite"}"\n[control]\nsocket = "{tmp_path / "none.sock"}"\n')
    board = scoreboards(config)
    reader = EventReader(board.host, board.port)
    link = reader.until(lambda event, i, data: event == "link" and data and data["journal_error"])[-1][2]
    assert link == {"online": False, "journal_error": f"no journal at {tmp_path / 'later.sqlite'}"}
    with Journal(tmp_path / "later.sqlite") as journal:
        script = TableScript(journal)
        script.new_shoe(1)
        script.play("B", *HANDS["B"])
        updates_until(reader, journal.connection.execute("SELECT MAX(seq) FROM records").fetchone()[0])
    assert board.get_json()["counts"]["B"] == 1
    reader.close()


def test_a_restarted_scoreboard_rebuilds_the_same_board(table, scoreboards):
    table.script.new_shoe(1)
    table.play(*["B", "B", "P", "T", "P+pp", "B", "B", "B", "B", "B", "B", "B", "P"])
    first = scoreboards(table.config)
    before = first.get_json()
    assert first.stop() == 0
    second = scoreboards(table.config)
    after = second.get_json()
    assert {k: v for k, v in after.items() if k != "link"} == {k: v for k, v in before.items() if k != "link"}


def test_sigterm_ends_it_promptly_with_displays_connected(table, scoreboards):
    board = scoreboards(table.config)
    readers = [EventReader(board.host, board.port) for _ in range(3)]
    for reader in readers:
        reader.next_update()
    started = time.monotonic()
    assert board.stop(signal.SIGTERM) == 0
    assert time.monotonic() - started < WAIT
    for reader in readers:
        with pytest.raises((EOFError, ConnectionError)):
            while True:
                reader.next()
        reader.close()
