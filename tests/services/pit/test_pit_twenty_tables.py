"""Twenty tables fed at once into one broker and one pit: journals made by the simulated rig
(the real daemon against simulated devices), copied to a directory per table, each sent by
its own `tablectl feed` process. All arrive, none doubled; a record tampered with at one
table raises the alarm for that table and record only."""
from __future__ import annotations

import sqlite3

import pytest

from simulation.floor import FeedProcess, PitProcess, copy_journal, feed_section, journal_export, pit_export, pit_query, wait_until
from simulation.mosquitto import mosquitto_path, needs_mosquitto_reason
from simulation.rig import Rig
from simulation.rig.config_file import toml_text

pytestmark = [pytest.mark.skipif(mosquitto_path() is None, reason=needs_mosquitto_reason), pytest.mark.hil]
TABLES = 20
TAMPERED, TAMPERED_SEQ = "t07", 40
GAMES = ("fortune6", "fafa4", "paigow")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A journal per game: a rig plays a few rounds, then stops (the journal is closed)."""
    journals = {}
    for game in GAMES:
        rig = Rig(game, seed=5, directory=tmp_path_factory.mktemp(game), keep=True)
        with rig:
            for _ in range(4):
                rig.play_round()
        journals[game] = rig.journal_path
    return journals


def tamper(journal, seq):
    """Edit a record's payload in place, as someone with write access to the file could."""
    with sqlite3.connect(journal) as conn:
        payload = conn.execute("SELECT payload FROM records WHERE seq = ?", (seq,)).fetchone()[0]
        conn.execute("UPDATE records SET payload = ? WHERE seq = ?", (payload.replace("}", ',"x":1}', 1), seq))


def test_twenty_feeds_into_one_pit_all_arrive_once_and_one_tampered_table_alarms_alone(tmp_path, broker, processes, played,
                                                                                        pit_db_url):
    mq = broker()
    db = pit_db_url
    pit = processes(PitProcess(tmp_path, mq.url, db))
    expected = {}
    for n in range(1, TABLES + 1):
        table = f"t{n:02d}"
        game = GAMES[n % len(GAMES)]
        directory = tmp_path / table
        journal = copy_journal(played[game], directory / "journal.sqlite")
        if table == TAMPERED:
            tamper(journal, TAMPERED_SEQ)
        config = {"game": game, "journal": {"path": str(journal)}, "control": {"socket": str(directory / "control.sock")},
                  "feed": feed_section(mq.url, table, directory / "cursor.json")}
        (directory / "tablectl.toml").write_text(toml_text(config))
        expected[f"s1/{table}"] = journal_export(journal)
    for n in range(1, TABLES + 1):
        processes(FeedProcess(tmp_path, tmp_path / f"t{n:02d}" / "tablectl.toml", name=f"feed-t{n:02d}"))

    wait_until(lambda: all(pit_export(db, table) == records for table, records in expected.items()), 120,
               "every table's records at the pit")
    rows = pit_query(db, "SELECT count(*), count(DISTINCT table_id || '/' || seq) FROM records")[0]
    alarms = pit_query(db, "SELECT table_id, seq, kind, detail FROM alarms WHERE kind != 'gap' ORDER BY id")
    bad = pit_query(db, "SELECT table_id, seq, checked FROM records WHERE checked != 'ok' ORDER BY table_id, seq")
    assert rows[0] == rows[1] == sum(len(r) for r in expected.values())
    assert [(t, s, k) for t, s, k, _ in alarms] == [(f"s1/{TAMPERED}", TAMPERED_SEQ, "bad_hash")]
    assert "does not match its contents" in alarms[0][3]
    assert bad == [(f"s1/{TAMPERED}", TAMPERED_SEQ, "bad_hash")]
    json_alarms = [line for line in pit.lines() if line["type"] == "alarm" and line["kind"] != "gap"]
    assert [(a["table"], a["seq"]) for a in json_alarms] == [(f"s1/{TAMPERED}", TAMPERED_SEQ)]
    assert pit.child.running
