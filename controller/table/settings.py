"""Table settings: burn, cut card, card timeout, default spots, deck per round, the player-dealer,
the integrity checks' false-alarm rate.

The daemon builds them from the config file ([shoe], [timeouts], [table], [fortune7], [integrity]);
`TableSettings.for_game` gives the defaults a game is dealt with (its table profile).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from games.integrity import DEFAULT_FALSE_ALARM_RATE
from games.money import MoneyRules, TableLimits
from games.registry import get_table_profile
from games.round import Game


class SettingsError(ValueError):
    """A setting the table cannot use; `key` names it."""

    def __init__(self, key: str, reason: str):
        self.key = key
        super().__init__(f"{key}: {reason}")


@dataclass(frozen=True)
class TableSettings:
    # A new shoe burns: the first card is turned and its value says how many more cards are
    # burned (ace 1, two to nine face value, tens, pictures and the joker count burn_picture_value).
    burn: bool = True
    burn_picture_value: int = 10
    # After the cut card is seen: finish the round in progress and play this many more.
    cut_card_rounds: int = 1
    # No card within this many seconds while one is due = a missing card (None: no timer).
    card_timeout_s: float | None = 30.0
    # Live spots for games dealt to spots (Fu Bacc, Pai Gow) until the `spots` command says otherwise.
    spots: tuple[int, ...] = ()
    # A fresh deck every round (a shuffler; Pai Gow ruling 17a): the shoe checks are per round.
    deck_per_round: bool = False
    # A player-dealer game (Fortune 7): the seated players who take the position when it is offered to
    # them (it rotates clockwise among them every two hands: games.baccarat.california.rotation)
    # and the first holder (None: the first of them clockwise from seat 1). The `player_dealer`
    # command overrides the holder between hands.
    player_dealer_seats: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)
    player_dealer_seat: int | None = None
    # Fortune 7's collection fee schedule, option 1-26 (rulings 9, 25): with one, the table takes the
    # player-dealer's bank and the fees (controller.table.california); None (code only: the daemon
    # always sets [fortune7] collection_schedule): Fortune 7's wagers settle against the house.
    collection_schedule: int | None = None
    # The shoe integrity checks (local ruling L7): how often a fairly shuffled shoe (a deck, on a
    # deck-per-round table) may be called, all checks together.
    false_alarm_rate: Fraction = DEFAULT_FALSE_ALARM_RATE
    # The shoes (decks) whose openings the replayed check remembers, the most recent (None: all).
    history_shoes: int | None = 1000
    # Money (docs/money.md): the minor unit and rounding (local ruling L9), the currency amount one
    # unit of a chip's tag value stands for (0.01: tags carry cents), the limits per bet.
    money: MoneyRules = MoneyRules()
    chip_unit: Fraction = Fraction(1, 100)
    limits: TableLimits = TableLimits()

    @classmethod
    def for_game(cls, game: Game, **overrides) -> TableSettings:
        """The defaults `game` is dealt with (its table profile: a shoe game burns; the spot
        games take a fresh deck every round from a shuffler, spot 1 live), then `overrides`."""
        profile = get_table_profile(game.key)
        base = cls(burn=profile.burn, spots=profile.default_spots, deck_per_round=profile.deck_per_round)
        return replace(base, **overrides)

    def check(self, game: Game) -> TableSettings:
        """Raise SettingsError naming the first bad setting for `game`; return self."""
        if not isinstance(self.burn_picture_value, int) or not 1 <= self.burn_picture_value <= 13:
            raise SettingsError("burn_picture_value", f"{self.burn_picture_value!r} is not 1..13")
        if not isinstance(self.cut_card_rounds, int) or self.cut_card_rounds < 0:
            raise SettingsError("cut_card_rounds", f"{self.cut_card_rounds!r} is not a count of rounds (0 or more)")
        if self.card_timeout_s is not None and not (
                isinstance(self.card_timeout_s, (int, float)) and self.card_timeout_s > 0):
            raise SettingsError("card_timeout_s", f"{self.card_timeout_s!r} is not a positive number of seconds")
        if not isinstance(self.false_alarm_rate, (int, Fraction)) or not 0 < self.false_alarm_rate < 1:
            raise SettingsError("false_alarm_rate", f"{self.false_alarm_rate!r} is not an exact probability between 0 and 1")
        if self.history_shoes is not None and (not isinstance(self.history_shoes, int) or self.history_shoes < 0):
            raise SettingsError("history_shoes", f"{self.history_shoes!r} is not a count of shoes (0 or more)")
        check_spots(game, self.spots, "spots")
        if not isinstance(self.chip_unit, (int, Fraction)) or self.chip_unit <= 0:
            raise SettingsError("chip_unit", f"{self.chip_unit!r} is not a positive exact amount")
        unknown = sorted(set(self.limits.by_bet) - set(game.wagers))
        if unknown:
            raise SettingsError("limits", f"{game.key} has no bet {unknown[0]!r} (one of {', '.join(game.wagers)})")
        player_dealer = get_table_profile(game.key).player_dealer
        if player_dealer is not None:
            seats, table = self.player_dealer_seats, player_dealer.seats
            if not seats or len(set(seats)) != len(seats) or any(s not in table for s in seats):
                raise SettingsError("player_dealer_seats",
                                    f"{seats!r} is not a list of distinct seats {table[0]}..{table[-1]}")
            if self.player_dealer_seat is not None and self.player_dealer_seat not in seats:
                raise SettingsError("player_dealer_seat", f"{self.player_dealer_seat!r} is not one of {seats}")
        if self.collection_schedule is not None:
            if player_dealer is None:
                raise SettingsError("collection_schedule", f"{game.key} has no player-dealer: no collection schedule")
            if not isinstance(self.collection_schedule, int) or not 1 <= self.collection_schedule <= 26:
                raise SettingsError("collection_schedule", f"{self.collection_schedule!r} is not an option 1-26")
        return self


def check_spots(game: Game, spots, key: str) -> tuple[int, ...]:
    """The live spots as a sorted tuple; SettingsError naming `key` when they do not fit the game."""
    try:
        spots = tuple(sorted(int(s) for s in spots))
    except (TypeError, ValueError):
        raise SettingsError(key, f"{spots!r} is not a list of seat numbers") from None
    if not game.uses_spots:
        if spots:
            raise SettingsError(key, f"{game.key} is not dealt to spots")
        return ()
    if not spots:
        raise SettingsError(key, f"{game.key} needs at least one live spot")
    if len(set(spots)) != len(spots):
        raise SettingsError(key, f"{list(spots)} names a spot twice")
    bad = [s for s in spots if not 1 <= s <= game.max_spots]
    if bad:
        raise SettingsError(key, f"spot {bad[0]} is not a seat of {game.key} (1-{game.max_spots})")
    return spots
