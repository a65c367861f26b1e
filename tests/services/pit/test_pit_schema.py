"""One schema on both stores: the pit's tables have the same columns, in the same order, and
the same primary keys on SQLite and on PostgreSQL (a real server), so a back office's query
means the same on either."""
from __future__ import annotations

import pytest

from controller.journal import Journal
from services.pit import PitStore
from services.pit.database import DatabaseError
from simulation.postgres import PostgresServer

TABLES = ("records", "alarms", "tables", "enrolled", "verified", "apart")


@pytest.fixture
def records_of_a_journal(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        return [journal.append("note", {"n": n}) for n in range(3)]


def sqlite_shape(store: PitStore) -> dict[str, tuple[list[str], list[str]]]:
    shape = {}
    for table in TABLES:
        info = store.conn.execute(f"PRAGMA table_info({table})").fetchall()  # cid, name, type, notnull, default, pk
        shape[table] = ([row[1] for row in info], [row[1] for row in sorted((r for r in info if r[5]), key=lambda r: r[5])])
    return shape


def postgres_shape(store: PitStore) -> dict[str, tuple[list[str], list[str]]]:
    shape = {}
    for table in TABLES:
        columns = store.conn.execute("SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                                     "AND table_name = ? ORDER BY ordinal_position", (table,)).fetchall()
        key = store.conn.execute(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) "
            "WHERE i.indrelid = ?::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)", (table,)).fetchall()
        shape[table] = ([c for c, in columns], [k for k, in key])
    return shape


def test_the_same_tables_columns_and_keys_on_sqlite_and_postgresql(tmp_path, postgres_server):
    on_sqlite = PitStore(tmp_path / "pit.sqlite")
    on_postgres = PitStore(postgres_server.database())
    try:
        assert on_postgres.conn.dialect == "postgresql" and on_sqlite.conn.dialect == "sqlite"
        expected = sqlite_shape(on_sqlite)
        assert expected["records"][1] == ["table_id", "seq"] and expected["apart"][1] == ["table_id", "seq", "hash"]
        assert postgres_shape(on_postgres) == expected
    finally:
        on_sqlite.close()
        on_postgres.close()


def test_alarm_ids_count_up_on_both(tmp_path, postgres_server):
    for target in (str(tmp_path / "pit.sqlite"), postgres_server.database()):
        store = PitStore(target)
        store._begin()
        first = store._raise("s/a", 1, 1, "gap", "record 1 missing")
        second = store._raise("s/a", 2, 2, "gap", "record 2 missing")
        store.commit()
        assert (first.id, second.id) == (1, 2), target
        assert [a.id for a in store.alarms()] == [1, 2]
        store.close()


def test_a_server_that_goes_away_is_named_not_a_traceback(postgres_server, records_of_a_journal):
    """Its own server (the session's stays up): stopped under a store with a batch open."""
    server = PostgresServer().start()
    try:
        store = PitStore(server.database())
        store.add("s/a", records_of_a_journal[0])
        store.commit()
        store.add("s/a", records_of_a_journal[1])
        server.stop()
        with pytest.raises(DatabaseError, match=r"--db postgresql://tablectl@/pit_1\?host=.*: PostgreSQL: "):
            store.commit()
    finally:
        server.stop()
