"""What the money HIL tests (tests/hil/test_hil_money_*.py) share: a rig with the bet sensor
whose chips come from the cage's rack (`tablectl sim bets --chips`), the same registry imported
into the daemon with `tablectl chips import`, the players' chips laid through the sensor
simulator's control socket, and the dealer paying each space what the settlement says."""
from __future__ import annotations

import subprocess
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

from games.money import parse_amount
from games.registry import get_game
from simulation.rig import Rig, RigError
from simulation.rig.dealer import plain_decision
from simulation.rig.events import WAIT
from simulation.rig.processes import python_module

TAG_UNIT = 100  # the sensor's tags carry cents: the daemon's default `money.chip_unit` of 0.01
DENOMINATIONS = (100, 25, 5, 1)  # the rack's chips, in currency
CHIPS_PER_VALUE = 300  # 1,201 chips: more than the table takes in one chips_import, so the CLI sends batches
HOUSE_UID = "047b"  # the simulator's own issue and the rack's; a foreign chip's UID starts 08
ODD_CHIP = "047b0e00ffff01"  # a chip of 50 in the rack whose registry row says 10: "value differs"
ODD_VALUE, ODD_REGISTERED = 50, 10
CARD_STATES = ("bets_closed", "dealing", "drawing")
SEATS = (1, 2, 3)  # the seats (spots at Fu Bacc and Pai Gow) that wager
# Each game's wagers: one of the baccarat games' player and banker lines wins or both push, so a
# round always owes something on some space unless every wager loses.
WAGERS = {
    "fortune6": {(1, "player"): 25, (2, "banker"): 10, (3, "banker"): 5},
    "fafa4": {(1, "player"): 25, (2, "banker"): 10, (3, "banker"): 5},
    "fortune7": {(1, "player"): 25, (2, "banker"): 10, (3, "banker"): 5},
    "fubacc": {(1, "ante"): 25, (2, "ante"): 10, (3, "ante"): 5},
    "paigow": {(1, "standard"): 25, (2, "standard"): 10, (3, "standard"): 5},
}


def rack_rows(odd_value: int) -> list[str]:
    rows = ["uid,value,set"]
    for n in range(len(DENOMINATIONS) * CHIPS_PER_VALUE):
        rows.append(f"047b0e{n:08x},{DENOMINATIONS[n % len(DENOMINATIONS)]},house")
    return rows + [f"{ODD_CHIP},{odd_value},house"]


def money_rig(game: str, seed: int) -> Rig:
    """A started rig with the bet sensor on the rack's chips and the registry imported by the CLI."""
    rig = Rig(game, seed=seed, bets=True)
    rack, registry = rig.dir / "rack.csv", rig.dir / "registry.csv"
    rack.write_text("\n".join(rack_rows(ODD_VALUE)) + "\n")
    registry.write_text("\n".join(rack_rows(ODD_REGISTERED)) + "\n")
    rig.sim_args["bets"] = ["--chips", str(rack), "--minor-unit", "0.01"]  # tags in cents
    rig.start()
    try:
        imported = chips_import(rig, registry)
        assert f"{len(DENOMINATIONS) * CHIPS_PER_VALUE + 1}" in imported, imported
    except BaseException:
        rig.stop()
        raise
    return rig


def chips_import(rig: Rig, path: Path) -> str:
    """`tablectl chips import FILE.csv --socket ...`, as the cage does; what it printed."""
    done = subprocess.run(python_module("cli", "chips", "import", str(path), "--socket", rig.socket_path),
                          capture_output=True, text=True, timeout=WAIT * 3, check=False)
    if done.returncode != 0:
        raise RigError(f"tablectl chips import exited {done.returncode}: {done.stderr}")
    return done.stdout


def tags_for(amount: int) -> list[int]:
    """`amount` (currency) in the fewest of the rack's chips, largest first, as tag values."""
    tags: list[int] = []
    for value in DENOMINATIONS:
        count, amount = divmod(amount, value)
        tags += [value * TAG_UNIT] * count
    return tags


def space_name(seat: int, bet: str) -> str:
    return f"{seat}:{bet}"


def on_sensor(rig: Rig) -> dict[tuple[int, str], list[dict]]:
    """What lies on each space the simulator has chips on: (seat, bet) -> chips, bottom first."""
    state = rig.bets.state()
    names = {space: (seat, bet) for space, seat, bet in state["layout"]}
    return {names[int(space)]: chips for space, chips in state["spaces"].items()}


def amount_on(rig: Rig, seat: int, bet: str) -> Fraction:
    """The house's chips on the space (a foreign chip counts for nothing, as at the table)."""
    return sum((Fraction(chip["value"], TAG_UNIT) for chip in on_sensor(rig).get((seat, bet), [])
                if chip["uid"].startswith(HOUSE_UID)), Fraction(0))


def space_id(rig: Rig, seat: int, bet: str) -> int:
    return next(space for space, s, b in rig.bets.state()["layout"] if (s, b) == (seat, bet))


def set_to(rig: Rig, seat: int, bet: str, amount: int, wait: bool = True) -> None:
    """Make the space hold `amount` (currency) of the rack's chips: chips added, or the space
    cleared and laid again; with `wait`, until the daemon has read the space so."""
    now = amount_on(rig, seat, bet)
    if now == amount:
        return
    name, mark = space_name(seat, bet), rig.events.mark()
    if amount > now and (amount - now).denominator == 1:
        rig.bets.command("add", space=name, values=",".join(map(str, tags_for(int(amount - now)))))
    else:
        rig.bets.command("remove", space=name)
        if amount:
            rig.bets.command("place", space=name, values=",".join(map(str, tags_for(amount))))
    if wait:
        rig.events.wait_for("space", after=mark, seat=seat, bet=bet,
                            predicate=lambda e: parse_amount(e["amount"]) == amount)


def clear_table(rig: Rig) -> None:
    """The players pick up what stands on every space."""
    for (seat, bet) in on_sensor(rig):
        set_to(rig, seat, bet, 0)


def place_wagers(rig: Rig, wagers: dict[tuple[int, str], int]) -> None:
    for (seat, bet), amount in wagers.items():
        set_to(rig, seat, bet, amount)


def open_betting(rig: Rig) -> int:
    """A round open for bets, every spot that wagers live; its number."""
    spots = list(SEATS) if get_game(rig.game).uses_spots else None
    return rig.open_round(spots=spots, close_bets=False)


def deal_to_result(rig: Rig) -> dict:
    """Deal the round in progress to its result (not confirmed); a Fu Bacc spot that plays puts
    its Play, twice the Ante, on the Play space first (fubacc procedure 8). Returns the round's
    `result` event; RigError when the round voids or is held."""
    number = rig.status()["round"]["number"]
    while (status := rig.status())["state"] != "result":
        state = status["state"]
        if state in CARD_STATES:
            rig.draw(1)
        elif state == "awaiting_decisions":
            pending = status["pending_decision"]
            choice = plain_decision(pending["spot"], pending["options"])
            if choice == "play":
                ante = amount_on(rig, pending["spot"], "ante")
                set_to(rig, pending["spot"], "play", int(2 * ante))
            reply = rig.send("decide", spot=pending["spot"], **({"decision": choice} if choice else {}))
            assert reply["ok"], reply
        else:
            raise RigError(f"round {number}: the table is {state}, not dealing to a result")
    return rig.events.wait_for("result", round=number)


def settlement(rig: Rig, number: int) -> dict:
    (record,) = [r.payload for r in rig.records() if r.kind == "settlement" and r.round == number]
    return record


def owed(money: dict) -> dict[tuple[int, str], Fraction]:
    """What each wagered space must hold after settlement (Pai Gow's Envy on the Fortune Bonus space)."""
    must: dict[tuple[int, str], Fraction] = {}
    for w in money["wagers"]:
        key = (w["seat"], "fortune_bonus" if w["bet"] == "envy" else w["bet"])
        must[key] = must.get(key, Fraction(0)) + parse_amount(w["back"])
    return must


def pay_out(rig: Rig, money: dict, spaces: Iterable[tuple[int, str]] = ()) -> dict[tuple[int, str], Fraction]:
    """The dealer pays every space what the settlement says (and empties every other space with
    chips, e.g. a refused wager's); returns what each space must hold."""
    must = owed(money)
    for key in set(on_sensor(rig)) | set(must) | set(spaces):
        target = must.get(key, Fraction(0))
        assert target.denominator == 1, f"{key}: {target} is not whole: the rack has no such chip"
        set_to(rig, key[0], key[1], int(target))
    return must


def mispay_lamp(game: str, seat: int, bet: str) -> str:
    """The lamp a mispaid space blinks: its own at a spot game, the error lamp at a baccarat table."""
    return f"spot{seat}_{bet}" if get_game(game).uses_spots else "error"


def irregularities(rig: Rig, kind: str, number: int) -> list[dict]:
    return [r.payload for r in rig.records() if r.kind == "irregularity" and r.round == number
            and r.payload.get("kind") == kind]
