"""`tablectl recall` and `tablectl journal verify|export|recovery` on a real journal file,
through the real command dispatcher; one run as a separate process while a writer holds
the journal open."""
import json
import sqlite3
import subprocess
import sys

import pytest
from journal_history import write_history

from cli import main
from controller.journal import Journal
from games.clauses import CLAUSES


@pytest.fixture
def history(journal_path):
    with Journal(journal_path) as writer:
        write_history(writer)
    return journal_path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_recall_shows_cards_results_and_voids_oldest_first(capsys, history):
    code, out, err = run(capsys, "recall", "--journal", str(history))
    assert code == 0 and err == ""
    blocks = out.split("\nround ")
    assert len(blocks) == 4 and blocks[0].startswith("round 1  fortune6  8 decks  shoe 1  ")
    assert blocks[0].splitlines()[0].endswith("  settled")
    assert "  cards    As (player)  Kd (banker)  9h (player)  8c (banker)" in blocks[0]
    assert "  winner   banker\n  player   As 9h (0)\n  banker   Kd 8c (8)\n" in blocks[0]
    assert "  bets     banker win 1:1 · player lose · tie lose" in blocks[0]
    assert "  irregularity  extra_card (fortune6 §5.1, void): a card after the round was complete" in blocks[1]
    assert "  VOID     fortune6 §5.1: extra card" in blocks[1] and blocks[1].splitlines()[0].endswith("VOID")
    # what the clause says, beside it, once
    assert blocks[1].count(f"           fortune6 §5.1: {CLAUSES['fortune6 §5.1'].says}\n") == 1
    assert blocks[2].splitlines()[0].endswith("decided, not yet settled")
    assert blocks[3].splitlines()[0].endswith("in progress") and "Qs (player)  Jd (banker)" in blocks[3]


def test_recall_last_and_json(capsys, history):
    code, out, _ = run(capsys, "recall", "--journal", str(history), "--last", "2", "--json")
    rounds = json.loads(out)
    assert code == 0 and [(r["round"], r["status"]) for r in rounds] == [(3, "decided"), (4, "open")]


def test_recall_reads_the_journal_path_from_a_config_file(capsys, history, tmp_path):
    config = tmp_path / "tablectl.toml"
    config.write_text(f'[journal]\npath = "{history.name}"\n')  # relative to the config file
    code, out, _ = run(capsys, "recall", "--config", str(config), "--last", "1")
    assert code == 0 and out.startswith("round 4  ")


def test_recall_of_an_empty_journal_says_so(capsys, journal_path):
    Journal(journal_path).close()
    assert run(capsys, "recall", "--journal", str(journal_path)) == (0, "no rounds in the journal yet\n", "")


@pytest.mark.parametrize("argv, code, message", [
    (["recall", "--journal", "/nonexistent/j.sqlite"], 1, "tablectl recall: no journal at /nonexistent/j.sqlite"),
    (["recall", "--last", "0", "--journal", "x"], 2, "tablectl recall: --last 0: must be at least 1"),
    (["recall", "--journal", "a", "--config", "b"], 2, "tablectl recall: argument --config: not allowed with argument --journal"),
    (["recall", "--config", "/nonexistent.toml"], 2, "tablectl recall: /nonexistent.toml: no such file"),  # a config error
    (["journal"], 2, "tablectl journal: the following arguments are required: {verify,check,export,recovery}"),
    (["journal", "verify", "--journal", "/nonexistent/j.sqlite"], 1, "tablectl journal: no journal at /nonexistent/j.sqlite"),
])
def test_bad_input_is_named(capsys, argv, code, message):
    got, out, err = run(capsys, *argv)
    assert (got, out, err.strip()) == (code, "", message)


def test_verify_exits_0_when_intact_and_1_naming_the_first_broken_record(capsys, history):
    code, out, _ = run(capsys, "journal", "verify", "--journal", str(history))
    assert code == 0 and out.startswith(f"{history}: ok: 26 records, chain intact")
    conn = sqlite3.connect(history)
    conn.execute("UPDATE records SET payload = replace(payload, 'Kd', 'Ks') WHERE seq = 7")
    conn.commit()
    conn.close()
    code, out, _ = run(capsys, "journal", "verify", "--journal", str(history), "--json")
    report = json.loads(out)
    assert code == 1 and (report["ok"], report["broken_seq"], report["head_seq"]) == (False, 7, 6)


def test_export_prints_json_lines(capsys, history):
    code, out, _ = run(capsys, "journal", "export", "--json", "--journal", str(history))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["seq"] for r in rows] == list(range(1, 27))
    assert rows[9]["kind"] == "result" and rows[9]["payload"]["winner"] == "banker"
    code, out, _ = run(capsys, "journal", "export", "--since", "25", "--journal", str(history))
    assert [json.loads(line)["seq"] for line in out.splitlines()] == [26]


def test_recovery_prints_what_a_restart_would_find(capsys, history):
    code, out, _ = run(capsys, "journal", "recovery", "--journal", str(history))
    state = json.loads(out)
    assert code == 0 and (state["next_round"], state["interrupted"]["round"], state["shoe"]["cards_dealt"]) == (5, 4, 14)


def test_a_separate_process_reads_while_the_writer_holds_the_journal(journal_path):
    with Journal(journal_path) as writer:
        write_history(writer)
        for argv in (["recall", "--last", "1"], ["journal", "verify"]):
            done = subprocess.run([sys.executable, "-m", "cli", *argv, "--journal", str(journal_path)],
                                  capture_output=True, text=True)
            assert done.returncode == 0, done.stderr
        writer.append("void", {"round": 4, "clause": "local ruling L4", "reason": "link lost"}, durable=True)
        done = subprocess.run([sys.executable, "-m", "cli", "recall", "--json", "--last", "1",
                               "--journal", str(journal_path)], capture_output=True, text=True)
        assert json.loads(done.stdout)[0]["status"] == "void"  # the reader saw the latest commit
