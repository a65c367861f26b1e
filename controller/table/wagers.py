"""The round's money: wagers given by command, the wagers of record frozen at "No more bets",
their settlement at the result (or their return on a void), and the payout check at confirm.

    wagers.freeze(out, round_no, spots)     # one `wagers` record: from the bet sensor's spaces,
                                            # else the `wagers` commands' stakes
    wagers.settle(out, round_no, result)    # one `settlement` record, after the result's lamps
    wagers.void(out, round_no)              # one `settlement` record, "void": true
    wagers.payout_differences()             # spaces that do not hold their payout now

A wager of record is refused (it does not play; listed in the record's `refused`) when its space
holds a foreign chip or more chips than the sensor reports (local ruling L10), when it lies
outside the table's limits (games.money.limits), or when games.money cannot settle it (an
amount that is not whole minor units, a spot not live, a bonus without its line wager). A
refused wager's chips go back to the player: its space must be empty after settlement.

At Fortune 7 with a collection schedule (controller.table.california) the player-dealer banks:
its stake is frozen with the wagers (`player_dealer`), the fees are taken before the deal
(`fees`, ruling 25), the bank walks the wagers at settlement (ruling 26) and its space must
hold the bank's end at confirm. A table that takes no money (no bet sensor, no wager given)
deals as before.

Fu Bacc's Play is not frozen: it is placed with the decision to play, at twice the Ante
(fubacc procedure 8), and settled from the Ante (games.money derives it).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal

from controller.journal.kinds import RecordKind as R
from controller.table.bet_board import BetBoard, SpaceReading
from controller.table.california import BANK, TYPE_OF_GAME, BankStake, California, bank_back
from controller.table.money_recovery import RecoveredMoney, money_from_json, signed_amount
from controller.table.output import Out
from controller.table.player_dealer import PlayerDealer
from controller.table.settings import TableSettings
from games.baccarat.california.rotation import BankTurn
from games.money import BadAmount, BadWager, RoundMoney, Settled, Stake, check_stakes, format_amount, parse_amount
from games.money.settle import SEATS_CLAUSE, seats_of
from games.money.settle import settle as settle_money
from games.round import Game, RoundResult

Source = Literal["sensor", "command", "none"]
L10 = "local ruling L10"


def _with_chips(out: dict[str, Any], chips: tuple[tuple[str, int], ...] | None) -> dict[str, Any]:
    """A wager's record, with the chips the sensor read on its space (none given by command)."""
    if chips is not None:
        out["chips"] = [list(chip) for chip in chips]
    return out


@dataclass(frozen=True)
class Wager:
    """A wager of record: its stake, and with a sensor the chips that made it."""

    seat: int
    bet: str
    stake: Fraction
    chips: tuple[tuple[str, int], ...] | None = None  # None: given by command

    def to_json(self) -> dict[str, Any]:
        return _with_chips({"seat": self.seat, "bet": self.bet, "stake": format_amount(self.stake)}, self.chips)


@dataclass(frozen=True)
class Refused:
    seat: int
    bet: str
    stake: Fraction
    reason: str
    clause: str
    chips: tuple[tuple[str, int], ...] | None = None  # with a sensor: the house's chips on the space

    def to_json(self) -> dict[str, Any]:
        return _with_chips({"seat": self.seat, "bet": self.bet, "stake": format_amount(self.stake),
                            "reason": self.reason, "clause": self.clause}, self.chips)


@dataclass(frozen=True)
class Mispay:
    seat: int
    bet: str
    space: int | None
    expected: Fraction
    found: Fraction

    @property
    def direction(self) -> str:
        return "over" if self.found > self.expected else "under"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bet": self.bet, "expected": format_amount(self.expected),
                "found": format_amount(self.found), "direction": self.direction}


@dataclass
class Frozen:
    """What "No more bets" froze: the wagers of record, the refused, and each space's chips then
    (what a later reading is compared with for late and removed chips)."""

    round: int
    source: Source
    wagers: tuple[Wager, ...] = ()
    refused: tuple[Refused, ...] = ()
    chips_then: Mapping[tuple[int, str], frozenset[str]] = field(default_factory=dict)  # (seat, bet) -> UIDs then, foreign too
    staked: Mapping[tuple[int, str], frozenset[str]] = field(default_factory=dict)  # (seat, bet) -> its wager of record's
    bank: BankStake | None = None  # Fortune 7 with a collection schedule: who banks, with what
    fees: Mapping[str, Any] | None = None  # and the fees taken before the deal (Fees.to_json)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round, "source": self.source, "wagers": [w.to_json() for w in self.wagers],
               "refused": [r.to_json() for r in self.refused]}
        if self.bank is not None:
            out["player_dealer"] = self.bank.to_json()
            out["fees"] = dict(self.fees or {})
        return out


def parse_stakes(game: Game, seat: int, stakes: object, banks: bool = False) -> dict[str, Fraction]:
    """A `wagers` command's stakes ("BET=AMOUNT" each) as bet -> amount; ValueError names a bad one.
    `banks`: a player-dealer table, where `bank=AMOUNT` is the seat's stake as player-dealer."""
    if isinstance(stakes, str):
        stakes = stakes.split()
    if not isinstance(stakes, (list, tuple)):
        raise ValueError(f"stakes: expected a list of BET=AMOUNT, got {stakes!r}")
    out: dict[str, Fraction] = {}
    for token in stakes:
        bet, sep, text = str(token).partition("=")
        if not sep:
            raise ValueError(f"stake {str(token)[:40]!r} is not BET=AMOUNT (e.g. banker=25)")
        keys = (*game.wagers, BANK) if banks else tuple(game.wagers)
        if bet not in keys:
            raise ValueError(f"stake {token!r}: {game.key} has no bet {bet!r} (one of {', '.join(keys)})")
        derived = None if bet == BANK else game.wagers[bet].stake_of
        if derived is not None:
            raise ValueError(f"stake {token!r}: the {bet} wager follows from the {derived.wager} ({derived.clause})")
        if bet in out:
            raise ValueError(f"stake {token!r}: seat {seat} {bet} is given twice")
        try:
            out[bet] = parse_amount(text)
        except BadAmount as bad:
            raise ValueError(f"stake {token!r}: {bad}") from None
    return out


class RoundWagers:
    def __init__(self, game: Game, settings: TableSettings, board: BetBoard, bank: PlayerDealer | None = None):
        self.game, self.settings, self.board, self.bank = game, settings, board, bank
        self.rules, self.limits = settings.money, settings.limits
        option = settings.collection_schedule
        self.california = California(option, self.rules) if option is not None and bank is not None else None
        self.commanded: dict[int, dict[str, Fraction]] = {}  # seat -> bet -> stake, while betting
        self.frozen: Frozen | None = None
        self.money: RoundMoney | None = None  # the settlement (or the return, on a void)
        self.money_json: dict[str, Any] = {}  # its money as journaled in the `settlement` record
        self.void_round = False
        self.mispays: dict[tuple[int, str], Mispay] = {}  # the last confirm's differences, still standing
        self.accepted = False  # the supervisor accepted the spaces as they stood (accept_payouts)
        self.unsettled: list[dict[str, Any]] = []  # seats whose wagers the round could not settle

    # ------------------------------------------------------------ the round's course

    def opened(self) -> None:
        self.commanded, self.frozen, self.money, self.void_round = {}, None, None, False
        self.money_json = {}
        self.mispays, self.accepted, self.unsettled = {}, False, []

    def give(self, seat: int, stakes: Mapping[str, Fraction]) -> None:
        """A `wagers` command: the seat's wagers are these now (none: cleared)."""
        if stakes:
            self.commanded[seat] = dict(stakes)
        else:
            self.commanded.pop(seat, None)

    # ------------------------------------------------------------ the player-dealer's bank

    @property
    def takes_money(self) -> bool:
        """The table sees money this round: its bet sensor is live, or a wager was given."""
        return self.board.live or bool(self.commanded)

    def bank_stakes(self) -> dict[int, tuple[Fraction, tuple[tuple[str, int], ...] | None]]:
        """seat -> the stake on its bank space now (with a sensor, the house's chips making it). A
        bank space holding a foreign chip or more chips than reported is no stake (local ruling L10)."""
        if self.board.live:
            return {r.seat: (r.amount, r.chips) for r in self.board.readings()
                    if r.bet == BANK and r.amount > 0 and not r.foreign and not r.overflow}
        return {seat: (bets[BANK], None) for seat, bets in sorted(self.commanded.items()) if BANK in bets}

    def choose_bank(self) -> BankTurn | str | None:
        """Before "No more bets" at a California table that takes money: the holder banks with the
        stake on its bank space; a holder with none declines, and the position passes clockwise
        to the first player-dealer seat with one (fortune7 Type of Game; rotation in docs/baccarat.md).
        None: the holder banks (or no bank is needed); the turn the position passes to; or why no
        hand can be dealt. Nothing changes until `MoneyDesk` applies it, once bets are closed."""
        if self.california is None or self.bank is None or not self.takes_money:
            return None
        holder, stakes = self.bank.holder, self.bank_stakes()
        if holder is not None and holder in stakes:
            why = self.california.bank_refusal(holder, stakes[holder][0])
            return None if why is None else f"seat {holder}'s {BANK}: {why}"
        offered = [seat for seat in stakes if self.california.bank_refusal(seat, stakes[seat][0]) is None]
        turn = self.bank.passing(offered)
        if turn is None:
            return (f"no player-dealer stake: seat {holder} has none on its {BANK} space and no other player-dealer "
                    f"seat has one, so no hand is dealt ({TYPE_OF_GAME}): the bank's stake is placed first")
        return turn

    def freeze(self, out: Out, round_no: int, spots: Sequence[int]) -> Frozen:
        """The wagers of record, journaled as one `wagers` record."""
        holder = self.bank.holder if self.bank is not None else None
        banks = self.bank_stakes() if self.california is not None and self.takes_money and holder is not None else {}
        bank = BankStake(holder, *banks[holder]) if holder is not None and holder in banks else None
        if self.board.live:
            frozen = self._from_sensor(round_no, spots, bank)
        else:
            placed: list[tuple[Stake, SpaceReading | None]] = [(Stake(seat, bet, amount), None) for seat in sorted(self.commanded)
                      for bet, amount in self.commanded[seat].items() if bet != BANK]
            refused = tuple(self._not_the_bank(seat, amount, None) for seat, (amount, _) in banks.items() if seat != holder)
            frozen = self._judge(Frozen(round_no, "command" if placed or bank else "none", refused=refused, bank=bank),
                                 placed, spots)
        if self.california is not None and frozen.bank is not None:
            fees = self.california.fees(frozen.bank, self.stakes(frozen))
            frozen = replace(frozen, fees=fees.to_json(frozen.bank.seat))
        self.frozen = frozen
        payload = frozen.to_json()
        out.journal(R.WAGERS, payload)
        out.publish("wagers", **payload)
        return frozen

    @staticmethod
    def _not_the_bank(seat: int, amount: Fraction, chips: tuple[tuple[str, int], ...] | None) -> Refused:
        return Refused(seat, BANK, amount, f"seat {seat} does not hold the player-dealer position: its {BANK} "
                       f"space does not play and is returned", TYPE_OF_GAME, chips)

    def _from_sensor(self, round_no: int, spots: Sequence[int], bank: BankStake | None) -> Frozen:
        readings = self.board.readings()
        placed: list[tuple[Stake, SpaceReading | None]] = []
        refused: list[Refused] = []
        for r in readings:
            if r.bet == BANK:
                if r.chips and (bank is None or r.seat != bank.seat):
                    refused.append(self._not_the_bank(r.seat, r.amount, r.chips))
                continue
            if not r.chips and not r.foreign or self.game.wagers[r.bet].stake_of is not None:
                continue
            if r.foreign:
                uids = ", ".join(f.uid for f in r.foreign)
                refused.append(Refused(r.seat, r.bet, r.amount, f"foreign chip(s) on space {r.space}: {uids}", L10,
                                       r.chips))
            elif r.overflow:
                refused.append(Refused(r.seat, r.bet, r.amount,
                                       f"space {r.space} holds more chips than the bet sensor reports", L10, r.chips))
            else:
                placed.append((Stake(r.seat, r.bet, r.amount), r))
        frozen = Frozen(round_no, "sensor", refused=tuple(refused),
                        chips_then={(r.seat, r.bet): frozenset(uid for uid, _ in r.chips) | {f.uid for f in r.foreign}
                                    for r in readings}, bank=bank)
        return self._judge(frozen, placed, spots)

    def _judge(self, frozen: Frozen, placed: list[tuple[Stake, SpaceReading | None]], spots: Sequence[int]) -> Frozen:
        """Each placed wager accepted or refused (limits, amount, seat, the line wager a bonus needs)."""
        seats = seats_of(self.game, spots)
        accepted: list[tuple[Stake, SpaceReading | None]] = []
        refused = list(frozen.refused)
        for stake, reading in placed:
            why = self._refusal(stake, seats, frozen.bank)
            if why is None:
                accepted.append((stake, reading))
            else:
                refused.append(Refused(stake.seat, stake.bet, stake.amount, *why, None if reading is None else reading.chips))
        changed = True
        while changed:  # a bonus whose line wager was refused is refused in turn
            changed = False
            held = {(s.seat, s.bet) for s, _ in accepted}
            for stake, reading in list(accepted):
                needs = self.game.wagers[stake.bet].needs
                if needs and not any((stake.seat, line) in held for line in needs.any_of):
                    accepted.remove((stake, reading))
                    refused.append(Refused(stake.seat, stake.bet, stake.amount,
                                           f"{stake.bet} needs a {' or '.join(needs.any_of)} wager at seat {stake.seat}",
                                           needs.clause, None if reading is None else reading.chips))
                    changed = True
        check_stakes(self.game, [s for s, _ in accepted], spots, self.rules)  # what is left settles
        wagers = tuple(Wager(s.seat, s.bet, s.amount, None if r is None else r.chips) for s, r in accepted)
        staked = {(r.seat, r.bet): frozenset(uid for uid, _ in r.chips) for _, r in accepted if r is not None}
        bank = frozen.bank
        if bank is not None and bank.chips is not None:
            staked[bank.seat, BANK] = frozenset(uid for uid, _ in bank.chips)
        return replace(frozen, wagers=wagers, refused=tuple(refused), staked=staked)

    def _refusal(self, stake: Stake, seats: Sequence[int], bank: BankStake | None = None) -> tuple[str, str] | None:
        try:
            self.rules.check_stake(stake.amount)
        except BadAmount as bad:
            return str(bad), "local ruling L9"
        if stake.seat not in seats:
            if self.game.uses_spots:
                return f"spot {stake.seat} is not live this round (live: {', '.join(map(str, seats))})", L10
            return f"{self.game.key} has seats {seats[0]}-{seats[-1]}", SEATS_CLAUSE
        if self.california is not None and bank is not None:
            why = self.california.refusal(stake, bank.seat)
            if why is not None:
                return why
        return self.limits.refusal(self.game, stake)

    def stakes(self, frozen: Frozen | None = None) -> list[Stake]:
        frozen = frozen or self.frozen
        return [] if frozen is None else [Stake(w.seat, w.bet, w.stake) for w in frozen.wagers]

    def _banked(self) -> tuple[California, BankStake] | None:
        """The round's player-dealer and the schedule its fees were taken under (the frozen record's)."""
        frozen = self.frozen
        if frozen is None or frozen.bank is None:
            return None
        option = (frozen.fees or {}).get("option")
        desk = self.california
        if isinstance(option, int) and (desk is None or desk.option != option):
            desk = California(option, self.rules)
        return None if desk is None else (desk, frozen.bank)

    def settle(self, out: Out, round_no: int, result: RoundResult) -> RoundMoney:
        """Every wager of record settled on `result`: one `settlement` record (durable). It
        follows the result's lamps (round_in_play.py SettleWagers); a restart that finds the
        result without it settles them again, to the same figures (Table.restore)."""
        banked = self._banked()
        if banked is not None:
            desk, bank = banked
            self.money_json = desk.settled(bank, self.stakes(), result.bets)
            money, unsettled = money_from_json(self.money_json), list[dict[str, Any]]()
        else:
            money, unsettled = self._settled(result)
            self.money_json = money.to_json()
        self.money, self.void_round, self.unsettled = money, False, unsettled
        self._journal(out, round_no)
        return money

    def _settled(self, result: RoundResult) -> tuple[RoundMoney, list[dict[str, Any]]]:
        stakes = self.stakes()
        if not self.game.uses_spots:
            return settle_money(self.game, result, stakes, self.rules), []
        # a spot game settles spot by spot: a live spot without a wager has nothing to settle,
        # and a spot the round cannot settle (a fold at a spot with no Ante) gets its stakes back
        rows: list[Settled] = []
        unsettled: list[dict[str, Any]] = []
        for spot in result.spots:
            own = [s for s in stakes if s.seat == spot]
            if not own:
                continue
            try:
                rows += settle_money(self.game, replace(result, spots={spot: result.spots[spot]}), own, self.rules).wagers
            except BadWager as bad:
                rows += [Settled(s.seat, s.bet, s.amount, Fraction(0), s.amount) for s in own]
                unsettled.append({"seat": spot, "reason": str(bad)})
        return RoundMoney(tuple(rows)), unsettled

    def void(self, out: Out, round_no: int) -> None:
        """The round is void: every wager of record returned (one `settlement` record, durable)."""
        banked = self._banked()
        if banked is not None:
            desk, bank = banked
            self.money_json = desk.returned(bank, self.stakes())
            self.money = money_from_json(self.money_json)
        else:
            self.money = RoundMoney(tuple(Settled(s.seat, s.bet, s.amount, Fraction(0), s.amount) for s in self.stakes()))
            self.money_json = self.money.to_json()
        self.void_round, self.unsettled = True, []
        self._journal(out, round_no)

    def _journal(self, out: Out, round_no: int) -> None:
        assert self.money is not None
        payload: dict[str, Any] = {"round": round_no, "void": self.void_round, **self.money_json}
        if self.unsettled:
            payload["unsettled"] = self.unsettled
        out.journal(R.SETTLEMENT, payload, durable=True)
        out.publish("settlement", **payload)

    # ------------------------------------------------------------ after a restart

    def restore(self, money: RecoveredMoney, round_no: int | None) -> None:
        """Take up the interrupted round's money (controller.table.money_recovery)."""
        self.opened()
        if round_no is None or money.round != round_no:
            return
        for args in money.commanded:
            try:
                seat = int(args["seat"])
                self.give(seat, parse_stakes(self.game, seat, args.get("stakes", []), self.california is not None))
            except (KeyError, TypeError, ValueError):
                continue  # refused then, refused now
        if money.wagers is not None:
            self.frozen = frozen_from_json(money.wagers)
        if money.settlement is not None:
            self.money = money_from_json(money.settlement)
            self.money_json = {k: v for k, v in money.settlement.items() if k not in ("round", "void", "unsettled")}
            self.void_round = bool(money.settlement.get("void"))
            self.unsettled = list(money.settlement.get("unsettled") or [])
        self.accepted = money.accepted
        for p in () if money.accepted else money.mispays:
            try:
                space = None if p.get("space") is None else int(p["space"])
                mispay = Mispay(int(p["seat"]), str(p["bet"]), space, signed_amount(p["expected"]), signed_amount(p["found"]))
            except (KeyError, TypeError, ValueError):
                continue  # a record of another shape: the next confirm finds the space again
            self.mispays[(mispay.seat, mispay.bet)] = mispay

    # ------------------------------------------------------------ the payout check

    @property
    def payout_check(self) -> bool:
        """The round's payouts are checked at confirm: its wagers were read by the bet sensor."""
        return self.frozen is not None and self.frozen.source == "sensor" and not self.void_round

    def expected(self) -> dict[tuple[int, str], Fraction]:
        """(seat, bet) -> what the space must hold after settlement. A fixed bonus (Pai Gow's
        Envy) is paid on the space of the wager that earns it."""
        out: dict[tuple[int, str], Fraction] = {}
        if self.money is None:
            return out
        bonus_space = {w.fixed_bonus.field: key for key, w in self.game.wagers.items() if w.fixed_bonus is not None}
        for row in self.money.wagers:
            key = (row.seat, bonus_space.get(row.bet, row.bet))
            out[key] = out.get(key, Fraction(0)) + row.back
        bank = bank_back(self.money_json)
        if bank is not None:  # the player-dealer's space: its stake plus the bank's net
            seat, back = bank
            out[seat, BANK] = back
        return out

    def payout_differences(self) -> list[Mispay]:
        """Every space whose house chips differ from what it must hold, in settlement order."""
        expected = self.expected()
        found = {(r.seat, r.bet): r for r in self.board.readings()}
        keys = list(expected) + [key for key in found if key not in expected]
        out = []
        for key in keys:
            reading = found.get(key)
            amount = reading.amount if reading is not None else Fraction(0)
            if amount != expected.get(key, Fraction(0)):
                out.append(Mispay(key[0], key[1], reading.space if reading is not None else None,
                                  expected.get(key, Fraction(0)), amount))
        return out

    # ------------------------------------------------------------ what status shows

    def snapshot(self) -> dict[str, Any]:
        return {
            "wagers": [] if self.frozen is None else [w.to_json() for w in self.frozen.wagers],
            "refused": [] if self.frozen is None else [r.to_json() for r in self.frozen.refused],
            "source": None if self.frozen is None else self.frozen.source,
            "commanded": [{"seat": seat, "bet": bet, "stake": format_amount(amount)}
                          for seat in sorted(self.commanded) for bet, amount in self.commanded[seat].items()],
            "payouts": [] if self.money is None else list(self.money_json.get("wagers") or []),
            "mispays": [m.to_json() for m in self.mispays.values()],
            **self._bank_snapshot(),
        }

    def _bank_snapshot(self) -> dict[str, Any]:
        """At a California table: the schedule, the round's player-dealer and fees, the bank as it went."""
        if self.california is None:
            return {}
        frozen = self.frozen
        out: dict[str, Any] = {"collection_schedule": self.california.option,
                               "player_dealer": None, "fees": None, "bank": None}
        if frozen is not None and frozen.bank is not None:
            out["player_dealer"], out["fees"] = frozen.bank.to_json(), dict(frozen.fees or {})
        if self.money_json.get("player_dealer") is not None:
            out["player_dealer"] = {**(out["player_dealer"] or {}), **self.money_json["player_dealer"]}
            out["bank"] = self.money_json.get("bank")
        return out


def _chips(value: object) -> tuple[tuple[str, int], ...] | None:
    if not isinstance(value, list):
        return None
    return tuple((str(uid), int(tag)) for uid, tag in value)


def frozen_from_json(payload: Mapping[str, Any]) -> Frozen:
    """A journaled `wagers` record as it was frozen."""
    wagers = tuple(Wager(int(w["seat"]), str(w["bet"]), signed_amount(w["stake"]), _chips(w.get("chips")))
                   for w in payload.get("wagers") or ())
    refused = tuple(Refused(int(r["seat"]), str(r["bet"]), signed_amount(r["stake"]), str(r.get("reason", "")),
                            str(r.get("clause", "")), _chips(r.get("chips"))) for r in payload.get("refused") or ())
    source = payload.get("source")
    staked = {(w.seat, w.bet): frozenset(uid for uid, _ in (w.chips or ())) for w in wagers}
    pd, bank = payload.get("player_dealer"), None
    if isinstance(pd, Mapping):
        bank = BankStake(int(pd["seat"]), signed_amount(pd["stake"]), _chips(pd.get("chips")))
        staked[bank.seat, BANK] = frozenset(uid for uid, _ in (bank.chips or ()))
    then = {**{(r.seat, r.bet): frozenset(uid for uid, _ in (r.chips or ())) for r in refused}, **staked}
    fees = payload.get("fees")
    return Frozen(int(payload["round"]), source if source in ("sensor", "command", "none") else "none",
                  wagers, refused, then, staked, bank, fees if isinstance(fees, Mapping) else None)
