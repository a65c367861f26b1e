"""The round in play: the round machine, the game's RoundPlay, the round number and live
spots, the result on show, and what an irregularity does to the round (void, hold, refuse).

Everything that happens to a round goes through here, so its record is written once: the
card flow's verdict on every card is applied by `apply()` (controller.table.verdicts), and
the shoe's events and the commands report an irregularity with `irregular()`, which journals
it and applies the game's consequence.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from controller.journal.kinds import RecordKind as R
from controller.journal.kinds import ShoeEvent
from controller.table import inputs as i
from controller.table import machine as m
from controller.table import verdicts as v
from controller.table.arrival import Arrival
from controller.table.draw_counter import DrawCounter
from controller.table.holds import Hold, Holding, as_void, device_lost_void, hold_from_journal
from controller.table.integrity import ShoeIntegrity
from controller.table.lamps import LampBoard
from controller.table.output import Out
from controller.table.panel import Panel
from controller.table.player_dealer import PlayerDealer
from controller.table.recovery import RecoveredRound
from controller.table.round_play import RoundPlay
from controller.table.settings import SettingsError, TableSettings, check_spots
from controller.table.shoe import Shoe
from controller.table.timer import CardTimer
from controller.table.wagers import RoundWagers
from games.cards import CardError, card_from_code
from games.round import AwaitDecision, BetResult, Complete, Deal, Game, Irregular, IrregularityRule, RoundResult
from games.round import Consequence as C
from games.round import IrregularityKind as K


def open_refusal(shoe: Shoe, bank: PlayerDealer | None, integrity: ShoeIntegrity) -> str | None:
    """Why a round cannot open now, or None."""
    if shoe.state == m.NO_SHOE:
        return "no shoe: declare a new shoe first (new_shoe)"
    if shoe.state == m.BURNING:
        if shoe.burned and shoe.burn_remaining is None:
            return "the first burn card was not read: the supervisor keys it in (reconstruct card=...)"
        left = "the first card" if shoe.burned == 0 else f"{shoe.burn_remaining} more card(s)"
        return f"the burn is not finished: burn {left}"
    if shoe.state == m.FINISHED:
        return f"shoe {shoe.number} is finished: a new shoe is needed (new_shoe)"
    if (why := integrity.refusal()) is not None:
        return why
    return bank.why_no_hand() if bank is not None else None


class RoundFlow:
    """The model the round machine drives: its `state`, and guards that read the components."""

    state: str
    trigger: Callable[[str], bool]  # put on the model by transitions' Machine (machine.build)

    def __init__(self, shoe: Shoe, counter: DrawCounter, holds: Holding, panel: Panel, bank: PlayerDealer | None,
                 integrity: ShoeIntegrity):
        self._shoe, self._counter, self._holds, self._panel, self._bank = shoe, counter, holds, panel, bank
        self._integrity = integrity

    def shoe_ready(self) -> bool:
        return open_refusal(self._shoe, self._bank, self._integrity) is None

    def shoe_link_up(self) -> bool:
        return self._counter.heard

    def hold_resolved(self) -> bool:
        return self._holds.resolving

    def supervisor_key(self) -> bool:
        return self._panel.key_on


class RoundInPlay:
    def __init__(self, game: Game, decks: int, settings: TableSettings, *, shoe: Shoe, counter: DrawCounter,
                 panel: Panel, holds: Holding, bank: PlayerDealer | None, timer: CardTimer,
                 integrity: ShoeIntegrity, lamps: LampBoard, wagers: RoundWagers):
        self.game, self.decks = game, decks
        self.wagers = wagers  # the round's money: frozen at "No more bets", settled with the result
        self.shoe, self.counter, self.panel = shoe, counter, panel
        self.holds, self.bank, self.timer, self.integrity, self.lamps = holds, bank, timer, integrity, lamps
        self.shape = m.game_shape(game.key)
        self.flow = RoundFlow(shoe, counter, holds, panel, bank, integrity)
        states, transitions = m.round_spec(self.shape)
        self.machine = m.build(self.flow, states, transitions, initial=m.IDLE)
        self.moves = m.moves(transitions)  # (trigger, state) -> state, for the triggers without a guard
        self.card_phases = (m.BETS_CLOSED, *m.card_states(self.shape))
        self.holdable = (*self.card_phases, m.RESULT)
        self.number = 0
        self.play: RoundPlay | None = None  # the round in progress (or the last one)
        self.spots = settings.spots  # live spots for the next round
        self.notes: list[dict] = []  # irregularities outside a round, refused cards: the error lamp
        self.last_rule: IrregularityRule | None = None  # the round's last irregularity (what a plain void cites)
        self.bet_outcomes: dict[str, str] = {}
        self.spot_outcomes: dict[int, dict[str, str]] = {}
        self.settlement_due = False  # the result is journaled, its wagers not yet settled (settle_wagers)
        # every verdict on a card, and the one function that applies it
        self.appliers: dict[type, Callable[[Out, Any], None]] = {
            v.Deal: self._deal, v.Wait: self._wait, v.Irregularity: self._irregularity,
            v.JoinHold: self._join_hold, v.Burn: self._burn, v.Ignore: self._ignore,
        }

    def fire(self, trigger: str) -> None:
        """Move the round by `trigger`: set directly when it has no guard (machine.moves),
        else through the machine, which refuses a trigger the state does not allow."""
        dest = self.moves.get((trigger, self.flow.state))
        if dest is None:
            self.flow.trigger(trigger)
        elif dest != self.flow.state:
            self.machine.set_state(dest)

    # ------------------------------------------------------------ where the round stands

    @property
    def state(self) -> str:
        return self.flow.state

    @property
    def current(self) -> RoundPlay:
        """The round in progress, where the machine's state says there is one."""
        if self.play is None:
            raise RuntimeError(f"no round has been played ({self.state})")
        return self.play

    def is_open(self) -> bool:
        return self.play is not None and self.flow.state not in m.ROUND_CLOSED  # asked several times a card

    def in_play(self) -> bool:
        """Cards may be due to the round: from "Place your bets" until the result."""
        return self.state in (m.BETTING, *self.card_phases, m.HELD)

    def order_matters(self) -> bool:
        """Could the order of the cards still to come in this round be altered?"""
        if self.state == m.AWAITING:
            return self.shape.draws_after_deal
        return self.state in (m.BETTING, m.BETS_CLOSED, m.DEALING, m.DRAWING, m.HELD)

    def cards_due(self) -> bool:
        """The round is not complete and its cards must still come out of the shoe."""
        return self.state in (m.BETTING, m.BETS_CLOSED, m.DEALING, m.DRAWING, m.HELD) or (
            self.state == m.AWAITING and self.shape.draws_after_deal)

    def text(self) -> str:
        return f"round {self.play.number}" if self.play is not None else "no round"

    # ------------------------------------------------------------ opening

    def open(self, out: Out) -> None:
        """Round number + 1 opens (the machine is already in `betting`)."""
        self.number += 1
        self.play = RoundPlay(self.game, self.number, self.decks, self.spots, self.shoe.number)
        self.notes.clear()
        self.bet_outcomes, self.spot_outcomes, self.last_rule = {}, {}, None
        self.wagers.opened()
        payload = {"round": self.number, "game": self.game.key, "decks": self.decks,
                   "shoe": self.shoe.number, "spots": list(self.spots)}
        if self.bank is not None:
            payload["player_dealer"] = self.bank.holder
        out.journal(R.ROUND_OPENED, payload)
        out.publish("round_opened", **payload)

    # ------------------------------------------------------------ irregularities

    def irregular(self, out: Out, rule: IrregularityRule, detail: str, evidence: dict | None = None,
                  *, pending: Sequence[Arrival] = (), keyed: int = 0, shoe_state: Mapping | None = None,
                  extra: Mapping[str, Any] | None = None, attention: bool = True) -> str:
        """Journal the irregularity and apply its consequence to the round in progress; with no
        round in progress it is noted (journaled, the error lamp blinks until the next round).
        `shoe_state`: where an irregularity changed the shoe (cards that left it unheard);
        `extra`: the kind's own fields (money's: seat, bet, space ... docs/journal.md);
        `attention=False`: a refused irregularity whose lamp the caller drives while it
        stands (a mispay: until its space reads right), so the error lamp does not keep it."""
        in_round = self.is_open()
        evidence = evidence or self.table_evidence()
        record: dict[str, Any] = {
            "round": self.current.number if in_round else None, "kind": rule.kind.value,
            "clause": rule.clause, "consequence": rule.consequence.value if in_round else "noted",
            "detail": detail, "evidence": evidence or {}, "state": self.state,
            **({"shoe_state": shoe_state} if shoe_state is not None else {}), **(extra or {}),
        }
        hold = None
        if in_round and rule.consequence is C.HOLD and self.state != m.HELD and self.state in self.holdable:
            hold = self.holds.start(rule, detail, self.state, list(pending), keyed)
            record["hold"] = hold.to_journal()  # what a restart rebuilds the hold from
        out.journal(R.IRREGULARITY, record)
        out.publish("irregularity", **record)
        if not in_round:
            self.notes.append(record)
            return "noted"
        self.current.irregularities.append(record)
        self.last_rule = rule
        if rule.consequence is C.VOID:
            self.void(out, rule, detail, evidence)
        elif hold is not None:
            self.fire("hold")
            out.publish("held", round=self.current.number, **hold.to_json())
        elif rule.consequence is C.HOLD:
            # a second irregularity while held, or one before "No more bets": nothing to resume to
            why = "while the round was already held" if self.state == m.HELD else "before the deal could be held"
            self.void(out, as_void(rule), f"{detail} ({why})", evidence)
        elif attention:  # refused: the round goes on; the error lamp asks for attention
            self.notes.append(record)
        return record["consequence"]

    # ------------------------------------------------------------ a card's verdict

    def apply(self, out: Out, verdict: v.Verdict) -> None:
        """What the card flow decided becomes of a card (controller.table.verdicts)."""
        self.appliers[type(verdict)](out, verdict)

    def _deal(self, out: Out, verdict: v.Deal) -> None:
        self.current.take(verdict.state)
        record = self.record_card(out, verdict.card, "dealt", verdict.to)
        out.publish("card", **record)
        self.advance(out)

    def _wait(self, out: Out, verdict: v.Wait) -> None:
        self.holds.held.pending.append(verdict.card)
        self.record_card(out, verdict.card, "held")

    def _irregularity(self, out: Out, verdict: v.Irregularity) -> None:
        if verdict.card is not None and verdict.status is not None:
            self.record_card(out, verdict.card, verdict.status)
        self.irregular(out, verdict.rule, verdict.detail, verdict.evidence, pending=verdict.pending,
                       keyed=verdict.keyed, shoe_state=verdict.shoe_state)

    def _join_hold(self, out: Out, verdict: v.JoinHold) -> None:
        """Cards the draw counter shows left the shoe unseen while the round is held (ruling 24
        if the shoe was unheard): as cards heard now, they wait in the hold, and each is judged
        at its turn when the hold is resolved. The record carries the hold as it now stands."""
        hold = self.holds.held
        hold.pending.extend(verdict.cards)
        record: dict[str, Any] = {
            "round": self.current.number, "kind": verdict.rule.kind.value, "clause": verdict.rule.clause,
            "consequence": "hold", "detail": verdict.detail, "evidence": verdict.evidence, "state": self.state,
            "hold": hold.to_journal(), "shoe_state": verdict.shoe_state,
        }
        out.journal(R.IRREGULARITY, record)
        out.publish("irregularity", **record)
        self.current.irregularities.append(record)
        out.publish("held", round=self.current.number, **hold.to_json())

    def _burn(self, out: Out, verdict: v.Burn) -> None:
        card = verdict.card
        self.shoe.burn(card.card if not card.foreign else None)
        self.record_card(out, card, "burn")
        if verdict.foreign is not None:
            self.apply(out, verdict.foreign)
        if self.shoe.burned == 1 and self.shoe.burn_remaining is None:
            out.publish("attention", detail="the first burn card was not read: the supervisor keys it in "
                                            "(reconstruct card=...)")
        if self.shoe.state == m.IN_PLAY:
            self.shoe.event(out, ShoeEvent.BURN_DONE, durable=True)

    def _ignore(self, out: Out, verdict: v.Ignore) -> None:
        if verdict.card.missed is None:  # a missed card never had a card record: none now either
            self.record_card(out, verdict.card, "after_void")

    def record_card(self, out: Out, a: Arrival, status: str, deal: Deal | None = None) -> dict:
        """One `card` journal record per card that left the shoe, and one more when a card that
        waited in a hold, or was keyed in by the supervisor, is dealt (`reconstructed`: the
        shoe counted it once already)."""
        play = self.play
        in_round = self.is_open() or status == "after_void"
        record = {
            "round": play.number if play is not None and in_round else None, **a.to_json(), "status": status,
            "hand": deal.hand if deal is not None else None,
            "position": deal.position if deal is not None else None,
            "reconstructed": a.replayed, "keyed_in": a.keyed_in, "foreign": a.foreign, "shoe_state": self.shoe.brief(),
        }
        out.journal(R.CARD, record)
        return record

    def table_evidence(self) -> dict:
        """For an irregularity no card carries (door, shoe removed or empty, timer, link): what
        the table knew when it happened, so that no void is journaled without evidence."""
        return {"draw_counter": self.counter.last, "shoe_remaining": self.shoe.remaining,
                "round_cards": self.play.cards_json() if self.play is not None else []}

    def resume(self, out: Out, how: str, drain: list[Arrival]) -> bool:
        """The hold is resolved (`how`): back to where the round stood. True when `drain`, the
        cards that waited, may be dealt now; False when the round is held again (the shoe is
        still not heard) with them waiting."""
        with self.holds.resolved() as hold:
            self.flow.trigger(m.resume_trigger(hold.resume_to))
        self.holds.release()
        payload = {"round": self.current.number, "kind": hold.rule.kind.value, "clause": hold.rule.clause,
                   "how": how, "state": self.state}
        out.journal(R.ROUND_RESUMED, payload)
        out.publish("resumed", **payload)
        self.timer.restart()
        if not self.counter.heard and self.state in self.card_phases:
            self.irregular(out, self.game.rule(K.DEVICE_LOST), "resumed while the shoe is still not heard",
                           pending=drain)
            return False
        return True

    def void(self, out: Out, rule: IrregularityRule, detail: str, evidence: dict, by: str = "table") -> None:
        self.fire("supervisor_void" if by == "supervisor" else "void")
        held = self.holds.release()
        if held is not None:
            evidence = {**evidence, "pending": [a.text for a in held.pending]}
        play = self.current
        payload = {
            "round": play.number, "kind": rule.kind.value, "clause": rule.clause, "reason": detail,
            "evidence": evidence, "cards": play.cards_json(), "hands": play.hands(), "by": by,
            "shoe_state": self.shoe.brief(),
        }
        self.wagers.void(out, play.number)  # every stake returned; the void stays the round's last record
        out.journal(R.VOID, payload, durable=True)
        out.publish("void", **payload)
        self.ended(out, settled=False)

    # ------------------------------------------------------------ result and settlement

    def advance(self, out: Out) -> None:
        """Fire the trigger for the game's next step."""
        play = self.current
        step = play.step()
        trigger = m.step_trigger(step)
        self.fire(trigger)
        if trigger in ("deal", "draw"):
            self.timer.restart()
        elif isinstance(step, AwaitDecision):  # "ask"
            out.publish("decision_awaited", round=play.number, spot=step.spot, options=list(step.options))
        else:
            self.result(out)

    def result(self, out: Out) -> None:
        play = self.current
        try:
            result = self.game.result(play.state)
        except Irregular as irr:
            self.irregular(out, irr.rule, irr.detail, {"cards": play.cards_json()})
            return
        play.result = result
        self.show_result(result)
        data = result.to_json()
        payload = {
            "round": play.number, "game": self.game.key, "winner": result.winner,
            "hands": {name: data[name] for name in result.hands}, "bets": data["bets"],
            "cards": play.cards_json(), "dealt_to": [[d.hand, d.position] for d in play.state.dealt_to],
            "decisions": [[s, d] for s, d in play.state.decisions],
            "lamps": {k: v for k, v in self.picture().items() if v != "off"},
        }
        for extra in ("spots", "notes"):
            if extra in data:
                payload[extra] = data[extra]
        out.journal(R.RESULT, payload, durable=True)
        out.publish("result", **payload)
        # settled once the result's lamps are lit (the daemon hands SettleWagers back), or
        # first of all by whatever input comes sooner (Table.handle)
        self.settlement_due = True
        out.follow_up(i.SettleWagers(play.number))

    def settle_wagers(self, out: Out) -> None:
        """The result's wagers settled, if they are due: one `settlement` record (wagers.py)."""
        if self.settlement_due:
            self.settlement_due = False
            play = self.current
            assert play.result is not None  # due only once a result is journaled
            self.wagers.settle(out, play.number, play.result)

    def show_result(self, result: RoundResult) -> None:
        """The outcome of every betting area, for the result lamps."""
        self.bet_outcomes = {key: bet.result_text for key, bet in result.bets.items()}
        self.spot_outcomes = {}
        for spot, fields in result.spots.items():
            bets = fields.get("bets", fields)
            self.spot_outcomes[int(spot)] = {
                key: bet.result_text for key, bet in (bets.items() if isinstance(bets, Mapping) else ())
                if isinstance(bet, BetResult)
            }

    def settle(self, out: Out) -> None:
        self.fire("settle")
        payload = {"round": self.current.number, "shoe_state": self.shoe.brief()}
        out.journal(R.SETTLED, payload, durable=True)
        out.publish("settled", round=self.current.number)
        self.ended(out, settled=True)

    def ended(self, out: Out, settled: bool) -> None:
        """After a settlement or a void: the cut-card countdown and the player-dealer turn."""
        before = self.shoe.state
        self.shoe.round_ended()
        if before != m.FINISHED and self.shoe.state == m.FINISHED:
            self.shoe.event(out, ShoeEvent.FINISHED, durable=True)
        if settled and self.bank is not None:
            self.bank.hand_settled(out)

    # ------------------------------------------------------------ lamps

    def picture(self) -> dict[str, str]:
        """The whole lamp picture now."""
        state, play = self.flow.state, self.play  # read once: asked after every input
        awaited = self.current.awaited() if state == m.AWAITING else None
        spots = play.spots if play is not None and state not in m.ROUND_CLOSED else self.spots  # is_open()
        return self.lamps.picture(
            state, spots, awaited.spot if awaited else None,
            self.bet_outcomes, self.spot_outcomes, noted=bool(self.notes), mispaid=tuple(self.wagers.mispays))

    # ------------------------------------------------------------ after a restart

    def restore(self, out: Out, number: int, spots: tuple[int, ...] | None, r: RecoveredRound | None) -> str:
        """Take up from the journal (after the shoe): the round number, the live spots last set,
        and the round a stop interrupted, resumed only where that is provably consistent, else
        void (local ruling L4). Returns what became of that round."""
        self.number = number
        if spots:
            try:
                self.spots = check_spots(self.game, spots, "spots")
            except SettingsError:
                pass  # the configured spots stand; the journal's no longer fit this game
        return "no round in progress" if r is None else self._restore_round(out, r)

    def _restore_round(self, out: Out, r: RecoveredRound) -> str:
        self.play = RoundPlay(self.game, r.number, self.decks, tuple(r.spots), self.shoe.number)
        self.play.bets_closed = r.bets_closed
        problem = None
        try:
            for entry in r.steps:
                if entry[0] == "card":
                    self.play.add_card(card_from_code(entry[1]))
                else:
                    self.play.add_decision(entry[1], entry[2])
        except (Irregular, CardError) as err:
            problem = f"the journaled round does not replay: {err}"
        step = self.play.step()
        cards = bool(self.play.state.cards)
        if problem is None and (cards or r.bets_closed) and not r.bets_closed:
            problem = "cards were journaled before \"No more bets\""
        if problem is None and r.held:
            return self._restore_hold(out, r, self._state_after(step))
        if problem is not None:
            self.machine.set_state(m.HELD if r.held else (m.DEALING if cards else m.BETTING))
            self.irregular(out, device_lost_void(self.game), f"{problem} (local ruling L4)")
            return "void"
        if isinstance(step, Complete):
            self.machine.set_state(m.RESULT)
            if r.result_recorded:
                self.play.result = self.game.result(self.play.state)
                self.show_result(self.play.result)
                return "result stands"
            self.result(out)
            return "result decided from the journaled cards"
        if not r.bets_closed:
            self.machine.set_state(m.BETTING)
            return "bets open"
        self.machine.set_state(self._state_after(step))
        if self.counter.last is None:
            self.irregular(out, device_lost_void(self.game),
                           "the daemon stopped mid-round and the shoe keeps no draw counter: nothing proves "
                           "that no card was missed (local ruling L4)")
            return "void"
        self.irregular(out, self.game.rule(K.DEVICE_LOST),
                       f"the daemon stopped mid-round: held until the shoe's draw counter proves no card "
                       f"left after {self.counter.last} (local ruling L4)")
        return "held" if self.state == m.HELD else self.state


    def _state_after(self, step: Deal | AwaitDecision | Complete) -> str:
        """The round machine's state once the journaled cards and decisions are replayed."""
        if not self.current.state.cards:
            return m.BETS_CLOSED
        return {"deal": m.DEALING, "draw": m.DRAWING, "ask": m.AWAITING, "complete": m.RESULT}[m.step_trigger(step)]

    def _restore_hold(self, out: Out, r: RecoveredRound, replayed_to: str) -> str:
        """The round was held for the supervisor when the daemon stopped: held again with the
        same hold and the cards waiting in it, where the journal proves them; else void (L4),
        saying what it could not prove. The shoe's counter is still owed (`Table.restore`): a
        card it shows left meanwhile joins the hold (ruling 24), one that cannot prove, voids."""
        self.machine.set_state(m.HELD)
        hold = self._journaled_hold(r, replayed_to)
        if isinstance(hold, str):
            self.irregular(out, device_lost_void(self.game), f"the daemon stopped while the round was held for the "
                                                             f"supervisor; {hold} (local ruling L4)")
            return "void"
        play = self.current
        if hold.resume_to == m.RESULT:
            play.result = self.game.result(play.state)
            self.show_result(play.result)
        self.holds.restore(hold)
        out.publish("held", round=play.number, **hold.to_json())
        return "held for the supervisor"

    def _journaled_hold(self, r: RecoveredRound, replayed_to: str) -> Hold | str:
        """The hold the journal proves, or why it does not prove one."""
        if r.hold is None:
            return "the journal does not say what the hold waits for (written before holds were journaled whole)"
        try:
            hold = hold_from_journal(self.game, r.hold)
        except ValueError as err:
            return str(err)
        if hold.need == "counter":
            return "the round was held for the shoe's draw counter, and its waiting cards are not rebuilt"
        if hold.resume_to != replayed_to:
            return f"the hold resumes to {hold.resume_to}, but the journaled cards stand at {replayed_to}"
        if hold.resume_to == m.RESULT and not r.result_recorded:
            return "the hold resumes to the result, but no result is journaled"
        if self.counter.last is None:
            return "the shoe keeps no draw counter: nothing proves that no card left while the daemon was down"
        return hold
