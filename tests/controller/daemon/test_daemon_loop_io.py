"""The loop with its real neighbours: the control socket (a real ControlServer and clients on a
Unix socket, the loop running its own inbox), systemd's notify socket (a real datagram
socket), and a journal another connection holds locked."""
import os
import pwd
import sqlite3
import threading

import pytest
from loop_rig import LoopRig

from controller.control import ControlClient, ControlServer
from controller.daemon.loop import DaemonFatal, Stop
from controller.sdnotify import Notifier
from drivers import events as ev
from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import Hello

WAIT = 20.0  # a guard against hanging, not a measure of speed


def socket_rig(tmp_path, noted=lambda event: None):
    """A LoopRig whose event stream goes to a real ControlServer (`noted` sees each event first)."""
    server = None
    rig = LoopRig(tmp_path, burn=False, publish=lambda event: (noted(event), server.publish(event)))
    server = ControlServer(tmp_path / "control.sock", rig.loop.post, reactor=rig.loop.reactor).start()
    return rig, server


def answered(rig, server, names) -> dict:
    """One socket client sends `names` in turn while the loop's real run() takes them, then
    stops it: each command's reply."""
    replies = {}

    def dealer():
        with ControlClient(server.path, timeout=WAIT) as client:
            for name in names:
                replies[name] = client.request(name)
        rig.loop.post(Stop("test over"))

    try:
        assert rig.run_with(dealer, WAIT) == "test over"
    finally:
        server.stop()  # the reactor no longer runs: the server's own work, done on this thread
    return replies


def test_socket_commands_are_journaled_answered_and_status_is_not_journaled(tmp_path):
    rig, server = socket_rig(tmp_path)
    replies = answered(rig, server, ["place_bets", "new_shoe", "status"])
    assert replies["place_bets"]["ok"] is False and "new_shoe" in replies["place_bets"]["error"]
    assert replies["new_shoe"] == {"id": 2, "ok": True, "message": replies["new_shoe"]["message"], "shoe": 1}
    status = replies["status"]
    assert status["state"] == "idle" and status["shoe"]["number"] == 1
    assert status["daemon"]["journal"]["records"] == 3 and status["daemon"]["ready"] is False
    kinds = [(r.kind, r.payload.get("name")) for r in rig.records()]
    assert kinds == [("command", "place_bets"), ("command", "new_shoe"), ("shoe", None)]
    assert rig.records()[0].payload == {"name": "place_bets", "args": {}, "source": "socket", "client": 1,
                                        "by": {"source": "socket", "uid": os.getuid(), "user": pwd.getpwuid(os.getuid()).pw_name,
                                               "pid": os.getpid()}}


def test_a_socket_commands_reply_follows_the_fsync_of_its_record(tmp_path):
    """In sync "results" mode, where plain commits are not fsynced, a socket command's record
    is durable all the same: its client is told "got it" only once a power cut cannot take it."""
    order = []
    rig, server = socket_rig(tmp_path, noted=lambda event: order.append(("published", event.get("command"))))
    assert rig.journal.sync == "results"
    fsync_wal = rig.journal._fsync_wal

    def fsync_noted():
        fsync_wal()
        order.append(("fsynced", rig.journal.head_seq))

    rig.journal._fsync_wal = fsync_noted
    replies = answered(rig, server, ["new_shoe", "place_bets", "status"])
    assert replies["new_shoe"]["ok"] and replies["place_bets"]["ok"] and replies["status"]["ok"]
    seqs = {r.payload["name"]: r.seq for r in rig.records() if r.kind == "command"}
    assert set(seqs) == {"new_shoe", "place_bets"}  # status is not journaled
    for name, seq in seqs.items():
        replied_at = order.index(("published", name))  # published right before the reply is queued
        assert any(step == "fsynced" and head >= seq for step, head in order[:replied_at]), (name, order)


def test_ready_once_every_device_is_up_and_status_lines_follow(tmp_path, notify):
    rig = LoopRig(tmp_path, notifier=Notifier(notify.path))
    hello = {kind: Hello(kind, boot_id=n) for n, kind in enumerate((DeviceKind.SHOE, DeviceKind.PANEL, DeviceKind.LIGHTS))}
    rig.loop.dispatch(ev.LinkDown(device="lights", at=0.0, reason="cannot open /x/lights: no such serial device"))
    rig.loop.refresh_status()
    for name, kind in (("shoe", DeviceKind.SHOE), ("panel", DeviceKind.PANEL)):
        rig.loop.dispatch(ev.SessionUp(device=name, at=0.0, hello=hello[kind]))
        rig.loop.refresh_status()
    rig.loop.dispatch(ev.SessionUp(device="lights", at=0.0, hello=hello[DeviceKind.LIGHTS]))
    rig.loop.refresh_status()
    rig.loop.dispatch(ev.LinkDown(device="lights", at=0.0, reason="no ack"))
    rig.loop.refresh_status()
    rig.close()
    messages = notify.wait_for(lambda m: "lights lost" in m.text, WAIT)
    texts = [m.text for m in messages]
    assert texts[0] == ("STATUS=starting: waiting for the shoe, the panel, the lights (cannot open /x/lights: no such "
                        "serial device) · fortune6 · no shoe · no round yet · shoe waiting · panel waiting · lights absent")
    ready = [t for t in texts if t.startswith("READY=1")]
    assert ready == ["READY=1\nSTATUS=fortune6 · no shoe · no round yet · shoe ok · panel ok · lights ok"]
    assert texts.index(ready[0]) == len(texts) - 2 and all("READY" not in t for t in texts[:-2])
    assert texts[-1] == "STATUS=fortune6 · no shoe · no round yet · shoe ok · panel ok · lights lost"


def test_a_locked_journal_blocks_the_input_until_it_is_free_and_says_so(tmp_path, notify):
    rig = LoopRig(tmp_path, notifier=Notifier(notify.path))
    rig.journal.connection.execute("PRAGMA busy_timeout = 0")  # as the daemon runs it: retried from a timer
    other = sqlite3.connect(rig.journal_path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN EXCLUSIVE")

    def release_when_shown():
        notify.wait_for(lambda m: "journal locked" in m.text, WAIT)
        other.execute("ROLLBACK")

    thread = threading.Thread(target=release_when_shown)
    thread.start()
    try:
        rig.press("new_shoe")  # handled; its records and effects wait for the journal
        assert rig.table.shoe.number == 1 and rig.loop.journal_waiting and rig.kinds() == []
        assert rig.loop.reactor.run_until(lambda: not rig.loop.journal_waiting, WAIT)  # retried until free
    finally:
        thread.join(WAIT)
        other.close()
    assert rig.kinds() == ["device", "shoe"] and rig.table.shoe.number == 1
    assert rig.loop.status_note == ""
    rig.loop.refresh_status()
    after = notify.wait_for(lambda m: m.text.startswith("STATUS="), WAIT)[-1]
    assert "journal locked" not in after.text and "shoe 1 burning" in after.text
    rig.close()


def test_a_stop_while_the_journal_is_locked_ends_without_acting(tmp_path):
    rig = LoopRig(tmp_path)
    rig.journal.connection.execute("PRAGMA busy_timeout = 20")
    other = sqlite3.connect(rig.journal_path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    rig.loop.request_stop("SIGTERM")
    with pytest.raises(DaemonFatal, match="stopping while the journal is locked"):
        rig.press("new_shoe")
    other.execute("ROLLBACK")
    other.close()
    assert rig.records() == [] and rig.board.sets == []
    rig.close()
