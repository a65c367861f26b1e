"""What anyone holding the journal file can do to it through SQLite itself, shared by the
tests that check the journal notices."""
import sqlite3

from controller.journal import GENESIS, record_hash


def tamper(path, sql, *args):
    conn = sqlite3.connect(path)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


def rehash(path, seq):
    """What a careful forger does after an edit: recompute that record's own hash."""
    conn = sqlite3.connect(path)
    at, mono, kind, rnd, payload, prev = conn.execute(
        "SELECT at, mono_ns, kind, round, payload, prev_hash FROM records WHERE seq = ?", (seq,)).fetchone()
    conn.execute("UPDATE records SET hash = ? WHERE seq = ?", (record_hash(prev, seq, at, mono, kind, rnd, payload), seq))
    conn.commit()
    conn.close()


def rehash_from(path, first):
    """A more careful forger: recompute every hash from `first` on, so the chain verifies."""
    conn = sqlite3.connect(path)
    prev = conn.execute("SELECT hash FROM records WHERE seq = ?", (first - 1,)).fetchone()
    prev = prev[0] if prev else GENESIS
    for seq, at, mono, kind, rnd, payload in conn.execute(
            "SELECT seq, at, mono_ns, kind, round, payload FROM records WHERE seq >= ? ORDER BY seq", (first,)).fetchall():
        digest = record_hash(prev, seq, at, mono, kind, rnd, payload)
        conn.execute("UPDATE records SET prev_hash = ?, hash = ? WHERE seq = ?", (prev, digest, seq))
        prev = digest
    conn.commit()
    conn.close()
