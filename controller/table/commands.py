"""Commands from the dealer's panel and the local socket. Each gets exactly one Reply: done,
or refused with a message that says why (and the clause, where a rule refuses it).

Each name of inputs.COMMANDS (the one list) is answered by the method of that name here,
`status` by the Table, and the money commands by controller/table/money_desk.py (`register`).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from controller.journal.kinds import RecordKind as R
from controller.journal.kinds import ShoeEvent as E
from controller.table import inputs as i
from controller.table import machine as m
from controller.table.arrival import Arrival
from controller.table.cards import CardFlow
from controller.table.holds import Holding, as_void
from controller.table.integrity import ShoeIntegrity
from controller.table.output import Out
from controller.table.panel import Panel
from controller.table.player_dealer import PlayerDealer
from controller.table.round_in_play import RoundInPlay, open_refusal
from controller.table.settings import SettingsError, TableSettings, check_spots
from controller.table.shifts import ShiftRefusal, Shifts
from controller.table.shoe import Shoe
from games.cards import Card, CardError, parse_card
from games.integrity import CLAUSE
from games.round import Consequence as C
from games.round import Game, Irregular
from games.round import IrregularityKind as K

CommandHandler = Callable[[Mapping, Out], None]


class Refusal(Exception):
    """A command that cannot be done now or as given; the message says why."""


def _int(args: Mapping, key: str, default: Any = None) -> int | None:
    value = args.get(key, default)
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Refusal(f"{key}: {value!r} is not a number") from None


def _cards(value: Any, key: str) -> list[Card]:
    tokens: Sequence[object]
    if isinstance(value, str):
        tokens = value.replace(",", " ").split()
    elif isinstance(value, (list, tuple)):
        tokens = value
    elif value is None:
        tokens = []
    else:
        raise Refusal(f"{key}: {value!r} is not a card (e.g. As, Td, 4-gold)")
    try:
        return [parse_card(str(t)) for t in tokens]
    except CardError as err:
        raise Refusal(f"{key}: {err}") from None


class Commands:
    def __init__(self, game: Game, settings: TableSettings, *, shoe: Shoe, round: RoundInPlay, holds: Holding,
                 bank: PlayerDealer | None, panel: Panel, integrity: ShoeIntegrity, cards: CardFlow):
        self.game, self.settings = game, settings
        self.shoe, self.round, self.holds, self.bank, self.panel, self.cards = shoe, round, holds, bank, panel, cards
        self.integrity = integrity
        self.shifts = Shifts()
        # every command of inputs.COMMANDS by the method of its name; `status` is the Table's: it owns the snapshot
        self.handlers: dict[str, CommandHandler] = {name: getattr(self, name) for name in i.COMMANDS if hasattr(self, name)}
        self.by: Mapping | None = None  # who gave the command being answered (None: the panel)

    def register(self, name: str, handler: CommandHandler) -> None:
        """`handler(args, out)` answers command `name` (one of inputs.COMMANDS); it raises
        Refusal to refuse, or answers itself with out.answer."""
        if name not in i.COMMANDS:
            raise ValueError(f"{name!r} is not a table command (one of {', '.join(i.COMMANDS)})")
        self.handlers[name] = handler

    def on_command(self, inp: i.Command, out: Out) -> None:
        handler = self.handlers.get(inp.name)
        if handler is None:
            out.answer(False, f"unknown command {inp.name!r} (one of {', '.join(i.COMMANDS)})")
            return
        if not isinstance(inp.args, Mapping):
            out.answer(False, f"{inp.name}: arguments must be a mapping of names to values")
            return
        self.by = inp.by
        try:
            handler(inp.args, out)
        except Refusal as refusal:
            out.answer(False, f"{inp.name}: {refusal}")

    # ------------------------------------------------------------ the round

    def place_bets(self, args: Mapping, out: Out) -> None:
        rnd = self.round
        if rnd.state not in m.ROUND_CLOSED:
            if rnd.state == m.BETTING:
                raise Refusal(f"bets are already open for {rnd.text()}")
            if rnd.state == m.HELD:  # §5.2: a round is reconstructed, or voided, before the next game starts
                hold = self.holds.held
                raise Refusal(f"{rnd.text()} is held for the supervisor ({hold.rule.clause}): reconstruct it, "
                              f"or void it ({hold.void_rule.clause}), before the next game")
            rule = self.game.rule(K.LATE_WAGER)
            raise Refusal(f"{rnd.text()} is {rnd.state}: bets are closed ({rule.clause}: {rule.summary})")
        why = open_refusal(self.shoe, self.bank, self.integrity)
        if why:
            raise Refusal(why)
        if not rnd.flow.trigger("open_round"):  # the guard asks the same question as open_refusal
            raise Refusal("the shoe is not ready")
        if self.settings.deck_per_round:
            self.shoe.new_deck()
            self.integrity.new_deck(self.game.max_cards(rnd.spots))
            self.shoe.event(out, E.NEW_DECK, durable=True)
        rnd.open(out)
        out.answer(True, f"round {rnd.number}: place your bets", round=rnd.number)

    def spots(self, args: Mapping, out: Out) -> None:
        if "spots" not in args:
            raise Refusal("missing 'spots' (the live seat numbers, e.g. [1, 3])")
        value = args["spots"]
        if isinstance(value, str):
            value = [t for t in value.replace(",", " ").split()]
        self._set_spots(value, out)

    def _set_spots(self, spots: Any, out: Out) -> None:
        rnd = self.round
        if rnd.state not in (*m.ROUND_CLOSED, m.BETTING):
            rule = self.game.rule(K.LATE_WAGER)
            raise Refusal(f"{rnd.text()} is {rnd.state}: the live spots are fixed ({rule.clause}: {rule.summary})")
        try:
            rnd.spots = check_spots(self.game, spots, "spots")
        except SettingsError as err:
            raise Refusal(str(err)) from None
        round_no = None
        if rnd.state == m.BETTING:
            rnd.current.set_spots(rnd.spots)
            round_no = rnd.current.number
        out.journal(R.SPOTS, {"round": round_no, "spots": list(rnd.spots)})
        out.publish("spots", round=round_no, spots=list(rnd.spots))
        out.answer(True, f"live spots: {', '.join(map(str, rnd.spots))}", spots=list(rnd.spots))

    def select_spot(self, args: Mapping, out: Out) -> None:
        spot = _int(args, "spot")
        if spot is None:
            raise Refusal("missing 'spot'")
        rnd = self.round
        if self.bank is not None:  # a seat, for the player-dealer button
            seats = self.bank.seats
            if spot not in seats.seats:
                raise Refusal(f"seat {spot} is not a {seats.table} seat ({seats.seat_range})")
            self.panel.selected = spot
            out.answer(True, f"seat {spot} selected", seat=spot)
            return
        if not self.game.uses_spots:
            raise Refusal(f"{self.game.key} is not dealt to spots")
        if rnd.state == m.AWAITING:
            if spot not in rnd.current.spots:
                raise Refusal(f"spot {spot} is not live (live: {', '.join(map(str, rnd.current.spots))})")
            self.panel.selected = spot
            out.answer(True, f"spot {spot} selected", spot=spot)
            return
        if rnd.state not in (*m.ROUND_CLOSED, m.BETTING):
            raise Refusal(f"spot buttons toggle live spots while betting and select a spot while decisions "
                          f"are awaited; {rnd.text()} is {rnd.state}")
        live = set(rnd.spots) ^ {spot}
        self._set_spots(sorted(live), out)

    def no_more_bets(self, args: Mapping, out: Out) -> None:
        rnd = self.round
        if rnd.state != m.BETTING:
            if rnd.state in m.ROUND_CLOSED:
                raise Refusal("no round is open: place bets first")
            raise Refusal(f"bets are already closed for {rnd.text()} ({rnd.state})")
        if not rnd.counter.heard:
            raise Refusal(f"the shoe is not heard ({rnd.counter.lost or 'link lost'}): wait for it")
        if self.shoe.door_open:
            raise Refusal("the shoe door is open: close it first")
        needed, left = self.game.max_cards(rnd.current.spots), self.shoe.remaining
        if left < needed:
            rule = self.game.rule(K.INSUFFICIENT_CARDS)
            detail = f"{left} card(s) left in the shoe; round {rnd.current.number} may need {needed}"
            rnd.irregular(out, rule, detail, {"remaining": left, "needed": needed})
            out.answer(False, f"round {rnd.current.number} void: {detail} ({rule.clause})")
            return
        if not rnd.flow.trigger("close_bets"):
            raise Refusal("the shoe is not heard")
        rnd.current.bets_closed = True
        payload = {"round": rnd.current.number, "spots": list(rnd.current.spots), "shoe_state": self.shoe.brief()}
        out.journal(R.BETS_CLOSED, payload)
        out.publish("bets_closed", **payload)
        out.answer(True, f"round {rnd.current.number}: no more bets")

    def decide(self, args: Mapping, out: Out) -> None:
        rnd = self.round
        if rnd.state != m.AWAITING:
            raise Refusal(f"no decision is awaited ({rnd.text()} is {rnd.state})")
        awaited = rnd.current.awaited()
        assert awaited is not None  # the round machine awaits a decision only where the game does
        options = ", ".join(awaited.options)
        spot = _int(args, "spot", self.panel.selected if self.panel.selected is not None else awaited.spot)
        rule = self.game.rule(K.BAD_DECISION)
        if spot is None or spot != awaited.spot:
            raise Refusal(f"spot {spot} is not deciding now: spot {awaited.spot} is (one of {options}) ({rule.clause})")
        decision = args.get("decision") or self.game.default_decision(rnd.current.state, spot)
        if not decision:
            raise Refusal(f"missing 'decision' for spot {spot} (one of {options})")
        try:
            rnd.current.add_decision(spot, str(decision))
        except Irregular as irr:
            if irr.rule.consequence is C.REFUSE:
                raise Refusal(f"spot {spot}: {irr.detail} ({irr.rule.clause})") from None
            rnd.irregular(out, irr.rule, irr.detail, {"spot": spot, "decision": str(decision)})
            out.answer(False, f"spot {spot}: {irr.detail} ({irr.rule.clause}, {irr.rule.consequence.value})")
            return
        self.panel.selected = None
        payload = {"round": rnd.current.number, "spot": spot, "decision": str(decision)}
        out.journal(R.DECISION, payload)
        out.publish("decision", **payload)
        rnd.advance(out)
        out.answer(True, f"spot {spot}: {decision}")

    def confirm(self, args: Mapping, out: Out) -> None:
        rnd = self.round
        if rnd.state != m.RESULT:
            raise Refusal(f"no result to confirm ({rnd.text()} is {rnd.state})")
        rnd.settle(out)
        out.answer(True, f"round {rnd.current.number} settled")

    def misdeal(self, args: Mapping, out: Out) -> None:
        rnd = self.round
        if rnd.state == m.HELD:
            raise Refusal(f"{rnd.text()} is already held: the supervisor resolves it first")
        if rnd.state not in rnd.holdable or not rnd.current.state.cards:
            where = "already settled" if rnd.state == m.SETTLED else rnd.state
            raise Refusal(f"no dealt round to hold ({rnd.text()} is {where})")
        hand = str(args.get("hand") or "a hand")
        rule = self.game.rule(K.WRONG_HAND_SIZE)
        consequence = rnd.irregular(out, rule, f"the dealer reports that {hand} got the wrong number of cards",
                                    {"hand": hand, "round_cards": rnd.current.cards_json()})
        out.answer(True, f"round {rnd.current.number}: {consequence} ({rule.clause})")

    # ------------------------------------------------------------ the supervisor

    def void(self, args: Mapping, out: Out) -> None:
        rnd = self.round
        if not self.panel.key_on:
            raise Refusal("a void needs the supervisor key")
        if rnd.state in m.ROUND_CLOSED:
            raise Refusal(f"no round in progress to void ({rnd.text()} is {rnd.state})")
        kind = args.get("kind")
        if kind:
            try:
                rule = as_void(self.game.rule(K(kind)))
            except ValueError:
                raise Refusal(f"kind {kind!r} is not an irregularity (one of {', '.join(k.value for k in K)})") from None
        elif self.holds.current is not None:
            rule = self.holds.current.void_rule
        elif rnd.last_rule is not None:
            rule = as_void(rnd.last_rule)
        else:
            raise Refusal("name the irregularity (kind=...) so that the void cites its clause; "
                          "without one, only a held round or one with an irregularity can be voided")
        reason = str(args.get("reason") or "voided by the supervisor")
        number = rnd.current.number
        rnd.void(out, rule, reason, {"supervisor": True}, by="supervisor")
        out.answer(True, f"round {number} void ({rule.clause})")

    def reconstruct(self, args: Mapping, out: Out) -> None:
        rnd, shoe = self.round, self.shoe
        if not self.panel.key_on:
            raise Refusal("reconstruct needs the supervisor key")
        if shoe.burning and shoe.burned and shoe.burn_remaining is None and rnd.state in m.ROUND_CLOSED:
            self._key_in_burn_card(args, out)
            return
        if rnd.state != m.HELD:
            raise Refusal(f"nothing is held ({rnd.text()} is {rnd.state})")
        hold = self.holds.held
        if hold.need == "counter":
            raise Refusal(f"round {rnd.current.number} waits for the shoe's draw counter (local ruling L4): "
                          "the shoe heard again resumes it (a card it dealt unheard is then keyed in here, "
                          "ruling 24), or the supervisor voids it")
        waiting = [replace(a, replayed=True) for a in hold.pending]
        if hold.need == "card":
            drain, how = self._keyed_cards(args, hold.keyed, waiting)
        elif hold.need == "order":
            drain, how = self._ordered_cards(args, waiting)
        else:
            drain, how = waiting, "the supervisor confirmed the hands as reconstructed"
        number = rnd.current.number
        if rnd.resume(out, how, drain):
            self.cards.drain(out, drain)
        out.answer(True, f"round {number} resumed ({how})", state=rnd.state)

    def _keyed_cards(self, args: Mapping, count: int, waiting: list[Arrival]) -> tuple[list[Arrival], str]:
        cards = _cards(args.get("cards", args.get("card")), "card")
        if len(cards) != count:
            raise Refusal(f"key in {count} card(s) the shoe did not read (card=... or cards=[...]); got {len(cards)}")
        taken: Counter[Card] = Counter()
        for card in cards:
            if not self.shoe.deck_kind.contains(card) or self.shoe.composition[card] - taken[card] <= 0:
                reason = self.shoe.foreign_reason(card) or f"{card} came out once more than the shoe holds"
                raise Refusal(f"{reason}; if that card really is on the table, void the round")
            taken[card] += 1
        for card in cards:
            self.shoe.identify(card)
        keyed = [Arrival(card.code, card, None, replayed=True, keyed_in=True) for card in cards]
        return keyed + waiting[count:], f"the supervisor keyed in {', '.join(map(str, cards))}"

    def _ordered_cards(self, args: Mapping, waiting: list[Arrival]) -> tuple[list[Arrival], str]:
        size = 0
        while size < len(waiting) and waiting[size].double_draw:
            size += 1
        group, rest = waiting[:size], waiting[size:]
        if "order" in args:
            order = _cards(args["order"], "order")
            if Counter(order) != Counter(a.card for a in group):
                raise Refusal(f"order must name the cards drawn together: {', '.join(a.label for a in group)}")
            by_card = {a.card: a for a in group}
            group = [by_card[card] for card in order]
        ordered = [replace(a, double_draw=False) for a in group]
        return ordered + rest, f"the supervisor confirmed the order {', '.join(a.label for a in ordered)}"

    def _key_in_burn_card(self, args: Mapping, out: Out) -> None:
        cards = _cards(args.get("card"), "card")
        if len(cards) != 1:
            raise Refusal("key in the one burn card the shoe did not read (card=...)")
        card = cards[0]
        reason = self.shoe.foreign_reason(card)
        if reason:
            raise Refusal(reason)
        self.shoe.identify(card)
        self.shoe.key_in_burn_card(card)
        self.shoe.event(out, E.BURN_CARD_KEYED_IN, card=str(card), code=card.code)
        if self.shoe.state == m.IN_PLAY:
            self.shoe.event(out, E.BURN_DONE, durable=True)
        out.answer(True, f"burn card {card}: {self.shoe.burn_remaining} more to burn")

    # ------------------------------------------------------------ the shoe, the player-dealer

    def new_shoe(self, args: Mapping, out: Out) -> None:
        rnd = self.round
        if rnd.state not in m.ROUND_CLOSED:
            raise Refusal(f"{rnd.text()} is in progress ({rnd.state}): settle or void it first")
        self.shoe.load()
        answers = self.integrity.new_shoe()
        rnd.notes.clear()
        self.shoe.event(out, E.NEW, durable=True, burn=self.settings.burn, **({"answers": answers} if answers else {}))
        then = "burn: turn the first card" if self.shoe.burning else "place bets when ready"
        out.answer(True, f"shoe {self.shoe.number} in: {then}", shoe=self.shoe.number)

    def accept_shoe(self, args: Mapping, out: Out) -> None:
        """The supervisor accepts a shoe that failed an integrity check (local ruling L7): play
        goes on with it. The `shoe` record names the alarms it answers; the command's own record,
        just before it, who gave it."""
        if not self.panel.key_on:
            raise Refusal(f"accepting a shoe that failed an integrity check needs the supervisor key ({CLAUSE})")
        if not self.integrity.blocked:
            raise Refusal(f"no integrity alarm waits to be answered in shoe {self.shoe.number}")
        answers = self.integrity.accept()
        self.shoe.event(out, E.ACCEPTED, durable=True, answers=answers, clause=CLAUSE)
        checks = ", ".join(str(a["check"]) for a in answers)
        out.answer(True, f"shoe {self.shoe.number} accepted by the supervisor ({checks}; {CLAUSE}): play goes on",
                   answers=answers)

    def player_dealer(self, args: Mapping, out: Out) -> None:
        bank, rnd = self.bank, self.round
        if bank is None:
            raise Refusal(f"{self.game.key} has no player-dealer position")
        if rnd.state not in m.ROUND_CLOSED:
            raise Refusal(f"the player-dealer changes between hands; {rnd.text()} is {rnd.state}")
        seat = args.get("seat", self.panel.selected)
        if seat in (None, "", "none", 0, "0"):
            accepting: tuple[int, ...] = ()
        else:
            seat = _int({"seat": seat}, "seat")
            if seat not in bank.seats.seats:
                raise Refusal(f"seat {seat} is not a {bank.seats.table} seat ({bank.seats.seat_range})")
            accepting = (seat,)
        self.panel.selected = None
        bank.offer(out, accepting)
        holder = bank.holder
        out.answer(True, f"player-dealer: seat {holder}" if holder else "nobody holds the player-dealer position",
                   seat=holder)

    # ------------------------------------------------------------ shifts (the meters' periods)

    def shift(self, args: Mapping, out: Out) -> None:
        rnd = self.round
        try:
            self.shifts.command(args, None if rnd.state in m.ROUND_CLOSED else rnd.text(), out)
        except ShiftRefusal as refusal:
            raise Refusal(str(refusal)) from None
