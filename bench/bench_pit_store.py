"""The pit's store alone, SQLite against PostgreSQL: records/s through PitStore.add and commit,
as the pit's thread does them (batches of BATCH_RECORDS), with no broker or feeds in front.

    python3 bench/bench_pit_store.py [--tables 20 --records 10000 --runs 3]

Each table's records are a valid chain (Journal.append_many of a rig-played shoe's records,
again and again), interleaved across tables as 20 feeds deliver them. The two stores run
alternately (SQLite, PostgreSQL, SQLite, ...), each into a fresh database; PostgreSQL is a
server started for the run (simulation/postgres.py) with its default durability, each
commit flushed before it returns, over its Unix socket. bench_floor_feed.py --db both gives
the same comparison end to end.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.journal import Journal, Record  # noqa: E402
from services.pit import PitStore  # noqa: E402
from services.pit.pit import BATCH_RECORDS  # noqa: E402
from simulation.postgres import PostgresServer  # noqa: E402
from simulation.rig import Rig  # noqa: E402


def chain(directory: Path, count: int) -> list[Record]:
    with Rig("fortune6", seed=3, directory=directory / "rig", keep=True) as rig:
        for _ in range(5):
            rig.play_round()
        entries = [(r.kind, dict(r.payload), r.round, False) for r in rig.records()]
    with Journal(directory / "source.sqlite") as journal:
        while journal.head_seq < count:
            journal.append_many(entries[: count - journal.head_seq])
        return list(journal.records())


def one_run(target: str, tables: list[str], records: list[Record], sizes: dict[str, float]) -> float:
    store = PitStore(target)
    started = time.perf_counter()
    batch = 0
    for record in records:
        for table in tables:
            store.add(table, record)
            batch += 1
            if batch >= BATCH_RECORDS:
                store.commit()
                batch = 0
    store.commit()
    elapsed = time.perf_counter() - started
    stored = store.conn.execute("SELECT count(*) FROM records").fetchone()[0]
    if store.conn.dialect == "postgresql":
        on_disk = store.conn.execute("SELECT pg_total_relation_size('records')").fetchone()[0]
    else:
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        on_disk = Path(target).stat().st_size
    sizes[store.conn.dialect] = on_disk / stored
    store.close()
    assert stored == len(tables) * len(records), stored
    return stored / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--records", type=int, default=10_000, help="records a table")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    tables = [f"s1/t{n:02d}" for n in range(1, args.tables + 1)]
    figures: dict[str, list[float]] = {"sqlite": [], "postgresql": []}
    sizes: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="bench-pit-store-") as tmp, PostgresServer(durable=True) as server:
        work = Path(tmp)
        records = chain(work, args.records)
        for run in range(args.runs):
            figures["sqlite"].append(one_run(str(work / f"pit-{run}.sqlite"), tables, records, sizes))
            figures["postgresql"].append(one_run(server.database(f"pit_{run}"), tables, records, sizes))
    rates = {store: statistics.median(values) for store, values in figures.items()}
    print(f"{args.tables} tables x {args.records} records, batches of {BATCH_RECORDS}: median records/s "
          f"SQLite {rates['sqlite']:,.0f}, PostgreSQL {rates['postgresql']:,.0f}; PostgreSQL / SQLite = "
          f"{rates['postgresql'] / rates['sqlite']:.2f} (runs: " +
          "; ".join(f"{s} " + ", ".join(f"{r:,.0f}" for r in values) for s, values in figures.items()) + ")")
    print(f"on disk a record (records table with its indexes): SQLite {sizes['sqlite']:.0f} bytes (the whole file), "
          f"PostgreSQL {sizes['postgresql']:.0f} bytes")


if __name__ == "__main__":
    main()
