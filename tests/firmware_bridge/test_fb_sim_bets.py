"""The simulated bet sensor (`tablectl sim bets`) as a separate process on a real pty, seen by a
plain host Link: what it answers, what it sends on a change, a stdin script, a key, a 1.2 queue
that is full, and the commands it refuses (PROTOCOL.md §10)."""
import json
import os
import subprocess
import sys
import time

from sim_host import ROOT

from firmware_bridge.enums import DeviceKind, ErrorCode
from firmware_bridge.link_events import Connected
from firmware_bridge.messages import (
    ALL_SPACES,
    BetSpace,
    Error,
    Layout,
    Space,
    SpaceQuery,
    StatusQuery,
)
from games.registry import get_game

KEY = bytes(range(32))


def test_status_query_is_the_layout_then_every_space(start_sim, open_host):
    bets = start_sim("bets", "--game", "fubacc", "--seats", "2")
    host = open_host(bets.link)
    hello = host.wait_event(Connected).hello
    assert hello.kind == DeviceKind.BETS and hello.protocol == (1, 3)
    host.send(StatusQuery())
    (layout,) = host.wait_messages(Layout)
    wagers = list(get_game("fubacc").wagers)
    assert layout.spaces == tuple(BetSpace(seat * 4 + i, seat + 1, w) for seat in range(2) for i, w in enumerate(wagers))
    spaces = host.wait_messages(Space, 8)
    assert [s.space for s in spaces] == list(range(8)) and all(s.chips == () and s.change == 0 for s in spaces)


def test_a_change_is_sent_at_once_and_a_query_is_answered(start_sim, open_host):
    bets = start_sim("bets", "--game", "fortune6", "--seats", "1")
    host = open_host(bets.link)
    host.wait_event(Connected)
    reply = bets.ok("place", space="1:banker", values="2500,500")
    (space,) = host.wait_messages(Space)
    assert (space.space, space.change, [c.value for c in space.chips]) == (1, 1, [2500, 500])
    assert [c.uid.hex() for c in space.chips] == [c["uid"] for c in reply["chips"]]
    assert all(c.uid[:2] == b"\x04\x7b" for c in space.chips)
    host.send(SpaceQuery(1))
    assert host.wait_messages(Space) == [space]  # asked again: the same list, the same change
    host.send(SpaceQuery(ALL_SPACES))
    assert [s.space for s in host.wait_messages(Space, 6)] == list(range(6))
    host.send(SpaceQuery(6))
    (error,) = host.wait_messages(Error)
    assert error == Error(ErrorCode.BAD_SPACE, "space 6 does not exist (0-5)")


def test_a_stdin_script_places_and_swaps(start_sim, open_host):
    script = b"wait connected\nplace 1:player 100,100\nswap 0 500\nforeign 2 value=25\n"
    bets = start_sim("bets", "--game", "fortune6", "--seats", "1", stdin=script)
    host = open_host(bets.link)
    spaces = host.wait_messages(Space, 3)
    assert [(s.space, s.change, [c.value for c in s.chips]) for s in spaces] == \
        [(0, 1, [100, 100]), (0, 2, [100, 500]), (2, 1, [25])]
    assert spaces[2].chips[0].uid[0] == 0x08  # not the house's
    deadline = time.monotonic() + 10  # the sim prints its last reply after the frame is on the wire
    while len(bets.stdout().splitlines()) < 4 and time.monotonic() < deadline:
        time.sleep(0.02)
    replies = [json.loads(line) for line in bets.stdout().splitlines()[1:]]
    assert [r["ok"] for r in replies] == [True, True, True]


def test_with_a_key_an_authenticated_host_hears_it(start_sim, open_host, sim_dir):
    key_file = f"{sim_dir}/bets.key"
    with open(key_file, "w") as out:
        out.write(KEY.hex() + "\n")
    os.chmod(key_file, 0o600)
    bets = start_sim("bets", "--game", "paigow", "--key-file", key_file)
    host = open_host(bets.link, key=KEY)
    host.wait_event(Connected)
    bets.ok("place", space="3:fortune_bonus", values="1000")
    (space,) = host.wait_messages(Space)
    assert space.space == 2 * 2 + 1 and space.chips[0].value == 1000
    assert bets.ok("state")["key_id"]


def test_a_burst_beyond_the_queue_is_held_and_sent_when_there_is_room(start_sim, open_host):
    bets = start_sim("bets", "--game", "fortune6", "--seats", "7")
    burst = bets.ok("burst", n=200)  # no host yet: the 1.3 queue (64) fills, the rest is held
    assert burst["held"] and bets.ok("state")["queued"] == 64
    host = open_host(bets.link)
    host.wait_event(Connected)
    host.send(StatusQuery())  # found the queue full: its LAYOUT waits for room, not dropped
    state = bets.ok("state")
    total = sum(len(chips) for chips in state["spaces"].values())
    assert total == 200

    def every_space_final(events):
        last, layouts = {}, []
        for msg in events:
            if isinstance(msg, Space):
                last[msg.space] = msg
            elif isinstance(msg, Layout):
                layouts.append(msg)
        return len(last) == 42 and all(len(last[s].chips) == len(state["spaces"].get(str(s), []))
                                       for s in range(42)) and [m.part for m in layouts] == [0, 1]
    host.wait_for(every_space_final, "every space's latest list and the layout")
    after = bets.ok("state")
    assert after["held"] == [] and not after["layout_due"]


def test_commands_it_refuses_are_named(start_sim):
    bets = start_sim("bets", "--game", "fortune6", "--seats", "1")
    bets.ok("place", space=0, values="100")
    assert bets.command("place", space=0, values="5")["error"] == "place: space 0 holds 1 chip(s): add or remove"
    assert bets.command("place", space=6, values="5")["error"] == "place: space=6 is outside 0..5"
    assert "no space '2:player'" in bets.command("add", space="2:player", values="5")["error"]
    assert bets.command("add", space=1, values="five")["error"] == "add: values='five' is not a whole number"
    assert bets.command("add", space=1, values="")["error"].startswith("add: values names no chip")
    assert bets.command("remove", space=1)["error"] == "remove: space 1 holds no chip"
    assert bets.command("remove", space=0, uid="ffffffffffffff")["error"] == "remove: no chip ffffffffffffff on space 0"
    assert bets.command("swap", space=3)["error"] == "swap: space 3 holds no chip"
    assert bets.command("add", space=0, values="-1")["error"] == "add: values=-1 is outside 0..4294967295"


def test_bad_options_are_named(sim_dir):
    run = subprocess.run([sys.executable, "-m", "cli", "sim", "bets", "--link", f"{sim_dir}/b", "--game", "craps"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert run.returncode == 2 and "--game 'craps': one of" in run.stderr
    run = subprocess.run([sys.executable, "-m", "cli", "sim", "--help"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert "bets" in run.stdout


def test_chips_from_a_rack_go_back_to_it(start_sim, open_host, tmp_path):
    rack = tmp_path / "chips.csv"
    rack.write_text("uid,value,set\n047b00000000a1,25,Lotus\n047b00000000a2,25,Lotus\n047b00000000b1,2.5,Lotus\n")
    bets = start_sim("bets", "--game", "fortune6", "--seats", "1", "--chips", str(rack), "--minor-unit", "0.5")
    host = open_host(bets.link)
    host.wait_event(Connected)
    bets.ok("place", space="1:banker", values="50,5")  # tag values in minor units of 0.5
    (space,) = host.wait_messages(Space)
    assert [(c.uid.hex(), c.value) for c in space.chips] == [("047b00000000a1", 50), ("047b00000000b1", 5)]
    refused = bets.command("add", space="1:banker", values="50,5")  # the one 2.5 chip is on the table
    assert refused["ok"] is False and refused["error"] == "no chip of 5 left in the rack for 1 (it has 0; values it has: [50])"
    bets.ok("remove", space="1:banker", uid="047b00000000b1")  # back to the rack
    host.wait_messages(Space)
    bets.ok("add", space="1:player", values="5,50")
    (space,) = host.wait_messages(Space)
    assert [c.uid.hex() for c in space.chips] == ["047b00000000b1", "047b00000000a2"]  # the rack's, not new ones


def test_a_player_dealer_game_has_a_bank_space_at_every_seat_after_the_wagers():
    from firmware_bridge.sim.bets import game_layout

    layout = game_layout("fortune7", seats=2)
    assert [(s.space, s.seat, s.name) for s in layout[-2:]] == [(10, 1, "bank"), (11, 2, "bank")]
    assert [s.name for s in layout[:5]] == list(get_game("fortune7").wagers)
    assert all(s.name != "bank" for s in game_layout("fortune6"))
