"""The rig as the dealer: panel buttons by name, the supervisor key, cards from the shoe, a
new shoe with its burn, and whole rounds (`play_round`). A mixin of Rig (simulation/rig/rig.py)."""
from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from controller.table import button_list
from simulation.rig.events import WAIT, EventStream
from simulation.rig.processes import RigError
from simulation.rig.sims import Sim

CARD_STATES = ("bets_closed", "dealing", "drawing")
ROUND_CLOSED = ("idle", "settled", "void")
ROUND_ENDS = ("result", "void", "held")
Decide = Callable[[int, list], "str | None"]  # (spot, options) -> decision; None: the game's default
PLAIN_CHOICES = ("play", "stay", "house")  # what play_round decides when not told: a plain, complete round


def plain_decision(spot: int, options: list) -> str | None:
    """The first of play / stay / house offered; else None (the game's default)."""
    return next((choice for choice in PLAIN_CHOICES if choice in options), None)


class DealerMixin:
    # What the dealer uses of the rig, defined by Rig (simulation/rig/rig.py).
    game: str
    rng: random.Random
    deck_per_round: bool
    default_cut_card: int | None
    _shoe_used: bool
    before_confirm: Callable[[], None] | None = None  # the dealer's last act before "confirm" (paying, in the demo)

    if TYPE_CHECKING:
        @property
        def events(self) -> EventStream: ...
        @property
        def shoe(self) -> Sim: ...
        @property
        def panel(self) -> Sim: ...
        def send(self, cmd: str, **fields: Any) -> dict: ...
        def status(self) -> dict: ...
        @staticmethod
        def wait_until(condition: Callable[[], bool], timeout: float, what: str, poll: float = 0.005) -> None: ...

    # ------------------------------------------------------------ the panel
    def button_id(self, command: str, **args) -> int:
        """The panel button that sends `command` with exactly `args` (docs/table.md button map)."""
        for button in button_list(self.game):
            if button.command == command and dict(button.args) == args:
                return button.id
        raise RigError(f"the {self.game} panel has no button for {command} {args or ''}".rstrip())

    def press(self, command: str, **args) -> dict:
        """Click the button by name on the panel simulator; returns the daemon's `command`
        event for it ({"ok": ..., "message": ...}): the press has been handled."""
        return self.press_button(self.button_id(command, **args))

    def press_button(self, button: int) -> dict:
        """Click button `button` (any id, also one the panel map lacks) and wait for its answer."""
        mark = self.events.mark()
        self.panel.command("click", button=button)
        return self.events.wait_for("command", after=mark, source="panel", button=button)

    def key(self, on: bool) -> dict:
        """Turn the supervisor key; returns the daemon's `supervisor_key` event."""
        mark = self.events.mark()
        self.panel.command("key", on="on" if on else "off")
        return self.events.wait_for("supervisor_key", after=mark, on=on)

    # ------------------------------------------------------------ the shoe
    def draw(self, n: int = 1, wait: bool = True) -> list[dict]:
        """Draw `n` cards from the shoe simulator ({"card", "code", "counter", ...} each); with
        `wait`, return once the daemon has handled the last of them."""
        drawn = self.shoe.command("draw", n=n)["drawn"]
        self._shoe_used = True
        if wait and drawn:
            self.wait_for_counter(drawn[-1]["counter"])
        return drawn

    def wait_for_counter(self, counter: int, timeout: float = WAIT) -> None:
        """Until the daemon has handled the card with draw counter `counter`. Equal, not "at
        least": after a reboot that lost the shoe's count the daemon's last counter (from before)
        is higher than the new cards' until it has handled one of them."""
        def handled() -> bool:  # and journaled: while the journal waits, status shows the table in memory
            daemon = self.status()["daemon"]
            return daemon["last_draw_counter"] == counter and not daemon["journal"]["waiting"]

        self.wait_until(handled, timeout, f"the daemon to handle card {counter}")

    def fault(self, kind: str, **fields) -> dict:
        """A shoe fault (firmware_bridge/sim: unplug, replug, reboot, door_open, foreign, ...)."""
        return self.shoe.command("fault", kind=kind, **fields)

    def load_shoe(self, seed: int | None = None, cards: list[str] | str | None = None,
                  cut_card: int | None = None) -> dict:
        """Put a new shoe (a shuffler's next deck) into the simulator: `cards` in draw order, or
        a shuffle with `seed` (default: the rig's next seed). The cut card goes near the end
        of a multi-deck shoe unless `cut_card` says where."""
        fields: dict = {}
        if cards is not None:
            fields["cards"] = cards if isinstance(cards, str) else " ".join(cards)
        else:
            fields["seed"] = seed if seed is not None else self.rng.randrange(1 << 31)
        cut = cut_card if cut_card is not None else (None if cards is not None else self.default_cut_card)
        if cut is not None:
            fields["cut_card"] = cut
        reply = self.shoe.command("load", **fields)
        self._shoe_used = False
        return reply

    def new_shoe(self, seed: int | None = None, cards: list[str] | str | None = None,
                 cut_card: int | None = None) -> dict:
        """Load a fresh shoe into the simulator (unless the one in it is untouched and no cards
        or seed are given), press "new shoe" and deal the burn; returns the daemon's shoe."""
        if self._shoe_used or seed is not None or cards is not None:
            self.load_shoe(seed, cards, cut_card)
        answer = self.press("new_shoe")
        if not answer["ok"]:
            raise RigError(f"new_shoe refused: {answer['message']}")
        while (shoe := self.status()["shoe"])["state"] == "burning":
            if shoe["burned"] and shoe["burn_remaining"] is None:
                raise RigError("the first burn card was not read: the supervisor must key it in")
            self.draw(1)
        return shoe

    # ------------------------------------------------------------ rounds
    def play_round(self, decide: Decide | None = None, spots: list[int] | None = None,
                   timeout: float = WAIT) -> dict:
        """Deal one round as the table asks: a new shoe (or the next deck) when needed, the
        live `spots`, "Place your bets", "No more bets", the cards due, the decisions
        (`decide(spot, options)`; default `plain_decision`: play, stay or house when offered,
        else the game's default), and "confirm" after a result.
        Returns the round's last event: `result` (settled), `void`, or `held` (the round
        waits for the supervisor: the caller resolves it)."""
        number, mark = self._open(spots)
        return self._deal_to_the_end(number, mark, decide, timeout)

    def open_round(self, spots: list[int] | None = None, close_bets: bool = True) -> int:
        """What play_round does before the first card: a new shoe or the next deck when
        needed, the live `spots`, "Place your bets", "No more bets" (not with `close_bets=False`:
        the round stays open for bets). Returns the round number."""
        return self._open(spots, close_bets)[0]

    def _open(self, spots, close_bets: bool = True) -> tuple[int, int]:
        status = self.status()
        if status["state"] not in ROUND_CLOSED:
            raise RigError(f"a round is in progress ({status['state']}); a new one cannot open")
        if status["shoe"]["state"] in ("no_shoe", "finished"):
            self.new_shoe()
        elif self.deck_per_round and self._shoe_used:
            self.load_shoe()  # the shuffler's next deck
        if spots is not None:
            self._ok(self.send("spots", spots=list(spots)), "spots")
        mark = self.events.mark()
        self._ok(self.press("place_bets"), "place_bets")
        number = self.events.wait_for("round_opened", after=mark)["round"]
        if close_bets:
            self.press("no_more_bets")
        return number, mark

    def finish_round(self, decide: Decide | None = None, timeout: float = WAIT) -> dict:
        """Deal the round in progress to its end from where it stands (e.g. after a hold was
        resolved); returns its next `result` (after confirm), `void` or `held` event."""
        mark = self.events.mark()
        status = self.status()
        if status["round"] is None or status["state"] in ROUND_CLOSED:
            raise RigError(f"no round in progress ({status['state']})")
        return self._deal_to_the_end(status["round"]["number"], mark, decide, timeout)

    def _deal_to_the_end(self, number: int, mark: int, decide: Decide | None, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            end = self.events.find(after=mark, predicate=lambda e: e.get("event") in ROUND_ENDS
                                   and e.get("round") == number)
            if end is not None:
                if end["event"] == "result":
                    if self.before_confirm is not None:
                        self.before_confirm()
                    self._ok(self.press("confirm"), "confirm")
                return end
            status = self.status()
            state = status["state"]
            if state in CARD_STATES:
                self.draw(1)
            elif state == "awaiting_decisions":
                pending = status["pending_decision"]
                choice = (decide or plain_decision)(pending["spot"], pending["options"])
                fields = {"spot": pending["spot"], **({"decision": choice} if choice is not None else {})}
                self._ok(self.send("decide", **fields), f"decide {fields}")
            elif state in ROUND_ENDS:
                self.events.wait_for(after=mark, round=number, predicate=lambda e: e.get("event") in ROUND_ENDS)
            else:
                raise RigError(f"round {number}: the table is {state}, not dealing")
        raise RigError(f"round {number} did not end within {timeout:g} s")

    @staticmethod
    def _ok(answer: dict, what: str) -> dict:
        if not answer.get("ok"):
            raise RigError(f"{what} refused: {answer.get('message') or answer.get('error')}")
        return answer
