"""The demo's players and dealer at the simulated bet sensor: real chips on real spaces.

At start the demo writes a chip registry (DENOMINATIONS × CHIPS_PER_VALUE chips of one set,
7-byte UIDs) beside the rig's config; the sensor's simulator takes its chips from that rack
(`tablectl sim bets --chips`), and the demo imports the same file into the daemon with
`tablectl chips import`, as a cage would. While betting is open each player lays chips on the
spaces of their seat (baccarat: a few random seats; Fu Bacc and Pai Gow: the live spots): a
line wager of a small random stake, and now and then a small side wager the rules allow
beside it. A Fu Bacc spot that plays adds its Play wager, twice the Ante (fubacc procedure 8).

Before "confirm" the dealer makes each space hold what the table says it must (`back` of each
wager in the status's `money.payouts`, when the table gives them); after the round every
space is cleared (the players pick up what stands there).
"""
from __future__ import annotations

import random
import subprocess
from collections.abc import Sequence
from pathlib import Path

from games.money import BadAmount, parse_amount
from games.round import Game
from simulation.rig import Rig, RigError
from simulation.rig.processes import python_module

DENOMINATIONS = (500, 100, 25, 5, 1)  # the demo's chips, in currency units (the demo's minor unit is 1)
CHIPS_PER_VALUE = 400  # enough for every space of seven seats, stakes and pays together
CHIP_SET = "demo"
UID_BASE = 0x0D00000000  # the demo's chips: 04 7B 0D ..., apart from the simulator's own issue
STAKES = (5, 10, 25, 50, 100)
SIDE_STAKES = (1, 2, 5)
SIDE_WAGER_CHANCE = 0.3
MAX_BACCARAT_PLAYERS = 4
IMPORT_WAIT = 60.0  # a guard against a hang, not a measure


def write_registry(path: Path) -> int:
    """The demo's chip registry as `tablectl chips import` reads it; the number of chips."""
    rows = ["uid,value,set"]
    for n in range(len(DENOMINATIONS) * CHIPS_PER_VALUE):
        value = DENOMINATIONS[n % len(DENOMINATIONS)]
        rows.append(f"047b{UID_BASE + n:010x},{value},{CHIP_SET}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return len(rows) - 1


def chips_for(amount: int) -> list[int]:
    """`amount` in the fewest of the demo's chips, largest first."""
    values: list[int] = []
    for value in DENOMINATIONS:
        count, amount = divmod(amount, value)
        values += [value] * count
    return values


def import_registry(rig: Rig, path: Path) -> str:
    """`tablectl chips import` of the registry into the rig's daemon; what it said."""
    command = python_module("cli", "chips", "import", str(path), "--socket", rig.socket_path)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=IMPORT_WAIT, check=False)
    except subprocess.TimeoutExpired:
        return f"chip registry not imported: no answer within {IMPORT_WAIT:g} s"
    if done.returncode == 0:
        return f"chip registry: {done.stdout.strip()}"
    return f"chip registry not imported: {done.stderr.strip().removeprefix('tablectl chips: ')}"


class Bettors:
    def __init__(self, rig: Rig, game: Game, seed: int) -> None:
        self.rig, self.game = rig, game
        self.rng = random.Random(f"{seed}:{game.key}:chips")
        wagers = game.wagers
        self.lines = [key for key, w in wagers.items() if w.needs is None and w.stake_of is None]
        self.main = self.lines[:1] if game.uses_spots else self.lines[:2]  # ante / standard; player or banker
        self.stakes: dict[tuple[int, str], int] = {}  # this round's chips, by (seat, wager)

    def place(self, spots: Sequence[int] | None, player_dealer: int | None = None) -> dict[tuple[int, str], int]:
        """The players' chips while betting is open; what each space holds."""
        self.stakes = {}
        if spots is not None:
            seats = list(spots)
        else:
            count = self.rng.randint(1, MAX_BACCARAT_PLAYERS)
            seats = sorted(self.rng.sample([s for s in range(1, 8) if s != player_dealer], count))
        for seat in seats:
            main = self.rng.choice(self.main)
            self._lay(seat, main, self.rng.choice(STAKES))
            beside = [key for key, w in self.game.wagers.items()
                      if key not in self.main and w.stake_of is None and (w.needs is None or main in w.needs.any_of)]
            if beside and self.rng.random() < SIDE_WAGER_CHANCE:
                self._lay(seat, self.rng.choice(beside), self.rng.choice(SIDE_STAKES))
        return dict(self.stakes)

    def decided(self, spot: int, decision: str | None) -> None:
        """A wager whose stake another fixes (Fu Bacc's Play: twice the Ante) when the spot plays."""
        for key, wager in self.game.wagers.items():
            rule = wager.stake_of
            if rule is not None and decision == key and (spot, rule.wager) in self.stakes:
                self._lay(spot, key, rule.multiple * self.stakes[(spot, rule.wager)])

    def pay(self, status: dict) -> list[str]:
        """Make every space hold its `back` (the status's money.payouts, as the contract gives
        them); what the dealer did, a line each. Nothing without payouts."""
        done: list[str] = []
        for wager in (status.get("money") or {}).get("payouts") or []:
            space = f"{wager['seat']}:{wager['bet']}"
            try:
                back = parse_amount(str(wager["back"]))
            except BadAmount as error:
                raise RigError(f"payout of {space}: {error}") from None
            if back.denominator != 1:
                raise RigError(f"payout of {space}: {wager['back']} is not a whole chip of the demo's")
            now = self._total(space)
            if back == now:
                continue
            if back == 0:
                self.rig.bets.command("remove", space=space)
                done.append(f"{space} collected {now}")
            elif back > now:
                self.rig.bets.command("add", space=space, values=",".join(map(str, chips_for(int(back) - now))))
                done.append(f"{space} paid {int(back) - now}")
            else:  # less than the stake stands: take it all and lay what stays
                self.rig.bets.command("remove", space=space)
                self.rig.bets.command("place", space=space, values=",".join(map(str, chips_for(int(back)))))
                done.append(f"{space} holds {back}")
        return done

    def clear(self) -> None:
        """After the round: every chip off the layout."""
        for space in self.rig.bets.state().get("spaces", {}):
            self.rig.bets.command("remove", space=int(space))

    def _lay(self, seat: int, key: str, amount: int) -> None:
        self.rig.bets.command("add", space=f"{seat}:{key}", values=",".join(map(str, chips_for(amount))))
        self.stakes[(seat, key)] = self.stakes.get((seat, key), 0) + amount

    def _total(self, space: str) -> int:
        """What lies on `space` ("SEAT:WAGER") now, as the sensor reads it."""
        seat, _, key = space.partition(":")
        state = self.rig.bets.state()
        for number, seat_of, name in state["layout"]:
            if (seat_of, name) == (int(seat), key):
                return sum(chip["value"] for chip in state["spaces"].get(str(number), []))
        raise RigError(f"the bet sensor has no space {space}")
