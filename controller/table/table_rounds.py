"""The round's fate: apply an irregularity's consequence (void, hold, refuse), resume a
held round, decide the result, settle, and what follows the end of a round."""
from __future__ import annotations

from dataclasses import replace

from controller.table import machine as m
from controller.table.holds import Arrival, Hold, device_lost_void, order_altered_via
from controller.table.output import Out
from games.round import Consequence as C
from games.round import Irregular, IrregularityRule, Result
from games.round import IrregularityKind as K

# What the supervisor must do to resume a hold, by the kind that caused it (default: confirm).
_NEED = {K.MISREAD: "card", K.DOUBLE_DRAW: "order", K.DEVICE_LOST: "counter"}


def as_void(rule: IrregularityRule) -> IrregularityRule:
    return rule if rule.consequence is C.VOID else replace(rule, consequence=C.VOID)


class RoundsMixin:
    # ------------------------------------------------------------ irregularities

    def _irregular(self, out: Out, rule: IrregularityRule, detail: str, evidence: dict | None = None,
                   *, pending: list[Arrival] = (), keyed: int = 0) -> str:
        """Journal the irregularity and apply its consequence to the round in progress; with no
        round in progress it is noted (journaled, the error lamp blinks until the next round)."""
        in_round = self._round_open()
        evidence = evidence or self._table_evidence()
        record = {
            "round": self.play.number if in_round else None, "kind": rule.kind.value,
            "clause": rule.clause, "consequence": rule.consequence.value if in_round else "noted",
            "detail": detail, "evidence": evidence or {}, "state": self.state,
        }
        out.journal("irregularity", record)
        out.publish("irregularity", **record)
        if not in_round:
            self.notes.append(record)
            return "noted"
        self.play.irregularities.append(record)
        self.last_rule = rule
        if rule.consequence is C.VOID:
            self._void(out, rule, detail, evidence)
        elif rule.consequence is C.HOLD:
            self._hold(out, rule, detail, evidence, list(pending), keyed)
        else:  # refused: the round goes on; the error lamp asks for attention
            self.notes.append(record)
        return record["consequence"]

    def _table_evidence(self) -> dict:
        """For an irregularity no card carries (door, shoe removed or empty, timer, link): what
        the table knew when it happened, so that no void is journaled without evidence."""
        return {"draw_counter": self.shoe.last_counter, "shoe_remaining": self.shoe.remaining,
                "round_cards": self.play.cards_json() if self.play is not None else []}

    def _hold(self, out: Out, rule: IrregularityRule, detail: str, evidence: dict,
              pending: list[Arrival], keyed: int) -> None:
        if self.state == m.HELD or self.state not in self._holdable:
            # a second irregularity while held, or one before "No more bets": nothing to resume to
            why = "while the round was already held" if self.state == m.HELD else "before the deal could be held"
            self._void(out, as_void(rule), f"{detail} ({why})", evidence)
            return
        need = "card" if keyed else _NEED.get(rule.kind, "confirm")
        if rule.kind is K.MISREAD:
            void_rule = order_altered_via(self.game, "local ruling L5")
        elif rule.kind is K.DOUBLE_DRAW:
            void_rule = order_altered_via(self.game, rule.clause)
        elif rule.kind is K.DEVICE_LOST:
            void_rule = device_lost_void(self.game, missing=True)
        else:
            void_rule = as_void(rule)
        self.hold = Hold(rule, detail, need, self.state, void_rule, pending, keyed)
        self.flow.trigger("hold")
        out.publish("held", round=self.play.number, **self.hold.to_json())

    def _resume(self, out: Out, how: str, drain: list[Arrival]) -> None:
        hold = self.hold
        self._hold_resolved = True
        try:
            self.flow.trigger(f"resume_{hold.resume_to}")
        finally:
            self._hold_resolved = False
        self.hold = None
        payload = {"round": self.play.number, "kind": hold.rule.kind.value, "clause": hold.rule.clause,
                   "how": how, "state": self.state}
        out.journal("round_resumed", payload)
        out.publish("resumed", **payload)
        self._timer_restart = True
        if not self.link_up and self.state in self._card_phases:
            self._irregular(out, self.game.rule(K.DEVICE_LOST), "resumed while the shoe is still not heard",
                            pending=drain)
            return
        self._drain(out, drain)

    def _drain(self, out: Out, arrivals: list[Arrival]) -> None:
        """Deal the cards that waited in a hold, in the order they left the shoe."""
        for i, arrival in enumerate(arrivals):
            if self.state == m.HELD:
                self.hold.pending.extend(arrivals[i:])
                return
            if self.state in m.ROUND_CLOSED:  # voided on the way: the rest are the void round's
                for rest in arrivals[i:]:
                    self._card_record(out, rest, "after_void")
                return
            self._route_card(out, arrival)

    # ------------------------------------------------------------ void

    def _void(self, out: Out, rule: IrregularityRule, detail: str, evidence: dict, by: str = "table") -> None:
        self.flow.trigger("supervisor_void" if by == "supervisor" else "void")
        if self.hold is not None:
            evidence = {**evidence, "pending": [a.text for a in self.hold.pending]}
        self.hold = None
        play = self.play
        payload = {
            "round": play.number, "kind": rule.kind.value, "clause": rule.clause, "reason": detail,
            "evidence": evidence, "cards": play.cards_json(), "hands": play.hands(), "by": by,
            "shoe_state": self._shoe_brief(),
        }
        out.journal("void", payload, durable=True)
        out.publish("void", **payload)
        self._round_ended(out, settled=False)

    # ------------------------------------------------------------ result and settlement

    def _advance(self, out: Out) -> None:
        """Fire the trigger for the game's next step."""
        trigger = m.step_trigger(self.play.step())
        if (trigger, self.state) not in self._stays:
            self.flow.trigger(trigger)
        if trigger in ("deal", "draw"):
            self._timer_restart = True
        elif trigger == "ask":
            awaited = self.play.awaited()
            out.publish("decision_awaited", round=self.play.number, spot=awaited.spot, options=list(awaited.options))
        else:
            self._result(out)

    def _result(self, out: Out) -> None:
        play = self.play
        try:
            result = self.game.result(play.state)
        except Irregular as irr:
            self._irregular(out, irr.rule, irr.detail, {"cards": play.cards_json()})
            return
        play.result = result
        self._show_result(result)
        data = result.to_json()
        payload = {
            "round": play.number, "game": self.game.key, "winner": result.winner,
            "hands": {name: data[name] for name in result.hands}, "bets": data["bets"],
            "cards": play.cards_json(), "dealt_to": [[d.hand, d.position] for d in play.state.dealt_to],
            "decisions": [[s, d] for s, d in play.state.decisions],
            "lamps": {k: v for k, v in self._picture().items() if v != "off"},
        }
        for extra in ("spots", "notes"):
            if extra in data:
                payload[extra] = data[extra]
        out.journal("result", payload, durable=True)
        out.publish("result", **payload)

    def _show_result(self, result) -> None:
        """The outcome of every betting area, for the result lamps."""
        self.bet_outcomes = {key: bet.result.value for key, bet in result.bets.items()}
        self.spot_outcomes = {}
        for spot, fields in result.spots.items():
            bets = fields.get("bets", fields) if hasattr(fields, "get") else {}
            self.spot_outcomes[int(spot)] = {
                key: bet.result.value for key, bet in bets.items() if hasattr(bet, "result") and isinstance(bet.result, Result)
            }

    def _round_ended(self, out: Out, settled: bool) -> None:
        """After a settlement or a void: the cut-card countdown and the player-dealer turn."""
        before = self.shoe.state
        self.shoe.round_ended()
        if before != m.FINISHED and self.shoe.state == m.FINISHED:
            self._shoe_event(out, "finished", durable=True)
        if settled:
            self._next_bank_turn(out)
