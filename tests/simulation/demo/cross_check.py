"""Each demo round against the rules engine: the cards the daemon reports, replayed through
games.replay.play_json with the same spots and decisions, give the same winner and bets, and
the lights simulator's lamps show every bet's outcome (on win, slow blink push, off lose)."""
from __future__ import annotations

from games.cards import parse_card
from games.fubacc.strategy import optimal_strategy
from games.registry import get_game
from games.replay import play_json, run_round

LAMP_FOR = {"win": "on", "push": "slow", "lose": "off"}


def replay(line: dict) -> dict:
    game = get_game(line["game"])
    spots = tuple(line.get("live_spots", ()))
    decisions = {int(spot): list(made) for spot, made in line.get("decisions", {}).items()}
    return play_json(game, [parse_card(c) for c in line["cards"]], spots=spots, decisions=decisions)


def board(line: dict) -> dict[str, str]:
    """The lit lamps with their pattern (unlisted lamps are off)."""
    return {name: line["blinking"].get(name, "on") for name in line["lamps"]}


def check_result_round(line: dict) -> None:
    assert line["void"] is False and line["clause"] is None
    engine = replay(line)
    assert engine["void"] is False, f"the rules engine voids round {line['round']}: {engine}"
    assert engine["winner"] == line["winner"]
    assert engine["bets"] == line["bets"]
    assert engine.get("spots", {}) == line.get("spots", {})
    lit = board(line)
    assert lit.get("result") == "on"
    if line["winner"] is not None:
        assert lit.get(f"bet_{line['winner']}") == "on", f"the winner's lamp is not lit: {line['lamps']}"
    for key, bet in line["bets"].items():
        assert lit.get(f"bet_{key}", "off") == LAMP_FOR[bet["result"]], f"bet_{key} ({bet['result']}): {lit}"
    for spot, detail in line.get("spots", {}).items():
        assert lit.get(f"spot{spot}") == "on"
        for key, bet in detail["bets"].items():
            assert lit.get(f"spot{spot}_{key}", "off") == LAMP_FOR[bet["result"]], f"spot{spot}_{key}: {lit}"


def optimal_actions(line: dict) -> dict[str, str]:
    """What games/fubacc/strategy.py says each spot of a Fu Bacc round should do, from the
    spot's two cards and the up card as the rules engine deals them."""
    game = get_game("fubacc")
    spots = tuple(line["live_spots"])
    decisions = {int(spot): list(made) for spot, made in line["decisions"].items()}
    state, _ = run_round(game, [parse_card(c) for c in line["cards"]], spots=spots, decisions=decisions)
    table = {(*c.situation.hand, c.situation.up): c.action for c in optimal_strategy(1)}
    up = state.hand("dealer")[0].point
    return {str(spot): table[(*sorted(card.point for card in state.hand(f"spot{spot}")[:2]), up)] for spot in spots}
