"""Cards from the shoe: decode each card, count it out of the shoe, let the draw counter judge
it (local ruling L4), decide its one verdict (controller.table.verdicts: dealt, waiting in a
hold, irregular, burnt, or the void round's), which the round in play applies, and show it to
the shoe's integrity checks (local ruling L7). Each rule that decides a verdict is one function
here, and decides without changing anything."""
from __future__ import annotations

from controller.table import inputs as i
from controller.table import machine as m
from controller.table import verdicts as v
from controller.table.arrival import Arrival
from controller.table.draw_counter import DrawCounter, Unheard, Unproven
from controller.table.holds import Holding, device_lost_void
from controller.table.integrity import ShoeIntegrity
from controller.table.output import Out
from controller.table.round_in_play import RoundInPlay
from controller.table.shoe import Shoe
from games.cards import NO_READ_CODE, CardError, card_from_code
from games.round import UNHEARD_RULING, Deal, Game, Irregular, IrregularityRule
from games.round import IrregularityKind as K


def unheard_kind(state: str) -> K:
    """What a card that left the shoe unheard is to a round in `state`: what a card arriving
    now would be (missing while cards are due, before "No more bets" while betting, extra while
    a decision is awaited or the result is shown; with no round in progress, a missing card
    that is only noted)."""
    if state == m.BETTING:
        return K.CARD_BEFORE_NO_MORE_BETS
    if state in (m.AWAITING, m.RESULT):
        return K.EXTRA_CARD
    return K.MISSING_CARD


class CardFlow:
    def __init__(self, game: Game, *, shoe: Shoe, counter: DrawCounter, holds: Holding,
                 integrity: ShoeIntegrity, round: RoundInPlay):
        self.game, self.shoe, self.counter, self.holds = game, shoe, counter, holds
        self.integrity, self.round = integrity, round

    def on_card(self, inp: i.Card, out: Out) -> None:
        rnd = self.round
        in_shoe = self.shoe.state != m.NO_SHOE  # a card out of a shoe the table knows
        arrival = self._arrive(inp, in_shoe)
        was_open = rnd.is_open()
        self._judge_counter(out, arrival)
        rnd.apply(out, self.judge(arrival, voided_now=was_open and rnd.state == m.VOID))
        if in_shoe:  # after the card's own record: an alarm cites the card that raised it
            self.integrity.on_card(out, arrival.card, arrival.draw_counter,
                                   rnd.current.number if rnd.is_open() else None, rnd.state)

    def _arrive(self, inp: i.Card, in_shoe: bool) -> Arrival:
        """Decode the card and, `in_shoe`, count it out of the shoe (checked against the whole
        shoe first)."""
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
        if in_shoe:
            self.shoe.take(card)
        return Arrival(inp.code, card, inp.draw_counter, inp.double_draw, misread, foreign)

    # ------------------------------------------------------------ the draw counter (local ruling L4)

    def _judge_counter(self, out: Out, arrival: Arrival) -> None:
        counter = arrival.draw_counter
        if self.counter.proof_needed:  # the shoe was unheard: this card's counter must prove nothing was missed
            self.prove(out, None if counter is None else counter - 1, "a card after the link came back")
        else:
            verdict = self.counter.check_card(counter)  # None for nearly every card: one past the last
            if isinstance(verdict, Unheard):
                self.unheard(out, verdict.count, f"the shoe reports a draw gap: card {verdict.last + 1} never heard, "
                                                 f"{counter} came next ({verdict.count} card(s) unheard)")
            elif isinstance(verdict, Unproven) and self.round.in_play():
                self.went_back(out, verdict.last, counter)
        self.counter.saw(counter)

    def went_back(self, out: Out, last: int | None, now: int | None) -> None:
        """The counter went back (a reboot nobody announced, a shoe that lost its count) with
        a round in play: nothing proves its order (L4)."""
        self.round.apply(out, v.Irregularity(device_lost_void(self.game),
                                             f"the shoe's draw counter went from {last} to {now}: "
                                             "nothing proves that no card was missed or reordered"))

    def prove(self, out: Out, now: int | None, via: str) -> None:
        """The shoe is heard again and its counter stands at `now`. A counter that cannot prove
        the order voids (L4). Otherwise a round held for the counter resumes (the cards that
        waited are dealt), and cards the counter shows unheard are then judged exactly as if
        the shoe had been heard (ruling 24): a missing card is held for the supervisor to key in."""
        verdict = self.counter.check_return(now)
        if isinstance(verdict, Unproven):
            if self.round.in_play():
                last = verdict.last
                what = "cannot say its draw counter" if now is None else (
                    "had no draw counter before" if last is None else f"counts {now}, below the last card heard ({last})")
                self.round.apply(out, v.Irregularity(device_lost_void(self.game), f"{via}, but the shoe {what}: "
                                                     "nothing proves that no card was missed (local ruling L4)"))
            self.counter.stands_at(now)  # None: unknown until the next card says
            return
        if self.round.state == m.HELD and self.holds.waits_for("counter"):
            how = (f"{via}: draw counter {now} proves no card was missed (local ruling L4)" if verdict is None else
                   f"{via}: draw counter {now} shows {verdict.count} card(s) left unheard after {verdict.last}, "
                   f"judged as if heard ({UNHEARD_RULING})")
            waiting = list(self.holds.held.pending)
            if self.round.resume(out, how, waiting):
                self.drain(out, waiting)
        if isinstance(verdict, Unheard):
            self.unheard(out, verdict.count, f"{via} with draw counter {now}; the last card heard was {verdict.last}: "
                                             f"{verdict.count} card(s) left unheard", while_unheard=True)
        self.counter.stands_at(now)

    def unheard(self, out: Out, count: int, detail: str, while_unheard: bool = False) -> None:
        """`count` cards left the shoe unheard: they count out of it, and for the round in
        progress they are what a card arriving now would be (`unheard_kind`). Those that left
        while the shoe was not heard are judged the same, citing ruling 24
        (`Game.unheard_rule`)."""
        self.shoe.lose(count)
        state = self.round.state
        if state in m.ROUND_CLOSED and self.shoe.burning:
            for _ in range(count):
                self.shoe.burn(None)
        kind = unheard_kind(state)
        how = "unheard" if while_unheard else "heard"
        rule = self._missed_rule(how, kind)
        evidence = {"unheard": count, "draw_counter": self.counter.last}
        if self.counter.last is not None:  # where they leave it: the record's shoe_state says so for a restart
            self.counter.stands_at(self.counter.last + count)
        shoe = self.shoe.brief()
        if state == m.HELD:  # as cards heard now would: they wait in the hold, each judged at its turn
            self.round.apply(out, v.JoinHold(rule, f"{detail}: they wait in the hold, each judged at its turn as if heard",
                                             evidence, tuple(Arrival.missing(how) for _ in range(count)), shoe))
            return
        keyed = count if (kind is K.MISSING_CARD and state in self.round.card_phases) else 0
        placeholders = tuple(Arrival.missing(how) for _ in range(keyed))
        self.round.apply(out, v.Irregularity(rule, detail, evidence, pending=placeholders, keyed=keyed,
                                             shoe_state=shoe))

    def _missed_rule(self, how: str, kind: K) -> IrregularityRule:
        """A card missed while the shoe was unheard is judged as if heard, citing ruling 24."""
        return self.game.unheard_rule(kind) if how == "unheard" else self.game.rule(kind)

    # ------------------------------------------------------------ the verdict on a card

    def drain(self, out: Out, arrivals: list[Arrival]) -> None:
        """Deal the cards that waited in a hold, in the order they left the shoe."""
        for n, arrival in enumerate(arrivals):
            if self.round.state == m.HELD:  # held again on the way: the new hold took the rest
                return
            if self.round.state in m.ROUND_CLOSED:  # voided on the way: the rest are the void round's
                for rest in arrivals[n:]:
                    self.round.apply(out, v.Ignore(rest))
                return
            self.holds.queued = arrivals[n + 1:]
            try:
                self.round.apply(out, self.judge(arrival))
            finally:
                self.holds.queued = []

    def judge(self, a: Arrival, voided_now: bool = False) -> v.Verdict:
        """What becomes of `a`, by where the round stands (docs/table.md, "What becomes of a
        card"). `voided_now`: its own draw counter has just voided the round."""
        state = self.round.state
        if state in m.ROUND_CLOSED:
            return self._between_rounds(a, voided_now)
        if state == m.HELD:
            return v.Wait(a)
        if state == m.BETTING:
            return self._before_no_more_bets(a)
        if state in (m.AWAITING, m.RESULT) or not isinstance(step := self.round.current.step(), Deal):
            return self._extra(a)
        return self._due(a, step)

    def _between_rounds(self, a: Arrival, voided_now: bool) -> v.Verdict:
        if voided_now:
            return v.Ignore(a)  # the evidence of the void its counter caused, whatever the card
        if self.shoe.burning and not a.replayed:
            return self._burn(a)
        if self.round.state == m.VOID and not a.foreign:
            return v.Ignore(a)  # the void round's cards still coming out
        return self._outside(a)

    def _before_no_more_bets(self, a: Arrival) -> v.Irregularity:
        kind = K.FOREIGN_CARD if a.foreign else K.CARD_BEFORE_NO_MORE_BETS
        return v.Irregularity(self.game.rule(kind), a.foreign or f"{a.label} came out before \"No more bets\"",
                              self._evidence(a), a, "before_no_more_bets")

    def _extra(self, a: Arrival) -> v.Irregularity:
        why = "the round is complete" if self.round.state == m.RESULT else "the round awaits a decision, not a card"
        if a.missed is not None:
            return v.Irregularity(self._missed_rule(a.missed, K.EXTRA_CARD),
                                  f"a card that left the shoe {a.how_missed} comes next, but {why}", self._evidence(a))
        kind = K.FOREIGN_CARD if a.foreign else K.EXTRA_CARD
        return v.Irregularity(self.game.rule(kind), a.foreign or f"{a.label} came out but {why}",
                              self._evidence(a), a, "extra")

    def _due(self, a: Arrival, step: Deal) -> v.Verdict:
        """`a` is the card the game's next step (`step`) calls for."""
        if a.missed is not None:
            return self._missed_where_due(a, a.missed, step)
        if a.misread:
            return self._misread(a, step)
        if a.foreign:
            return v.Irregularity(self.game.rule(K.FOREIGN_CARD), a.foreign, self._evidence(a, step), a, "foreign")
        if a.double_draw:
            return self._double_draw(a, step)
        return self._dealt(a, step)

    def _missed_where_due(self, a: Arrival, how: str, step: Deal) -> v.Irregularity:
        """It left the shoe unseen (`how`: "heard" or "unheard") while the round was held:
        missing where due, judged as if heard (ruling 24)."""
        return v.Irregularity(self._missed_rule(how, K.MISSING_CARD),
                              f"card {self._number(step)} left the shoe {a.how_missed} while the round was held: "
                              "the supervisor keys it in", self._evidence(a, step), pending=(a,), keyed=1)

    def _misread(self, a: Arrival, step: Deal) -> v.Irregularity:
        return v.Irregularity(self.game.rule(K.MISREAD), f"card {self._number(step)} left the shoe unread",
                              self._evidence(a, step), a, "misread", pending=(a,), keyed=1)

    def _double_draw(self, a: Arrival, step: Deal) -> v.Irregularity:
        when = "during the initial deal" if step.initial else "after the initial deal"
        return v.Irregularity(self.game.double_draw_rule(step.initial),
                              f"{a.text} came out together with another card {when}", self._evidence(a, step),
                              a, "double_draw", pending=(a,))

    def _dealt(self, a: Arrival, step: Deal) -> v.Verdict:
        """A card read and of this shoe: where the game deals it, unless the game finds it irregular."""
        assert a.card is not None  # a card that was not read is misread, one not decoded foreign
        try:
            state, to = self.round.current.try_card(a.card)
        except Irregular as irr:
            return v.Irregularity(irr.rule, irr.detail, self._evidence(a, step), a, irr.rule.kind.value)
        return v.Deal(a, to, state)

    def _outside(self, a: Arrival) -> v.Irregularity:
        if a.foreign:
            rule, detail = self.game.rule(K.FOREIGN_CARD), a.foreign
        else:
            rule = self.game.rule(K.CARD_BEFORE_NO_MORE_BETS)
            where = ("no shoe is declared (new_shoe)" if self.shoe.state == m.NO_SHOE
                     else f"no round is open ({self.round.state})")
            detail = f"{a.label} came out while {where}"
        return v.Irregularity(rule, detail, self._evidence(a), a, "outside")

    def _burn(self, a: Arrival) -> v.Burn:
        if not a.foreign:
            return v.Burn(a)
        return v.Burn(a, v.Irregularity(self.game.rule(K.FOREIGN_CARD), f"burn card: {a.foreign}", self._evidence(a)))

    # ------------------------------------------------------------ evidence

    def _number(self, step: Deal) -> str:
        """The card due, for a message: "3 (banker)"."""
        return f"{len(self.round.current.state.cards) + 1} ({step.hand})"

    def _evidence(self, a: Arrival, step: Deal | None = None) -> dict:
        evidence: dict[str, object] = {"card": a.to_json()}
        if step is not None:
            evidence.update(hand=step.hand, position=step.position, initial=step.initial)
        if self.round.play is not None:
            evidence["round_cards"] = self.round.play.cards_json()
        return evidence
