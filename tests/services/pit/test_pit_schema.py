"""One schema on both stores: the pit's tables have the same columns, in the same order, and
the same primary keys on SQLite and on PostgreSQL (a real server), so a back office's query
means the same on either."""
from __future__ import annotations

from services.pit import PitStore

TABLES = ("records", "alarms", "tables", "enrolled", "verified", "apart")


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
