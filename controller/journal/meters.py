"""The table's meters: one fold of the journal's money records, the same at the table
(`tablectl meters`) and at the pit (services/pit/meters.py). docs/meters.md says what each
meter means and how the theory is computed.

    fold = fold_journal(path, theory="exact", shift=2)   # or MetersFold(); fold.add(record) in seq order
    report = fold.report(alarm_sd=Fraction(3))           # controller/journal/meter_sums.py
    report.to_json()                                     # per table, shoe, shift (and round); per bet; alarms

A round counts once its money stands: a `settlement` record that is not void, and no `void`
record for the round (a result may still be voided until the next round opens: such a round
counts nothing, and is counted as a void round). The drop is the round's wagers of record
(its `wagers` record); paid, collected, commission and fees come from its `settlement`. The
theoretical win and its variance are those of the wagers of record for the composition the
round was dealt from: the shoe's cards less every card read since its `shoe` record (`new`, or
`new_deck` on a deck-per-round table) up to the round's opening (games/money/theory.py), or,
with theory "full_shoe", for a full shoe.

A whole journal with the full-shoe theory is folded in parts at once, a process a core
(controller/journal/meters_split.py), to the same figures.

Sums are integers: amounts in 10^-6 currency units (exact: amounts have at most 6 decimal
places), theory in those units times SCALE (each wager's per-unit edge and variance kept to 12
decimal places, so a fold of a million records adds integers, not Fractions).
"""
from __future__ import annotations

import gc
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import orjson

from controller.journal.kinds import SHOE_STARTS, RecordKind
from controller.journal.meter_sums import (
    COLLECTED,
    COMMISSION,
    DEFAULT_ALARM_SD,
    DROP,
    FEES,
    MICRO,
    PAID,
    THEORETICAL,
    UNANALYSED,
    VARIANCE,
    WAGERS,
    Group,
    MetersReport,
    RoundMeters,
    Shift,
    new_tally,
    sum_into,
)
from controller.journal.readonly import reading
from controller.journal.store import Journal
from games.cards import Card, CardError, parse_card
from games.money.theory import SCALE, RoundTheory, full_shoe_theory, round_theory
from games.registry import GAME_KEYS, get_game

WAGERS_KIND, SETTLEMENT_KIND = "wagers", "settlement"  # the table's money records (docs/money.md)
READ_KINDS = (RecordKind.DAEMON_STARTED, RecordKind.ROUND_OPENED, RecordKind.SHOE, RecordKind.CARD,
              RecordKind.VOID, RecordKind.SHIFT, WAGERS_KIND, SETTLEMENT_KIND)
THEORIES = ("exact", "full_shoe")  # per composition dealt from, or the full shoe's figures
_AMOUNT = re.compile(r"(-?)([0-9]{1,24})(?:\.([0-9]{1,6}))?\Z")


class MetersRecord(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def round(self) -> int | None: ...
    @property
    def payload(self) -> Mapping[str, Any]: ...
    @property
    def at(self) -> str: ...


class BadMoneyRecord(ValueError):
    """A money record the fold cannot read; the message names the record."""


_MICRO_SEEN: dict[str, int] = {}  # the few amounts a table's wagers repeat ("25", "-25", "0"), parsed once
_MICRO_SEEN_MAX = 4096
_CARDS_SEEN: dict[str, Card] = {}  # a journal's card texts: a few dozen, each parsed once


def micro(text: Any) -> int:
    """A decimal amount string ("25", "-12.5") as an integer of 10^-6 currency units; ValueError
    naming it if it is not one."""
    if type(text) is str:
        seen = _MICRO_SEEN.get(text)
        if seen is None:
            seen = _micro(text)
            if len(_MICRO_SEEN) < _MICRO_SEEN_MAX:
                _MICRO_SEEN[text] = seen
        return seen
    return _micro(text)


def _micro(text: Any) -> int:
    if type(text) is str and text.isascii() and len(text) <= 24:  # most amounts: whole, maybe negative
        if text.isdigit():
            return int(text) * MICRO
        if text[1:].isdigit() and text[:1] == "-":
            return -int(text[1:]) * MICRO
    found = _AMOUNT.match(text) if isinstance(text, str) else None
    if found is None:
        raise ValueError(f"{text!r} is not an amount (a decimal string of at most 6 places)")
    sign, whole, part = found.groups()
    value = int(whole) * MICRO + (int(part.ljust(6, "0")) if part else 0)
    return -value if sign else value


def _stake(stakes: dict[str, list[int]], bet: str, amount: int) -> None:
    sums = stakes.get(bet) or stakes.setdefault(bet, [0, 0, 0])
    sums[0] += 1
    sums[1] += amount
    sums[2] += amount * amount


def _why(error: Exception) -> str:
    return f"no {error}" if isinstance(error, KeyError) else str(error)


@dataclass(slots=True)
class RoundMoney:
    """One round as the fold sees it."""

    round: int
    game: str | None
    decks: int | None
    shoe: int | None
    shift: int | None
    opened_at: str
    # the cards read out of its shoe before it was dealt: the first `cards_out` of `shoe_cards` (a
    # list the shoe's rounds share); None where the theory is the full shoe's
    shoe_cards: list[Card] | None = None
    cards_out: int = 0
    # the wagers of record per bet: [count, sum of stakes, sum of their squares], in 10^-6 units
    stakes: dict[str, list[int]] | None = None
    settled: dict[str, list[int]] | None = None  # its settlement's tallies per bet (theory not yet counted)
    banked: bool = False  # banked by a player-dealer (Fortune 7's California game): the house takes fees only
    void: bool = False
    ended_at: str | None = None

    def composition(self) -> Counter[Card] | None:
        if self.shoe_cards is None or self.game not in GAME_KEYS or not isinstance(self.decks, int):
            return None
        left = get_game(self.game).deck_kind.shoe(self.decks)
        left.subtract(self.shoe_cards[:self.cards_out])
        return +left


class MetersFold:
    """Fold journal records (in seq order) into rounds with their money; `report` sums them."""

    def __init__(self, theory: str = "exact", shoe: int | None = None, shift: int | None = None,
                 summing: bool = True):
        """`shoe`, `shift`: fold only the rounds of that shoe or shift (None: every round).
        `summing`: sum each round into its shoe's and shift's meters once the next round opens
        (no void can follow then) and forget it; False keeps every round in `rounds` (the pit
        stores each round's meters itself)."""
        if theory not in THEORIES:
            raise ValueError(f"theory {theory!r}: one of {', '.join(THEORIES)}")
        self.theory, self.only_shoe, self.only_shift = theory, shoe, shift
        self.game: str | None = None
        self.decks: int | None = None
        self.shoe: int | None = None
        self.shoe_cards: list[Card] = []
        self.shoes_seen: set[int] = set()
        self.left_out: set[int] = set()  # rounds outside the shoe or shift folded
        self.summing = summing
        self.parts: dict[tuple[int | None, int | None], Group] = {}  # (shoe, shift) -> its finished rounds
        self.listed: list[RoundMeters] = []  # the finished rounds, when one shoe or shift is folded
        self.last_opened = 0
        self.rounds: dict[int, RoundMoney] = {}
        self.shifts: dict[int, Shift] = {}
        self.open_shift: int | None = None
        self.notes: set[str] = set()
        self.shift_by: Any = None  # who gave the last shift command (its `command` record, just before)

    def add_all(self, records: Iterable[MetersRecord]) -> MetersFold:
        for record in records:
            self.add(record)
        return self

    def add(self, record: MetersRecord) -> RoundMoney | None:
        """Fold one record; returns the round whose money it changed, if any."""
        return self.add_row(record.kind, record.round, record.at, record.payload)

    def add_row(self, kind: str, number: int | None, at: str, p: Mapping[str, Any]) -> RoundMoney | None:
        """`add` of a record given by its fields (the journal's reader makes no record objects)."""
        if kind == WAGERS_KIND:  # the most frequent kinds first
            return self._wagers(kind, number, p)
        if kind == SETTLEMENT_KIND:
            return self._settlement(kind, number, at, p)
        if kind == RecordKind.ROUND_OPENED:
            self._opened(number, at, p)
        elif kind == RecordKind.CARD:
            # A card dealt again from a hold is not a new card; a misread (no face) leaves the shoe
            # unseen and, by exchangeability, does not change the next round's odds (games/live_edge.py).
            face = p.get("card")
            if isinstance(face, str) and not (p.get("reconstructed") and not p.get("keyed_in")):
                self.card_out(face)
        elif kind == RecordKind.VOID:
            money = self.rounds.get(number or 0)
            if money is not None:
                money.void, money.ended_at = True, at
            return money
        elif kind == RecordKind.SHOE and p.get("event") in SHOE_STARTS:
            self.shoe_cards = []
            self.shoe = p.get("shoe", self.shoe)
        elif kind == RecordKind.SHIFT:
            self._shift(at, p)
        elif kind == RecordKind.DAEMON_STARTED:
            self.game, self.decks = p.get("game", self.game), p.get("decks", self.decks)
        elif kind == RecordKind.COMMAND and p.get("name") == "shift":
            self.shift_by = p.get("by")
        return None

    def card_out(self, face: str) -> None:
        """A card read out of the shoe (its text as the card record holds it)."""
        card = _CARDS_SEEN.get(face)
        if card is None:
            try:
                card = parse_card(face)
            except CardError:
                self.notes.add(f"a card record's card {face[:16]!r} is not a card: not counted out")
                return
            if len(_CARDS_SEEN) < _MICRO_SEEN_MAX:
                _CARDS_SEEN[face] = card
        self.shoe_cards.append(card)

    def _opened(self, opened: int | None, at: str, p: Mapping[str, Any]) -> None:
        self.game, self.decks = p.get("game", self.game), p.get("decks", self.decks)
        self.shoe = p.get("shoe", self.shoe)
        number = opened or 0
        if self.summing:
            self.finish_before(number)
        self.last_opened = max(self.last_opened, number)
        if isinstance(self.shoe, int):
            self.shoes_seen.add(self.shoe)
        if (self.only_shoe is not None and self.shoe != self.only_shoe
                or self.only_shift is not None and self.open_shift != self.only_shift):
            self.left_out.add(number)
            return
        exact = self.theory == "exact"
        self.rounds[number] = RoundMoney(number, self.game, self.decks, self.shoe, self.open_shift, at,
                                         self.shoe_cards if exact else None, len(self.shoe_cards))

    def _round_of(self, kind: str, number: Any, p: Mapping[str, Any]) -> RoundMoney | None:
        if number is None:
            number = p.get("round")
        money = self.rounds.get(number) if isinstance(number, int) else None
        if money is None and number not in self.left_out:
            late = isinstance(number, int) and number < self.last_opened
            self.notes.add(f"a {kind} record for round {number}, " + (
                "after the next round opened: not counted" if late else "which the journal never opened: not counted"))
        return money

    def _wagers(self, kind: str, number: int | None, p: Mapping[str, Any]) -> RoundMoney | None:
        money = self._round_of(kind, number, p)
        if money is None:
            return None
        stakes: dict[str, list[int]] = {}
        seen = _MICRO_SEEN
        n = 0
        try:
            for wager in p.get("wagers") or ():
                n += 1
                bet = wager["bet"]
                if type(wager["seat"]) is not int or type(bet) is not str:
                    raise TypeError("expected a seat number and a bet key")
                stake = wager["stake"]
                amount = seen.get(stake) if type(stake) is str else None
                if amount is None:
                    amount = micro(stake)
                sums = stakes.get(bet)
                if sums is None:
                    stakes[bet] = [1, amount, amount * amount]
                else:
                    sums[0] += 1
                    sums[1] += amount
                    sums[2] += amount * amount
        except (TypeError, KeyError, ValueError) as error:
            raise BadMoneyRecord(f"round {money.round} wagers record, wager {n}: {_why(error)}") from None
        money.stakes = stakes
        return money

    def _settlement(self, kind: str, number: int | None, at: str, p: Mapping[str, Any]) -> RoundMoney | None:
        money = self._round_of(kind, number, p)
        if money is None:
            return None
        if p.get("void"):
            money.void, money.ended_at = True, at
            return money
        wagers = p.get("wagers") or []
        if not isinstance(wagers, list):
            raise BadMoneyRecord(f"round {money.round} settlement record: its wagers are not a list")
        banked = p.get("player_dealer")  # Fortune 7's California game (docs/money.md)
        money.banked = isinstance(banked, Mapping)
        money.settled, money.ended_at = self._settled(money, wagers), at
        if isinstance(banked, Mapping) and money.settled is not None:
            try:
                fee = micro(banked.get("fee", "0"))
            except ValueError as error:
                raise BadMoneyRecord(f"round {money.round} settlement record, player_dealer: {error}") from None
            money.settled.setdefault("player_dealer", new_tally())[FEES] += fee
        return money

    def _shift(self, at: str, p: Mapping[str, Any]) -> None:
        number, action, by = p.get("shift"), p.get("action"), p.get("by", self.shift_by)
        self.shift_by = None
        if not isinstance(number, int):
            raise BadMoneyRecord(f"shift record at {at}: no shift number")
        if action == "open":
            self.shifts[number] = Shift(number, p.get("name"), at, by)
            self.open_shift = number
        elif action == "close":
            shift = self.shifts.setdefault(number, Shift(number, p.get("name"), None))
            shift.closed_at, shift.closed_by = at, by
            self.open_shift = None if self.open_shift == number else self.open_shift

    # ------------------------------------------------------------ one round's sums

    def theory_of(self, money: RoundMoney) -> RoundTheory | None:
        if money.game not in GAME_KEYS or not isinstance(money.decks, int):
            return None
        composition = money.composition()
        if composition is not None and sum(composition.values()) >= 6:
            return round_theory(money.game, money.decks, composition)
        return full_shoe_theory(money.game, money.decks)

    def meters_of(self, money: RoundMoney) -> RoundMeters | None:
        """The round's meters; None while its money does not stand yet (no settlement)."""
        if not money.void and money.settled is None:
            return None
        meters = RoundMeters(money.round, money.game, money.shoe, money.shift, money.opened_at, money.ended_at,
                             money.void, new_tally(), {})
        if not money.void:
            self._tally(money, meters)
        return meters

    @staticmethod
    def _settled(money: RoundMoney, wagers: list[Any]) -> dict[str, list[int]]:
        """The settlement's sums per bet: the drop (its wagers of record), paid, collected,
        commission and fees. Without a wagers record, the stakes it names are the drop. A round
        banked by a player-dealer pays and collects between the bettors and the bank: the house
        only takes the fees (fortune7 Type of Game, ruling 9)."""
        bets: dict[str, list[int]] = {}
        if money.stakes is None:
            money.stakes = {}
            try:
                for w in wagers:
                    if w.get("stake") not in (None, "0"):
                        _stake(money.stakes, str(w.get("bet")), micro(w["stake"]))
            except (AttributeError, ValueError) as error:
                raise BadMoneyRecord(f"round {money.round} settlement record: {_why(error)}") from None
        for bet, (count, total, _) in money.stakes.items():
            tally = bets[bet] = new_tally()
            tally[DROP], tally[WAGERS] = total, count
        n = 0
        seen, banked = _MICRO_SEEN, money.banked
        try:
            for wager in wagers:
                n += 1
                net = wager["net"]
                net = seen.get(net) if type(net) is str else None
                if net is None:
                    net = micro(wager["net"])
                bet = wager["bet"]
                tally = bets.get(bet) or bets.setdefault(str(bet), new_tally())
                if banked:
                    pass
                elif net > 0:
                    tally[PAID] += net
                else:
                    tally[COLLECTED] -= net
                if wager.get("commission", "0") != "0":
                    tally[COMMISSION] += micro(wager["commission"])
                if wager.get("fee", "0") != "0":
                    tally[FEES] += micro(wager["fee"])
        except (TypeError, KeyError, AttributeError, ValueError) as error:
            raise BadMoneyRecord(f"round {money.round} settlement record, wager {n}: {_why(error)}") from None
        return bets

    def _tally(self, money: RoundMoney, meters: RoundMeters) -> None:
        bets = meters.bets
        for bet, tally in (money.settled or {}).items():
            bets[bet] = list(tally)
        variance = self._theory_into(money, bets)
        if bets:
            meters.total[:] = map(sum, zip(*bets.values(), strict=True))
            meters.total[VARIANCE] = variance

    def _theory_into(self, money: RoundMoney, bets: dict[str, list[int]]) -> int:
        """The theory's columns of the round's tallies `bets`; returns the round's variance."""
        stakes = money.stakes or {}
        theory = self.theory_of(money) if stakes and not money.banked else None
        if money.banked:  # the house's win is its fees, known before the deal
            for tally in bets.values():
                tally[THEORETICAL] = tally[FEES] * SCALE
        elif theory is None:
            for tally in bets.values():
                tally[UNANALYSED] = tally[DROP]
        else:
            return self._theory(theory, stakes, bets)
        return 0

    @staticmethod
    def _theory(theory: RoundTheory, stakes: dict[str, list[int]], bets: dict[str, list[int]]) -> int:
        """Each bet's theoretical win and variance (ScaledTheory.of_sums, bet by bet, in one
        pass); returns the round's variance, with the covariances between its jointly counted bets."""
        scaled = theory.scaled
        edges, variances, joint, spots = scaled.edges, scaled.variances, scaled.joint, scaled.spot_game
        covariance = scaled.covariance
        joint_stake = []
        variance = 0
        for bet, (_, stake, squares) in stakes.items():
            tally = bets[bet]
            edge = edges.get(bet)
            if edge is None:
                tally[UNANALYSED] = stake
                continue
            tally[THEORETICAL] = stake * edge
            if bet in joint:
                tally[VARIANCE] = stake * stake * covariance[(bet, bet)]
                joint_stake.append((bet, stake))
            else:  # one bet at several seats of a baccarat round is one outcome; spots are their own
                tally[VARIANCE] = (squares if spots else stake * stake) * variances[bet]
                variance += tally[VARIANCE]
        for a, sa in joint_stake:
            for b, sb in joint_stake:
                variance += sa * sb * covariance[(a, b)]
        return variance

    def group(self, key: tuple[int | None, int | None]) -> Group:
        """The finished rounds' meters of a (shoe, shift)."""
        return self.parts.get(key) or self.parts.setdefault(key, Group())

    def finish_before(self, number: int) -> None:
        """Sum the rounds before round `number`, which opens: no record can change them any more."""
        listing = self.only_shoe is not None or self.only_shift is not None
        for done in [n for n in self.rounds if n < number]:
            money = self.rounds.pop(done)
            if not listing:
                self._sum_round(money)
                continue
            meters = self.meters_of(money)
            if meters is not None:
                sum_into(self.parts, meters)
                self.listed.append(meters)

    def _sum_round(self, money: RoundMoney) -> None:
        """`sum_into(self.parts, self.meters_of(money))` for a round no record can change any more,
        without the copies: its tallies are summed as they are (most of a long fold's time)."""
        if not money.void and money.settled is None:
            return
        group = self.group((money.shoe, money.shift))
        if money.void:
            group.voids += 1
            return
        bets = money.settled or {}
        group.add_round(bets, self._theory_into(money, bets), money.opened_at, money.ended_at)

    def report(self, alarm_sd: Fraction = DEFAULT_ALARM_SD) -> MetersReport:
        """The meters of every round folded (the fold's shoe or shift, with its rounds), the
        rounds not yet finished included as they stand."""
        shoe, shift = self.only_shoe, self.only_shift

        def wanted(shoe_no: int | None, shift_no: int | None) -> bool:
            return (shoe is None or shoe_no == shoe) and (shift is None or shift_no == shift)
        with _collector_paused():
            parts: dict[tuple[int | None, int | None], Group] = {}
            for key, part in self.parts.items():
                if wanted(*key):
                    parts[key] = Group()
                    parts[key].merge(part)
            listed = [m for m in self.listed if wanted(m.shoe, m.shift)]
            for money in self.rounds.values():
                if wanted(money.shoe, money.shift) and (meters := self.meters_of(money)) is not None:
                    sum_into(parts, meters)
                    listed.append(meters)
            return MetersReport.of_parts(parts, listed, self.shifts, alarm_sd, self.theory, sorted(self.notes),
                                         shoe, shift)


def fold_journal(source: Journal | str | os.PathLike[str], theory: str = "exact", shoe: int | None = None,
                 shift: int | None = None) -> MetersFold:
    """Fold the journal at `source` (read-only; safe while the daemon writes it). A card's face
    and flags are read by SQLite itself (most of a journal is cards); the full-shoe theory reads
    no cards at all."""
    kinds = [kind for kind in READ_KINDS if theory == "exact" or kind != RecordKind.CARD]
    with _collector_paused():
        if theory == "full_shoe" and shoe is None and shift is None and not isinstance(source, Journal):
            from controller.journal import meters_split  # it builds on this module
            wanted = meters_split.parts_wanted()
            parts = meters_split.plan(source, wanted) if wanted > 1 else []
            whole = meters_split.fold_in_parts(source, parts) if len(parts) > 1 else None
            if whole is not None:
                return whole
        fold = MetersFold(theory, shoe, shift)
        fold_rows(fold, source, kinds)
    return fold


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The fold and its sums make no reference cycles: the cyclic collector would only rescan
    their growing heap again and again (a fifth of the time over a million records)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def fold_rows(fold: MetersFold, source: Journal | str | os.PathLike[str], kinds: list[str],
               first: int = 0, end: int | None = None) -> None:
    """Fold the records of `kinds` (and the shift commands), from seq `first` up to `end` (not included)."""
    with reading(source) as conn:
        rows = conn.execute(
            "SELECT kind, round, at, CASE WHEN kind = 'card' THEN NULL ELSE payload END, "
            "CASE WHEN kind = 'card' THEN json_extract(payload, '$.card') END, "
            "CASE WHEN kind = 'card' THEN json_extract(payload, '$.reconstructed') IS 1 "
            "AND json_extract(payload, '$.keyed_in') IS NOT 1 END "
            f"FROM records WHERE (kind IN ({','.join('?' * len(kinds))}) "
            "OR kind = 'command' AND json_extract(payload, '$.name') = 'shift') AND seq >= ? AND seq < ? ORDER BY seq",
            [*kinds, first, (1 << 62) if end is None else end])
        add, card_out, loads, card = fold.add_row, fold.card_out, orjson.loads, RecordKind.CARD.value
        for kind, number, at, payload, face, again in rows:
            if kind == card:
                if not again and isinstance(face, str):
                    card_out(face)
                continue
            add(kind, number, at, loads(payload))
