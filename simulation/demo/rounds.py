"""DemoTable: plays demo rounds on a started rig, the rig as the dealer and the demo as the
players and the supervisor. One call to play() is one round, returned as its JSON line."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from games.registry import get_game, get_table_profile
from simulation.demo.bettors import Bettors
from simulation.demo.choices import Choices
from simulation.demo.faults import Supervisor, initial_deal_size, strike
from simulation.demo.money_faults import MoneyFaults
from simulation.demo.player_dealer import PlayerDealerOffers
from simulation.demo.report import money_of_round, round_line
from simulation.rig import Rig, RigError
from simulation.rig.dealer import CARD_STATES, plain_decision

Step = Callable[[], None]  # the live view's redraw-and-wait, after each thing the table does


class DemoTable:
    def __init__(self, rig: Rig, choices: Choices, on_step: Step | None = None) -> None:
        self.rig, self.choices = rig, choices
        self.game = get_game(rig.game)
        self.on_step = on_step
        self.log: list[str] = []  # what the demo did (faults, supervisor, offers), for the live view
        self.supervisor = Supervisor(rig, choices)
        self.offers = PlayerDealerOffers(rig, choices, self.log)
        demo_player = get_table_profile(rig.game).demo_player  # the game's own players (Fu Bacc: optimal)
        self.players = demo_player(rig.decks) if demo_player is not None else None
        self.bettors = Bettors(rig, self.game, choices.seed) if "bets" in rig.sims else None  # chips on the sensor
        self.money_faults = MoneyFaults(rig, self.bettors, choices, self.log) if self.bettors is not None else None
        self._round = (0, 0)  # the round in play and the event mark it opened at
        rig.before_confirm = self.before_confirm  # the dealer pays before every confirm the rig presses

    def play(self) -> dict:
        """One round, from the offer of the player-dealer position (Fortune 7) and the live
        spots to the result (confirmed) or the void; its JSON line."""
        rig = self.rig
        if self.players is not None:
            self.players.new_round()
        self.offers.before_round()
        spots = self.choices.live_spots()
        mark = rig.events.mark()
        number = rig.open_round(spots, close_bets=self.bettors is None)
        self._round = (number, mark)
        opened = rig.events.wait_for("round_opened", after=mark, round=number)
        stakes: dict = {}
        if self.bettors is not None and self.money_faults is not None:  # chips while betting is open, then "No more bets"
            self.money_faults.new_round()
            holder = opened.get("player_dealer")
            stakes = self.bettors.place(spots, holder if isinstance(holder, int) else None)
            self.log.append(f"round {number}: chips on " + (", ".join(f"{seat}:{bet} {amount}" for (seat, bet), amount
                                                                       in sorted(stakes.items())) or "no space"))
            self.money_faults.while_betting(number)
            self.bettors.synced()
            self._step()
            rig.press("no_more_bets")
            self.money_faults.after_no_more_bets(number, mark)
        plan = self.choices.fault(initial_deal_size(self.game, rig.decks, spots))
        fault = self._strike(plan, number, mark) if plan is not None else None
        actions: list[dict] = []
        end = self._to_the_end(number, mark, fault, actions)
        if end["event"] == "result":
            self.offers.hand_settled()
        board = rig.wait_lamps()
        events = rig.events.since(mark)
        line = round_line(rig.game, opened, end, events, board, fault, actions)
        if self.bettors is not None and self.money_faults is not None:
            line["chips"] = [{"seat": seat, "bet": bet, "amount": amount}
                             for (seat, bet), amount in sorted(self.bettors.stakes.items())]
            line["money"] = money_of_round(events, number)
            line["money_fault"] = self.money_faults.struck
            self.bettors.clear()
        return line

    # ------------------------------------------------------------ the round
    def _strike(self, plan, number: int, mark: int) -> dict | None:
        """Deal up to the fault's card and inject it; None when the round needs no card there."""
        for _ in range(plan.before_card):
            if self.rig.status()["state"] not in CARD_STATES:
                break
            self.rig.draw(1)
        if self.rig.status()["state"] not in CARD_STATES:
            return None
        self.log.append(f"round {number}: fault injected: {plan.kind} before card {plan.before_card + 1}")
        fault = strike(self.rig, plan, number, mark)
        self._step()
        return fault

    def _to_the_end(self, number: int, mark: int, fault: dict | None, actions: list[dict]) -> dict:
        rig = self.rig
        while True:
            status = rig.status()
            state = status["state"]
            if state == "held":
                action = self.supervisor.resolve(status["held"], fault)
                actions.append(action)
                self.log.append(f"round {number}: supervisor: {action['action']} ({action['hold']}, "
                                f"{action['clause']}): {action['message']}")
                self._step()
            elif state == "settled":  # confirmed already (by whoever pressed it)
                return rig.events.wait_for("result", after=mark, round=number)
            elif state == "void":
                return rig.events.wait_for("void", after=mark, round=number)
            elif state == "result":  # a resolved hold dealt the round's last card
                self.before_confirm()
                answer = rig.press("confirm")
                if not answer.get("ok"):
                    raise RigError(f"confirm refused: {answer.get('message')}")
                return rig.events.wait_for("result", after=mark, round=number)
            else:
                end = rig.finish_round(self._decide)
                if end["event"] != "held":
                    return end

    def _decide(self, spot: int, options: Sequence[str]) -> str | None:
        """The game's own players (its table profile's demo_player: Fu Bacc plays the optimal
        strategy for the spot's two cards against the up card, as the daemon dealt them);
        otherwise the rig's plain decision (Pai Gow: the House Way)."""
        choice: str | None
        if self.players is not None:
            choice = self.players.decide(spot, options, self.rig.status()["hands"])
        else:
            choice = plain_decision(spot, list(options))
        if self.bettors is not None:
            self.bettors.decided(spot, choice)
        self._step()
        return choice

    def before_confirm(self) -> None:
        """The dealer pays: every space made to hold what the table says it must; with a
        mispay to make, one space paid wrong first (money_faults)."""
        if self.bettors is not None and self.money_faults is not None:
            self.log += [f"dealer: {line}" for line in self.bettors.pay(self.rig.status())]
            self.bettors.synced()
            self.money_faults.before_confirm(*self._round)

    def _step(self) -> None:
        if self.on_step is not None:
            self.on_step()
