"""The pit does not trust a publisher: for a table enrolled with its public key, only what the
table's signed heads vouch for is verified. A publisher that recomputes a record's hash (the
forgery the chain alone cannot see) has its record kept apart once the table's signed head
arrives, never displacing a verified record, and the alarm names a forgery, not the table. A
wholly fake table (another key under an enrolled name) is never verified. Real journals, real
Ed25519 keys, the pit's real SQLite database."""
from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from controller.journal import Journal, Record, record_hash
from controller.journal.signing import TableSigner, new_key_pair, public_key_path
from services.pit import PitStore
from simulation.rig.processes import ROOT, child_env

TABLE = "s1/t12"


def make_key(directory):
    directory.mkdir(exist_ok=True)
    path = directory / "table.key"
    new_key_pair(path)
    return path


@pytest.fixture
def key(tmp_path):
    return make_key(tmp_path / "keys")


def table_records(path, key, rounds=2, table="t12") -> list[Record]:
    """A table's journal as its daemon writes it: records, a checkpoint's signed head after each batch."""
    signer = TableSigner.from_file(key, table)
    with Journal(path, signer=signer) as journal:
        for n in range(rounds):
            for m in range(5):
                journal.append("note", {"n": n, "m": m})
            journal.anchor(mirror=True)
        return list(journal.records())


def forged(record: Record, text: str = '{"n":99}') -> Record:
    """What a publisher without the key can do: other contents, the hash recomputed to match."""
    return dataclasses.replace(record, payload_text=text, hash=record_hash(
        record.prev_hash, record.seq, record.at, record.mono_ns, record.kind, record.round, text))


@pytest.fixture
def store(pit_db_url, key):
    made = PitStore(pit_db_url)
    made.enrol(TABLE, str(public_key_path(key)))
    yield made
    made.close()


def add_all(store, records, table=TABLE):
    outcomes = [store.add(table, record) for record in records]
    store.commit()
    return outcomes


def alarms(store, kind=None):
    return [(a.seq, a.kind) for a in store.alarms(TABLE) if kind is None or a.kind == kind]


def test_records_up_to_each_signed_head_are_verified(store, tmp_path, key):
    records = table_records(tmp_path / "j.sqlite", key)
    heads = [r.seq for r in records if r.kind == "signed_head"]
    add_all(store, records[:heads[0] - 1])
    assert store.verified.get(TABLE) is None  # shown live, not yet vouched for
    add_all(store, records[heads[0] - 1:])
    assert store.verified[TABLE][0] == heads[-1] - 1  # the last signed head names the record before it
    assert store.alarms() == [] and list(store.records(TABLE)) == records


def test_a_forged_record_first_is_replaced_by_the_tables_own_and_kept_apart(store, tmp_path, key):
    records = table_records(tmp_path / "j.sqlite", key)
    fake = forged(records[2])
    add_all(store, records[:2] + [fake])  # the forger's record 3 arrives first: it chains, its hash matches
    assert [r.hash for r in store.records(TABLE)][2] == fake.hash
    add_all(store, records[2:])  # the table's own record 3, then the rest with its signed head
    assert list(store.records(TABLE)) == records  # the table's own record took its place
    assert store.verified[TABLE][0] == records[-1].seq - 1
    apart = store.apart(TABLE)
    assert apart == [(fake, "forgery")]
    forgery = [a for a in store.alarms(TABLE) if a.kind == "forgery"]
    assert [a.seq for a in forgery] == [3] and "a forgery by whoever published it" in forgery[0].detail
    assert not any("the journal at the table was changed" in a.detail for a in store.alarms(TABLE))
    assert not [a for a in store.alarms(TABLE, open_only=True) if a.kind != "forgery"]  # contested, bad_chain: cleared


def test_a_forged_record_after_verification_never_displaces_the_verified_one(store, tmp_path, key):
    records = table_records(tmp_path / "j.sqlite", key)
    add_all(store, records)
    fake = forged(records[2])
    add_all(store, [fake, fake])  # redelivered too: one alarm
    assert list(store.records(TABLE)) == records
    assert store.apart(TABLE) == [(fake, "forgery")]
    assert alarms(store) == [(3, "forgery")]
    assert "than s1/t12's signed record: a forgery by whoever published it" in store.alarms(TABLE)[0].detail


def test_a_forgery_arriving_second_is_named_when_the_signed_head_comes(store, tmp_path, key):
    records = table_records(tmp_path / "j.sqlite", key)
    first_head = next(r.seq for r in records if r.kind == "signed_head")
    add_all(store, records[:4])
    add_all(store, [forged(records[2])])  # contested: nobody can tell yet
    assert alarms(store) == [(3, "contested")]
    add_all(store, records[4:first_head])
    assert list(store.records(TABLE)) == records[:first_head]
    assert store.apart(TABLE) == [(forged(records[2]), "forgery")]
    assert alarms(store) == [(3, "contested"), (3, "forgery")] and not store.alarms(TABLE, open_only=True)[:-1]


def test_a_wholly_fake_table_is_never_verified_as_the_enrolled_one(store, tmp_path):
    impostor = make_key(tmp_path / "impostor")
    fake = table_records(tmp_path / "fake.sqlite", impostor)  # its own key, signing as t12
    add_all(store, fake)
    assert store.verified.get(TABLE) is None
    forgeries = [a for a in store.alarms(TABLE) if a.kind == "forgery"]
    assert forgeries and all("claims to be s1/t12's signed head, but it is signed with key" in a.detail for a in forgeries)
    first_head = next(r for r in fake if r.kind == "signed_head")
    assert store.apart(TABLE) == [(first_head, "forgery")]  # the forged head, at the end of what had arrived: apart
    assert store.missing(TABLE)[0] == first_head.seq  # the table's own record there is asked for again


def test_a_table_that_is_not_enrolled_is_stored_but_nothing_is_verified(pit_db_url, tmp_path, key):
    store = PitStore(pit_db_url)
    records = table_records(tmp_path / "j.sqlite", key)
    add_all(store, records, "s1/t99")
    assert list(store.records("s1/t99")) == records and "s1/t99" not in store.verified
    assert "s1/t99" not in store.enrolled
    store.close()


def test_verification_survives_a_restart_of_the_pit(pit_db_url, tmp_path, key):
    records = table_records(tmp_path / "j.sqlite", key)
    store = PitStore(pit_db_url)
    store.enrol(TABLE, str(public_key_path(key)))
    add_all(store, records)
    store.close()
    again = PitStore(pit_db_url)
    again.load_enrolled()
    assert again.verified[TABLE][0] == records[-1].seq - 1
    fake = forged(records[1])
    again.add(TABLE, fake)
    again.commit()
    assert [a.kind for a in again.alarms(TABLE)] == ["forgery"]
    again.close()


def test_pit_enroll_names_the_key_and_refuses_what_is_no_key(pit_db_url, tmp_path, key):
    db = pit_db_url
    not_a_key = tmp_path / "not-a-key.pem"
    not_a_key.write_text("a pit database is not a key\n")
    PitStore(db).close()
    done = subprocess.run([sys.executable, "-m", "cli", "pit", "enroll", TABLE, str(public_key_path(key)), "--db", str(db)],
                          cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    store = PitStore(db)
    store.load_enrolled()
    assert done.stdout.startswith(f"enrolled {TABLE}: key id {store.enrolled[TABLE].key_id}")
    store.close()
    bad = subprocess.run([sys.executable, "-m", "cli", "pit", "enroll", TABLE, str(not_a_key), "--db", str(db)],
                         cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "not a table public key file" in bad.stderr or "not a PEM public key" in bad.stderr
    plain = subprocess.run([sys.executable, "-m", "cli", "pit", "enroll", "t12", str(public_key_path(key)), "--db", str(db)],
                           cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=60)
    assert plain.returncode == 2 and "give SITE/TABLE" in plain.stderr


def test_a_record_edited_in_transit_is_replaced_by_the_tables_own_and_its_alarm_cleared(store, tmp_path, key):
    records = table_records(tmp_path / "j.sqlite", key)
    edited = dataclasses.replace(records[2], payload_text='{"n":99}')  # the hash left as it was: it does not match
    add_all(store, records[:2] + [edited] + records[3:5])
    assert alarms(store) == [(3, "bad_hash")]
    add_all(store, [records[2]] + records[5:])  # the table's own record 3 (a replay), then its signed head
    assert list(store.records(TABLE)) == records and store.verified[TABLE][0] == records[-1].seq - 1
    assert store.apart(TABLE) == [(edited, "forgery")]
    assert [a.kind for a in store.alarms(TABLE, open_only=True)] == ["forgery"]
