"""The floor's throughput and latency: `tablectl feed` -> Mosquitto -> `tablectl pit`, real
processes on loopback (plain MQTT; `--tls` for TLS with client certificates).

    python3 bench/bench_floor_feed.py one [--records 100000]   # one feed, a 100k-record journal
    python3 bench/bench_floor_feed.py many [--feeds 20 --records 10000]   # 20 feeds into one pit, pit memory
    python3 bench/bench_floor_feed.py many --db both [--runs 2]   # the same on SQLite and on PostgreSQL, alternately
    python3 bench/bench_floor_feed.py pace [--records 600 --every-ms 20]  # journal commit -> pit database

Journals are made from the records of a rig-played shoe (real payloads), appended again and
again with Journal.append_many (a valid chain), each copy's rounds numbered on from the last,
as a table's journal is. Besides the throughput, the CPU seconds each process used (the
feeds together, the pit, the broker) per 1,000 records say where the time went. `pace` writes one record every --every-ms
in this process with a ControlServer publishing an event after each, as the daemon does,
so the feed is woken by the event stream; latency = the pit's received_at - the record's at
(both UTC wall clock on this machine; received_at is taken just before the pit's commit).
`--db postgresql` puts the pit's database on a PostgreSQL server started for the run
(simulation/postgres.py, its default durability: each commit flushed before it returns).
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.control import ControlServer  # noqa: E402
from controller.journal import Journal  # noqa: E402
from simulation.floor import FeedProcess, PitProcess, copy_journal, feed_section, pit_query  # noqa: E402
from simulation.mosquitto import Mosquitto  # noqa: E402
from simulation.postgres import PostgresServer  # noqa: E402
from simulation.rig import Rig  # noqa: E402
from simulation.rig.config_file import toml_text  # noqa: E402


def shoe_entries(directory: Path) -> list[tuple[str, dict, int | None, bool]]:
    with Rig("fortune6", seed=3, directory=directory / "rig", keep=True) as rig:
        for _ in range(10):
            rig.play_round()
        return [(r.kind, dict(r.payload), r.round, False) for r in rig.records()]


def make_journal(path: Path, entries, count: int) -> Path:
    rounds = max((r for _, _, r, _ in entries if r is not None), default=0)
    with Journal(path) as journal:
        written, copy = 0, 0
        while written < count:
            batch = [renumbered(entry, copy * rounds) for entry in entries[: min(len(entries), count - written)]]
            journal.append_many(batch)
            written += len(batch)
            copy += 1
    return path


def renumbered(entry: tuple[str, dict, int | None, bool], offset: int) -> tuple[str, dict, int | None, bool]:
    """The entry with its round (column and payload) moved on by `offset`: rounds only grow in a journal."""
    kind, payload, round_no, durable = entry
    if round_no is None or not offset:
        return entry
    if "round" in payload:
        payload = {**payload, "round": payload["round"] + offset}
    return kind, payload, round_no + offset, durable


def pit_count(db: Path | str) -> int:
    rows = pit_query(db, "SELECT count(*) FROM records")
    return int(rows[0][0]) if rows else 0


def cpu_s(pid: int) -> float:
    """User + system CPU seconds the process used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def table_config(directory: Path, journal: Path, url: str, table: str, pki) -> Path:
    config = {"game": "fortune6", "journal": {"path": str(journal)}, "control": {"socket": str(directory / "control.sock")},
              "feed": feed_section(url, table, directory / "cursor.json", pki=pki)}
    path = directory / "tablectl.toml"
    path.write_text(toml_text(config))
    return path


def server_cpu_s(server: PostgresServer | None) -> float:
    """The PostgreSQL server's CPU seconds so far: its postmaster and every process it started."""
    if server is None or server.process is None:
        return 0.0
    root = server.process.pid
    total = cpu_s(root)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == root:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def run_feeds(work: Path, journals: list[Path], tls: bool, db: Path | str, server: PostgresServer | None = None) -> float:
    """The journals fed into one pit with its database at `db`: its sustained records/s."""
    total = sum(1 for _ in journals) and None
    with Mosquitto(work / "broker", tls=tls) as broker:
        pit = PitProcess(work, broker.url, db, pki=broker.pki)
        time.sleep(1.0)  # the pit subscribed before the first feed publishes
        configs = []
        for n, journal in enumerate(journals, 1):
            directory = journal.parent
            configs.append(table_config(directory, journal, broker.url, f"t{n:02d}", broker.pki))
        expected = 0
        for journal in journals:
            with sqlite3.connect(journal) as conn:
                expected += conn.execute("SELECT count(*) FROM records").fetchone()[0]
        started = time.monotonic()
        server_before = server_cpu_s(server)
        feeds = [FeedProcess(work, config, name=f"feed-{n}") for n, config in enumerate(configs, 1)]
        first: tuple[float, int] | None = None  # when the first records were seen at the pit, and how many
        while (count := pit_count(db)) < expected:
            if first is None and count:
                first = (time.monotonic(), count)
            time.sleep(0.05)
            if time.monotonic() - started > 1800:
                raise SystemExit("gave up after 30 min")
        elapsed = time.monotonic() - started
        sustained = (expected - first[1]) / (time.monotonic() - first[0]) if first else float("nan")
        rss = peak_rss_mib(pit.child.pid)
        feed_rss = max(peak_rss_mib(f.child.pid) for f in feeds)
        cpu = {"feeds": sum(cpu_s(f.child.pid) for f in feeds), "pit": cpu_s(pit.child.pid),
               "broker": cpu_s(broker.child.pid)}
        if server is not None:
            cpu["postgresql"] = server_cpu_s(server) - server_before
        for feed in feeds:
            feed.child.stop()
        pit.child.stop()
        total = expected
    store = "sqlite" if isinstance(db, Path) else "postgresql"
    print(f"db={store} feeds={len(journals)} records={total} tls={tls} elapsed={elapsed:.2f}s "
          f"throughput={total / elapsed:,.0f} records/s (feed start -> all in the pit's database); "
          f"{sustained:,.0f} records/s from the first records at the pit (the feeds' start-up left out)")
    print(f"pit peak RSS {rss:.1f} MiB; largest feed peak RSS {feed_rss:.1f} MiB")
    print("CPU s per 1,000 records: " + ", ".join(f"{name} {seconds * 1000 / total:.3f}" for name, seconds in cpu.items())
          + f" (the machine's load average at the end: {os.getloadavg()[0]:.1f})")
    return sustained


def compare(work: Path, journals: list[Path], tls: bool, runs: int) -> None:
    """SQLite and PostgreSQL alternately (the machine's load drifts alike for both), fresh feeds each run."""
    figures: dict[str, list[float]] = {"sqlite": [], "postgresql": []}
    with PostgresServer(durable=True) as server:
        for run in range(runs):
            for store in figures:
                run_dir = work / f"{store}-{run}"
                copies = [copy_journal(j, run_dir / j.parent.name / "journal.sqlite") for j in journals]
                db = run_dir / "pit.sqlite" if store == "sqlite" else server.database(f"pit_{run}")
                figures[store].append(run_feeds(run_dir, copies, tls, db, None if store == "sqlite" else server))
    sqlite_rate, pg_rate = (statistics.median(figures[s]) for s in ("sqlite", "postgresql"))
    print(f"median sustained records/s: SQLite {sqlite_rate:,.0f}, PostgreSQL {pg_rate:,.0f}; "
          f"PostgreSQL / SQLite = {pg_rate / sqlite_rate:.2f} (runs: " +
          "; ".join(f"{s} " + ", ".join(f"{r:,.0f}" for r in rates) for s, rates in figures.items()) + ")")


def pace(work: Path, records: int, every_ms: float, tls: bool) -> None:
    with Mosquitto(work / "broker", tls=tls) as broker:
        db = work / "pit.sqlite"
        table = work / "t01"
        table.mkdir()
        journal_path = table / "journal.sqlite"
        config = table_config(table, journal_path, broker.url, "t01", broker.pki)
        pit = PitProcess(work, broker.url, db, pki=broker.pki)
        with Journal(journal_path) as journal, ControlServer(str(table / "control.sock"), lambda r: r.fail("bench")) as server:
            journal.append("daemon_started", {"bench": True})
            feed = FeedProcess(work, config)
            time.sleep(2.0)
            for n in range(records):
                record = journal.append("card", {"n": n, "card": "As", "hand": "player", "status": "dealt"})
                server.publish({"event": "card", "seq": record.seq})
                time.sleep(every_ms / 1000)
            deadline = time.monotonic() + 60
            while pit_count(db) < records + 1 and time.monotonic() < deadline:
                time.sleep(0.05)
        rows = pit_query(db, "SELECT at, received_at FROM records WHERE kind = 'card'")
        feed.child.stop()
        pit.child.stop()
    ms = sorted((_t(received) - _t(at)) * 1000 for at, received in rows)
    q = statistics.quantiles(ms, n=100)
    print(f"records={len(ms)} every {every_ms:g} ms tls={tls}: journal commit -> pit database "
          f"p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms")


def _t(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", choices=("one", "many", "pace"))
    parser.add_argument("--records", type=int)
    parser.add_argument("--feeds", type=int, default=20)
    parser.add_argument("--every-ms", type=float, default=20.0)
    parser.add_argument("--tls", action="store_true")
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="sqlite",
                        help="the pit's database (both: alternately, --runs times each, and their ratio)")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as tmp:
        work = Path(tmp)
        if args.case == "pace":
            pace(work, args.records or 600, args.every_ms, args.tls)
            return
        entries = shoe_entries(work)
        count = args.records or (100_000 if args.case == "one" else 10_000)
        feeds = 1 if args.case == "one" else args.feeds
        source = make_journal(work / "source.sqlite", entries, count)
        journals = [copy_journal(source, work / f"t{n:02d}" / "journal.sqlite") for n in range(1, feeds + 1)]
        if args.db == "both":
            compare(work, journals, args.tls, args.runs)
        elif args.db == "postgresql":
            with PostgresServer(durable=True) as server:
                run_feeds(work, journals, args.tls, server.database(), server)
        else:
            run_feeds(work, journals, args.tls, work / "pit.sqlite")


if __name__ == "__main__":
    main()
