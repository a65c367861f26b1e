"""Money at the table: the bet sensor's readings, the chip registry's commands, the `wagers`
command, and money's part of "No more bets" and confirm (docs/money.md, local ruling L10).

    SpaceChips        a space read: foreign chips reported; after "No more bets" and until the
                      result, a chip added is a late wager, one taken away a wager removed
                      (irregularities; the wager of record stays frozen); after the result, a
                      mispaid space read right again clears its mispay
    BetLayoutHeard    the sensor's spaces: the sensor is live
    BetSensorLink     the sensor's session up or down: payouts are checked only while it is heard
    no_more_bets      as before, then the wagers of record are frozen (one `wagers` record)
    confirm           with a sensor, every space must hold its payout: else one `mispay` per
                      space, confirm refused, the round stays in `result`
    accept_payouts    the supervisor, with the key, accepts the spaces as they stand
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from controller.journal.kinds import RecordKind as R
from controller.table import inputs as i
from controller.table import machine as m
from controller.table.bet_board import BetBoard, SpaceReading
from controller.table.california import BANK
from controller.table.chip_registry import ChipError, ChipRegistry
from controller.table.commands import Commands, Refusal
from controller.table.money_recovery import RecoveredMoney
from controller.table.output import Out
from controller.table.panel import Panel
from controller.table.round_in_play import RoundInPlay
from controller.table.wagers import L10, Mispay, RoundWagers, parse_stakes
from games.money import format_amount
from games.money.settle import BACCARAT_SEATS, SEATS_CLAUSE
from games.round import Game
from games.round import IrregularityKind as K


class MoneyDesk:
    def __init__(self, game: Game, *, board: BetBoard, registry: ChipRegistry, wagers: RoundWagers,
                 round: RoundInPlay, panel: Panel, commands: Commands):
        self.game, self.board, self.registry, self.book = game, board, registry, wagers
        self.round, self.panel, self.commands = round, panel, commands
        self.reported_foreign: set[tuple[int, str]] = set()  # (space, uid) reported since the round opened
        self.reported_late: dict[tuple[int, str], set[str]] = {}  # (seat, bet) -> UIDs reported added since the freeze
        self.reported_removed: dict[tuple[int, str], set[str]] = {}
        self._no_more_bets, self._confirm = commands.handlers["no_more_bets"], commands.handlers["confirm"]
        self._place_bets = commands.handlers["place_bets"]
        for name in ("wagers", "chips_import", "chips_retire", "chips", "accept_payouts",
                     "no_more_bets", "confirm", "place_bets"):
            commands.register(name, getattr(self, name))

    # ------------------------------------------------------------ the bet sensor

    def on_layout(self, inp: i.BetLayoutHeard, out: Out) -> None:
        problems = self.board.set_layout(inp.spaces)
        payload: dict[str, Any] = {"spaces": len(self.board.layout)}
        if problems:
            payload["left_out"] = problems
            out.journal(R.DEVICE_NOTE, {"device": "bets", "detail": "; ".join(problems)})
        out.publish("bet_layout", **payload)

    def on_sensor_link(self, inp: i.BetSensorLink, out: Out) -> None:
        """The sensor's session (controller/daemon/bet_session.py): while it is down its last
        readings are not current, so payouts cannot be checked against them."""
        self.board.unheard = "" if inp.up else (inp.reason or "the bet sensor is not heard")
        out.publish("bet_sensor", sensor=self.board.sensor_state(), reason=self.board.unheard or None)

    def on_chips(self, inp: i.SpaceChips, out: Out) -> None:
        reading = self.board.take(inp)
        if isinstance(reading, str):
            out.journal(R.DEVICE_NOTE, {"device": "bets", "detail": reading})
            return
        state = self.round.state
        frozen = self.book.frozen
        betting_over = frozen is not None and self.round.is_open() and self.book.money is None and state != m.RESULT
        new_foreign = {c.uid for c in reading.foreign if (reading.space, c.uid) not in self.reported_foreign}
        self._foreign(out, reading, betting_over)
        if betting_over:
            self._after_no_more_bets(out, reading, new_foreign)
        elif state == m.RESULT and self.book.mispays:
            self._recheck(out, reading)
        out.publish("space", **reading.to_json())

    def _foreign(self, out: Out, r: SpaceReading, betting_over: bool) -> None:
        # after "No more bets" the wager of record is already frozen: the chip is refused, not the wager
        then = "refused, the wager of record stays as frozen" if betting_over else "the wager holding it is not accepted"
        for chip in r.foreign:
            if (r.space, chip.uid) in self.reported_foreign:
                continue
            self.reported_foreign.add((r.space, chip.uid))
            detail = (f"seat {r.seat} {r.bet} (space {r.space}): chip {chip.uid} of {format_amount(chip.value)} is "
                      f"foreign ({chip.why}): {then}")
            self.round.irregular(out, self.game.rule(K.FOREIGN_CHIP), detail, {"space": r.space}, extra={
                "seat": r.seat, "bet": r.bet, "space": r.space, "uid": chip.uid,
                "value": format_amount(chip.value), "why": chip.why})

    def _after_no_more_bets(self, out: Out, r: SpaceReading, new_foreign: set[str]) -> None:
        """Chips added or taken away after "No more bets": late wager, wager removed. A foreign
        chip first seen now (`new_foreign`) was added too: a late wager besides a foreign chip."""
        frozen = self.book.frozen
        assert frozen is not None
        if r.bet in self.game.wagers and self.game.wagers[r.bet].stake_of is not None:
            return  # Fu Bacc's Play is placed after "No more bets", with the decision to play
        now = {uid for uid, _ in r.chips}
        key = (r.seat, r.bet)
        added = (now | new_foreign) - frozen.chips_then.get(key, frozenset()) - self.reported_late.setdefault(key, set())
        removed = frozen.staked.get(key, frozenset()) - now - self.reported_removed.setdefault(key, set())
        stake = next((w.stake for w in frozen.wagers if (w.seat, w.bet) == (r.seat, r.bet)), None)
        if r.bet == BANK and frozen.bank is not None and frozen.bank.seat == r.seat:
            stake = frozen.bank.stake
        shown = format_amount(stake) if stake is not None else "0"
        fields = {"seat": r.seat, "bet": r.bet, "space": r.space, "frozen": shown, "now": format_amount(r.amount)}
        if added:
            self.reported_late[key] |= added
            rule = self.game.rule(K.LATE_WAGER)
            rule = replace(rule, clause=f"{rule.clause}, {L10}")
            self.round.irregular(out, rule, f"seat {r.seat} {r.bet} (space {r.space}): chip(s) {', '.join(sorted(added))} "
                                 f"added after \"No more bets\": refused, the wager of record stays {shown}",
                                 {"space": r.space, "added": sorted(added)}, extra=fields)
        if removed:
            self.reported_removed[key] |= removed
            self.round.irregular(out, self.game.rule(K.WAGER_REMOVED),
                                 f"seat {r.seat} {r.bet} (space {r.space}): chip(s) {', '.join(sorted(removed))} taken "
                                 f"away after \"No more bets\": the wager of record stays {shown} and is settled",
                                 {"space": r.space, "removed": sorted(removed)}, extra=fields)

    def _recheck(self, out: Out, r: SpaceReading) -> None:
        """A mispaid space read again: cleared once it holds its payout."""
        key = (r.seat, r.bet)
        mispay = self.book.mispays.get(key)
        if mispay is not None and r.amount == mispay.expected:
            del self.book.mispays[key]
            out.publish("mispay_cleared", round=self.round.current.number, seat=r.seat, bet=r.bet,
                        amount=format_amount(r.amount))

    def restore(self, money: RecoveredMoney, round_no: int | None) -> None:
        """After a restart: what the interrupted round already reported is not reported again."""
        if round_no is None or money.round != round_no:
            return
        for p in money.reported:
            key = (int(p.get("seat", 0)), str(p.get("bet", "")))
            found = p.get("evidence")
            evidence: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
            if p.get("kind") == K.FOREIGN_CHIP.value and p.get("space") is not None:
                self.reported_foreign.add((int(p["space"]), str(p.get("uid"))))
            elif p.get("kind") == K.LATE_WAGER.value:
                self.reported_late.setdefault(key, set()).update(map(str, evidence.get("added") or ()))
            elif p.get("kind") == K.WAGER_REMOVED.value:
                self.reported_removed.setdefault(key, set()).update(map(str, evidence.get("removed") or ()))

    # ------------------------------------------------------------ the round's commands, with money

    def place_bets(self, args: Mapping, out: Out) -> None:
        rnd = self.round
        if rnd.state == m.RESULT and self.book.mispays:
            raise Refusal(f"round {rnd.current.number} is mispaid ({self.game.rule(K.MISPAY).clause}): the spaces are "
                          f"corrected and confirmed, or the supervisor accepts them (accept_payouts), first")
        self._place_bets(args, out)  # a new round: its wagers start empty (RoundInPlay.open)
        self.reported_foreign.clear()
        self.reported_late, self.reported_removed = {}, {}

    def no_more_bets(self, args: Mapping, out: Out) -> None:
        if self.round.state == m.BETTING and self.board.live and not self.board.unheard and self.board.unread():
            # the wagers would freeze from spaces not read yet (a session's whole state still coming)
            raise Refusal(f"the bet sensor has {self.board.why_not_heard()} ({L10}): the wagers freeze once it "
                          f"has read them all")
        bank = self.book.choose_bank() if self.round.state == m.BETTING else None
        if isinstance(bank, str):
            raise Refusal(bank)
        self._no_more_bets(args, out)
        rnd = self.round
        if bank is not None and rnd.state == m.BETS_CLOSED and self.book.bank is not None:
            self.book.bank.pass_to(out, bank)  # the holder declined: the position passed for this hand
        if rnd.state == m.BETS_CLOSED and self.book.frozen is None:
            frozen = self.book.freeze(out, rnd.current.number, rnd.current.spots)
            if out.reply is not None and out.reply.ok and (frozen.wagers or frozen.refused):
                out.reply = replace(out.reply, message=f"{out.reply.message}; {len(frozen.wagers)} wager(s) of record"
                                                       + (f", {len(frozen.refused)} refused" if frozen.refused else ""))

    def confirm(self, args: Mapping, out: Out) -> None:
        rnd, wagers = self.round, self.book
        if rnd.state == m.RESULT and wagers.payout_check and not wagers.accepted:
            if not self.board.heard:
                why = f" ({self.board.why_not_heard()})" if self.board.live else ""
                raise Refusal(f"round {rnd.current.number}'s payouts are checked by the bet sensor, which is not heard"
                              f"{why}: wait for it, or the supervisor accepts the payouts (accept_payouts)")
            differences = wagers.payout_differences()
            if differences:
                self._mispaid(out, differences)
                spaces = "; ".join(f"seat {d.seat} {d.bet} holds {format_amount(d.found)}, "
                                   f"should hold {format_amount(d.expected)}" for d in differences)
                rule = self.game.rule(K.MISPAY)
                raise Refusal(f"round {rnd.current.number} is mispaid ({rule.clause}): {spaces}")
            wagers.mispays = {}
        self._confirm(args, out)

    def _mispaid(self, out: Out, differences: list[Mispay]) -> None:
        wagers, before = self.book, dict(self.book.mispays)
        wagers.mispays = {(d.seat, d.bet): d for d in differences}
        for d in differences:
            if before.get((d.seat, d.bet)) == d:
                continue  # already on record as it stands
            difference = d.found - d.expected
            detail = (f"seat {d.seat} {d.bet}" + (f" (space {d.space})" if d.space is not None else "")
                      + f": holds {format_amount(d.found)}, should hold {format_amount(d.expected)} "
                      f"({'over' if difference > 0 else 'under'} by {format_amount(abs(difference))})")
            self.round.irregular(out, self.game.rule(K.MISPAY), detail, {"space": d.space}, extra={
                "seat": d.seat, "bet": d.bet, "space": d.space, "expected": format_amount(d.expected),
                "found": format_amount(d.found), "difference": format_amount(difference), "direction": d.direction},
                attention=False)  # its lamp blinks while it stands (lamps.py: mispaid), not until the round ends

    def accept_payouts(self, args: Mapping, out: Out) -> None:
        rnd, wagers = self.round, self.book
        if not self.panel.key_on:
            raise Refusal(f"accepting payouts needs the supervisor key ({L10})")
        if rnd.state != m.RESULT or not wagers.payout_check:
            raise Refusal(f"no payouts wait to be checked ({rnd.text()} is {rnd.state})")
        if wagers.accepted:
            raise Refusal(f"round {rnd.current.number}'s payouts are already accepted: confirm")
        differences = wagers.payout_differences() if self.board.heard else list(wagers.mispays.values())
        if not differences:
            raise Refusal(f"every space holds its payout: nothing to accept, confirm round {rnd.current.number}")
        wagers.accepted, wagers.mispays = True, {}
        payload = {"round": rnd.current.number, "by": self._by(),
                   "differences": [{"seat": d.seat, "bet": d.bet, "expected": format_amount(d.expected),
                                    "found": format_amount(d.found)} for d in differences]}
        out.journal(R.PAYOUTS_ACCEPTED, payload, durable=True)
        out.publish("payouts_accepted", **payload)
        out.answer(True, f"round {rnd.current.number}: payouts accepted as they stand ({len(differences)} space(s) "
                         f"differ); confirm", differences=payload["differences"])

    # ------------------------------------------------------------ wagers by command

    def wagers(self, args: Mapping, out: Out) -> None:
        rnd = self.round
        if self.board.live:
            raise Refusal("the bet sensor reads the wagers at this table: wagers are not given by command")
        if rnd.state != m.BETTING:
            rule = self.game.rule(K.LATE_WAGER)
            raise Refusal(f"wagers are given while bets are open; {rnd.text()} is {rnd.state} ({rule.clause})")
        try:
            seat = int(args["seat"])
        except (KeyError, TypeError, ValueError):
            raise Refusal(f"seat: {args.get('seat')!r} is not a seat number") from None
        seats = range(1, (self.game.max_spots if self.game.uses_spots else len(BACCARAT_SEATS)) + 1)
        if seat not in seats:
            what = "spot" if self.game.uses_spots else "seat"
            raise Refusal(f"{what} {seat} is not a {self.game.key} {what} ({seats[0]}-{seats[-1]}, {SEATS_CLAUSE})")
        try:
            stakes = parse_stakes(self.game, seat, args.get("stakes", []), self.book.california is not None)
        except ValueError as bad:
            raise Refusal(str(bad)) from None
        self.book.give(seat, stakes)
        shown = ", ".join(f"{bet}={format_amount(a)}" for bet, a in stakes.items()) or "none"
        out.publish("wagers_given", round=rnd.current.number, seat=seat,
                    stakes=[f"{bet}={format_amount(a)}" for bet, a in stakes.items()])
        out.answer(True, f"round {rnd.current.number} seat {seat}: {shown}", seat=seat)

    # ------------------------------------------------------------ the chip registry

    def chips_import(self, args: Mapping, out: Out) -> None:
        try:
            chips = self.registry.parse_import(args.get("chips", []))
        except ChipError as bad:
            raise Refusal(str(bad)) from None
        self.registry.add(chips)
        payload = {"imported": [{"uid": c.uid, "value": format_amount(c.value), "set": c.set} for c in chips],
                   "by": self._by()}
        out.journal(R.CHIPS, payload, durable=True)
        out.answer(True, f"{len(chips)} chip(s) imported", imported=len(chips))

    def chips_retire(self, args: Mapping, out: Out) -> None:
        try:
            uids = self.registry.parse_retire(args.get("uids", []))
        except ChipError as bad:
            raise Refusal(str(bad)) from None
        self.registry.retire(uids)
        out.journal(R.CHIPS, {"retired": uids, "by": self._by()}, durable=True)
        out.answer(True, f"{len(uids)} chip(s) retired", retired=len(uids))

    def chips(self, args: Mapping, out: Out) -> None:
        if args.get("uid"):
            chip = self.registry.chips.get(str(args["uid"]).strip().lower())
            if chip is None:
                raise Refusal(f"chip {str(args['uid'])[:24]!r} is not in the registry")
            out.answer(True, f"chip {chip.uid}: {format_amount(chip.value)} ({chip.set})"
                             + (", retired" if chip.retired else ""), chip=chip.to_json())
            return
        chips = [c.to_json() for c in sorted(self.registry.chips.values(), key=lambda c: c.uid)]
        text = "no chip registry" if not self.registry.loaded else f"{len(chips)} chip(s)"
        out.answer(True, text, **self.registry.snapshot(), list=chips)

    def _by(self) -> Any:
        """Who gave the command being answered: the socket's peer, or the panel."""
        return self.commands.by if self.commands.by is not None else "panel"
