"""Shared helpers for the pai gow tests: cards from text, setting checks."""
from __future__ import annotations

from games.cards import parse_card
from games.paigow.hands import CARD_INFO, high_value, low_value


def cards(text: str):
    """'K♣ Q♥ 9♠' or 'Kc,Qh,9s' or '@' (Appendix A's joker) -> Cards."""
    tokens = text.replace(",", " ").split()
    return [parse_card("JK" if t == "@" else t) for t in tokens]


def ranks(hand) -> list[int]:
    """Rank values with the joker apart (0), sorted: what a setting is up to interchangeable suits."""
    return sorted(0 if CARD_INFO[c][1] < 0 else CARD_INFO[c][0] for c in hand)


def same_setting(setting, low, high) -> bool:
    """True when `setting` is the expected one, or differs only by swapping cards of equal rank
    between the hands with both hand values unchanged (the suits of equal ranks are then
    interchangeable for every purpose: settlement, fouls, the bonus is set-independent)."""
    if set(setting.low) == set(low) and set(setting.high) == set(high):
        return True
    return (ranks(setting.low) == ranks(low) and ranks(setting.high) == ranks(high)
            and low_value(setting.low) == low_value(low) and high_value(setting.high) == high_value(high))
