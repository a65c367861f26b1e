"""The shoe's own events: its status (door, presence, cut card, empty, draw counter), link
lost/restored, reboot.

Local ruling L4: when the shoe is unheard mid-round (link lost, reboot, the daemon down), the
round is held until the shoe's draw counter proves that no card left it meanwhile; a counter
that moved on means unheard cards, one that cannot be read or went back means the order
cannot be proven: void (controller.table.draw_counter judges, controller.table.cards acts).
"""
from __future__ import annotations

from controller.journal.kinds import ShoeEvent as E
from controller.table import inputs as i
from controller.table import machine as m
from controller.table.cards import CardFlow
from controller.table.draw_counter import DrawCounter, Unheard, Unproven
from controller.table.output import Out
from controller.table.round_in_play import RoundInPlay
from controller.table.settings import TableSettings
from controller.table.shoe import Shoe
from games.round import Game
from games.round import IrregularityKind as K


class ShoeEvents:
    def __init__(self, game: Game, settings: TableSettings, *, shoe: Shoe, counter: DrawCounter,
                 round: RoundInPlay, cards: CardFlow):
        self.game, self.settings = game, settings
        self.shoe, self.counter, self.round, self.cards = shoe, counter, round, cards

    def on_counter(self, inp: i.ShoeCounter, out: Out) -> None:
        """A status while the shoe is heard: its counter may show cards it dealt unheard."""
        now = inp.draw_counter
        if self.counter.proof_needed:
            self.cards.prove(out, now, "the shoe's status came")
            return
        verdict = self.counter.check_status(now)
        if isinstance(verdict, Unheard):
            self.cards.unheard(out, verdict.count, f"the shoe's status shows draw counter {now}; the last card heard "
                                                   f"was {verdict.last}: {verdict.count} card(s) left unheard")
        elif isinstance(verdict, Unproven) and verdict.last is not None and self.round.in_play():
            self.cards.went_back(out, verdict.last, now)
        self.counter.stands_at(now)

    def on_door(self, inp: i.ShoeDoor, out: Out) -> None:
        self.shoe.door_open = inp.open
        self.shoe.event(out, E.DOOR_OPEN if inp.open else E.DOOR_CLOSED)
        if inp.open and self.round.order_matters():
            self.round.irregular(out, self.game.rule(K.ORDER_ALTERED), "the shoe door was opened mid-round")

    def on_presence(self, inp: i.ShoePresence, out: Out) -> None:
        if inp.present:
            self.shoe.event(out, E.PRESENT)
            out.publish("attention", detail="a shoe is in: declare it with new_shoe")
            return
        if self.round.order_matters():
            self.round.irregular(out, self.game.rule(K.ORDER_ALTERED), "the shoe was removed mid-round")
        if self.shoe.state != m.NO_SHOE:
            self.shoe.remove()
        self.shoe.event(out, E.REMOVED, durable=True)

    def on_cut_card(self, inp: i.CutCard, out: Out) -> None:
        if self.settings.deck_per_round or self.shoe.state != m.IN_PLAY:
            why = "a fresh deck every round" if self.settings.deck_per_round else f"the shoe is {self.shoe.state}"
            self.shoe.event(out, E.CUT_CARD, ignored=why)
            return
        self.shoe.see_cut_card(round_in_progress=self.round.is_open())
        self.shoe.event(out, E.CUT_CARD, durable=True)
        if self.shoe.state == m.FINISHED:
            self.shoe.event(out, E.FINISHED, durable=True)

    def on_empty(self, inp: i.ShoeEmpty, out: Out) -> None:
        self.shoe.event(out, E.EMPTY)
        if self.round.cards_due():
            self.round.irregular(out, self.game.rule(K.INSUFFICIENT_CARDS),
                                 f"the shoe reports empty with round {self.round.current.number} not complete")
        if not self.settings.deck_per_round and self.shoe.state in (m.IN_PLAY, m.CUT_CARD):
            self.shoe.finish()
            self.shoe.event(out, E.FINISHED, durable=True)

    def on_card_disputed(self, inp: i.CardDisputed, out: Out) -> None:
        """Local ruling L8: a card that may be forged. The link dealt the first of the two
        frames; the round does not go on on it unchecked: held for the supervisor to confirm
        the hands against the cards on the table, else void; noted outside a round."""
        evidence = {**self.round.table_evidence(), "frames": dict(inp.frames)}
        self.round.irregular(out, self.game.rule(K.CARD_DISPUTED), inp.detail, evidence)

    # ------------------------------------------------------------ link (local ruling L4)

    def on_link_lost(self, inp: i.ShoeLinkLost, out: Out) -> None:
        self.counter.link_lost(inp.reason)
        self.shoe.event(out, E.LINK_LOST, reason=inp.reason)
        if self.round.state in self.round.card_phases:
            self.round.irregular(out, self.game.rule(K.DEVICE_LOST), f"the shoe's link dropped mid-round: {inp.reason}")

    def on_link_restored(self, inp: i.ShoeLinkRestored, out: Out) -> None:
        self.shoe.event(out, E.LINK_RESTORED, draw_counter=inp.draw_counter)
        self.cards.prove(out, inp.draw_counter, "the shoe's link came back")

    def on_rebooted(self, inp: i.ShoeRebooted, out: Out) -> None:
        self.shoe.event(out, E.REBOOTED, draw_counter=inp.draw_counter)
        self.counter.unheard_from_now()
        if self.round.state in self.round.card_phases:
            self.round.irregular(out, self.game.rule(K.DEVICE_LOST), "the shoe rebooted mid-round")
        self.cards.prove(out, inp.draw_counter, "the shoe rebooted")
