"""After a crash: what the journal knows, and how the table takes up from it.

The daemon reads its journal back (the records the table's Journal effects wrote, in order),
builds `TableRecovery.from_journal(records)` and calls `table.restore(recovery)` on a fresh
Table before the first input. The round that was in progress is resumed only where that is
provably consistent, else voided citing local ruling L4:

  no round in progress           nothing to do; the shoe and round number carry on
  result journaled, not settled  the result stands (it was durable before its lamps lit):
                                 back to `result`, the dealer confirms
  cards complete, no result yet  the result follows from the journaled cards: decided now
  bets open (no card yet)        back to `betting`
  bets closed / dealing /        held (local ruling L4) until the shoe's draw counter equals
  drawing / decisions            the last one journaled: then resumed, else void. A shoe that
                                 keeps no counter cannot prove it: void at once
  held for the supervisor        void (L4, order altered): a hold's waiting cards are not rebuilt
  cards that do not replay       void (L4, order altered)
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from controller.table import machine as m
from controller.table.holds import device_lost_void
from controller.table.output import Out
from controller.table.round_play import RoundPlay
from controller.table.settings import SettingsError, check_spots
from games.baccarat.california.rotation import BankTurn
from games.cards import CardError, card_from_code
from games.round import Complete, Irregular
from games.round import IrregularityKind as K


@dataclass(frozen=True)
class RecoveredShoe:
    number: int
    state: str  # the shoe machine's state
    codes_out: tuple[int, ...] = ()  # wire codes of every known card out of this shoe (or deck)
    drawn: int = 0
    unknown: int = 0
    burned: int = 0
    burn_card: int | None = None
    burn_remaining: int | None = None
    cut_card_seen: bool = False
    rounds_left: int | None = None
    draw_counter: int | None = None


@dataclass(frozen=True)
class RecoveredRound:
    number: int
    spots: tuple[int, ...] = ()
    bets_closed: bool = False
    steps: tuple[tuple, ...] = ()  # ("card", code) and ("decision", spot, decision) in journal order
    held: bool = False  # held for the supervisor when the daemon stopped
    result_recorded: bool = False


@dataclass(frozen=True)
class TableRecovery:
    last_round: int = 0
    shoe: RecoveredShoe | None = None
    round: RecoveredRound | None = None  # opened, neither settled nor void
    spots: tuple[int, ...] | None = None  # the live spots last set
    player_dealer: tuple[int | None, int, int] | None = None  # (seat, hands_left, offer_from)

    @classmethod
    def from_journal(cls, records: Iterable[tuple[str, Mapping]]) -> TableRecovery:
        """Fold the table's own journal records (kind, payload), oldest first. Records of other
        kinds (the daemon's device and command records) are skipped."""
        last_round, spots, bank, brief, codes = 0, None, None, None, []
        current: dict | None = None
        for kind, p in records:
            if isinstance(p.get("shoe_state"), Mapping):
                brief = p["shoe_state"]
            if kind == "shoe" and p.get("event") in ("new", "new_deck"):
                codes = []
            elif kind == "round_opened":
                last_round = max(last_round, int(p["round"]))
                current = {"number": int(p["round"]), "spots": tuple(p.get("spots") or ()), "bets_closed": False,
                           "steps": [], "held": False, "result_recorded": False}
            elif kind == "spots":
                spots = tuple(p["spots"])
                if current is not None and p.get("round") == current["number"]:
                    current["spots"] = spots
            elif kind == "card":
                if (not p.get("reconstructed") or p.get("keyed_in")) and p.get("card") is not None:
                    codes.append(int(p["code"]))
                if current is not None and p.get("status") == "dealt" and p.get("round") == current["number"]:
                    current["steps"].append(("card", int(p["code"])))
            elif current is not None and p.get("round") == current["number"]:
                if kind == "bets_closed":
                    current["bets_closed"] = True
                elif kind == "decision":
                    current["steps"].append(("decision", int(p["spot"]), str(p["decision"])))
                elif kind == "irregularity" and p.get("consequence") == "hold":
                    current["held"] = True
                elif kind == "round_resumed":
                    current["held"] = False
                elif kind == "result":
                    current["result_recorded"] = True
                elif kind in ("void", "settled"):
                    current = None
            if kind == "player_dealer":
                bank = (p.get("seat"), int(p.get("hands_left", 0)), int(p.get("offer_from", 1)))
        shoe = None
        if brief is not None and brief.get("number"):
            shoe = RecoveredShoe(
                number=int(brief["number"]), state=str(brief["state"]), codes_out=tuple(codes),
                drawn=int(brief.get("drawn", 0)), unknown=int(brief.get("unknown", 0)),
                burned=int(brief.get("burned", 0)), burn_card=brief.get("burn_card"),
                burn_remaining=brief.get("burn_remaining"), cut_card_seen=bool(brief.get("cut_card_seen")),
                rounds_left=brief.get("rounds_left"), draw_counter=brief.get("draw_counter"))
        rnd = None
        if current is not None:
            rnd = RecoveredRound(current["number"], current["spots"], current["bets_closed"],
                                 tuple(current["steps"]), current["held"], current["result_recorded"])
        return cls(last_round, shoe, rnd, spots, bank)


class RestoreMixin:
    def restore(self, recovery: TableRecovery) -> list:
        """Take up from `recovery` (a fresh table only); returns the effects: a `recovered`
        record, and the void, hold or result of the interrupted round."""
        if self.round_no or self.play is not None or self.shoe.number:
            raise ValueError("restore() is for a fresh table, before its first input")
        out = Out()
        self.round_no = recovery.last_round
        if recovery.spots:
            try:
                self.spots = check_spots(self.game, recovery.spots, "spots")
            except SettingsError:
                pass  # the configured spots stand; the journal's no longer fit this game
        if recovery.shoe is not None:
            s = recovery.shoe
            self.shoe.restore(s.number, s.state, s.codes_out, drawn=s.drawn, unknown=s.unknown, burned=s.burned,
                              burn_card=s.burn_card, burn_remaining=s.burn_remaining,
                              cut_card_seen=s.cut_card_seen, rounds_left=s.rounds_left, draw_counter=s.draw_counter)
        if recovery.player_dealer is not None and self.bank is not None:
            self.bank = BankTurn(*recovery.player_dealer)
        self.proof_needed = True  # the shoe went unheard while the daemon was down (local ruling L4)
        outcome = "no round in progress"
        if recovery.round is not None:
            outcome = self._restore_round(out, recovery.round)
        out.journal("recovered", {"last_round": recovery.last_round, "round": getattr(recovery.round, "number", None),
                                  "outcome": outcome, "state": self.state, "shoe_state": self._shoe_brief()}, durable=True)
        out.publish("recovered", outcome=outcome, state=self.state)
        self._timers(out)
        return out.effects(self._lamps())

    def _restore_round(self, out: Out, r: RecoveredRound) -> str:
        self.play = RoundPlay(self.game, r.number, self.decks, tuple(r.spots), self.shoe.number)
        self.play.bets_closed = r.bets_closed
        problem = None
        try:
            for step in r.steps:
                if step[0] == "card":
                    self.play.add_card(card_from_code(step[1]))
                else:
                    self.play.add_decision(step[1], step[2])
        except (Irregular, CardError) as err:
            problem = f"the journaled round does not replay: {err}"
        step = self.play.step()
        cards = bool(self.play.state.cards)
        if problem is None and r.held:
            problem = "the daemon stopped while the round was held for the supervisor"
        if problem is None and (cards or r.bets_closed) and not r.bets_closed:
            problem = "cards were journaled before \"No more bets\""
        if problem is not None:
            self.machine.set_state(m.HELD if r.held else (m.DEALING if cards else m.BETTING))
            self._irregular(out, device_lost_void(self.game, missing=False), f"{problem} (local ruling L4)")
            return "void"
        if isinstance(step, Complete):
            self.machine.set_state(m.RESULT)
            if r.result_recorded:
                self.play.result = self.game.result(self.play.state)
                self._show_result(self.play.result)
                return "result stands"
            self._result(out)
            return "result decided from the journaled cards"
        if not r.bets_closed:
            self.machine.set_state(m.BETTING)
            return "bets open"
        self.machine.set_state(m.BETS_CLOSED if not cards else {"deal": m.DEALING, "draw": m.DRAWING,
                                                                "ask": m.AWAITING}[m.step_trigger(step)])
        if self.shoe.last_counter is None:
            self._irregular(out, device_lost_void(self.game, missing=False),
                            "the daemon stopped mid-round and the shoe keeps no draw counter: nothing proves "
                            "that no card was missed (local ruling L4)")
            return "void"
        self._irregular(out, self.game.rule(K.DEVICE_LOST),
                        f"the daemon stopped mid-round: held until the shoe's draw counter proves no card "
                        f"left after {self.shoe.last_counter} (local ruling L4)")
        return "held" if self.state == m.HELD else self.state
