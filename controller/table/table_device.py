"""The shoe's own events: door, presence, cut card, empty, gaps, link lost/restored, reboot.

Local ruling L4: when the shoe is unheard mid-round (link lost, reboot, the daemon down), the
round is held until the shoe's draw counter proves that no card left it meanwhile; a counter
that moved on means unheard cards, one that cannot be read or went back means the order
cannot be proven: void.
"""
from __future__ import annotations

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.holds import device_lost_void
from controller.table.output import Out
from games.round import IrregularityKind as K


class DeviceMixin:
    def _on_gap(self, inp: i.DrawGap, out: Out) -> None:
        last = self.shoe.last_counter
        count = inp.got - inp.expected
        if count <= 0 or (last is not None and inp.got <= last):
            out.journal("device_note", {"detail": f"draw gap {inp.expected}->{inp.got} already accounted for "
                                                  f"(last counter {last})"})
            return
        self._unheard(out, count, f"the shoe reports a draw gap: card {inp.expected} never heard, "
                                  f"{inp.got} came next ({count} card(s) unheard)")
        self.shoe.last_counter = inp.got - 1

    def _on_door(self, inp: i.ShoeDoor, out: Out) -> None:
        self.door_open = inp.open
        self._shoe_event(out, "door_open" if inp.open else "door_closed")
        if inp.open and self._order_matters():
            self._irregular(out, self.game.rule(K.ORDER_ALTERED), "the shoe door was opened mid-round")

    def _on_presence(self, inp: i.ShoePresence, out: Out) -> None:
        if inp.present:
            self._shoe_event(out, "present")
            out.publish("attention", detail="a shoe is in: declare it with new_shoe")
            return
        if self._order_matters():
            self._irregular(out, self.game.rule(K.ORDER_ALTERED), "the shoe was removed mid-round")
        if self.shoe.state != m.NO_SHOE:
            self.shoe.remove()
        self._shoe_event(out, "removed", durable=True)

    def _order_matters(self) -> bool:
        """Could the order of the cards still to come in this round be altered?"""
        if self.state == m.AWAITING:
            return self.shape.draws_after_deal
        return self.state in (m.BETTING, m.BETS_CLOSED, m.DEALING, m.DRAWING, m.HELD)

    def _on_cut_card(self, inp: i.CutCard, out: Out) -> None:
        if self.settings.deck_per_round or self.shoe.state != m.IN_PLAY:
            why = "a fresh deck every round" if self.settings.deck_per_round else f"the shoe is {self.shoe.state}"
            self._shoe_event(out, "cut_card", ignored=why)
            return
        self.shoe.see_cut_card(round_in_progress=self._round_open())
        self._shoe_event(out, "cut_card", durable=True)
        if self.shoe.state == m.FINISHED:
            self._shoe_event(out, "finished", durable=True)

    def _on_empty(self, inp: i.ShoeEmpty, out: Out) -> None:
        self._shoe_event(out, "empty")
        due = self.state in (m.BETTING, m.BETS_CLOSED, m.DEALING, m.DRAWING, m.HELD) or (
            self.state == m.AWAITING and self.shape.draws_after_deal)
        if due:
            self._irregular(out, self.game.rule(K.INSUFFICIENT_CARDS),
                            f"the shoe reports empty with round {self.play.number} not complete")
        if not self.settings.deck_per_round and self.shoe.state in (m.IN_PLAY, m.CUT_CARD):
            self.shoe.finish()
            self._shoe_event(out, "finished", durable=True)

    # ------------------------------------------------------------ link (local ruling L4)

    def _on_link_lost(self, inp: i.ShoeLinkLost, out: Out) -> None:
        self.link_up, self.proof_needed, self.link_reason = False, True, inp.reason
        self._shoe_event(out, "link_lost", reason=inp.reason)
        if self.state in self._card_phases:
            self._irregular(out, self.game.rule(K.DEVICE_LOST), f"the shoe's link dropped mid-round: {inp.reason}")

    def _on_link_restored(self, inp: i.ShoeLinkRestored, out: Out) -> None:
        self._shoe_event(out, "link_restored", draw_counter=inp.draw_counter)
        self._counter_proof(out, inp.draw_counter, "the shoe's link came back")

    def _on_rebooted(self, inp: i.ShoeRebooted, out: Out) -> None:
        self._shoe_event(out, "rebooted", draw_counter=inp.draw_counter)
        self.proof_needed = True
        if self.state in self._card_phases:
            self._irregular(out, self.game.rule(K.DEVICE_LOST), "the shoe rebooted mid-round")
        self._counter_proof(out, inp.draw_counter, "the shoe rebooted")

    def _counter_proof(self, out: Out, now: int | None, via: str) -> None:
        """The shoe is heard again and its counter stands at `now`: resume, or void (L4)."""
        self.link_up, self.proof_needed, self.link_reason = True, False, ""
        last = self.shoe.last_counter
        if now is not None and last is not None and now > last:
            self._unheard(out, now - last, f"{via} with draw counter {now}; the last card heard was {last}: "
                                           f"{now - last} card(s) left unheard", l4=True)
        elif (now is None or last is None or now < last) and self._round_in_play():
            what = "cannot say its draw counter" if now is None else (
                "had no draw counter before" if last is None else f"counts {now}, below the last card heard ({last})")
            self._irregular(out, device_lost_void(self.game, missing=False),
                            f"{via}, but the shoe {what}: nothing proves that no card was missed (local ruling L4)")
        self.shoe.last_counter = now  # None: unknown until the next card says
        if self.state == m.HELD and self.hold.need == "counter":
            self._resume(out, f"{via}: draw counter {now} proves no card was missed (local ruling L4)",
                         list(self.hold.pending))
