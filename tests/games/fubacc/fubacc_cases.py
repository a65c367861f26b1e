"""Helpers the Fu Bacc tests share: play a round from card text, read a spot's bets."""
from games.cards import parse_cards
from games.fubacc.game import GAME
from games.replay import run_round


def cards(text: str):
    return parse_cards(text.split())


def play(text: str, decide: dict[int, str] | None = None, spots=(1,)):
    """Resolve a round from cards in shoe order; `decide` maps spot -> "play,hit" etc."""
    decisions = {spot: d.split(",") for spot, d in (decide or {}).items()}
    _, result = run_round(GAME, cards(text), spots=spots, decisions=decisions)
    return result


def bets(result, spot: int = 1) -> dict[str, tuple[str, str | None]]:
    """{wager: (result, pays)} for one spot, e.g. {"ante": ("win", "1:1"), ...}."""
    return {key: (bet.result.value, bet.pays) for key, bet in result.spots[spot]["bets"].items()}


def hand(result, spot: int = 1):
    view = result.spots[spot]["hand"]
    return [str(c) for c in view.cards], view.total
