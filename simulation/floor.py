"""The floor for tests and benchmarks: `tablectl feed` and `tablectl pit` as real processes
beside a rig's daemon and a real Mosquitto (simulation.mosquitto), each stopped by its PID.

    feed = FeedProcess(directory, config_path)          # tablectl feed --config FILE
    pit = PitProcess(directory, broker.url, db, ca=..., cert=..., key=...)   # tablectl pit --json
    pit.lines()                                         # its JSON lines so far
    publish(broker.port, [(topic, payload), ...])       # as another client of the broker
    wait_until(lambda: pit_export(db, "s1/t1") == journal_export(path), 60, "the pit has it all")
"""
from __future__ import annotations

import json
import shutil
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from controller.journal import Record
from services.pit.database import connect, is_url
from simulation.rig.processes import Child, RigError, child_env, python_module

WAIT = 60.0


def wait_until(condition: Callable[[], object], timeout: float, what: str, poll: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(poll)
    raise RigError(f"waited {timeout:g} s for {what}")


def publish(port: int, items: list[tuple[str, bytes]], timeout: float = WAIT) -> None:
    """Publish (topic, payload) pairs QoS 1 to the broker on 127.0.0.1:port, each acknowledged,
    as another client of the floor's broker would (plain MQTT 5)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=MQTTProtocolVersion.MQTTv5)
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        for topic, payload in items:
            client.publish(topic, payload, qos=1).wait_for_publish(timeout)
    finally:
        client.loop_stop()
        client.disconnect()


def feed_section(broker_url: str, table: str, state: Path, *, site: str = "s1", pki=None, **more) -> dict:
    """A [feed] config section for `table` (TLS with a fresh client certificate when `pki`)."""
    section = {"broker": broker_url, "table": table, "site": site, "state": str(state), **more}
    if pki is None:
        section.setdefault("insecure", True)
    else:
        cert, key = pki.client(f"{site}-{table}")
        section.update(ca=str(pki.ca), client_cert=str(cert), client_key=str(key))
    return section


class FeedProcess:
    def __init__(self, directory: Path, config_path: Path, name: str = "feed") -> None:
        self.child = Child(name, python_module("cli", "feed", "--config", str(config_path)), Path(directory),
                           env=child_env(PYTHONUNBUFFERED="1"))

    def log(self) -> list[dict]:
        return _json_lines(self.child.stdout_path)

    def logged(self, event: str) -> list[dict]:
        return [line for line in self.log() if line.get("event") == event]


class PitProcess:
    def __init__(self, directory: Path, broker_url: str, db: Path | str, *, pki=None, client: str = "pit", name: str = "pit",
                 extra: tuple[str, ...] = ()) -> None:
        argv = ["pit", "--json", "--broker", broker_url, "--db", str(db), "--client-id", f"tablectl-pit-{client}", *extra]
        if pki is None:
            argv.append("--insecure")
        else:
            cert, key = pki.client(client)
            argv += ["--ca", str(pki.ca), "--cert", str(cert), "--key", str(key)]
        self.db = db
        self.child = Child(name, python_module("cli", *argv), Path(directory), env=child_env(PYTHONUNBUFFERED="1"))

    def lines(self) -> list[dict]:
        return _json_lines(self.child.stdout_path)

    def log(self) -> list[dict]:
        return _json_lines(self.child.stderr_path)


def _json_lines(path: Path) -> list[dict]:
    out: list[dict] = []
    try:
        text = path.read_text(errors="replace")
    except FileNotFoundError:
        return out
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out


def journal_export(journal: Path) -> list[dict]:
    """Every record as `tablectl journal export` writes it."""
    from controller.journal import iter_records, open_readonly

    conn = open_readonly(journal)
    try:
        return [r.to_json() for r in iter_records(conn)]
    finally:
        conn.close()


def pit_export(db: Path | str, table: str) -> list[dict]:
    """A table's records in the pit's database, as `tablectl pit export` writes them."""
    rows = pit_query(db, "SELECT seq, at, mono_ns, kind, round, payload, prev_hash, hash FROM records "
                         "WHERE table_id = ? ORDER BY seq", table)
    return [Record(*row).to_json() for row in rows]


def pit_query(db: Path | str, sql: str, *args: object) -> list[tuple]:
    """Rows from the pit's database (a SQLite file, read-only, or a postgresql:// URL); none
    while the pit has not made it yet."""
    target = str(db)
    if not is_url(target):
        if not Path(target).exists():
            return []
        conn = sqlite3.connect(f"file:{target}?mode=ro", uri=True)
        try:
            return [tuple(row) for row in conn.execute(sql, args).fetchall()]
        except sqlite3.OperationalError:
            return []
        finally:
            conn.close()
    import psycopg  # only for a server

    database = connect(target)
    try:
        return [tuple(row) for row in database.execute(sql, args).fetchall()]
    except psycopg.errors.UndefinedTable:
        return []
    finally:
        database.close()


def copy_journal(source: Path, target: Path) -> Path:
    """A copy of a (closed) journal, for a table of its own."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target
