"""Crash safety: a real writer process is killed with SIGKILL mid-stream, several times, on
a real SQLite file; everything it reported committed is there, the chain verifies, the round
in progress is found by recovery, and rounds are numbered on across the restarts."""
import os
import pathlib
import signal
import subprocess
import sys

from controller.journal import iter_records, open_readonly, recover, verify

WRITER = pathlib.Path(__file__).with_name("journal_writer.py")


def run_writer(path, max_records=100_000, at_end="exit"):
    return subprocess.Popen([sys.executable, str(WRITER), str(path), str(max_records), at_end],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def kill_after(path, lines_wanted: int, stop_at: int = 100_000) -> list[tuple[int, str, str, str]]:
    """Start a writer, wait for `lines_wanted` committed records, SIGKILL it; return every
    record it reported committed before it died (the pipe holds the ones not yet read).
    With stop_at, the writer stops after that many records and waits for the kill."""
    writer = run_writer(path, stop_at, "hang")
    try:
        seen = [writer.stdout.readline().split() for _ in range(lines_wanted)]
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        rest = writer.stdout.read().split("\n")[:-1]  # the piece after the last newline is cut off
        seen += [line.split() for line in rest]
        writer.stdout.close()
        writer.stdin.close()
    assert writer.returncode == -signal.SIGKILL
    return [(int(seq), round_no, kind, digest) for seq, round_no, kind, digest in seen]


def stored(path):
    conn = open_readonly(path)
    try:
        return {r.seq: r for r in iter_records(conn)}
    finally:
        conn.close()


def test_sigkill_mid_stream_loses_nothing_committed_and_the_chain_holds(tmp_path):
    path = tmp_path / "journal.sqlite"
    reported = []
    for lines_wanted in (3, 9, 14, 40, 77, 5):  # kill points across rounds, results and restarts
        before = recover(path).last_round if path.exists() else 0
        got = kill_after(path, lines_wanted)
        reported += got
        records = stored(path)
        for seq, _, kind, digest in got:
            assert records[seq].kind == kind and records[seq].hash == digest
        # at most one record more: committed, killed before it was printed
        assert got[-1][0] <= max(records) <= got[-1][0] + 1
        report = verify(path)
        assert report.ok, str(report)
        assert report.records == len(records)
        after = recover(path)
        assert after.last_round >= before
    opened = [r.round for r in stored(path).values() if r.kind == "round_opened"]
    assert opened == sorted(set(opened)), "round numbers repeat or go back across restarts"


def test_recovery_finds_the_round_the_kill_interrupted_with_its_cards(tmp_path):
    path = tmp_path / "journal.sqlite"
    # started, new shoe, round 1 (5 cards) settled, round 2 opened, bets closed, 3 of its 6 cards
    got = kill_after(path, 16, stop_at=16)
    state = recover(path)
    records = stored(path)
    last = records[max(records)]
    assert state.last_seq == last.seq and state.last_round == last.round
    open_round = state.interrupted
    assert (open_round.round, open_round.status, len(open_round.cards)) == (2, "open", 3)
    cards_journaled = [r.payload["card"] for r in records.values() if r.kind == "card" and r.round == open_round.round]
    assert [c.card for c in open_round.cards] == cards_journaled
    all_cards = [r.payload["card"] for r in records.values() if r.kind == "card"]
    assert list(state.shoe.cards) == all_cards and state.shoe.cards_dealt == len(all_cards)
    assert state.shoe.last_draw_counter == len(all_cards)
    assert got[0][2] == "daemon_started"


def test_a_restart_voids_the_interrupted_round_and_numbers_on(tmp_path):
    path = tmp_path / "journal.sqlite"
    kill_after(path, 16, stop_at=16)
    interrupted = recover(path).interrupted.round
    writer = run_writer(path, max_records=4)  # started, recovered, void, then round_opened
    out, _ = writer.communicate("")
    assert writer.returncode == 0
    kinds = [line.split()[2] for line in out.splitlines()]
    assert kinds == ["daemon_started", "recovered", "void", "round_opened"]
    state = recover(path)
    assert state.last_round == interrupted + 1 and state.interrupted.round == interrupted + 1
    assert verify(path).ok
