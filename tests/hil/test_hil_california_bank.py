"""Fortune 7's California money end to end on the real `tablectl run` (rulings 25-26, docs/money.md):
the simulated shoe, panel, lamp board and bet sensor on ptys, a collection schedule configured,
the cage's chip registry imported with `tablectl chips import`, every stake laid as the
registry's chips on the sensor (the player-dealer's on its seat's `bank` space), and the cards
scripted so each hand is known. The dealer pays each space as the settlement says before
"confirm", and the payout check reads the sensor. One daemon serves the module: each test starts
from whoever holds the position then, so the cases follow the rotation as it goes."""
from __future__ import annotations

import subprocess
from fractions import Fraction

import pytest
from hil_matrix import script_next_round, supervisor

from simulation.rig import Rig
from simulation.rig.processes import python_module

pytestmark = pytest.mark.hil
WAIT = 60.0  # a guard against a hang, not a measure
OPTION = 3  # $5-$100 a spot; $1 a space from each bettor, $2 a hand from the player-dealer
CHIP_UNIT = Fraction(1, 100)  # [money] chip_unit's default: a tag of 2500 is 25
DENOMINATIONS = (100, 25, 5, 1)  # the cage's chips, in currency
CHIPS_PER_VALUE = 60
PLAYER_WINS = ["As", "Kh", "8h", "Ks"]  # dealt P B P B: Player 9, Banker 0, naturals
BANKER_WINS = ["Kh", "As", "Ks", "8h"]  # Player 0, Banker 9


def registry_rows() -> list[str]:
    return ["uid,value,set"] + [f"047b0c{n:08x},{DENOMINATIONS[n % len(DENOMINATIONS)]},cage"
                                for n in range(len(DENOMINATIONS) * CHIPS_PER_VALUE)]


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    rack = tmp_path_factory.mktemp("cage") / "chips.csv"
    rack.write_text("\n".join(registry_rows()) + "\n")
    table = Rig("fortune7", seed=21, bets=True, config={"fortune7": {"collection_schedule": OPTION}},
                sim_args={"bets": ["--chips", str(rack), "--minor-unit", str(float(CHIP_UNIT))]})
    try:
        table.start()
        imported = subprocess.run(python_module("cli", "chips", "import", str(rack), "--socket", table.socket_path),
                                  capture_output=True, text=True, timeout=WAIT, check=False)
        assert imported.returncode == 0, imported.stderr
        assert table.status()["money"]["registry"]["in_service"] == len(registry_rows()) - 1
        yield table
    finally:
        table.stop()
    children = [sim.child for sim in table.sims.values()] + [table.started_daemon.child]
    assert not [child.pid for child in children if child.running]


# ---------------------------------------------------------------- the players and the dealer at the sensor
def tags(amount: Fraction) -> str:
    """`amount` (currency) in the fewest of the cage's chips, as the sensor's tag values."""
    values: list[int] = []
    left = int(amount)
    assert left == amount
    for value in DENOMINATIONS:
        count, left = divmod(left, value)
        values += [int(value / CHIP_UNIT)] * count
    return ",".join(map(str, values))


def on_space(rig: Rig, space: str) -> Fraction:
    """What lies on "SEAT:NAME" now, in currency, as the sensor's simulator holds it."""
    state = rig.bets.state()
    (number,) = [n for n, seat, name in state["layout"] if f"{seat}:{name}" == space]
    return sum((chip["value"] * CHIP_UNIT for chip in state["spaces"].get(str(number), [])), Fraction(0))


def reads(rig: Rig, space: str) -> str | None:
    """What the daemon reads on "SEAT:NAME" now (its status), or None before a reading."""
    seat, _, bet = space.partition(":")
    return next((s["amount"] for s in rig.status()["money"]["spaces"] if (s["seat"], s["bet"]) == (int(seat), bet)), None)


def lay(rig: Rig, space: str, amount: int) -> None:
    """A player's chips on a space, then wait until the daemon has heard the space read so."""
    mark = rig.events.mark()
    reply = rig.bets.command("add", space=space, values=tags(Fraction(amount)))
    rig.events.wait_for("device", after=mark, device="bets", space=reply["space"], total=reply["total"], timeout=WAIT)


def make_hold(rig: Rig, space: str, amount: Fraction) -> None:
    """The dealer makes `space` hold `amount`: collects, pays on top, or changes the stake."""
    now = on_space(rig, space)
    if now == amount:
        return
    mark = rig.events.mark()
    if amount > now:  # a win paid on top of the stake
        reply = rig.bets.command("add", space=space, values=tags(amount - now))
    else:  # collected, or less than stands: take it all, lay what stays
        reply = rig.bets.command("remove", space=space)
        if amount:
            reply = rig.bets.command("place", space=space, values=tags(amount))
    rig.events.wait_for("device", after=mark, device="bets", space=reply["space"], total=reply["total"], timeout=WAIT)


def pay(rig: Rig, money: dict) -> None:
    """Every wager's space to its `back`, the bank's space to the player-dealer's `back`, and
    every refused wager's chips given back (its space must be empty)."""
    for refused in one(rig, "wagers", money["round"])["refused"]:
        make_hold(rig, f"{refused['seat']}:{refused['bet']}", Fraction(0))
    for wager in money["wagers"]:
        make_hold(rig, f"{wager['seat']}:{wager['bet']}", Fraction(wager["back"]))
    pd = money["player_dealer"]
    make_hold(rig, f"{pd['seat']}:bank", Fraction(pd["back"]))


def clear(rig: Rig) -> None:
    """After the round the players pick up what stands on their spaces."""
    for space in list(rig.bets.state()["spaces"]):
        mark = rig.events.mark()
        rig.bets.command("remove", space=int(space))
        rig.events.wait_for("device", after=mark, device="bets", space=int(space), total=0, timeout=WAIT)


def clockwise(holder: int) -> list[int]:
    """The other seats from the player-dealer's left (seat holder+1) round the table."""
    return [(holder + n - 1) % 7 + 1 for n in range(1, 7)]


def open_with(rig: Rig, cards: list[str], chips: dict[str, int]) -> int:
    """A new scripted shoe whose first hand is `cards`, "Place your bets", the `chips` laid
    ("SEAT:NAME" -> amount), "No more bets"; the round's number."""
    script_next_round(rig, cards)
    number = rig.open_round(close_bets=False)
    for space, amount in chips.items():
        lay(rig, space, amount)
    answer = rig.press("no_more_bets")
    assert answer["ok"], answer
    return number


def one(rig: Rig, kind: str, number: int) -> dict:
    (payload,) = [r.payload for r in rig.records() if r.kind == kind and r.round == number]
    return payload


def to_result(rig: Rig, number: int) -> dict:
    while rig.status()["state"] != "result":
        rig.draw(1)
    return one(rig, "settlement", number)


def rows(money: dict) -> list[tuple]:
    return [(w["seat"], w["bet"], w["stake"], w["net"], w["back"], w["covered"], w["returned"], w["fee"])
            for w in money["wagers"]]


def conserved(money: dict) -> None:
    bettors = sum(Fraction(w["net"]) - Fraction(w["fee"]) for w in money["wagers"])
    pd = money["player_dealer"]
    assert bettors + Fraction(pd["net"]) - Fraction(pd["fee"]) + Fraction(money["house_net"]) == 0


def confirm_paid(rig: Rig, money: dict) -> None:
    """The dealer pays per the settlement; confirm's payout check finds every space right."""
    pay(rig, money)
    answer = rig.press("confirm")
    assert answer["ok"], (answer["message"], rig.bets.state()["spaces"], money)
    assert rig.status()["state"] == "settled"
    clear(rig)


def holder(rig: Rig) -> int:
    seat = rig.status()["player_dealer"]["seat"]
    assert seat is not None
    return int(seat)


# ---------------------------------------------------------------- the cases
def test_each_seat_banks_two_hands_with_money_then_the_position_moves(rig):
    first = holder(rig)
    assert first == 1 and rig.status()["money"]["collection_schedule"] == OPTION
    banked, nets = [], []
    for cards in (PLAYER_WINS, BANKER_WINS, PLAYER_WINS):
        bank = holder(rig)
        left, across = clockwise(bank)[0], clockwise(bank)[2]
        number = open_with(rig, cards, {f"{bank}:bank": 100, f"{left}:banker": 20, f"{across}:player": 10})
        frozen = one(rig, "wagers", number)
        assert frozen["source"] == "sensor", (frozen, rig.status()["money"], rig.status()["daemon"]["devices"]["bets"])
        assert frozen["player_dealer"]["stake"] == "100"
        assert sum(tag for _, tag in frozen["player_dealer"]["chips"]) * CHIP_UNIT == 100
        assert (frozen["fees"]["option"], frozen["fees"]["total"]) == (OPTION, "4")  # $1 x 2 spaces, $2 the bank's
        money = to_result(rig, number)
        assert money["house_net"] == "4" and money["bank"]["exhausted_at"] is None
        conserved(money)
        banked.append(money["player_dealer"]["seat"])
        nets.append(money["player_dealer"]["net"])
        confirm_paid(rig, money)
    assert banked == [1, 1, 2]
    assert nets == ["10", "-10", "10"]  # Player wins: +20 -10; Banker wins: -20 +10
    events = [r.payload["event"] for r in rig.records() if r.kind == "player_dealer"]
    assert events == ["hand_played", "rotated", "hand_played"]
    assert rig.status()["player_dealer"]["seat"] == 2


def test_a_bank_exhausted_mid_settlement_returns_every_later_wager_untouched(rig):
    bank = holder(rig)
    a, b, c = clockwise(bank)[:3]
    number = open_with(rig, PLAYER_WINS, {f"{bank}:bank": 100, f"{a}:player": 100, f"{b}:player": 25,
                                          f"{c}:banker": 50, f"{c}:one_up": 5})
    money = to_result(rig, number)
    assert rows(money) == [(a, "player", "100", "100", "200", "100", "0", "1"),  # pays the bank down to 0
                           (b, "player", "25", "0", "25", "0", "25", "1"),  # a winner returned untouched
                           (c, "banker", "50", "0", "50", "0", "50", "1"),  # a loser returned untouched
                           (c, "one_up", "5", "0", "5", "0", "5", "1")]
    assert money["bank"] == {"start": "100", "after": ["0", "0", "0", "0"], "end": "0", "exhausted_at": 0}
    assert money["player_dealer"] == {"seat": bank, "stake": "100", "net": "-100", "fee": "2", "back": "0"}
    conserved(money)
    assert rig.status()["money"]["bank"] == money["bank"]
    confirm_paid(rig, money)


def test_a_bank_is_capped_at_twice_its_stake(rig):
    bank = holder(rig)
    a, b, c = clockwise(bank)[:3]
    # c lays a bank though it does not hold the position: refused, its chips given back
    number = open_with(rig, PLAYER_WINS, {f"{bank}:bank": 50, f"{a}:banker": 100, f"{b}:banker": 100, f"{c}:bank": 30})
    (refused,) = one(rig, "wagers", number)["refused"]
    assert (refused["seat"], refused["bet"], refused["clause"]) == (c, "bank", "fortune7 Type of Game")
    mark = rig.events.mark()
    lay(rig, f"{bank}:bank", 25)  # a chip added to the bank after "No more bets": the stake of record stands
    late = rig.events.wait_for("irregularity", after=mark, kind="late_wager", timeout=WAIT)
    assert (late["seat"], late["bet"], late["frozen"], late["now"]) == (bank, "bank", "50", "75")
    money = to_result(rig, number)
    # a's 100 is collected only up to 2S = 100 (50 of it); b's is returned whole
    assert rows(money) == [(a, "banker", "100", "-50", "50", "50", "50", "1"),
                           (b, "banker", "100", "0", "100", "0", "100", "1")]
    assert money["bank"] == {"start": "50", "after": ["100", "100"], "end": "100", "exhausted_at": None}
    assert money["player_dealer"] == {"seat": bank, "stake": "50", "net": "50", "fee": "2", "back": "100"}
    conserved(money)
    confirm_paid(rig, money)


def test_a_void_returns_the_fees_the_wagers_and_the_bank(rig):
    bank = holder(rig)
    a = clockwise(bank)[0]
    # the holder's own wager is refused: it banks, it does not wager
    number = open_with(rig, PLAYER_WINS, {f"{bank}:bank": 100, f"{a}:player": 50, f"{a}:one_up": 5, f"{bank}:tie": 10})
    (own,) = one(rig, "wagers", number)["refused"]
    assert (own["seat"], own["bet"], own["clause"]) == (bank, "tie", "fortune7 Type of Game")
    taken = one(rig, "wagers", number)["fees"]
    assert taken["total"] == "4"
    rig.draw(1)
    answer = supervisor(rig, "void", kind="order_altered", reason="the dealer turned a card over")
    assert answer["ok"], answer
    money = one(rig, "settlement", number)
    assert money["void"] is True and money["house_net"] == "0" and money["fees_returned"] == taken
    assert rows(money) == [(a, "player", "50", "0", "50", "0", "50", "0"), (a, "one_up", "5", "0", "5", "0", "5", "0")]
    assert money["player_dealer"] == {"seat": bank, "stake": "100", "net": "0", "fee": "0", "back": "100"}
    assert one(rig, "void", number)["kind"] == "order_altered"
    assert holder(rig) == bank  # a void hand is not one of the holder's two
    clear(rig)


def test_a_holder_with_no_stake_on_its_bank_space_passes_the_position(rig):
    bank = holder(rig)
    skipped, taker, bettor = clockwise(bank)[:3]
    before = len([r for r in rig.records() if r.kind == "player_dealer"])
    # neither the holder nor the seat at its left lays a bank: the next seat with one takes it
    number = open_with(rig, BANKER_WINS, {f"{taker}:bank": 200, f"{bettor}:banker": 50, f"{skipped}:player": 20})
    (passed,) = [r.payload for r in rig.records() if r.kind == "player_dealer"][before:]
    assert (passed["event"], passed["passed"], passed["seat"], passed["hands_left"]) == ("passed", bank, taker, 2)
    assert one(rig, "wagers", number)["player_dealer"]["seat"] == taker
    rig.wait_lamps({f"player_dealer_{taker}": "on", f"player_dealer_{bank}": "off"}, timeout=WAIT)
    money = to_result(rig, number)
    assert money["player_dealer"]["seat"] == taker and money["player_dealer"]["net"] == "-30"  # -50 +20
    conserved(money)
    confirm_paid(rig, money)
    assert holder(rig) == taker


def test_one_underpaid_space_is_a_mispay_until_the_dealer_pays_it_right(rig):
    bank = holder(rig)
    a, b = clockwise(bank)[:2]
    number = open_with(rig, PLAYER_WINS, {f"{bank}:bank": 100, f"{a}:player": 40, f"{b}:banker": 30})
    money = to_result(rig, number)
    assert rows(money)[0] == (a, "player", "40", "40", "80", "40", "0", "1")
    pay(rig, money)
    mark = rig.events.mark()
    make_hold(rig, f"{a}:player", Fraction(75))  # the dealer pays 35 of the 40
    answer = rig.press("confirm")
    assert not answer["ok"] and f"seat {a} player holds 75, should hold 80" in answer["message"], answer
    (mispay,) = [r.payload for r in rig.records() if r.kind == "irregularity" and r.round == number
                 and r.payload["kind"] == "mispay"]
    assert (mispay["seat"], mispay["bet"], mispay["expected"], mispay["found"], mispay["direction"]) == \
        (a, "player", "80", "75", "under")
    assert rig.status()["state"] == "result"
    rig.wait_lamps({"error": "fast"}, timeout=WAIT)  # the baccarat games' betting-area lamps are shared
    shown = subprocess.run(python_module("cli", "status", "--socket", rig.socket_path),
                           capture_output=True, text=True, timeout=WAIT, check=True).stdout
    assert f"seat {a} player: holds 75, should hold 80 (under)" in shown, shown
    assert f"seat {bank} banks 100 · fees 4 (schedule {OPTION}) · net -10, its space back 90" in shown, shown
    make_hold(rig, f"{a}:player", Fraction(80))
    rig.events.wait_for("mispay_cleared", after=mark, timeout=WAIT)
    confirm_paid(rig, money)
    assert rig.verify().ok



def test_no_stake_on_any_bank_space_deals_no_hand_until_one_is_laid(rig):
    bank = holder(rig)
    a = clockwise(bank)[0]
    script_next_round(rig, BANKER_WINS)
    number = rig.open_round(close_bets=False)
    lay(rig, f"{a}:banker", 20)
    refused = rig.press("no_more_bets")
    assert not refused["ok"] and "no player-dealer stake" in refused["message"], refused
    assert "fortune7 Type of Game" in refused["message"]
    assert rig.status()["state"] == "betting" and holder(rig) == bank
    assert not [r for r in rig.records() if r.kind == "wagers" and r.round == number]
    lay(rig, f"{bank}:bank", 100)  # the holder banks after all
    assert rig.press("no_more_bets")["ok"]
    money = to_result(rig, number)
    assert (money["player_dealer"]["seat"], money["player_dealer"]["net"]) == (bank, "-20")
    confirm_paid(rig, money)


def test_a_foreign_chip_on_the_holders_bank_is_no_stake_and_the_position_passes(rig):
    bank = holder(rig)
    a, b = clockwise(bank)[:2]
    script_next_round(rig, PLAYER_WINS)
    number = rig.open_round(close_bets=False)
    lay(rig, f"{bank}:bank", 100)
    mark = rig.events.mark()
    rig.bets.command("foreign", space=f"{bank}:bank", value=2500)
    foreign = rig.events.wait_for("irregularity", after=mark, kind="foreign_chip", timeout=WAIT)
    assert (foreign["seat"], foreign["bet"]) == (bank, "bank")
    lay(rig, f"{a}:bank", 150)
    lay(rig, f"{b}:player", 20)
    assert rig.press("no_more_bets")["ok"]
    frozen = one(rig, "wagers", number)
    assert frozen["player_dealer"]["seat"] == a
    assert {(r["seat"], r["bet"]) for r in frozen["refused"]} == {(bank, "bank")}
    passed = [r.payload for r in rig.records() if r.kind == "player_dealer"][-1]
    assert (passed["event"], passed["passed"], passed["seat"]) == ("passed", bank, a)
    money = to_result(rig, number)
    assert rows(money) == [(b, "player", "20", "20", "40", "20", "0", "1")]
    assert money["player_dealer"] == {"seat": a, "stake": "150", "net": "-20", "fee": "2", "back": "130"}
    confirm_paid(rig, money)


def test_a_daemon_killed_after_the_result_checks_the_bank_space_when_the_sensor_is_back(rig):
    bank = holder(rig)
    a, b = clockwise(bank)[:2]
    number = open_with(rig, BANKER_WINS, {f"{bank}:bank": 100, f"{a}:player": 60, f"{b}:banker": 50})
    mark = rig.events.mark()
    rig.bets.command("remove", space=f"{a}:player", n=1)  # a chip taken back after "No more bets": the wager stands
    removed = rig.events.wait_for("irregularity", after=mark, kind="wager_removed", timeout=WAIT)
    assert (removed["seat"], removed["frozen"], removed["now"]) == (a, "60", "55")
    money = to_result(rig, number)
    assert rows(money) == [(a, "player", "60", "-60", "0", "60", "0", "1"), (b, "banker", "50", "50", "100", "50", "0", "1")]
    assert money["player_dealer"]["back"] == "110"
    before = rig.records()
    assert rig.kill_daemon() == -9
    rig.bets.command("remove", space=f"{a}:player")  # the dealer pays while the daemon is down
    rig.bets.command("add", space=f"{b}:banker", values=tags(Fraction(50)))  # the bank's space left at 100, not 110
    rig.start_daemon()
    assert rig.records()[:len(before)] == before
    answer = rig.press("confirm")  # at once: the sensor's session may not have read every space yet
    assert answer["ok"] is False and ("not read yet since its layout" in answer["message"]
                                      or "which is not heard" in answer["message"]
                                      or answer["message"].endswith(f"seat {bank} bank holds 100, should hold 110")), answer
    rig.wait_until(lambda: (reads(rig, f"{a}:player"), reads(rig, f"{b}:banker"), reads(rig, f"{bank}:bank"))
                   == ("0", "100", "100"), WAIT, "the sensor's session to read the spaces")
    answer = rig.press("confirm")  # only the bank's space is wrong
    assert not answer["ok"] and answer["message"].split("): ", 1)[1] == f"seat {bank} bank holds 100, should hold 110", \
        answer
    confirm_paid(rig, money)
    assert [r.round for r in rig.records() if r.kind == "settlement"].count(number) == 1
    mispays = [r.payload for r in rig.records() if r.kind == "irregularity" and r.round == number
               and r.payload["kind"] == "mispay"]
    assert [(m["bet"], m["found"]) for m in mispays] == [("bank", "100")]  # no space unread was called mispaid
    assert rig.verify().ok


def test_a_daemon_killed_mid_deal_settles_the_frozen_bank_and_fees_after_the_restart(rig):
    bank = holder(rig)
    a, b = clockwise(bank)[:2]
    number = open_with(rig, PLAYER_WINS, {f"{bank}:bank": 80, f"{a}:player": 100, f"{b}:tie": 5})
    frozen = one(rig, "wagers", number)
    rig.draw(2)
    assert rig.kill_daemon() == -9
    rig.bets.command("add", space=f"{bank}:bank", values=tags(Fraction(20)))  # while the daemon is down
    rig.bets.command("add", space=f"{b}:tie", values=tags(Fraction(5)))
    rig.start_daemon()
    def late() -> dict:
        return {(r.payload["seat"], r.payload["bet"]): r.payload for r in rig.records()
                if r.kind == "irregularity" and r.round == number and r.payload["kind"] == "late_wager"}

    rig.wait_until(lambda: len(late()) == 2, WAIT, "the chips added while the daemon was down to be read")
    # the chips added while the daemon was down were read at the sensor's next session: late, refused
    assert (late()[bank, "bank"]["frozen"], late()[bank, "bank"]["now"]) == ("80", "100")
    assert (late()[b, "tie"]["frozen"], late()[b, "tie"]["now"]) == ("5", "10")
    assert rig.status()["money"]["fees"] == frozen["fees"] and rig.status()["money"]["player_dealer"]["stake"] == "80"
    money = to_result(rig, number)
    assert rows(money) == [(a, "player", "100", "80", "180", "100", "0", "1"),  # the last winner paid partly
                           (b, "tie", "5", "0", "5", "0", "5", "1")]
    assert money["bank"]["exhausted_at"] == 0
    assert money["player_dealer"] == {"seat": bank, "stake": "80", "net": "-80", "fee": "2", "back": "0"}
    kinds = [r.payload["kind"] for r in rig.records() if r.kind == "irregularity" and r.round == number
             and r.payload["clause"] != "local ruling L4"]
    assert sorted(kinds) == ["late_wager", "late_wager"]  # once each
    confirm_paid(rig, money)
    assert [r.round for r in rig.records() if r.kind == "wagers"].count(number) == 1


def test_the_supervisor_accepts_a_mispaid_bank_space_and_the_hand_counts(rig):
    bank = holder(rig)
    a = clockwise(bank)[0]
    hands_left = rig.status()["player_dealer"]["hands_left"]
    number = open_with(rig, BANKER_WINS, {f"{bank}:bank": 60, f"{a}:banker": 40})
    money = to_result(rig, number)
    assert money["player_dealer"]["back"] == "20"
    pay(rig, money)
    make_hold(rig, f"{bank}:bank", Fraction(25))  # the dealer leaves 5 too many on the bank's space
    refused = rig.press("confirm")
    assert not refused["ok"] and f"seat {bank} bank holds 25, should hold 20" in refused["message"], refused
    rig.key(True)
    answer = rig.send("accept_payouts")
    rig.key(False)
    assert answer["ok"], answer
    (accepted,) = [r.payload for r in rig.records() if r.kind == "payouts_accepted" and r.round == number]
    assert [(d["seat"], d["bet"], d["expected"], d["found"]) for d in accepted["differences"]] == [(bank, "bank", "20", "25")]
    assert rig.press("confirm")["ok"] and rig.status()["state"] == "settled"
    clear(rig)
    after = rig.status()["player_dealer"]
    if hands_left == 2:  # the accepted hand counts as one of the holder's two
        assert (after["seat"], after["hands_left"]) == (bank, 1)
    else:
        assert after["seat"] != bank and after["hands_left"] == 2
