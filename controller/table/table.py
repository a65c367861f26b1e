"""The table: a pure state machine that takes inputs and returns effects.

    table = Table("fortune6", decks=8)
    effects = table.handle(inputs.Command("new_shoe"))

No I/O, no threads, no clock: the daemon journals each input, calls `handle`, and carries
out the effects in order (controller.table.effects). `snapshot()` is the state as a dict.
"""
from __future__ import annotations

from transitions import MachineError

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.effects import CancelTimer, Effect, Lamps, StartTimer
from controller.table.lamps import LampView, lamp_picture
from controller.table.output import Out
from controller.table.recovery import RestoreMixin
from controller.table.settings import TableSettings
from controller.table.shoe import Shoe
from controller.table.table_cards import CardsMixin
from controller.table.table_commands import CommandsMixin
from controller.table.table_device import DeviceMixin
from controller.table.table_rounds import RoundsMixin
from games.baccarat.california.rotation import after_hand, first_turn
from games.registry import get_game, get_table_profile
from games.round import IrregularityKind as K


class RoundFlow:
    """The model the round machine drives: its `state`, and guards that ask the table."""

    def __init__(self, table: Table):
        self._table = table

    def shoe_ready(self) -> bool:
        return self._table._open_refusal() is None

    def shoe_link_up(self) -> bool:
        return self._table.link_up

    def hold_resolved(self) -> bool:
        return self._table._hold_resolved

    def supervisor_key(self) -> bool:
        return self._table.key_on


class Table(CardsMixin, DeviceMixin, CommandsMixin, RoundsMixin, RestoreMixin):
    def __init__(self, game_key: str, decks: int | None = None, settings: TableSettings | None = None):
        self.game = get_game(game_key)
        self.profile = get_table_profile(game_key)
        self.decks = self.game.default_decks if decks is None else decks
        if self.decks not in self.game.deck_counts:
            counts = self.game.deck_counts
            allowed = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
            raise ValueError(f"{game_key} is played with {allowed} deck(s), not {self.decks}")
        self.settings = (settings or TableSettings.for_game(self.game)).check(self.game)
        self.shape = m.game_shape(self.game.key)
        self.flow = RoundFlow(self)
        states, transitions = m.round_spec(self.shape)
        self.machine = m.build(self.flow, states, transitions, initial=m.IDLE)
        self._stays = m.staying(transitions)  # (trigger, state) that would change nothing
        self._card_phases = (m.BETS_CLOSED, *m.card_states(self.shape))
        self._holdable = (*self._card_phases, m.RESULT)
        self.shoe = Shoe(self.game.deck_kind, self.decks, self.settings)
        self.round_no = 0
        self.play = None  # RoundPlay of the round in progress (or the last one)
        self.spots = self.settings.spots
        self.selected_spot: int | None = None
        self.key_on = False
        self.link_up, self.link_reason, self.proof_needed = True, "", False
        self.door_open = False
        self.hold = None
        self._hold_resolved = False
        self.notes: list[dict] = []  # irregularities outside a round, refused cards: the error lamp
        self.last_rule = None  # the round's last irregularity (what a plain supervisor void cites)
        self.bet_outcomes: dict[str, str] = {}
        self.spot_outcomes: dict[int, dict[str, str]] = {}
        self.bank = self._first_bank_turn()
        self._lamps_shown: dict | None = None
        self._timer_on = self._timer_restart = False

    # ------------------------------------------------------------ the one entry point

    _HANDLERS = {
        i.Card: "_on_card", i.DrawGap: "_on_gap", i.ShoeDoor: "_on_door", i.ShoePresence: "_on_presence",
        i.CutCard: "_on_cut_card", i.ShoeEmpty: "_on_empty", i.ShoeRebooted: "_on_rebooted",
        i.ShoeLinkLost: "_on_link_lost", i.ShoeLinkRestored: "_on_link_restored",
        i.Command: "_on_command", i.SupervisorKey: "_on_key", i.Timer: "_on_timer",
    }

    def handle(self, inp) -> list[Effect]:
        """Everything `inp` changes, as effects in contract order (controller.table.effects)."""
        out = Out()
        name = self._HANDLERS.get(type(inp))
        if name is None:
            out.journal("error", {"detail": f"not a table input: {type(inp).__name__}"})
        else:
            try:
                getattr(self, name)(inp, out)
            except MachineError as err:  # an event the machine does not allow now: refuse, never crash
                detail = f"{type(inp).__name__} is not allowed while the round is {self.state}: {err.value}"
                out.journal("error", {"detail": detail, "state": self.state})
                out.answer(False, detail)
        if isinstance(inp, i.Command):
            out.answer(True, "ok")  # only when the handler gave no answer
        self._timers(out)
        return out.effects(self._lamps())

    @property
    def state(self) -> str:
        return self.flow.state

    def _on_key(self, inp: i.SupervisorKey, out: Out) -> None:
        self.key_on = inp.on
        out.publish("supervisor_key", on=inp.on)

    def _on_timer(self, inp: i.Timer, out: Out) -> None:
        if inp.name != "card" or not self._timer_on or self.state not in (m.BETS_CLOSED, m.DEALING, m.DRAWING):
            out.journal("timer", {"name": inp.name, "ignored": f"no card timer runs now ({self.state})"})
            return
        self._timer_on = False
        step = self.play.step()
        self._irregular(out, self.game.rule(K.MISSING_CARD),
                        f"no card within {self.settings.card_timeout_s:g} s: card {len(self.play.state.cards) + 1} "
                        f"is due to {getattr(step, 'hand', '?')}")

    # ------------------------------------------------------------ state helpers

    def _round_open(self) -> bool:
        return self.play is not None and self.state not in m.ROUND_CLOSED

    def _round_in_play(self) -> bool:
        """Cards may be due to the round: from "Place your bets" until the result."""
        return self.state in (m.BETTING, *self._card_phases, m.HELD)

    def _shoe_brief(self) -> dict:
        s = self.shoe
        return {"number": s.number, "state": s.state, "drawn": s.drawn, "unknown": s.unknown,
                "burned": s.burned, "burn_remaining": s.burn_remaining,
                "burn_card": None if s.burn_card is None else s.burn_card.code, "cut_card_seen": s.cut_card_seen,
                "rounds_left": s.rounds_left, "draw_counter": s.last_counter}

    def _shoe_event(self, out: Out, event: str, durable: bool = False, **fields) -> None:
        payload = {"event": event, **fields, "shoe": self.shoe.number, "shoe_state": self._shoe_brief()}
        out.journal("shoe", payload, durable)
        out.publish("shoe", what=event, **fields, shoe=self.shoe.number, shoe_state=payload["shoe_state"])

    # ------------------------------------------------------------ Fortune 7's player-dealer

    def _first_bank_turn(self):
        if self.profile.player_dealer is None:
            return None
        seats = self.settings.player_dealer_seats
        return first_turn(seats, seats, offer_from=self.settings.player_dealer_seat or 1)

    def _next_bank_turn(self, out: Out) -> None:
        if self.bank is None:
            return
        seats = self.settings.player_dealer_seats
        before = self.bank.holder
        self.bank = after_hand(self.bank, seats, seats)
        self._bank_event(out, "rotated" if self.bank.holder != before else "hand_played")

    def _bank_event(self, out: Out, event: str) -> None:
        fields = {"seat": self.bank.holder, "hands_left": self.bank.hands_left, "offer_from": self.bank.offer_from}
        out.journal("player_dealer", {"event": event, **fields})
        out.publish("player_dealer", what=event, **fields)

    # ------------------------------------------------------------ lamps, timers, snapshot

    def _picture(self) -> dict[str, str]:
        awaited = self.play.awaited() if self.state == m.AWAITING else None
        view = LampView(
            round_state=self.state, shoe_state=self.shoe.state, last_round=self.shoe.last_round,
            attention=bool(self.notes) or not self.link_up or (self.shoe.burning and self.shoe.burned > 0
                                                                and self.shoe.burn_remaining is None),
            key_on=self.key_on,
            live_spots=self.play.spots if self._round_open() else self.spots,
            awaited_spot=awaited.spot if awaited else None,
            bets=self.bet_outcomes, spot_bets=self.spot_outcomes,
            player_dealer_seat=self.bank.holder if self.bank else None,
        )
        return lamp_picture(self.game.key, view)

    def _lamps(self) -> Lamps | None:
        picture = self._picture()
        if picture == self._lamps_shown:
            return None
        self._lamps_shown = picture
        return Lamps(picture)

    def _timers(self, out: Out) -> None:
        due = self.settings.card_timeout_s is not None and self.state in (m.BETS_CLOSED, m.DEALING, m.DRAWING)
        if due and (self._timer_restart or not self._timer_on):
            out.timers.append(StartTimer("card", float(self.settings.card_timeout_s)))
            self._timer_on = True
        elif not due and self._timer_on:
            out.timers.append(CancelTimer("card"))
            self._timer_on = False
        self._timer_restart = False

    def snapshot(self) -> dict:
        awaited = self.play.awaited() if self.state == m.AWAITING else None
        return {
            "game": self.game.key, "decks": self.decks, "state": self.state,
            "shoe": self.shoe.snapshot(),
            "round": self.play.snapshot() if self.play is not None else None,
            "hands": self.play.hands() if self.play is not None else {},
            "lamps": self._picture(),
            "spots": list(self.spots), "selected_spot": self.selected_spot,
            "pending_decision": {"spot": awaited.spot, "options": list(awaited.options)} if awaited else None,
            "held": self.hold.to_json() if self.hold is not None else None,
            "link_up": self.link_up, "supervisor_key": self.key_on, "door_open": self.door_open,
            "attention": list(self.notes),
            "player_dealer": None if self.bank is None else {
                "seat": self.bank.holder, "hands_left": self.bank.hands_left, "offer_from": self.bank.offer_from},
        }
