"""`tablectl roads`: the JSON the issue specifies, the terminal drawing, and a bad token named
with exit 2 (through cli.main, and once as a real process)."""
import json
import subprocess
import sys

from cli import main


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_is_the_roads_of_the_tokens(capsys):
    code, out, err = _run(capsys, "roads", "--json", "T", "b+bp", "B", "p+pp", "P", "P", "B")
    assert code == 0 and err == ""
    board = json.loads(out)
    assert [(c["col"], c["row"], c["winner"], c["ties"]) for c in board["big_road"]] == [
        (0, 0, "B", 1), (0, 1, "B", 0), (1, 0, "P", 0), (1, 1, "P", 0), (1, 2, "P", 0), (2, 0, "B", 0)]
    assert board["big_road"][0]["banker_pair"] and board["big_road"][2]["player_pair"]
    # L = [2, 3, 1]: Big Eye Boy marks column 1 rows 1 (L[0]=2, not 1: red) and 2 (L[0]=2: blue), then
    # column 2's start (L[1]=3 vs L[0]=2: blue): red, then blue, blue in a new column.
    assert board["big_eye_boy"] == [{"col": 0, "row": 0, "colour": "red"}, {"col": 1, "row": 0, "colour": "blue"},
                                    {"col": 1, "row": 1, "colour": "blue"}]
    # Small Road: column 2's start would compare columns 1 and -1: no mark yet. A next P opens
    # column 3: L[2]=1 vs L[0]=2: blue.
    assert board["small_road"] == [] and board["ask"]["P"]["small_road"] == "blue"
    assert board["counts"] == {"B": 3, "P": 3, "T": 1, "banker_pair": 1, "player_pair": 1}
    assert len(board["bead_plate"]) == 7 and board["bead_plate"][6] == {
        "col": 1, "row": 0, "outcome": "B", "banker_pair": False, "player_pair": False}


def test_no_tokens_is_an_empty_shoe(capsys):
    code, out, _ = _run(capsys, "roads", "--json")
    assert code == 0 and json.loads(out)["big_road"] == []


def test_the_terminal_drawing(capsys):
    code, out, _ = _run(capsys, "roads", *(["B"] * 7), "P", "T+bp")
    assert code == 0
    lines = out.splitlines()
    big = lines[lines.index("big road") + 1: lines.index("big road") + 7]
    assert big[0] == "|B   P1"  # the P cell's tie counts on it; the tie's banker pair stays on its bead
    assert big[5] == "|B   B"  # the dragon tail along row 5
    assert "B 7  P 1  T 1  banker pairs 1  player pairs 0" in out


def test_a_bad_token_exits_2_naming_it(capsys):
    code, out, err = _run(capsys, "roads", "B", "Q+bp", "P")
    assert code == 2 and out == ""
    assert err.strip() == "tablectl roads: bad outcome 'Q+bp': an outcome is B, P or T, optionally followed by +bp and/or +pp"


def test_as_a_process():
    done = subprocess.run([sys.executable, "-m", "cli", "roads", "B", "B+xx"], capture_output=True, text=True)
    assert done.returncode == 2 and "bad outcome 'B+xx'" in done.stderr
    done = subprocess.run([sys.executable, "-m", "cli", "roads", "--json", "B", "P"], capture_output=True, text=True)
    assert done.returncode == 0 and json.loads(done.stdout)["counts"]["B"] == 1
