"""The demo's players and dealer at the simulated bet sensor: real chips on real spaces.

At start the demo writes a chip registry (DENOMINATIONS × CHIPS_PER_VALUE chips of one set,
7-byte UIDs) beside the rig's config; the sensor's simulator takes its chips from that rack
(`tablectl sim bets --chips`), and the demo imports the same file into the daemon with
`tablectl chips import`, as a cage would. While betting is open each player lays chips on the
spaces of their seat (baccarat: a few random seats; Fu Bacc and Pai Gow: the live spots): a
line wager of a small random stake, and now and then a small side wager the rules allow
beside it. A Fu Bacc spot that plays adds its Play wager, twice the Ante (fubacc procedure 8).
At Fortune 7 the player-dealer lays the bank's stake on its seat's `bank` space (a California
table deals only with a bank: docs/money.md).

Before "confirm" the dealer makes each space hold what the table says it must (`back` of each
wager in the status's `money.payouts`, Pai Gow's Envy on the Fortune Bonus space; a losing or
refused wager's space empty; a foreign chip taken off); after the round every space is
cleared (the players pick up what stands there). Before "No more bets" and before "confirm"
the demo waits until the daemon reads the chips as they lie (`synced`).
"""
from __future__ import annotations

import random
import subprocess
from collections.abc import Sequence
from pathlib import Path

from games.baccarat.california.fees import schedule
from games.baccarat.california.stakes import BANK
from games.money import BadAmount, parse_amount
from games.registry import get_table_profile
from games.round import Game
from simulation.rig import Rig, RigError
from simulation.rig.events import WAIT
from simulation.rig.processes import python_module

DENOMINATIONS = (500, 100, 25, 5, 1)  # the demo's chips, in currency units (the demo's minor unit is 1)
CHIPS_PER_VALUE = 400  # enough for every space of seven seats, stakes and pays together
CHIP_SET = "demo"
UID_BASE = 0x0D00000000  # the demo's chips: 04 7B 0D ..., apart from the simulator's own issue
UID_PREFIX = "047b0d"
STAKES = (5, 10, 25, 50, 100)
SIDE_STAKES = (1, 2, 5)
BANK_STAKES = (200, 500, 1000)  # the player-dealer's bank
BANKED_SCHEDULE = 3  # a banked table's collection schedule: $5 minimum, $100 a spot, so the stakes above fit
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
        self.banked = get_table_profile(game.key).player_dealer is not None  # the player-dealer lays a bank
        minimum = int(schedule(BANKED_SCHEDULE).minimum) if self.banked else 0  # its limits bound every wager
        self.side_stakes = tuple(s for s in SIDE_STAKES if s >= minimum) or (minimum,)

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
                self._lay(seat, self.rng.choice(beside), self.rng.choice(self.side_stakes))
        if self.banked and player_dealer is not None:  # the bank's stake: not a wager of the game's
            amount = self.rng.choice(BANK_STAKES)
            self.rig.bets.command("add", space=f"{player_dealer}:{BANK}", values=",".join(map(str, chips_for(amount))))
        return dict(self.stakes)

    def decided(self, spot: int, decision: str | None) -> None:
        """A wager whose stake another fixes (Fu Bacc's Play: twice the Ante) when the spot plays."""
        for key, wager in self.game.wagers.items():
            rule = wager.stake_of
            if rule is not None and decision == key and (spot, rule.wager) in self.stakes:
                self._lay(spot, key, rule.multiple * self.stakes[(spot, rule.wager)])

    def owed(self, status: dict) -> dict[tuple[int, str], int]:
        """What each space must hold after settlement, from the status's `money.payouts` (a
        fixed bonus, Pai Gow's Envy, on the space of the wager that earns it); a space not
        named (a loss, a refused wager) must be empty."""
        bonus_space = {w.fixed_bonus.field: key for key, w in self.game.wagers.items() if w.fixed_bonus is not None}
        owed: dict[tuple[int, str], int] = {}
        for wager in (status.get("money") or {}).get("payouts") or []:
            key = (int(wager["seat"]), bonus_space.get(wager["bet"], wager["bet"]))
            try:
                back = parse_amount(str(wager["back"]))
            except BadAmount as error:
                raise RigError(f"payout of {key[0]}:{key[1]}: {error}") from None
            if back.denominator != 1:
                raise RigError(f"payout of {key[0]}:{key[1]}: {wager['back']} is not a whole chip of the demo's")
            owed[key] = owed.get(key, 0) + int(back)
        bank = (status.get("money") or {}).get("player_dealer") or {}
        if "back" in bank:  # what stands on the player-dealer's bank space once the bank has settled
            owed[(int(bank["seat"]), BANK)] = int(parse_amount(str(bank["back"])))
        return owed

    def pay(self, status: dict) -> list[str]:
        """Make every space hold what it is owed (`owed`): a foreign chip taken off, a loser
        collected, a winner paid; what the dealer did, a line each. Nothing when the table
        neither gives payouts nor checks them (the chips stay as they lie); with the payout
        check on and no payout (every wager refused), every space is emptied."""
        money = status.get("money") or {}
        if not money.get("payouts") and not money.get("payout_check"):
            return []
        owed = self.owed(status)
        done: list[str] = []
        for (seat, key), chips in self._spaces().items():
            space = f"{seat}:{key}"
            for chip in chips:
                if not self._ours(chip):
                    self.rig.bets.command("remove", space=space, uid=chip["uid"])
                    done.append(f"{space} foreign chip {chip['uid']} taken off")
            done += self.set_to(space, sum(c["value"] for c in chips if self._ours(c)), owed.get((seat, key), 0))
        return done

    def set_to(self, space: str, now: int, want: int) -> list[str]:
        """Make `space` (holding `now` of the house's chips) hold `want`; what was done."""
        if want == now:
            return []
        if want == 0:
            self.rig.bets.command("remove", space=space)
            return [f"{space} collected {now}"]
        if want > now:
            self.rig.bets.command("add", space=space, values=",".join(map(str, chips_for(want - now))))
            return [f"{space} paid {want - now}"]
        self.rig.bets.command("remove", space=space)  # less than stands: take it all and lay what stays
        self.rig.bets.command("place", space=space, values=",".join(map(str, chips_for(want))))
        return [f"{space} holds {want}"]

    def synced(self, timeout: float = WAIT) -> None:
        """Wait until the daemon reads every space as the sensor holds it (the same chips), so
        what the dealer presses next ("No more bets", confirm) meets the chips as they lie."""
        def same() -> bool:
            held = {space: sorted(c["uid"] for c in chips) for space, chips in self._spaces().items() if chips}
            read = {(s["seat"], s["bet"]): sorted([uid for uid, _ in s["chips"]] + list(s["foreign"]))
                    for s in self.rig.status()["money"]["spaces"] if s["chips"] or s["foreign"]}
            return held == read
        self.rig.wait_until(same, timeout, "the daemon to read the chips on the bet sensor's spaces", poll=0.01)

    @staticmethod
    def _ours(chip: dict) -> bool:
        return str(chip["uid"]).startswith(UID_PREFIX)

    def _spaces(self) -> dict[tuple[int, str], list[dict]]:
        """(seat, bet) -> the chips the sensor holds there now, bottom first."""
        state = self.rig.bets.state()
        return {(seat, name): state["spaces"].get(str(number), []) for number, seat, name in state["layout"]}

    def clear(self) -> None:
        """After the round: every chip off the layout."""
        for space in self.rig.bets.state().get("spaces", {}):
            self.rig.bets.command("remove", space=int(space))

    def _lay(self, seat: int, key: str, amount: int) -> None:
        self.rig.bets.command("add", space=f"{seat}:{key}", values=",".join(map(str, chips_for(amount))))
        self.stakes[(seat, key)] = self.stakes.get((seat, key), 0) + amount

    def _total(self, space: str) -> int:
        """What of the house's chips lies on `space` ("SEAT:WAGER") now, as the sensor holds it."""
        seat, _, key = space.partition(":")
        chips = self._spaces().get((int(seat), key))
        if chips is None:
            raise RigError(f"the bet sensor has no space {space}")
        return sum(chip["value"] for chip in chips if self._ours(chip))
