"""Journals of baccarat rounds with money, written with the journal's own writer: a shoe
dealt round by round, random wagers at the seats, each round's `wagers` and `settlement`
records as the table writes them (docs/money.md), for the meters' tests and benchmark.

    with Journal(path) as journal:
        dealer = MoneyDealer(journal, "fortune7", rng=random.Random(7))
        dealer.open_shift("day")
        dealer.deal(200)                       # rounds; a new shoe when one runs low
        dealer.deal(50, overpay=Fraction(1))   # a mispaid bet type: every winning Banker paid 1 unit more a unit
        dealer.close_shift()

With `daemon_records`, each round also carries the records the daemon writes beside the
table's (a `device` record for each card as the shoe reported it and for each panel button,
`bets_closed`): about 19 records a round, as in a table's journal.

`overpay` models what the meters' alarm is for (a dealer paying a bet type more than the rules
say): each winning wager on `overpay_bet` is paid `overpay` more per unit staked.
"""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from controller.journal import Journal
from controller.journal.kinds import RecordKind, ShoeEvent
from games.baccarat.engine import BaccaratGame
from games.cards import Card
from games.money import BadWager, MoneyRules, Settled, Stake, check_stakes, format_amount, settle
from games.money.settle import BACCARAT_SEATS
from games.registry import get_game
from games.round import Complete, Deal, IrregularityKind

RESHUFFLE_AT = 16  # cards left below which a new shoe comes in
LINE_BETS = ("banker", "player")


class MoneyDealer:
    def __init__(self, journal: Journal, game_key: str, decks: int = 8, rng: random.Random | None = None,
                 rules: MoneyRules | None = None, durable: bool = False, daemon_records: bool = False):
        game = get_game(game_key)
        if not isinstance(game, BaccaratGame):
            raise ValueError(f"{game_key}: the money journal deals baccarat games only")
        self.journal, self.game, self.decks = journal, game, decks
        self.rng = rng or random.Random(0)
        self.rules = rules or MoneyRules()
        self.durable = durable  # results and voids fsynced as the daemon does (slow), or not
        self.daemon_records = daemon_records
        self.draw_counter = 0
        self.shoe_number, self.round, self.shift = 0, 0, 0
        self.cards: list[Card] = []
        self.bonuses = tuple(key for key in game.wagers if key not in LINE_BETS + ("tie",))

    def open_shift(self, name: str) -> None:
        self.shift += 1
        self.journal.append(RecordKind.SHIFT, {"action": "open", "shift": self.shift, "name": name,
                                               "by": {"source": "socket", "user": "test"}})

    def close_shift(self) -> None:
        self.journal.append(RecordKind.SHIFT, {"action": "close", "shift": self.shift,
                                               "by": {"source": "socket", "user": "test"}})

    def new_shoe(self) -> None:
        self.shoe_number += 1
        self.cards = list(self.game.deck_kind.cards) * self.decks
        self.rng.shuffle(self.cards)
        self.journal.append(RecordKind.SHOE, {"event": ShoeEvent.NEW, "shoe": self.shoe_number})

    def stakes(self) -> list[Stake]:
        """Random wagers: most seats on a line bet, some on the Tie and the side bets."""
        out = []
        for seat in BACCARAT_SEATS:
            if self.rng.random() < 0.7:
                out.append(Stake(seat, self.rng.choice(LINE_BETS), Fraction(self.rng.choice((10, 25, 50, 100)))))
                if self.bonuses and self.rng.random() < 0.3:
                    out.append(Stake(seat, self.rng.choice(self.bonuses), Fraction(self.rng.choice((5, 10)))))
            if self.rng.random() < 0.15:
                out.append(Stake(seat, "tie", Fraction(5)))
        try:
            check_stakes(self.game, out, (), self.rules)
        except BadWager:  # a bonus the game ties to a line wager its seat lacks: leave the bonuses out
            out = [s for s in out if s.bet in LINE_BETS + ("tie",)]
        return out

    def deal(self, rounds: int, overpay: Fraction = Fraction(0), overpay_bet: str = "banker",
             void_every: int = 0) -> None:
        """Deal `rounds` rounds; every `void_every`-th is voided after its result (0: none)."""
        for _ in range(rounds):
            if len(self.cards) < RESHUFFLE_AT:
                self.new_shoe()
            self.round += 1
            self._one(overpay, overpay_bet, void_every > 0 and self.round % void_every == 0)

    def _one(self, overpay: Fraction, overpay_bet: str, void: bool) -> None:
        number, game = self.round, self.game
        entries: list[tuple[str, dict[str, Any] | None, int | None, bool]] = []
        self._button(entries, 1)
        entries.append((RecordKind.ROUND_OPENED, {"game": game.key, "decks": self.decks, "shoe": self.shoe_number,
                                                  "spots": []}, number, False))
        stakes = self.stakes()
        self._button(entries, 2)
        if self.daemon_records:
            entries.append((RecordKind.BETS_CLOSED, {"round": number, "spots": []}, number, False))
        entries.append(("wagers", {"round": number, "source": "command", "refused": [], "wagers": [
            {"seat": s.seat, "bet": s.bet, "stake": format_amount(s.amount)} for s in stakes]}, number, False))
        state = game.start(self.decks, ())
        while isinstance(step := game.next_step(state), Deal):
            card = self.cards.pop()
            state = game.with_card(state, card)
            self.draw_counter += 1
            if self.daemon_records:
                entries.append((RecordKind.DEVICE, {"device": "shoe", "event": "card", "code": card.code,
                                                    "draw_counter": self.draw_counter}, None, False))
            entries.append((RecordKind.CARD, {"card": str(card), "hand": step.hand, "position": len(state.cards),
                                              "status": "dealt"}, number, False))
        assert isinstance(step, Complete)
        result = game.result(state)
        money = settle(game, result, stakes, self.rules)
        wagers = [_overpaid(w, overpay) if w.bet == overpay_bet else w for w in money.wagers]
        house_net = -sum((w.net for w in wagers), Fraction(0))
        entries.append((RecordKind.RESULT, {"winner": result.winner}, number, self.durable))
        entries.append(("settlement", {"round": number, "void": False, "wagers": [w.to_json() for w in wagers],
                                       "house_net": format_amount(house_net)}, number, False))
        self._button(entries, 3)
        if void:
            rule = game.rule(IrregularityKind.EXTRA_CARD)  # a hand dealt a card too many, found after the result
            entries.append((RecordKind.VOID, {"kind": rule.kind.value, "clause": rule.clause,
                                              "reason": "an extra card after the result"}, number, self.durable))
            entries.append(("settlement", {"round": number, "void": True, "house_net": "0", "wagers": [
                Settled(s.seat, s.bet, s.amount, Fraction(0), s.amount).to_json() for s in stakes]}, number, False))
        else:
            entries.append((RecordKind.SETTLED, {}, number, self.durable))
        self.journal.append_many(entries)

    def _button(self, entries: list[tuple[str, dict[str, Any] | None, int | None, bool]], button: int) -> None:
        if self.daemon_records:
            entries.append((RecordKind.DEVICE, {"device": "panel", "event": "button", "button": button,
                                                "by": {"source": "panel", "button": button}}, None, False))


def _overpaid(wager: Settled, overpay: Fraction) -> Settled:
    if wager.net <= 0 or not overpay:
        return wager
    extra = wager.stake * overpay
    return Settled(wager.seat, wager.bet, wager.stake, wager.net + extra, wager.back + extra, wager.commission)

