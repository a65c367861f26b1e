"""`tablectl paigow house-way`, `tablectl play paigow` and `tablectl odds paigow`, through
cli.main as the console script runs them."""
import json

import pytest

from cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_house_way_json(capsys):
    code, out, err = run(capsys, "paigow", "house-way", "K♣", "K♦", "K♥", "JK", "A♠", "J♦", "10♠", "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == {"high": ["Kh", "JK", "As", "Jd", "Ts"], "low": ["Kc", "Kd"]}


def test_house_way_text(capsys):
    code, out, _ = run(capsys, "paigow", "house-way", "7c", "7h", "7s", "7d", "Ah", "Jd", "5s")
    assert code == 0
    assert out.splitlines() == [
        "high: 7c 7h 7s 7d 5s  (Four of a Kind, 7s)",
        "low:  Ah Jd  (A-J)",
        "rule: A.7 four 7s-10s with Ace or Joker: Ace low, four high",
    ]


@pytest.mark.parametrize("argv, message", [
    (["As", "Kd", "JK", "7c", "7h", "3s"], "expected 7 cards, got 6"),
    (["As", "Kd", "JK", "7c", "7h", "3s", "2d", "4d"], "expected 7 cards, got 8"),
    (["As", "Kd", "JK", "7c", "7h", "3s", "as"], "duplicate card 'as'"),
    (["As", "Kd", "JK", "7c", "7h", "3s", "Xq"], "bad card 'Xq'"),
    (["As", "Kd", "JK", "7c", "7h", "3s", "4-gold"], "bad card '4-gold': not in the pai gow deck"),
])
def test_house_way_bad_input_exits_2_naming_the_token(capsys, argv, message):
    code, out, err = run(capsys, "paigow", "house-way", *argv)
    assert code == 2 and out == ""
    assert err.startswith("tablectl paigow: ") and message in err


def test_paigow_needs_a_tool(capsys):
    code, _, err = run(capsys, "paigow")
    assert code == 2 and "TOOL" in err


SHOE = ("As Ah Kd Qd 8s 7c 5h " "Jc 9d 7h 5c 3s 2h 4d " "Kc Qh 9s 6h 4c 3d 2s").split()


def test_play_paigow_json(capsys):
    code, out, _ = run(capsys, "play", "paigow", *SHOE, "--spots", "1,2", "--decide", "1=As+Ah", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["void"] is False and result["cards"] == SHOE
    one, two = result["spots"]["1"], result["spots"]["2"]
    assert one["setting"] == "As+Ah" and one["fouled"] is True  # aces low over a King-high hand
    assert one["low"]["cards"] == ["Kd", "Qd"]  # re-set by the House Way
    assert one["bets"]["standard"] == {"result": "win", "pays": "1:1 less 5%"}
    assert two["setting"] == "house" and two["bets"]["standard"]["result"] == "lose"
    assert result["dealer"]["cards"] == ["Kc", "6h", "4c", "3d", "2s", "Qh", "9s"]


def test_play_paigow_refuses_a_setting_naming_other_cards(capsys):
    code, out, err = run(capsys, "play", "paigow", *SHOE, "--spots", "1,2", "--decide", "1=Kc+Qh")
    assert code == 2 and out == ""
    assert "Kc is not one of the spot's cards" in err and "paigow §3.7.1" in err


def test_play_paigow_void_prints_the_clause(capsys):
    code, out, _ = run(capsys, "play", "paigow", *SHOE[:-1], "--spots", "1,2", "--json")
    assert code == 0
    result = json.loads(out)
    assert result["void"] is True and result["clause"] == "paigow §5.3"


def test_odds_paigow(capsys):
    code, out, _ = run(capsys, "odds", "paigow", "--json")
    assert code == 0
    report = json.loads(out)
    bet = report["bets"]["fortune_bonus"]
    assert bet["total"] == 154_143_080
    assert bet["house_edge_exact"] == "1915457/19267885"
    assert [o["outcome"] for o in bet["outcomes"]][:2] == ["seven_card_straight_flush", "royal_match"]
