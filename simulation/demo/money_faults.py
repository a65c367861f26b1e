"""Money faults the demo makes at the bet sensor (`--faults RATE`), and the dealer's or the
supervisor's answer. What the table makes of each is its rule (docs/money.md, local ruling L10):

    foreign_chip   while bets are open, a chip the casino never issued on a player's space:
                   `foreign_chip`, the wager holding it refused (its space empty after settlement)
    past_post      after "No more bets", a chip added to a wagered space: `late_wager`, refused
    removed_chip   after "No more bets", a chip taken off a wagered space: `wager_removed`,
                   the wager of record stands and is settled
    mispay         the dealer pays one space short or over and presses confirm: `mispay`,
                   confirm refused; then the dealer corrects the space, or the supervisor (key
                   on) accepts the spaces as they stand (`accept_payouts`), and confirm settles

Each strikes a space the players wagered on, picked by the seed (Choices.money), so a seed
makes the same faults again."""
from __future__ import annotations

from simulation.demo.bettors import Bettors
from simulation.demo.choices import Choices
from simulation.rig import Rig, RigError

MISPAY_CHIP = 5  # what the dealer pays over, as one chip
LATE_CHIP = 5  # the chip a past-poster adds
FOREIGN_VALUE = 25  # the counterfeit's tag value
ACCEPTS = 0.4  # a mispay the supervisor accepts as it stands, rather than the dealer correcting it
IRREGULARITY = {"foreign_chip": "foreign_chip", "past_post": "late_wager", "removed_chip": "wager_removed",
                "mispay": "mispay"}  # the kind of irregularity the table names for each fault


class MoneyFaults:
    def __init__(self, rig: Rig, bettors: Bettors, choices: Choices, log: list[str]) -> None:
        self.rig, self.bettors, self.choices, self.log = rig, bettors, choices, log
        self.kind: str | None = None  # this round's fault, until it strikes
        self.struck: dict | None = None  # what the demo did, for the JSON line

    def new_round(self) -> None:
        self.kind, self.struck = self.choices.money_fault(), None

    def _space(self) -> tuple[int, str] | None:
        """A space the players wagered on this round (not a stake another fixes: Fu Bacc's Play)."""
        laid = sorted(key for key in self.bettors.stakes if self.bettors.game.wagers[key[1]].stake_of is None)
        return self.choices.money.choice(laid) if laid else None

    def while_betting(self, number: int) -> None:
        """A foreign chip, laid before "No more bets"."""
        if self.kind != "foreign_chip" or (space := self._space()) is None:
            return
        seat, bet = space
        self.rig.bets.command("foreign", space=f"{seat}:{bet}", value=FOREIGN_VALUE)
        self._struck(number, seat=seat, bet=bet, value=FOREIGN_VALUE)

    def after_no_more_bets(self, number: int, mark: int) -> None:
        """A chip added (past-post) or taken (removed) once the wagers are frozen; waits until
        the table names it, so the round is dealt only after."""
        if self.kind not in ("past_post", "removed_chip") or (space := self._space()) is None:
            return
        seat, bet = space
        if self.kind == "past_post":
            self.rig.bets.command("add", space=f"{seat}:{bet}", values=str(LATE_CHIP))
            self._struck(number, seat=seat, bet=bet, added=LATE_CHIP)
        else:
            self.rig.bets.command("remove", space=f"{seat}:{bet}", n=1)
            self._struck(number, seat=seat, bet=bet, removed=1)
        self.rig.events.wait_for("irregularity", after=mark, round=number, kind=IRREGULARITY[self.kind])

    def before_confirm(self, number: int, mark: int) -> None:
        """With the spaces paid right: one paid wrong, confirm pressed and refused as a mispay,
        then corrected by the dealer or accepted by the supervisor."""
        status = self.rig.status()
        if self.kind != "mispay" or not status["money"]["payout_check"]:
            return
        owed = self.bettors.owed(status)
        spaces = sorted(self.bettors.stakes)
        if not spaces:
            return
        winners = sorted(key for key, amount in owed.items() if amount > 0)
        under = bool(winners) and self.choices.money.random() < 0.5
        seat, bet = self.choices.money.choice(winners if under else spaces)
        space = f"{seat}:{bet}"
        now = owed.get((seat, bet), 0)
        want = max(0, now - MISPAY_CHIP) if under else now + MISPAY_CHIP
        self.bettors.set_to(space, now, want)
        self.bettors.synced()
        answer = self.rig.press("confirm")
        if answer.get("ok"):
            raise RigError(f"confirm settled round {number} with {space} paid {want}, owed {now}")
        self.rig.events.wait_for("irregularity", after=mark, round=number, kind="mispay")
        direction = "under" if under else "over"
        fault = {"seat": seat, "bet": bet, "owed": now, "paid": want, "direction": direction}
        if self.choices.money.random() < ACCEPTS:
            self.rig.key(True)
            try:
                accepted = self.rig.send("accept_payouts")
            finally:
                self.rig.key(False)
            if not accepted.get("ok"):
                raise RigError(f"the supervisor's accept_payouts was refused: {accepted.get('message')}")
            self._struck(number, **fault, response="accepted")
            self.log.append(f"round {number}: supervisor: key, payouts accepted as they stand ({space} {direction})")
        else:
            self.bettors.set_to(space, want, now)
            self.bettors.synced()
            self._struck(number, **fault, response="corrected")
            self.log.append(f"round {number}: dealer: {space} corrected to {now}")

    def _struck(self, number: int, **fields: object) -> None:
        assert self.kind is not None
        self.struck = {"kind": self.kind, **fields}
        shown = " ".join(f"{k}={v}" for k, v in fields.items() if k != "response")
        self.log.append(f"round {number}: money fault injected: {self.kind} {shown}")
