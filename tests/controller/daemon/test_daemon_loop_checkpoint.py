"""The WAL checkpoint: only when bets open (no card is due), and only once CHECKPOINT_RECORDS
records have been written since the last one (each checkpoint fsyncs the database file).
Real Table, real SQLite journal; the journal's checkpoint is wrapped only to see when it runs."""
from __future__ import annotations

from controller.daemon import committer as loop_module

NINE_H, TWO_C, KING_D, THREE_C = 0x0119, 0x0132, 0x012D, 0x0133  # player 9h Kd: a natural 9; banker 5
EVERY = 20


def test_checkpoints_come_when_bets_open_and_enough_was_written(loop_rig, monkeypatch):
    monkeypatch.setattr(loop_module, "CHECKPOINT_RECORDS", EVERY)
    journal = loop_rig.journal
    real_checkpoint = journal.checkpoint
    done = []  # (head_seq, table state, frames copied) at each checkpoint

    def checkpoint():
        frames, copied = real_checkpoint()
        done.append((journal.head_seq, loop_rig.table.state, copied))
        return frames, copied

    monkeypatch.setattr(journal, "checkpoint", checkpoint)
    loop_rig.press("new_shoe")
    openings = []  # head_seq when each round's betting opened
    for _ in range(6):
        loop_rig.press("place_bets")
        openings.append(journal.head_seq)
        loop_rig.press("no_more_bets")
        for code in (NINE_H, TWO_C, KING_D, THREE_C):
            loop_rig.card(code)
        assert loop_rig.events("result")
        loop_rig.press("confirm")
    assert done, "no checkpoint at all"
    assert all(state == "betting" for _, state, _ in done)  # only while bets are open
    assert all(copied > 0 for _, _, copied in done)  # the WAL really was copied
    seqs = [seq for seq, _, _ in done]
    assert seqs[0] == openings[0]  # the first opening after start checkpoints
    assert all(later - earlier >= EVERY for earlier, later in zip(seqs, seqs[1:]))
    # every opening that came EVERY records after the last checkpoint took one
    last = seqs[0]
    for seq in openings[1:]:
        if seq - last >= EVERY:
            assert seq in seqs
            last = seq
        else:
            assert seq not in seqs
    assert len(seqs) < len(openings)  # fewer checkpoints than rounds
