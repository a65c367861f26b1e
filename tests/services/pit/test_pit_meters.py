"""The floor's meters (services/pit/meters.py): the table's meters fold run by the pit on each
table's records as they join the chain, stored per round in the pit's database (SQLite and a
real PostgreSQL server), equal to `tablectl meters` at the table; taken up again after a
restart; a void after a result withdraws the round; `tablectl pit meters` answers from the
database."""
from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from cli import main
from controller.journal import Journal, iter_records, open_readonly
from controller.journal.meters import fold_journal
from services.pit import PitStore
from services.pit.meters import PitMeters, floor_meters
from simulation.money_journal import MoneyDealer


def journal_of(path, game: str, seed: int, overpay: Fraction = Fraction(0)):
    with Journal(path) as journal:
        dealer = MoneyDealer(journal, game, rng=random.Random(seed))
        dealer.open_shift("day")
        dealer.deal(40, void_every=9)
        dealer.close_shift()
        dealer.open_shift("night")
        dealer.deal(50, overpay=overpay)
    conn = open_readonly(path)
    try:
        return list(iter_records(conn))
    finally:
        conn.close()


@pytest.fixture(scope="module")
def journals(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pit_meters")
    paths = {"s/t1": folder / "t1.sqlite", "s/t2": folder / "t2.sqlite"}
    return {"s/t1": (paths["s/t1"], journal_of(paths["s/t1"], "fortune7", 1, Fraction(1))),
            "s/t2": (paths["s/t2"], journal_of(paths["s/t2"], "fafa4", 2))}


def feed(url: str, records_by_table, upto: int | None = None) -> None:
    """What Pit._record does with each arrival: store it, then fold what joined the chain."""
    store = PitStore(url)
    meters = PitMeters(store.conn)
    try:
        for table, records in records_by_table.items():
            for record in records[:upto]:
                outcome = store.add(table, record)
                for joined in outcome.in_order:
                    meters.add(table, joined)
                store.commit()
    finally:
        store.close()


def test_the_pits_meters_are_the_tables_and_survive_a_restart(pit_db_url, journals):
    records = {table: rs for table, (_, rs) in journals.items()}
    feed(pit_db_url, records, upto=700)  # the pit stops mid-shoe, mid-shift ...
    feed(pit_db_url, {table: rs[650:] for table, rs in records.items()})  # ... and takes up (redeliveries too)
    store = PitStore(pit_db_url)
    try:
        floor = floor_meters(store.conn).to_json()
    finally:
        store.close()
    assert [t["table"] for t in floor["tables"]] == ["s/t1", "s/t2"]
    drop = Fraction(0)
    for row in floor["tables"]:
        at_table = fold_journal(journals[row["table"]][0]).report().to_json()
        for key in ("rounds", "void_rounds", "drop", "paid", "collected", "house_net", "theoretical_win_exact",
                    "variance", "bets"):
            assert row[key] == at_table["table"][key], key
        assert row["shifts"] == at_table["shifts"]
        drop += Fraction(row["drop"])
    assert Fraction(floor["floor"]["drop"]) == drop and floor["floor"]["tables"] == 2
    assert [(a["table"], a["shift"]) for a in floor["alarms"]] == [("s/t1", 2)]


def test_a_void_after_the_result_withdraws_the_round(pit_db_url, tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        MoneyDealer(journal, "fortune6", rng=random.Random(3)).deal(3, void_every=3)
    records = list(iter_records(open_readonly(path)))
    last_settlement = max(i for i, r in enumerate(records) if r.kind == "settlement" and not r.payload["void"])
    feed(pit_db_url, {"s/t": records[:last_settlement + 1]})
    store = PitStore(pit_db_url)
    try:
        assert floor_meters(store.conn).to_json()["tables"][0]["rounds"] == 3
        meters = PitMeters(store.conn)
        for record in records[last_settlement + 1:]:
            for joined in store.add("s/t", record).in_order:
                meters.add("s/t", joined)
        store.commit()
        table = floor_meters(store.conn).to_json()["tables"][0]
        assert (table["rounds"], table["void_rounds"]) == (2, 1)
    finally:
        store.close()


def test_tablectl_pit_meters(tmp_path, journals, capsys):
    db = str(tmp_path / "pit.sqlite")
    feed(db, {table: rs for table, (_, rs) in journals.items()})
    assert main(["pit", "meters", "--db", db, "--json", "--table", "t2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [t["table"] for t in data["tables"]] == ["s/t2"] and data["alarms"] == []
    assert main(["pit", "meters", "--db", db]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["table", "rounds", "drop", "house", "net", "hold", "%", "theo", "win", "sd",
                                           "z", "pace"]
    assert "floor (2 tables)" in out and "ALARM s/t1 shift 2: house net" in out
    assert main(["pit", "meters", "--db", db, "--json", "--shift", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all([s["shift"] for s in t["shifts"]] == [1] for t in data["tables"])
    assert data["floor"]["rounds"] == sum(t["rounds"] for t in data["tables"]) == 2 * (40 - 4)


def test_who_opened_a_shift_survives_a_restart_of_the_pit(pit_db_url, tmp_path):
    alice, bob = {"source": "socket", "user": "alice"}, {"source": "socket", "user": "bob"}
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal.append("command", {"name": "shift", "args": {"action": "open"}, "by": alice})
        journal.append("shift", {"action": "open", "shift": 1, "name": "day"})
        MoneyDealer(journal, "fortune6", rng=random.Random(4)).deal(5)
        journal.append("command", {"name": "shift", "args": {"action": "close"}, "by": bob})
        journal.append("shift", {"action": "close", "shift": 1, "name": "day"})
    records = list(iter_records(open_readonly(path)))
    feed(pit_db_url, {"s/t": records[:20]})
    feed(pit_db_url, {"s/t": records[20:]})  # a new pit process: the fold taken up from the database
    store = PitStore(pit_db_url)
    try:
        [shift] = floor_meters(store.conn).to_json()["tables"][0]["shifts"]
    finally:
        store.close()
    assert (shift["opened_by"], shift["closed_by"], shift["rounds"]) == (alice, bob, 5)
