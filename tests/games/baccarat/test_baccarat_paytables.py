"""Every line of every pay table, each with a concrete round in shoe order through
games.replay.play_json (what `tablectl play --json` prints). A case lists every betting
area: "win 12:1", "push" (pays "push") or "lose"."""
from fractions import Fraction

import pytest
from baccarat_helpers import GAMES

from games.cards import parse_cards
from games.replay import play_json, run_round

F6 = ("player", "banker", "tie", "player_pair", "banker_pair", "fortune6")
F7 = ("player", "banker", "tie", "one_up", "fortune7")
FA = ("player", "banker", "tie", "player_fabulous4", "banker_fabulous4", "player_precious_pair",
      "banker_precious_pair")

# (game, cards in shoe order, winner, player total, banker total, results in the order of the keys)
CASES = [
    # P 2 K 9 = 1, B 3 3 = 6 on two cards; banker stands on 6 against a 9
    ("fortune6", "2s 3h Kd 3c 9s", "banker", 1, 6, "lose|win 1:1|lose|lose|win 11:1|win 12:1"),
    # P T J 5 = 5, B A 2 3 = 6 on three cards; T and J are no pair (ruling 11)
    ("fortune6", "Ts As Js 2h 5s 3d", "banker", 5, 6, "lose|win 1:1|lose|lose|lose|win 20:1"),
    ("fortune6", "4s 2s 4h 3s", "player", 8, 5, "win 1:1|lose|lose|win 11:1|lose|lose"),
    ("fortune6", "9s 9h Ks Kh", "tie", 9, 9, "push|push|win 8:1|lose|lose|lose"),
    ("fortune6", "9s Qh Ks Qd", "player", 9, 0, "win 1:1|lose|lose|lose|win 11:1|lose"),
    ("fortune6", "2s 7h 4s Kh", "banker", 6, 7, "lose|win 1:1|lose|lose|lose|lose"),

    ("fortune7", "2s 3h Kd 3c 9s", "banker", 1, 6, "lose|win 1:1|lose|lose|lose"),
    # B A 2 4 = three-card 7 beats P 5: Banker line pushes, Fortune 7 pays 40:1 (ruling 6)
    ("fortune7", "Ts As Js 2h 5s 4d", "banker", 5, 7, "lose|push|lose|lose|win 40:1"),
    # P 1 beats B 0 by one: One Up 30:1 (ruling 7)
    ("fortune7", "As Th Ks Qh Td Kd", "player", 1, 0, "win 1:1|lose|lose|win 30:1|lose"),
    ("fortune7", "3s 2h 4s 4h", "player", 7, 6, "win 1:1|lose|lose|win 9:1|lose"),
    ("fortune7", "9s 2h Ks 4h", "player", 9, 6, "win 1:1|lose|lose|lose|lose"),
    ("fortune7", "7s 7h Ks Kh", "tie", 7, 7, "push|push|win 8:1|lose|lose"),
    # a two-card banker 7 wins 1:1 and is no Fortune 7
    ("fortune7", "3s 3h 3d 4h", "banker", 6, 7, "lose|win 1:1|lose|lose|lose"),

    # P A 10 10 = 1 beats B 0: player wins with 1 pays 2:1
    ("fafa4", "A-fire 10-earth 10-gold S-fire 10-wood L-fire", "player", 1, 0,
     "win 2:1|lose|lose|lose|lose|lose|lose"),
    # P 2 2 10 = 4 beats B 3: 1:2, Player Fabulous 4 50:1; 2-fire 2-gold is an other pair
    ("fafa4", "2-fire 10-gold 2-gold 3-fire 10-fire 10-wood", "player", 4, 3,
     "win 1:2|lose|lose|win 50:1|lose|win 9:1|lose"),
    # B 2 2 10 = 4 beats P 3: banker pushes, Banker Fabulous 4 25:1, the player loses (ruling 5)
    ("fafa4", "10-fire 2-wood 10-gold 2-water 3-fire 10-wood", "banker", 3, 4,
     "lose|push|lose|lose|win 25:1|win 9:1|win 9:1"),
    ("fafa4", "10-fire A-fire 10-gold 10-earth 10-wood 10-water", "banker", 0, 1,
     "lose|win 2:1|lose|lose|lose|win 9:1|lose"),
    ("fafa4", "9-fire 2-fire 10-fire 3-fire", "player", 9, 5, "win 1:1|lose|lose|lose|lose|lose|lose"),
    ("fafa4", "2-fire 8-fire 3-fire 10-fire", "banker", 5, 8, "lose|win 1:1|lose|lose|lose|lose|lose"),
    ("fafa4", "9-fire 9-gold 10-fire 10-gold", "tie", 9, 9, "push|push|win 8:1|lose|lose|lose|lose"),
    # all four cards 4s: Tie on Element Eights pays 800:1 instead of 8:1 (ruling 4)
    ("fafa4", "4-gold 4-fire 4-wood 4-water", "tie", 8, 8, "push|push|win 800:1|lose|lose|win 15:1|win 15:1"),
    # a natural 8 tie of 4+4 against 8+10 is a plain tie
    ("fafa4", "4-gold 8-fire 4-wood 10-water", "tie", 8, 8, "push|push|win 8:1|lose|lose|win 15:1|lose"),
    ("fafa4", "4-gold 10-fire 4-gold 10-wood", "player", 8, 0, "win 1:1|lose|lose|lose|lose|win 30:1|win 9:1"),
    ("fafa4", "10-fire 4-gold 10-wood 4-gold", "banker", 0, 8, "lose|win 1:1|lose|lose|lose|win 9:1|win 30:1"),
    # two Gold Saus: gold pair 12:1; 10 and S of gold are no pair (ruling 2)
    ("fafa4", "S-gold 10-gold S-gold 9-gold", "banker", 0, 9, "lose|win 1:1|lose|lose|lose|win 12:1|lose"),
    ("fafa4", "9-gold F-gold 10-gold F-gold", "player", 9, 0, "win 1:1|lose|lose|lose|lose|lose|win 12:1"),
]
KEYS = {"fortune6": F6, "fortune7": F7, "fafa4": FA}


def _expected(game_key, text):
    out = {}
    for key, word in zip(KEYS[game_key], text.split("|")):
        result, _, pays = word.partition(" ")
        out[key] = {"result": result, "pays": pays or ("push" if result == "push" else None)}
    return out


@pytest.mark.parametrize("game_key,cards,winner,p_total,b_total,results", CASES, ids=[c[1] for c in CASES])
def test_round(game_key, cards, winner, p_total, b_total, results):
    out = play_json(GAMES[game_key], parse_cards(cards.split()))
    assert out["void"] is False and out["clause"] is None
    assert out["winner"] == winner
    assert (out["player"]["total"], out["banker"]["total"]) == (p_total, b_total)
    assert out["cards"] == [str(c) for c in parse_cards(cards.split())]
    assert out["bets"] == _expected(game_key, results)


def _lines_hit():
    hit = set()
    for game_key, cards, *_ in CASES:
        _, result = run_round(GAMES[game_key], parse_cards(cards.split()))
        hit.update((game_key, key, bet.line.outcome) for key, bet in result.bets.items() if bet.line)
    return hit


def test_every_pay_line_has_a_case():
    every = {(k, w.key, line.outcome) for k, g in GAMES.items() for w in g.wagers.values() for line in w.lines}
    assert every - _lines_hit() == set()


def test_the_pays_are_money():
    """1:2 pays half the stake; a push returns it; a loss takes it."""
    game = GAMES["fafa4"]
    _, result = run_round(game, parse_cards("2-fire 10-gold 2-gold 3-fire 10-fire 10-wood".split()))
    assert result.bets["player"].net(10) == Fraction(5)
    assert result.bets["player_fabulous4"].net(2) == 100
    assert result.bets["banker"].net(10) == -10
    _, result = run_round(game, parse_cards("10-fire 2-wood 10-gold 2-water 3-fire 10-wood".split()))
    assert result.bets["banker"].net(10) == 0
