"""Commands from the dealer's panel and the local socket. Each gets exactly one Reply: done,
or refused with a message that says why (and the clause, where a rule refuses it)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.holds import Arrival
from controller.table.output import Out
from controller.table.round_play import RoundPlay
from controller.table.settings import SettingsError, check_spots
from controller.table.table_rounds import as_void
from games.baccarat.california.rotation import offer_bank
from games.cards import Card, CardError, parse_card
from games.round import Consequence as C
from games.round import Irregular
from games.round import IrregularityKind as K


class Refusal(Exception):
    """A command that cannot be done now or as given; the message says why."""


def _int(args: Mapping, key: str, default=None) -> int | None:
    value = args.get(key, default)
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Refusal(f"{key}: {value!r} is not a number") from None


def _cards(value, key: str) -> list[Card]:
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


class CommandsMixin:
    def _on_command(self, inp: i.Command, out: Out) -> None:
        handler = getattr(self, f"_cmd_{inp.name}", None) if inp.name in i.COMMANDS else None
        if handler is None:
            out.answer(False, f"unknown command {inp.name!r} (one of {', '.join(i.COMMANDS)})")
            return
        if not isinstance(inp.args, Mapping):
            out.answer(False, f"{inp.name}: arguments must be a mapping of names to values")
            return
        try:
            handler(inp.args, out)
        except Refusal as refusal:
            out.answer(False, f"{inp.name}: {refusal}")

    def _round_no_text(self) -> str:
        return f"round {self.play.number}" if self.play is not None else "no round"

    # ------------------------------------------------------------ the round

    def _cmd_place_bets(self, args: Mapping, out: Out) -> None:
        if self.state not in m.ROUND_CLOSED:
            if self.state == m.BETTING:
                raise Refusal(f"bets are already open for {self._round_no_text()}")
            rule = self.game.rule(K.LATE_WAGER)
            raise Refusal(f"{self._round_no_text()} is {self.state}: bets are closed ({rule.clause}: {rule.summary})")
        why = self._open_refusal()
        if why:
            raise Refusal(why)
        if not self.flow.trigger("open_round"):  # the guard asks the same question as _open_refusal
            raise Refusal("the shoe is not ready")
        if self.settings.deck_per_round:
            self.shoe.new_deck()
            self._shoe_event(out, "new_deck", durable=True)
        self.round_no += 1
        self.play = RoundPlay(self.game, self.round_no, self.decks, self.spots, self.shoe.number)
        self.notes.clear()
        self.bet_outcomes, self.spot_outcomes, self.last_rule = {}, {}, None
        payload = {"round": self.round_no, "game": self.game.key, "decks": self.decks,
                   "shoe": self.shoe.number, "spots": list(self.spots)}
        if self.bank is not None:
            payload["player_dealer"] = self.bank.holder
        out.journal("round_opened", payload)
        out.publish("round_opened", **payload)
        out.answer(True, f"round {self.round_no}: place your bets", round=self.round_no)

    def _open_refusal(self) -> str | None:
        """Why a round cannot open now, or None."""
        shoe = self.shoe
        if shoe.state == m.NO_SHOE:
            return "no shoe: declare a new shoe first (new_shoe)"
        if shoe.state == m.BURNING:
            if shoe.burned and shoe.burn_remaining is None:
                return "the first burn card was not read: the supervisor keys it in (reconstruct card=...)"
            left = "the first card" if shoe.burned == 0 else f"{shoe.burn_remaining} more card(s)"
            return f"the burn is not finished: burn {left}"
        if shoe.state == m.FINISHED:
            return f"shoe {shoe.number} is finished: a new shoe is needed (new_shoe)"
        if self.bank is not None and self.bank.holder is None:
            return "nobody holds the player-dealer position: no hand is dealt (player_dealer seat=N)"
        return None

    def _cmd_spots(self, args: Mapping, out: Out) -> None:
        if "spots" not in args:
            raise Refusal("missing 'spots' (the live seat numbers, e.g. [1, 3])")
        value = args["spots"]
        if isinstance(value, str):
            value = [t for t in value.replace(",", " ").split()]
        self._set_spots(value, out)

    def _set_spots(self, spots, out: Out) -> None:
        if self.state not in (*m.ROUND_CLOSED, m.BETTING):
            rule = self.game.rule(K.LATE_WAGER)
            raise Refusal(f"{self._round_no_text()} is {self.state}: the live spots are fixed "
                          f"({rule.clause}: {rule.summary})")
        try:
            self.spots = check_spots(self.game, spots, "spots")
        except SettingsError as err:
            raise Refusal(str(err)) from None
        round_no = None
        if self.state == m.BETTING:
            self.play.set_spots(self.spots)
            round_no = self.play.number
        out.journal("spots", {"round": round_no, "spots": list(self.spots)})
        out.publish("spots", round=round_no, spots=list(self.spots))
        out.answer(True, f"live spots: {', '.join(map(str, self.spots))}", spots=list(self.spots))

    def _cmd_select_spot(self, args: Mapping, out: Out) -> None:
        spot = _int(args, "spot")
        if spot is None:
            raise Refusal("missing 'spot'")
        if self.bank is not None:  # a seat, for the player-dealer button
            seats = self.profile.player_dealer
            if spot not in seats.seats:
                raise Refusal(f"seat {spot} is not a {seats.table} seat ({seats.seat_range})")
            self.selected_spot = spot
            out.answer(True, f"seat {spot} selected", seat=spot)
            return
        if not self.game.uses_spots:
            raise Refusal(f"{self.game.key} is not dealt to spots")
        if self.state == m.AWAITING:
            if spot not in self.play.spots:
                raise Refusal(f"spot {spot} is not live (live: {', '.join(map(str, self.play.spots))})")
            self.selected_spot = spot
            out.answer(True, f"spot {spot} selected", spot=spot)
            return
        if self.state not in (*m.ROUND_CLOSED, m.BETTING):
            raise Refusal(f"spot buttons toggle live spots while betting and select a spot while decisions "
                          f"are awaited; {self._round_no_text()} is {self.state}")
        live = set(self.spots) ^ {spot}
        self._set_spots(sorted(live), out)

    def _cmd_no_more_bets(self, args: Mapping, out: Out) -> None:
        if self.state != m.BETTING:
            if self.state in m.ROUND_CLOSED:
                raise Refusal("no round is open: place bets first")
            raise Refusal(f"bets are already closed for {self._round_no_text()} ({self.state})")
        if not self.link_up:
            raise Refusal(f"the shoe is not heard ({self.link_reason or 'link lost'}): wait for it")
        if self.door_open:
            raise Refusal("the shoe door is open: close it first")
        needed, left = self.game.max_cards(self.play.spots), self.shoe.remaining
        if left < needed:
            detail = f"{left} card(s) left in the shoe; round {self.play.number} may need {needed}"
            self._irregular(out, self.game.rule(K.INSUFFICIENT_CARDS), detail, {"remaining": left, "needed": needed})
            out.answer(False, f"round {self.play.number} void: {detail} ({self.game.rule(K.INSUFFICIENT_CARDS).clause})")
            return
        if not self.flow.trigger("close_bets"):
            raise Refusal("the shoe is not heard")
        self.play.bets_closed = True
        payload = {"round": self.play.number, "spots": list(self.play.spots), "shoe_state": self._shoe_brief()}
        out.journal("bets_closed", payload)
        out.publish("bets_closed", **payload)
        out.answer(True, f"round {self.play.number}: no more bets")

    def _cmd_decide(self, args: Mapping, out: Out) -> None:
        if self.state != m.AWAITING:
            raise Refusal(f"no decision is awaited ({self._round_no_text()} is {self.state})")
        awaited = self.play.awaited()
        options = ", ".join(awaited.options)
        spot = _int(args, "spot", self.selected_spot if self.selected_spot is not None else awaited.spot)
        rule = self.game.rule(K.BAD_DECISION)
        if spot != awaited.spot:
            raise Refusal(f"spot {spot} is not deciding now: spot {awaited.spot} is (one of {options}) ({rule.clause})")
        decision = args.get("decision") or self.game.default_decision(self.play.state, spot)
        if not decision:
            raise Refusal(f"missing 'decision' for spot {spot} (one of {options})")
        try:
            self.play.add_decision(spot, str(decision))
        except Irregular as irr:
            if irr.rule.consequence is C.REFUSE:
                raise Refusal(f"spot {spot}: {irr.detail} ({irr.rule.clause})") from None
            self._irregular(out, irr.rule, irr.detail, {"spot": spot, "decision": str(decision)})
            out.answer(False, f"spot {spot}: {irr.detail} ({irr.rule.clause}, {irr.rule.consequence.value})")
            return
        self.selected_spot = None
        payload = {"round": self.play.number, "spot": spot, "decision": str(decision)}
        out.journal("decision", payload)
        out.publish("decision", **payload)
        self._advance(out)
        out.answer(True, f"spot {spot}: {decision}")

    def _cmd_confirm(self, args: Mapping, out: Out) -> None:
        if self.state != m.RESULT:
            raise Refusal(f"no result to confirm ({self._round_no_text()} is {self.state})")
        self.flow.trigger("settle")
        payload = {"round": self.play.number, "shoe_state": self._shoe_brief()}
        out.journal("settled", payload, durable=True)
        out.publish("settled", round=self.play.number)
        self._round_ended(out, settled=True)
        out.answer(True, f"round {self.play.number} settled")

    def _cmd_misdeal(self, args: Mapping, out: Out) -> None:
        if self.state == m.HELD:
            raise Refusal(f"{self._round_no_text()} is already held: the supervisor resolves it first")
        if self.state not in self._holdable or not self.play.state.cards:
            where = "already settled" if self.state == m.SETTLED else self.state
            raise Refusal(f"no dealt round to hold ({self._round_no_text()} is {where})")
        hand = str(args.get("hand") or "a hand")
        consequence = self._irregular(out, self.game.rule(K.WRONG_HAND_SIZE),
                                      f"the dealer reports that {hand} got the wrong number of cards",
                                      {"hand": hand, "round_cards": self.play.cards_json()})
        out.answer(True, f"round {self.play.number}: {consequence} ({self.game.rule(K.WRONG_HAND_SIZE).clause})")

    # ------------------------------------------------------------ the supervisor

    def _cmd_void(self, args: Mapping, out: Out) -> None:
        if not self.key_on:
            raise Refusal("a void needs the supervisor key")
        if self.state in m.ROUND_CLOSED:
            raise Refusal(f"no round in progress to void ({self._round_no_text()} is {self.state})")
        kind = args.get("kind")
        if kind:
            try:
                rule = as_void(self.game.rule(K(kind)))
            except ValueError:
                raise Refusal(f"kind {kind!r} is not an irregularity (one of {', '.join(k.value for k in K)})") from None
        elif self.hold is not None:
            rule = self.hold.void_rule
        elif self.last_rule is not None:
            rule = as_void(self.last_rule)
        else:
            raise Refusal("name the irregularity (kind=...) so that the void cites its clause; "
                          "without one, only a held round or one with an irregularity can be voided")
        reason = str(args.get("reason") or "voided by the supervisor")
        number = self.play.number
        self._void(out, rule, reason, {"supervisor": True}, by="supervisor")
        out.answer(True, f"round {number} void ({rule.clause})")

    def _cmd_reconstruct(self, args: Mapping, out: Out) -> None:
        if not self.key_on:
            raise Refusal("reconstruct needs the supervisor key")
        shoe = self.shoe
        if shoe.burning and shoe.burned and shoe.burn_remaining is None and self.state in m.ROUND_CLOSED:
            self._key_in_burn_card(args, out)
            return
        if self.state != m.HELD:
            raise Refusal(f"nothing is held ({self._round_no_text()} is {self.state})")
        hold = self.hold
        if hold.need == "counter":
            raise Refusal(f"round {self.play.number} waits for the shoe's draw counter (local ruling L4); "
                          "it resumes when the shoe proves no card was missed, or the supervisor voids it")
        waiting = [replace(a, replayed=True) for a in hold.pending]
        if hold.need == "card":
            drain, how = self._keyed_cards(args, hold.keyed, waiting)
        elif hold.need == "order":
            drain, how = self._ordered_cards(args, waiting)
        else:
            drain, how = waiting, "the supervisor confirmed the hands as reconstructed"
        number = self.play.number
        self._resume(out, how, drain)
        out.answer(True, f"round {number} resumed ({how})", state=self.state)

    def _keyed_cards(self, args: Mapping, count: int, waiting: list[Arrival]):
        cards = _cards(args.get("cards", args.get("card")), "card")
        if len(cards) != count:
            raise Refusal(f"key in {count} card(s) the shoe did not read (card=... or cards=[...]); got {len(cards)}")
        taken = Counter()
        for card in cards:
            if not self.shoe.deck_kind.contains(card) or self.shoe.composition[card] - taken[card] <= 0:
                reason = self.shoe.foreign_reason(card) or f"{card} came out once more than the shoe holds"
                raise Refusal(f"{reason}; if that card really is on the table, void the round")
            taken[card] += 1
        for card in cards:
            self.shoe.identify(card)
        keyed = [Arrival(card.code, card, None, replayed=True, keyed_in=True) for card in cards]
        return keyed + waiting[count:], f"the supervisor keyed in {', '.join(map(str, cards))}"

    def _ordered_cards(self, args: Mapping, waiting: list[Arrival]):
        size = 0
        while size < len(waiting) and waiting[size].double_draw:
            size += 1
        group, rest = waiting[:size], waiting[size:]
        if "order" in args:
            order = _cards(args["order"], "order")
            if Counter(order) != Counter(a.card for a in group):
                raise Refusal(f"order must name the cards drawn together: {', '.join(a.text for a in group)}")
            by_card = {a.card: a for a in group}
            group = [by_card[card] for card in order]
        ordered = [replace(a, double_draw=False) for a in group]
        return ordered + rest, f"the supervisor confirmed the order {', '.join(a.text for a in ordered)}"

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
        self._shoe_event(out, "burn_card_keyed_in", card=str(card), code=card.code)
        if self.shoe.state == m.IN_PLAY:
            self._shoe_event(out, "burn_done", durable=True)
        out.answer(True, f"burn card {card}: {self.shoe.burn_remaining} more to burn")

    # ------------------------------------------------------------ shoe, Fortune 7, status

    def _cmd_new_shoe(self, args: Mapping, out: Out) -> None:
        if self.state not in m.ROUND_CLOSED:
            raise Refusal(f"{self._round_no_text()} is in progress ({self.state}): settle or void it first")
        self.shoe.load()
        self.notes.clear()
        self._shoe_event(out, "new", durable=True, burn=self.settings.burn)
        then = "burn: turn the first card" if self.shoe.burning else "place bets when ready"
        out.answer(True, f"shoe {self.shoe.number} in: {then}", shoe=self.shoe.number)

    def _cmd_player_dealer(self, args: Mapping, out: Out) -> None:
        if self.bank is None:
            raise Refusal(f"{self.game.key} has no player-dealer position")
        if self.state not in m.ROUND_CLOSED:
            raise Refusal(f"the player-dealer changes between hands; {self._round_no_text()} is {self.state}")
        seats = self.profile.player_dealer
        seat = args.get("seat", self.selected_spot)
        if seat in (None, "", "none", 0, "0"):
            accepting = ()
        else:
            seat = _int({"seat": seat}, "seat")
            if seat not in seats.seats:
                raise Refusal(f"seat {seat} is not a {seats.table} seat ({seats.seat_range})")
            accepting = (seat,)
        self.bank = offer_bank(self.bank.offer_from, seats.seats, accepting)
        self.selected_spot = None
        self._bank_event(out, "offered")
        holder = self.bank.holder
        out.answer(True, f"player-dealer: seat {holder}" if holder else "nobody holds the player-dealer position",
                   seat=holder)

    def _cmd_status(self, args: Mapping, out: Out) -> None:
        out.answer(True, "status", **self.snapshot())
