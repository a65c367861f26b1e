"""Cards from the shoe: decode, count out of the shoe, check the draw counter, and route each
card to the burn, the round, a hold, or an irregularity."""
from __future__ import annotations

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.holds import Arrival, derived
from controller.table.output import Out
from games.cards import NO_READ_CODE, CardError, card_from_code
from games.round import Consequence as C
from games.round import Deal, Irregular
from games.round import IrregularityKind as K


class CardsMixin:
    def _on_card(self, inp: i.Card, out: Out) -> None:
        arrival = self._arrive(inp)
        was_open = self._round_open()
        self._card_counter(out, arrival)
        if was_open and self.state == m.VOID:  # the counter already voided the round: this card is its evidence
            self._card_record(out, arrival, "after_void")
            return
        self._route_card(out, arrival)

    def _arrive(self, inp: i.Card) -> Arrival:
        """Decode the card and count it out of the shoe (checked against the whole shoe first)."""
        misread = inp.misread or inp.code == NO_READ_CODE
        card = foreign = None
        if not misread:
            try:
                card = card_from_code(inp.code)
            except (CardError, TypeError, ValueError):
                code = f"0x{inp.code:04x}" if isinstance(inp.code, int) else repr(inp.code)
                foreign = f"{code} is not the code of any card"
            else:
                foreign = self.shoe.foreign_reason(card)
        if self.shoe.state != m.NO_SHOE:
            self.shoe.take(card)
        return Arrival(inp.code, card, inp.draw_counter, inp.double_draw, misread, foreign)

    # ------------------------------------------------------------ the draw counter

    def _card_counter(self, out: Out, arrival: Arrival) -> None:
        counter = arrival.draw_counter
        if self.proof_needed:  # the shoe was unheard: this card's counter must prove nothing was missed
            self._counter_proof(out, None if counter is None else counter - 1, "a card after the link came back")
        elif counter is not None and self.shoe.last_counter is not None:
            last = self.shoe.last_counter
            if counter > last + 1:
                self._unheard(out, counter - last - 1, f"the shoe's draw counter jumped from {last} to {counter}: "
                                                        f"{counter - last - 1} card(s) left unheard")
            elif counter <= last:
                self._counter_went_back(out, last, counter)
        if counter is not None:
            self.shoe.last_counter = counter

    def _counter_went_back(self, out: Out, last: int, now: int | None) -> None:
        """The counter cannot prove the order (a reboot nobody announced, or a shoe that keeps none)."""
        if self._round_in_play():
            detail = (f"the shoe's draw counter went from {last} to {now}" if now is not None
                      else "the shoe cannot say its draw counter")
            self._irregular(out, derived(self.game.rule(K.ORDER_ALTERED), "local ruling L4", C.VOID),
                            f"{detail}: nothing proves that no card was missed or reordered")

    def _unheard(self, out: Out, count: int, detail: str, l4: bool = False) -> None:
        """`count` cards left the shoe unheard: they count out of it, and for the round in
        progress they are what a card arriving now would be (missing while cards are due,
        before "No more bets" while betting, extra after the result)."""
        self.shoe.lose(count)
        state = self.state
        if state in m.ROUND_CLOSED:
            if self.shoe.burning:
                for _ in range(count):
                    self.shoe.burn(None)
            kind = K.MISSING_CARD
        elif state == m.BETTING:
            kind = K.CARD_BEFORE_NO_MORE_BETS
        elif state in (m.AWAITING, m.RESULT):
            kind = K.EXTRA_CARD
        else:
            kind = K.MISSING_CARD
        rule = self.game.rule(kind)
        if l4:
            rule = derived(rule, "local ruling L4", C.VOID)
        evidence = {"unheard": count, "draw_counter": self.shoe.last_counter}
        keyed = count if (kind is K.MISSING_CARD and state in self._card_phases) else 0
        placeholders = [Arrival(NO_READ_CODE, None, None, misread=True) for _ in range(keyed)]
        self._irregular(out, rule, detail, evidence, pending=placeholders, keyed=keyed)

    # ------------------------------------------------------------ routing

    def _route_card(self, out: Out, a: Arrival) -> None:
        state = self.state
        if state in m.ROUND_CLOSED:
            if self.shoe.burning and not a.replayed:
                self._burn_card(out, a)
            elif state == m.VOID and not a.foreign:
                self._card_record(out, a, "after_void")  # the void round's cards still coming out
            else:
                self._outside_card(out, a)
        elif state == m.HELD:
            self.hold.pending.append(a)
            self._card_record(out, a, "held")
        elif state == m.BETTING:
            self._card_record(out, a, "before_no_more_bets")
            kind = K.FOREIGN_CARD if a.foreign else K.CARD_BEFORE_NO_MORE_BETS
            self._irregular(out, self.game.rule(kind), a.foreign or
                            f"{a.text or 'an unread card'} came out before \"No more bets\"", self._evidence(a))
        elif state in (m.AWAITING, m.RESULT) or not isinstance(self.play.step(), Deal):
            self._extra_card(out, a)
        else:
            self._due_card(out, a)

    def _extra_card(self, out: Out, a: Arrival) -> None:
        self._card_record(out, a, "extra")
        kind = K.FOREIGN_CARD if a.foreign else K.EXTRA_CARD
        why = "the round is complete" if self.state == m.RESULT else "the round awaits a decision, not a card"
        self._irregular(out, self.game.rule(kind), a.foreign or f"{a.text or 'an unread card'} came out but {why}",
                        self._evidence(a))

    def _due_card(self, out: Out, a: Arrival) -> None:
        step = self.play.step()
        # The evidence (the round's cards so far) is built only for an irregular card: the
        # round is unchanged until add_card succeeds, so it is the same as built up front.
        if a.misread:
            self._card_record(out, a, "misread", step)
            self._irregular(out, self.game.rule(K.MISREAD),
                            f"card {len(self.play.state.cards) + 1} ({step.hand}) left the shoe unread",
                            self._evidence(a, step), pending=[a], keyed=1)
        elif a.foreign:
            self._card_record(out, a, "foreign", step)
            self._irregular(out, self.game.rule(K.FOREIGN_CARD), a.foreign, self._evidence(a, step))
        elif a.double_draw:
            self._card_record(out, a, "double_draw", step)
            when = "during the initial deal" if step.initial else "after the initial deal"
            self._irregular(out, self.game.double_draw_rule(step.initial),
                            f"{a.text} came out together with another card {when}", self._evidence(a, step),
                            pending=[a])
        else:
            try:
                deal = self.play.add_card(a.card)
            except Irregular as irr:
                self._card_record(out, a, irr.rule.kind.value, step)
                self._irregular(out, irr.rule, irr.detail, self._evidence(a, step))
                return
            record = self._card_record(out, a, "dealt", deal)
            out.publish("card", **record)
            self._advance(out)

    def _outside_card(self, out: Out, a: Arrival) -> None:
        self._card_record(out, a, "outside")
        if a.foreign:
            rule, detail = self.game.rule(K.FOREIGN_CARD), a.foreign
        else:
            rule = self.game.rule(K.CARD_BEFORE_NO_MORE_BETS)
            where = "no shoe is declared (new_shoe)" if self.shoe.state == m.NO_SHOE else f"no round is open ({self.state})"
            detail = f"{a.text or 'an unread card'} came out while {where}"
        self._irregular(out, rule, detail, self._evidence(a))

    def _burn_card(self, out: Out, a: Arrival) -> None:
        self.shoe.burn(a.card if not a.foreign else None)
        self._card_record(out, a, "burn")
        if a.foreign:
            self._irregular(out, self.game.rule(K.FOREIGN_CARD), f"burn card: {a.foreign}", self._evidence(a))
        if self.shoe.burned == 1 and self.shoe.burn_remaining is None:
            out.publish("attention", detail="the first burn card was not read: the supervisor keys it in "
                                            "(reconstruct card=...)")
        if self.shoe.state == m.IN_PLAY:
            self._shoe_event(out, "burn_done", durable=True)

    # ------------------------------------------------------------ records

    def _evidence(self, a: Arrival, step: Deal | None = None) -> dict:
        evidence = {"card": a.to_json()}
        if step is not None:
            evidence.update(hand=step.hand, position=step.position, initial=step.initial)
        if self.play is not None:
            evidence["round_cards"] = self.play.cards_json()
        return evidence

    def _card_record(self, out: Out, a: Arrival, status: str, deal: Deal | None = None) -> dict:
        """One `card` journal record per card that left the shoe, and one more when a card that
        waited in a hold, or was keyed in by the supervisor, is dealt (`reconstructed`: the
        shoe counted it once already)."""
        in_round = self.play is not None and (self._round_open() or status == "after_void")
        record = {
            "round": self.play.number if in_round else None, **a.to_json(), "status": status,
            "hand": deal.hand if deal is not None and status == "dealt" else None,
            "position": deal.position if deal is not None and status == "dealt" else None,
            "reconstructed": a.replayed, "keyed_in": a.keyed_in, "shoe_state": self._shoe_brief(),
        }
        out.journal("card", record)
        return record
