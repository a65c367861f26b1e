"""The table: a pure state machine that takes inputs and returns effects.

    table = Table("fortune6", decks=8)
    effects = table.handle(inputs.Command("new_shoe"))

No I/O, no threads, no clock: the daemon journals each input, calls `handle`, and carries
out the effects in order (controller.table.effects). `snapshot()` is the state as a dict.

`Table` only dispatches: each input type has its handler in `handlers` (registered in
`__init__`), and the state belongs to the components below, each of which calls only the
ones built before it:

    DrawCounter  the draw counter, the shoe heard or not, the proof owed (L4)  draw_counter.py
    Panel        the supervisor key, the selected spot/seat     panel.py
    Holding      the hold on the round                          holds.py
    CardTimer    the card timer                                 timer.py
    Shoe         cards in the shoe, burn, cut card, door        shoe.py
    PlayerDealer the player-dealer rotation (its profile's)     player_dealer.py
    ShoeIntegrity the shoe's integrity checks (local ruling L7) integrity.py
    LampBoard    the lamp view (the whole picture, every input) lamps.py
    ChipRegistry the cage's chips by UID                        chip_registry.py
    BetBoard     the bet sensor's layout and live readings      bet_board.py
    California   Fortune 7's bank and fees (rulings 25, 26)     california.py
    RoundWagers  the round's wagers, settlement, payout check   wagers.py
    RoundInPlay  the round machine, the round, its fate         round_in_play.py
    CardFlow     cards from the shoe                            cards.py
    ShoeEvents   the shoe's other events                        shoe_events.py
    Commands     the panel's and the socket's commands          commands.py
    MoneyDesk    bet sensor inputs, money's commands            money_desk.py
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from transitions import MachineError

from controller.journal.kinds import RecordKind as R
from controller.table import inputs as i
from controller.table import machine as m
from controller.table.bet_board import BetBoard
from controller.table.california import BANK
from controller.table.cards import CardFlow
from controller.table.chip_registry import ChipRegistry
from controller.table.commands import Commands
from controller.table.draw_counter import DrawCounter
from controller.table.effects import Effect, Lamps
from controller.table.holds import Hold, Holding
from controller.table.integrity import IntegrityStart, ShoeIntegrity
from controller.table.lamps import LampBoard
from controller.table.money_desk import MoneyDesk
from controller.table.money_recovery import RecoveredMoney
from controller.table.output import Out
from controller.table.panel import Panel
from controller.table.player_dealer import PlayerDealer
from controller.table.recovery import TableRecovery
from controller.table.round_in_play import RoundInPlay
from controller.table.round_play import RoundPlay
from controller.table.settings import TableSettings
from controller.table.shoe import Shoe
from controller.table.shoe_events import ShoeEvents
from controller.table.timer import CardTimer
from controller.table.wagers import RoundWagers
from games.integrity import ShoeHistory
from games.money import format_amount
from games.registry import get_game, get_table_profile
from games.round import IrregularityKind as K

Handler = Callable[[Any, Out], None]


class Table:
    def __init__(self, game_key: str, decks: int | None = None, settings: TableSettings | None = None):
        self.game = get_game(game_key)
        self.profile = get_table_profile(game_key)
        self.decks = self.game.default_decks if decks is None else decks
        if self.decks not in self.game.deck_counts:
            counts = self.game.deck_counts
            allowed = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
            raise ValueError(f"{game_key} is played with {allowed} deck(s), not {self.decks}")
        self.settings = (settings or TableSettings.for_game(self.game)).check(self.game)
        game, settings = self.game, self.settings
        self.counter = DrawCounter()
        self.panel = Panel()
        self.holds = Holding(game)
        self.timer = CardTimer(settings.card_timeout_s)
        self.shoe = Shoe(game.deck_kind, self.decks, settings, self.counter)
        seats = self.profile.player_dealer
        self.bank = PlayerDealer(seats, settings) if seats is not None else None
        self.integrity = ShoeIntegrity(game, self.decks, settings, self.shoe)
        self.lamps = LampBoard(game.key, self.shoe, self.counter, self.panel, self.bank, self.integrity)
        self.registry = ChipRegistry()
        banked = self.bank is not None and settings.collection_schedule is not None
        self.board = BetBoard(game, self.registry, settings.chip_unit, extra_spaces=(BANK,) if banked else ())
        self.wagers = RoundWagers(game, settings, self.board, self.bank)
        self.round = RoundInPlay(game, self.decks, settings, shoe=self.shoe, counter=self.counter,
                                 panel=self.panel, holds=self.holds, bank=self.bank, timer=self.timer,
                                 integrity=self.integrity, lamps=self.lamps, wagers=self.wagers)
        self.cards = CardFlow(game, shoe=self.shoe, counter=self.counter, holds=self.holds,
                              integrity=self.integrity, round=self.round)
        self.shoe_events = ShoeEvents(game, settings, shoe=self.shoe, counter=self.counter,
                                      round=self.round, cards=self.cards)
        self.commands = Commands(game, settings, shoe=self.shoe, round=self.round, holds=self.holds, bank=self.bank,
                                 panel=self.panel, integrity=self.integrity, cards=self.cards)
        self.commands.register("status", self._status)
        self.money = MoneyDesk(game, board=self.board, registry=self.registry, wagers=self.wagers, round=self.round,
                               panel=self.panel, commands=self.commands)
        self.handlers: dict[type, Handler] = {}
        self.register(i.Card, self.cards.on_card)
        self.register(i.ShoeCounter, self.shoe_events.on_counter)
        self.register(i.ShoeDoor, self.shoe_events.on_door)
        self.register(i.ShoePresence, self.shoe_events.on_presence)
        self.register(i.CutCard, self.shoe_events.on_cut_card)
        self.register(i.ShoeEmpty, self.shoe_events.on_empty)
        self.register(i.ShoeRebooted, self.shoe_events.on_rebooted)
        self.register(i.ShoeLinkLost, self.shoe_events.on_link_lost)
        self.register(i.CardDisputed, self.shoe_events.on_card_disputed)
        self.register(i.ShoeLinkRestored, self.shoe_events.on_link_restored)
        self.register(i.Command, self.commands.on_command)
        self.register(i.SupervisorKey, self._on_key)
        self.register(i.Timer, self._on_timer)
        self.register(i.SettleWagers, lambda inp, out: None)  # done first of all in handle(), when due
        self.register(i.SpaceChips, self.money.on_chips)
        self.register(i.BetLayoutHeard, self.money.on_layout)
        self.register(i.BetSensorLink, self.money.on_sensor_link)

    def register(self, input_type: type, handler: Handler) -> None:
        """`handler(input, out)` handles every input of `input_type`."""
        self.handlers[input_type] = handler

    # ------------------------------------------------------------ the one entry point

    def handle(self, inp: i.Input) -> list[Effect]:
        """Everything `inp` changes, as effects in contract order (controller.table.effects)."""
        out = Out()
        if self.round.settlement_due:  # the result's wagers before anything else (SettleWagers)
            self.round.settle_wagers(out)
        handler = self.handlers.get(type(inp))
        if handler is None:
            out.journal(R.ERROR, {"detail": f"not a table input: {type(inp).__name__}"})
        else:
            try:
                handler(inp, out)
            except MachineError as err:  # an event the machine does not allow now: refuse, never crash
                detail = f"{type(inp).__name__} is not allowed while the round is {self.state}: {err.value}"
                out.journal(R.ERROR, {"detail": detail, "state": self.state})
                out.answer(False, detail)
        if isinstance(inp, i.Command):
            out.answer(True, "ok")  # only when the handler gave no answer
        return self._done(out)

    def _done(self, out: Out) -> list[Effect]:
        out.timers += self.timer.effects(self.state)
        return out.effects(Lamps(self.round.picture()))

    def _on_key(self, inp: i.SupervisorKey, out: Out) -> None:
        self.panel.key_on = inp.on
        out.publish("supervisor_key", on=inp.on)

    def _on_timer(self, inp: i.Timer, out: Out) -> None:
        if not self.timer.expired(inp.name, self.state):
            out.journal(R.TIMER, {"name": inp.name, "ignored": f"no card timer runs now ({self.state})"})
            return
        play = self.round.current
        step = play.step()
        self.round.irregular(out, self.game.rule(K.MISSING_CARD),
                             f"no card within {self.settings.card_timeout_s:g} s: card {len(play.state.cards) + 1} "
                             f"is due to {getattr(step, 'hand', '?')}")

    def _status(self, args: Mapping, out: Out) -> None:
        out.answer(True, "status", **self.snapshot())

    # ------------------------------------------------------------ after a restart

    def restore(self, recovery: TableRecovery, shoes: IntegrityStart | None = None, *,
                money: RecoveredMoney | None = None, chips: Iterable[Mapping] = ()) -> list[Effect]:
        """Take up from `recovery` (a fresh table only); returns the effects: a `recovered`
        record, and the void, hold or result of the interrupted round. `shoes`: the shoes dealt
        before and the one in play, for the integrity checks (the daemon reads them from the
        journal); without it the checks remember no earlier shoe. An integrity alarm journaled
        and never answered blocks the next round as it did before (local ruling L7).
        `money`: the interrupted round's wagers, payouts owed and any accept (money_recovery.py);
        `chips`: every `chips` record of the journal, oldest first (the chip registry)."""
        if self.round.number or self.round.play is not None or self.shoe.number:
            raise ValueError("restore() is for a fresh table, before its first input")
        out = Out()
        if recovery.shoe is not None:
            s = recovery.shoe
            self.shoe.restore(s.number, s.state, s.codes_out, drawn=s.drawn, unknown=s.unknown, burned=s.burned,
                              burn_card=s.burn_card, burn_remaining=s.burn_remaining,
                              cut_card_seen=s.cut_card_seen, rounds_left=s.rounds_left)
            self.counter.stands_at(s.draw_counter)
        if recovery.player_dealer is not None and self.bank is not None:
            self.bank.restore(*recovery.player_dealer)
        self.commands.shifts.restore(recovery.shift)
        self.counter.unheard_from_now()  # the shoe went unheard while the daemon was down (local ruling L4)
        for payload in chips:
            self.registry.fold(payload)
        if money is not None:
            self.wagers.restore(money, getattr(recovery.round, "number", None))
            self.money.restore(money, getattr(recovery.round, "number", None))
        outcome = self.round.restore(out, recovery.last_round, recovery.spots, recovery.round)
        play = self.round.play
        if self.state == m.RESULT and play is not None and play.result is not None and self.wagers.money is None:
            self.round.settlement_due = True  # the result was journaled, its settlement not (or not yet)
        self.round.settle_wagers(out)  # now, before the `recovered` record
        out.follow_ups.clear()
        rnd = self.round
        self.integrity.restore(out, shoes or IntegrityStart(ShoeHistory()), recovery.checks_fired,
                               recovery.shoe_alarms, rnd.current.number if rnd.is_open() else None, self.state)
        out.journal(R.RECOVERED, {"last_round": recovery.last_round,
                                  "round": getattr(recovery.round, "number", None), "outcome": outcome,
                                  "state": self.state, "shoe_state": self.shoe.brief()}, durable=True)
        out.publish("recovered", outcome=outcome, state=self.state)
        return self._done(out)

    # ------------------------------------------------------------ what the daemon and the tests read

    @property
    def state(self) -> str:
        return self.round.state

    @property
    def machine(self):
        return self.round.machine

    @property
    def flow(self):
        return self.round.flow

    @property
    def play(self) -> RoundPlay | None:
        """The round in progress (or the last one)."""
        return self.round.play

    @property
    def round_no(self) -> int:
        return self.round.number

    @property
    def spots(self) -> tuple[int, ...]:
        return self.round.spots

    @property
    def hold(self) -> Hold | None:
        return self.holds.current

    @property
    def key_on(self) -> bool:
        return self.panel.key_on

    @property
    def link_up(self) -> bool:
        return self.counter.heard

    @property
    def door_open(self) -> bool:
        return self.shoe.door_open

    def snapshot(self) -> dict:
        rnd, play = self.round, self.round.play
        awaited = play.awaited() if play is not None and self.state == m.AWAITING else None
        return {
            "game": self.game.key, "decks": self.decks, "state": self.state,
            "shoe": self.shoe.snapshot(),
            "round": play.snapshot() if play is not None else None,
            "hands": play.hands() if play is not None else {},
            "lamps": rnd.picture(),
            "spots": list(rnd.spots), "selected_spot": self.panel.selected,
            "pending_decision": {"spot": awaited.spot, "options": list(awaited.options)} if awaited else None,
            "held": self.hold.to_json() if self.hold is not None else None,
            "link_up": self.counter.heard, "supervisor_key": self.panel.key_on, "door_open": self.shoe.door_open,
            "attention": list(rnd.notes), "integrity": self.integrity.snapshot(),
            "player_dealer": None if self.bank is None else self.bank.fields(),
            "money": self.money_snapshot(),
        }

    def money_snapshot(self) -> dict:
        """The table's money now (docs/money.md): the sensor, each space's reading, the round's
        wagers of record, its payouts and the mispays still standing."""
        return {
            "sensor": self.board.sensor_state(),
            "unread": self.board.unread(),  # spaces of the sensor's layout not read yet at its session
            "payout_check": self.wagers.payout_check if self.wagers.frozen is not None else self.board.live,
            "registry": self.registry.snapshot() if self.registry.loaded else "no chip registry",
            "spaces": [{"seat": r.seat, "bet": r.bet, "amount": format_amount(r.amount),
                        "chips": [list(c) for c in r.chips], "foreign": [f.uid for f in r.foreign],
                        **({"overflow": True} if r.overflow else {})} for r in self.board.readings()],
            **self.wagers.snapshot(),
        }
