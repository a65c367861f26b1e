"""The journal's authenticity at start-up, against the real daemon on the rig (which provisions
a table key of its own): a deleted anchor with the tail cut, an edit before the last anchor and
another table's journal copied in with its anchor are each refused, and the log, STATUS= and
`tablectl status` name the first broken record exactly as `tablectl journal verify` does. On
a journal larger than `journal.walk_at_start`, the walk before the anchor runs in the
background while the table deals, and a journal that fails it holds the next shoe."""
from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys

import pytest

from controller.journal import anchor_path
from simulation.rig.processes import ROOT, child_env

pytestmark = pytest.mark.hil
WAIT = 30.0  # guards against hanging, never a measure of speed


def journal_verify(rig) -> dict:
    done = subprocess.run([sys.executable, "-m", "cli", "journal", "verify", "--config", str(rig.config_path), "--json"],
                          cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=WAIT)
    return json.loads(done.stdout)


def tamper(path, sql, *args):
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(sql, args)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def played(start_rig, seed, **options):
    """A rig that dealt two rounds (a checkpoint anchor and its mirror between them) and stopped."""
    rig = start_rig("fortune6", seed=seed, **options)
    rig.new_shoe()
    assert rig.play_round()["event"] == "result"
    assert rig.play_round()["event"] == "result"
    assert rig.stop_daemon() == 0
    return rig


def refused_as_verify_says(rig, problem):
    """The daemon refuses; its log, STATUS= and status name what `journal verify` names."""
    verified = journal_verify(rig)
    assert not verified["ok"], verified
    rig.start_daemon()
    status = rig.status()
    check = status["journal_check"]
    assert status["state"] == "journal_broken" and check["problem"] == problem, check
    assert (check["broken_seq"], check["head_seq"], check["reason"]) == (
        verified["broken_seq"], verified["head_seq"], verified["reason"])
    at = f" at record {verified['broken_seq']}" if verified["broken_seq"] is not None else ""
    assert status["message"].startswith(f"journal broken{at} ({problem}): {verified['reason']}")
    said = [m.fields["STATUS"] for m in rig.notify.messages if "READY" in m.fields and m.pid == rig.daemon.pid]
    assert said and said[-1] == status["message"]
    logged = [json.loads(text) for text in rig.daemon.output().splitlines() if '"journal_broken"' in text][-1]
    assert (logged["first_broken_record"], logged["last_good_record"], logged["problem"]) == (
        verified["broken_seq"], verified["head_seq"], problem)
    assert not rig.send("place_bets")["ok"]
    return verified


def test_a_deleted_anchor_and_a_cut_tail_are_refused(start_rig):
    rig = played(start_rig, 31)
    kinds = [record.kind for record in rig.records()]
    mirror = max(seq for seq, kind in enumerate(kinds, 1) if kind == "signed_head")
    signed = json.loads(sqlite3.connect(rig.journal_path).execute(
        "SELECT payload FROM records WHERE seq = ?", (mirror,)).fetchone()[0])["seq"]
    tamper(rig.journal_path, "DELETE FROM records WHERE seq > ?", mirror + 3)
    anchor_path(rig.journal_path).unlink()
    verified = refused_as_verify_says(rig, "no_anchor")
    assert (verified["broken_seq"], verified["head_seq"]) == (signed + 1, signed)


def test_an_edit_before_the_last_anchor_is_refused_naming_the_record(start_rig):
    rig = played(start_rig, 32)
    edited = next(record.seq for record in rig.records() if record.kind == "card")
    tamper(rig.journal_path, "UPDATE records SET payload = replace(payload, '}', ',\"x\":1}') WHERE seq = ?", edited)
    verified = refused_as_verify_says(rig, "broken_chain")
    assert (verified["broken_seq"], verified["head_seq"]) == (edited, edited - 1)


def test_another_tables_journal_copied_in_with_its_anchor_is_refused(start_rig, tmp_path):
    other = played(start_rig, 33)  # another table: a rig of its own, a key of its own, the same table id
    rig = played(start_rig, 34)
    for suffix in ("", ".anchor"):
        shutil.copy(f"{other.journal_path}{suffix}", f"{rig.journal_path}{suffix}")
    for suffix in ("-wal", "-shm"):
        (rig.journal_path.parent / f"journal.sqlite{suffix}").unlink(missing_ok=True)
    verified = refused_as_verify_says(rig, "foreign")
    assert "not this table's key" in verified["reason"]


def test_a_large_journal_is_walked_in_the_background_and_a_broken_one_holds_the_next_shoe(start_rig):
    rig = played(start_rig, 35, config={"journal": {"walk_at_start": 0}})  # every journal is "large"
    edited = next(record.seq for record in rig.records() if record.kind == "card")
    tamper(rig.journal_path, "UPDATE records SET payload = replace(payload, '}', ',\"x\":1}') WHERE seq = ?", edited)
    verified = journal_verify(rig)
    rig.start_daemon()  # the fast check passes: the table deals while the walk runs
    rig.wait_until(lambda: rig.status()["daemon"]["journal"]["shoe_held"] is not None, WAIT, "the walk to fail")
    journal = rig.status()["daemon"]["journal"]
    assert journal["signing"]["walk"]["broken_seq"] == verified["broken_seq"] == edited
    assert journal["shoe_held"].startswith(f"journal broken at record {edited}: {verified['reason']} "
                                           f"(last good record {edited - 1})")
    assert rig.status()["daemon"]["status"].startswith(f"journal broken at record {edited}: the next shoe is held")
    logged = [json.loads(text) for text in rig.daemon.output().splitlines() if '"journal_broken"' in text][-1]
    assert (logged["first_broken_record"], logged["last_good_record"]) == (edited, edited - 1)
    assert rig.play_round()["event"] == "result"  # the shoe in play goes on
    refused = rig.send("new_shoe")
    assert not refused["ok"] and refused["error"].startswith(f"new_shoe refused: journal broken at record {edited}")


def test_a_table_told_unsigned_deals_and_says_so(start_rig):
    rig = start_rig("fortune6", seed=36, config={"journal": {"unsigned": True}})
    status = rig.status()
    assert status["daemon"]["journal"]["signing"] == {"signed": False}
    assert status["daemon"]["status"].startswith("journal unsigned (journal.unsigned = true): nothing vouches for it")
    assert "signed" not in anchor_path(rig.journal_path).read_text()
    assert rig.play_round()["event"] == "result"


def test_on_a_large_journal_a_refusal_is_named_exactly_once_the_walk_is_done(start_rig):
    rig = played(start_rig, 37, config={"journal": {"walk_at_start": 0}})  # every journal is "large"
    mirror = max(seq for seq, record in enumerate(rig.records(), 1) if record.kind == "signed_head")
    tamper(rig.journal_path, "DELETE FROM records WHERE seq > ?", mirror + 3)
    anchor_path(rig.journal_path).unlink()
    verified = journal_verify(rig)
    rig.start_daemon()  # refused at once (READY=1 with the refusal), named once the walk is done
    rig.wait_until(lambda: rig.status()["journal_check"]["broken_seq"] == verified["broken_seq"], WAIT,
                   "the walk to name the first broken record")
    status = rig.status()
    check = status["journal_check"]
    assert (check["problem"], check["head_seq"], check["reason"]) == ("no_anchor", verified["head_seq"], verified["reason"])
    assert status["message"].startswith(f"journal broken at record {verified['broken_seq']} (no_anchor): {verified['reason']}")
    rig.wait_until(lambda: any(m.fields.get("STATUS") == status["message"] for m in rig.notify.messages
                               if m.pid == rig.daemon.pid), WAIT, "STATUS= to say it")
    logged = [json.loads(t) for t in rig.daemon.output().splitlines() if '"journal_broken"' in t]
    assert logged, rig.daemon.output()
    assert (logged[-1]["first_broken_record"], logged[-1]["last_good_record"], logged[-1].get("named_by")) == (
        verified["broken_seq"], verified["head_seq"], "the walk of every record"), logged
