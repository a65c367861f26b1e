"""`tablectl play fubacc` and `tablectl odds fubacc` through cli.main."""
import json

from cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_the_briefs_example_as_json(capsys):
    code, out, err = run(capsys, "play", "fubacc", "6h", "Kd", "2c", "8s", "7h", "Qd",
                         "--spots", "1", "--decide", "1=play,stay", "--json")
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["void"] is False and answer["winner"] is None
    assert answer["dealer"] == {"cards": ["8s", "7h", "Qd"], "total": 5}
    spot = answer["spots"]["1"]
    assert spot["decision"] == "play,stay" and spot["hand"] == {"cards": ["6h", "Kd"], "total": 6}
    assert spot["hit_card"] == "2c" and spot["hit_card_used"] is False
    assert spot["bets"] == {"ante": {"result": "win", "pays": "1:1"}, "play": {"result": "win", "pays": "1:1"},
                            "lucky_monkey": {"result": "lose", "pays": None}, "tie": {"result": "lose", "pays": None}}


def test_play_two_spots_settle_from_the_dealers_right(capsys):
    code, out, _ = run(capsys, "play", "fubacc", "Kd", "6h", "2c", "9h", "Kc", "3c", "8s", "7h", "Qd",
                       "--spots", "2,5", "--decide", "2=fold", "5=bonus", "--json")
    answer = json.loads(out)
    assert code == 0 and list(answer["spots"]) == ["5", "2"]
    assert answer["spots"]["5"]["bets"]["ante"] == {"result": "win", "pays": "2:1"}
    assert "spot 5, spot 2" in answer["notes"][0]


def test_play_void_is_a_result(capsys):
    code, out, _ = run(capsys, "play", "fubacc", "6h", "6h", "2c", "8s", "7h", "Qd", "--decide", "1=fold", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["void"] and answer["irregularity"] == "foreign_card"
    assert answer["clause"] == "local ruling L2 (fafa §5.1)"


def test_play_refused_decision_names_it(capsys):
    code, _, err = run(capsys, "play", "fubacc", "6h", "Kd", "2c", "8s", "7h", "Qd", "--decide", "1=bonus")
    assert code == 2 and "refused: spot 1: 'bonus' is not allowed now" in err and "fubacc procedures" in err


def test_play_missing_decision_lists_the_options(capsys):
    code, _, err = run(capsys, "play", "fubacc", "6h", "Kd", "2c", "8s", "7h", "Qd", "--decide", "1=play")
    assert code == 2 and "spot 1 must decide: one of hit, stay" in err


def test_play_text_output(capsys):
    code, out, _ = run(capsys, "play", "fubacc", "Qh", "6s", "5d", "Kc", "6d", "2s", "--decide", "1=play,stay")
    assert code == 0
    assert "dealer: Kc 6d  (6)" in out and "  hand: Qh 6s  (6)" in out
    assert "    tie: win 7:1" in out and "    play: push\n" in out and "    ante: lose\n" in out


def test_odds_json_has_the_strategy_table(capsys):
    code, out, err = run(capsys, "odds", "fubacc", "--json")
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert answer["game"] == "fubacc" and answer["decks"] == 1
    assert set(answer["bets"]) == {"ante", "tie", "lucky_monkey"}
    assert answer["bets"]["lucky_monkey"]["house_edge_exact"] == "1/17"
    for bet in answer["bets"].values():
        assert sum(o["count"] for o in bet["outcomes"]) == bet["total"]
    assert len(answer["tables"]["strategy"]) == 57
    assert any("per unit Ante" in note for note in answer["bets"]["ante"]["notes"])


def test_odds_text(capsys):
    code, out, _ = run(capsys, "odds", "fubacc")
    assert code == 0 and out.startswith("fubacc: 1 deck(s)")
    assert "ante: house edge" in out and "strategy:" in out and "M+M" in out


def test_odds_refuses_a_shoe(capsys):
    code, _, err = run(capsys, "odds", "fubacc", "--decks", "6")
    assert code == 2 and "--decks 6" in err
