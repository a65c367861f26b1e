"""Deciding a dealt and set round: settings (fouls re-set), player vs dealer, bonuses, Envy."""
from __future__ import annotations

from games.cards import Card, parse_card
from games.paigow.bonus import envy_for_spots, fortune_outcome
from games.paigow.hands import describe_high, describe_low, high_value, is_foul, low_value
from games.paigow.house_way import Setting, house_way, setting_from_low
from games.paigow.rules import FORTUNE_BONUS, STANDARD
from games.round import LOSE, BetResult, HandView, RoundResult, RoundState, win

HOUSE = "house"


def spot_setting(cards: tuple[Card, ...], decision: str) -> tuple[Setting, bool]:
    """The setting a spot plays and whether the player's own setting fouled (§3.7.2: the
    dealer then re-sets it by the House Way)."""
    if decision == HOUSE:
        return house_way(cards), False
    first, second = (parse_card(token) for token in decision.split("+"))  # "Ks+Qs", checked by the game
    low = (first, second)
    own = setting_from_low(cards, low, "player's setting")
    if is_foul(high_value(own.high), low_value(own.low)):
        return house_way(cards), True
    return own, False


def _hand_views(setting: Setting) -> tuple[HandView, HandView, int, int]:
    high, low = high_value(setting.high), low_value(setting.low)
    return HandView(setting.high, describe_high(high)), HandView(setting.low, describe_low(low)), high, low


def _standard(high_wins: bool, low_wins: bool) -> BetResult:
    if high_wins and low_wins:
        return win(STANDARD, "win")  # §3.12
    if not high_wins and not low_wins:
        return LOSE  # §3.13, copies included (§3.15)
    return win(STANDARD, "tie")  # §3.14


def decide(state: RoundState) -> RoundResult:
    dealer_cards = state.hand("dealer")
    dealer = house_way(dealer_cards)
    dealer_high_view, dealer_low_view, dealer_high, dealer_low = _hand_views(dealer)
    outcomes = {spot: fortune_outcome(state.hand(f"spot{spot}")) for spot in state.spots}
    envy = envy_for_spots(outcomes, fortune_outcome(dealer_cards))
    decisions = dict(state.decisions)
    spots, notes = {}, []
    for spot in state.spots:
        cards = state.hand(f"spot{spot}")
        decision = decisions[spot]
        setting, fouled = spot_setting(cards, decision)
        high_view, low_view, high, low = _hand_views(setting)
        if fouled:
            notes.append(f"spot {spot}: setting {decision} fouled (low hand ranked higher than the high hand, "
                         f"paigow §3.7.2); re-set by the House Way: {' '.join(map(str, setting.low))} low")
        for name, mine, theirs in (("high", high, dealer_high), ("low", low, dealer_low)):
            if mine == theirs:
                notes.append(f"spot {spot}: {name} hand is a copy; the dealer wins it (paigow §3.15)")
        fortune = outcomes[spot]
        amount, excluded_by = envy[spot]
        spots[spot] = {
            "cards": list(cards),
            "setting": decision,
            "fouled": fouled,
            "reset_by_house_way": fouled,
            "house_way_rule": setting.rule if decision == HOUSE or fouled else None,
            "high": high_view,
            "low": low_view,
            "high_vs_dealer": "win" if high > dealer_high else "lose",
            "low_vs_dealer": "win" if low > dealer_low else "lose",
            "bets": {
                "standard": _standard(high > dealer_high, low > dealer_low),
                "fortune_bonus": win(FORTUNE_BONUS, fortune) if fortune else LOSE,
            },
            "fortune_hand": fortune,
            "envy": amount,  # fixed money (ruling 21), paid if this spot has a Fortune Bonus wager
            "envy_excluded_by": excluded_by,
        }
    hands = {
        "dealer": HandView(dealer.high + dealer.low, f"{dealer_high_view.total} / {dealer_low_view.total}"),
        "dealer_high": dealer_high_view,
        "dealer_low": dealer_low_view,
    }
    notes.append(f"dealer set by the House Way: {dealer.rule}")
    return RoundResult(game=state.game, winner=None, hands=hands, bets={}, spots=spots, notes=tuple(notes))
