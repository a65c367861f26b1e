"""`tablectl status`, `send` and `watch` through the real dispatcher against a real
ControlServer whose commands are answered by the stand-in loop thread."""
import json
import subprocess
import sys
import threading

import pytest

from cli import main
from cli.send import KEY_HINT, VOID_HINT
from cli.watch import event_text

SENDABLE = ("status, place_bets, spots, select_spot, no_more_bets, decide, confirm, void, reconstruct, misdeal, new_shoe, "
            "accept_shoe, player_dealer, wagers, chips_import, chips_retire, chips, accept_payouts, shift, new_chain")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_status_prints_the_state(capsys, server, sock_path):
    code, out, err = run(capsys, "status", "--socket", sock_path)
    assert (code, out, err) == (0, "state       betting\nround       12\nthread      fake-loop\n", "")
    code, out, _ = run(capsys, "status", "--socket", sock_path, "--json")
    assert json.loads(out) == {"id": 1, "ok": True, "state": "betting", "round": 12, "thread": "fake-loop"}


def test_status_finds_the_socket_through_a_config_file(capsys, server, sock_path, tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(f'[control]\nsocket = "{sock_path}"\n')
    assert run(capsys, "status", "--config", str(config))[0] == 0


@pytest.mark.parametrize("argv, received", [
    (["no_more_bets"], ("no_more_bets", {})),
    (["void", "--reason", "shoe door opened"], ("void", {"reason": "shoe door opened"})),
    (["void", "--reason=misdeal"], ("void", {"reason": "misdeal"})),
    (["decide", "spot=3", "decision=play"], ("decide", {"spot": 3, "decision": "play"})),
    (["spots", "spots=1,3,5"], ("spots", {"spots": [1, 3, 5]})),
    (["reconstruct", "card=Ts"], ("reconstruct", {"card": "Ts"})),
    (["reconstruct", "order=Kd,5s"], ("reconstruct", {"order": ["Kd", "5s"]})),
    (["void", "kind=misread"], ("void", {"kind": "misread"})),
    (["decide"], ("decide", {})),
    (["misdeal", "hand=banker"], ("misdeal", {"hand": "banker"})),
    (["player_dealer", "--seat", "4"], ("player_dealer", {"seat": 4})),
])
def test_send_passes_typed_commands_to_the_loop(capsys, server, sock_path, loop, argv, received):
    code, out, err = run(capsys, "send", *argv, "--socket", sock_path)
    assert (code, out, err) == (0, f"accepted: {received[0]}\n", "")
    assert loop.received == [received]


def test_a_refused_command_exits_1_with_the_daemons_reason_and_how_to_turn_the_key_on(capsys, server, sock_path):
    code, out, err = run(capsys, "send", "void", "kind=misread", "--reason", "refuse", "--socket", sock_path)
    assert (code, out, err) == (1, "", f"tablectl send: the supervisor key is off (void needs it)\ntablectl send: {KEY_HINT}\n")
    assert '{"cmd": "key", "on": true}' in KEY_HINT and "--key on" in KEY_HINT


def test_a_refused_void_without_a_kind_says_how_to_name_one(capsys, server, sock_path):
    code, out, err = run(capsys, "send", "void", "--reason", "refuse", "--socket", sock_path)
    assert (code, out) == (1, "")
    assert err == f"tablectl send: the supervisor key is off (void needs it)\ntablectl send: {VOID_HINT}\n"
    assert "kind=order_altered" in VOID_HINT and "misread" in VOID_HINT


def test_send_status_is_status(capsys, server, sock_path):
    assert run(capsys, "send", "status", "--socket", sock_path) == run(capsys, "status", "--socket", sock_path)


@pytest.mark.parametrize("argv, message", [
    (["send", "dance"], f"unknown command 'dance' (one of {SENDABLE})"),
    (["send", "subscribe"], f"unknown command 'subscribe' (use `tablectl watch`) (one of {SENDABLE})"),
    (["send", "select_spot"], "select_spot: missing field 'spot' (an integer)"),
    (["send", "void", "--reason", ""], "void: field 'reason' must be a non-empty string, got ''"),
    (["send", "decide", "spot=three", "decision=play"], "decide: spot='three': expected an integer"),
    (["send", "spots", "spots=1,x"], "spots: spots='1,x': expected integers separated by commas"),
    (["send", "confirm", "now"], "'now': expected FIELD=VALUE"),
    (["send", "confirm", "force=1"], "confirm: unknown field 'force' (fields: none)"),
    (["send", "void", "--reason"], "--reason: expected a value after it"),
    (["watch", "--count", "0"], "--count 0: must be at least 1"),
])
def test_bad_command_lines_are_named_and_nothing_is_sent(capsys, server, sock_path, loop, argv, message):
    code, out, err = run(capsys, *argv, "--socket", sock_path)
    assert (code, out, err) == (2, "", f"tablectl {argv[0]}: {message}\n")
    assert loop.received == []


def test_no_daemon_is_a_clear_error(capsys, sock_dir):
    for argv in (["status"], ["send", "confirm"], ["watch"]):
        code, out, err = run(capsys, *argv, "--socket", f"{sock_dir}/none.sock")
        assert (code, err) == (1, f"tablectl {argv[0]}: no control socket at {sock_dir}/none.sock (is the daemon running?)\n")


def test_watch_prints_events_as_they_come(server, sock_path, loop):
    """`tablectl watch` as its own process; events are published once it has subscribed."""
    watch = subprocess.Popen([sys.executable, "-m", "cli", "watch", "--socket", sock_path, "--count", "3"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _until_subscribers(server, 1)
        loop.run_in_loop(lambda: [server.publish(e) for e in (
            {"event": "card", "round": 12, "card": "As", "hand": "player"},
            {"event": "result", "round": 12, "winner": "banker", "bets": {"banker": {"result": "win", "pays": "1:1"}}},
            {"event": "void", "round": 13, "clause": "fortune6 §5.1"})])
        out, err = watch.communicate(timeout=60)
    finally:
        watch.kill() if watch.poll() is None else None
    lines = out.splitlines()
    assert watch.returncode == 0 and err == "" and len(lines) == 3
    assert lines[0].split("  ")[1:] == ["card", "round=12", "card=As", "hand=player"]
    assert lines[1].endswith('winner=banker  bets={"banker":{"result":"win","pays":"1:1"}}')
    assert lines[2].split("  ")[1:] == [
        "void", "round=13", "clause=fortune6 §5.1 (a foreign card found: the round is void, earlier results stand)"]


def test_watch_json_and_the_end_of_the_stream(capsys, sock_path, loop):
    from controller.control import ControlServer

    server = ControlServer(sock_path, loop.post).start()
    result = {}
    thread = threading.Thread(target=lambda: result.update(code=main(["watch", "--socket", sock_path, "--json"])))
    thread.start()
    _until_subscribers(server, 1)
    loop.run_in_loop(lambda: server.publish({"event": "state", "state": "dealing"}))
    server.stop()  # what was published before stop() still goes out
    thread.join()
    out, err = capsys.readouterr()
    assert result["code"] == 1
    assert out == '{"event":"state","state":"dealing"}\n'
    assert err == "tablectl watch: the daemon closed the event stream\n"


def test_event_text_names_the_event_first():
    assert event_text({"round": 3, "type": "irregularity", "clause": "L3"}, now=0).split("  ")[1:] == [
        "irregularity", "round=3", "clause=L3"]
    assert event_text({"x": 1}, now=0).split("  ")[1:] == ["event", "x=1"]


def _until_subscribers(server, count):
    """Poll the server's count of subscribers (the watcher is another thread or process)."""
    pause = threading.Event()
    for _ in range(30000):
        if server.subscribers >= count:
            return
        pause.wait(0.001)
    raise AssertionError("the watcher never subscribed")


def test_event_text_says_what_a_clause_says_beside_it():
    from games.clauses import CLAUSES

    text = event_text({"event": "void", "round": 4, "clause": "local ruling L1 (fortune7 §5.1)", "by": "table"}, now=0)
    assert "clause=local ruling L1 (fortune7 §5.1)" in text  # a citation the table lacks: shown as it is
    text = event_text({"event": "void", "round": 4, "clause": "local ruling L1 (fortune6 §5.1)", "by": "table"}, now=0)
    assert f"clause=local ruling L1 (fortune6 §5.1) ({CLAUSES['fortune6 §5.1'].says})  by=table" in text
