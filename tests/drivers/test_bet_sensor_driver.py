"""BetSensorDriver against the real `tablectl sim bets` process over a real pty, driven through
its control socket: the layout, each change of a space (place, add, remove, swap, a foreign
chip), a burst, a stack longer than a frame, a reconnect that resends the whole state, and
durable acks (PROTOCOL.md §10)."""
from __future__ import annotations

import time

from drivers.bet_events import BetLayout, SpaceChips
from drivers.bets import BetSensorDriver
from drivers.events import AckWhenDurable, DeviceError, LinkDown, SessionRefused, SessionUp
from drivers.factory import DRIVERS
from drivers.reconnect import Backoff
from firmware_bridge.enums import ErrorCode
from firmware_bridge.messages import Chip, Space
from firmware_bridge.sim.bets import game_layout
from games.registry import get_game

FAST = dict(backoff=Backoff(0.01, 2.0, 0.1))


def until(sink, condition, what: str, timeout: float = 20.0) -> None:
    """Turn the reactor (the driver reads and acknowledges on it) until `condition()` holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        sink.reactor.run_until(lambda: False, 0.02)


def chips_of(sink, space: int) -> list[SpaceChips]:
    return [e for e in sink.of(SpaceChips) if e.space == space]


def settled(sink, process, space: int) -> SpaceChips:
    """The last SpaceChips posted for `space` once it equals what the simulator holds."""
    state = process.command("state")
    want = [(c["uid"], c["value"]) for c in state["spaces"].get(str(space), [])]
    change = state["changes"].get(str(space), 0)
    sink.wait_for(SpaceChips, where=lambda e: e.space == space and e.change == change)
    last = chips_of(sink, space)[-1]
    assert list(last.chips) == want
    return last


def test_the_factory_knows_the_bet_sensor():
    assert DRIVERS["bets"] is BetSensorDriver


def test_layout_then_every_space_on_connect(sim, sink):
    process = sim("bets", "--game", "fortune6")
    with BetSensorDriver(process.link, sink, reactor=sink.reactor, **FAST):
        (layout,) = sink.wait_for(BetLayout)
        spaces = game_layout("fortune6")
        assert layout.spaces == tuple((s.space, s.seat, s.name) for s in spaces)
        assert len(spaces) == 7 * len(get_game("fortune6").wagers)  # two LAYOUT frames, put together
        sink.wait_for(SpaceChips, len(spaces))
    assert {e.space for e in sink.of(SpaceChips)} == {s.space for s in spaces}
    assert all(e.chips == () and e.name is not None for e in sink.of(SpaceChips))
    assert sink.events.index(layout) < sink.events.index(sink.of(SpaceChips)[0])


def test_place_add_remove_swap_and_a_foreign_chip(sim, sink):
    process = sim("bets", "--game", "paigow", "--seats", "2")
    with BetSensorDriver(process.link, sink, reactor=sink.reactor, **FAST):
        sink.wait_for(SpaceChips, 4)
        placed = process.command("place", space="2:fortune_bonus", values="500,500,100")
        event = settled(sink, process, placed["space"])
        assert (event.seat, event.name, event.total, event.change) == (2, "fortune_bonus", 1100, 1)
        process.command("add", space=placed["space"], values=[2500])
        assert settled(sink, process, placed["space"]).total == 3600
        process.command("remove", space=placed["space"], n=2)
        assert [v for _, v in settled(sink, process, placed["space"]).chips] == [500, 500]
        top = process.command("state")["spaces"][str(placed["space"])][-1]["uid"]
        swap = process.command("swap", space=placed["space"], value=100)
        assert swap["taken"]["uid"] == top
        after = settled(sink, process, placed["space"])
        assert [v for _, v in after.chips] == [500, 100] and top not in dict(after.chips)
        foreign = process.command("foreign", space="1:standard", value=10_000)
        event = settled(sink, process, foreign["space"])
        assert event.chips == ((foreign["foreign"], 10_000),) and foreign["foreign"].startswith("08")
        process.command("remove", space=placed["space"])
        assert settled(sink, process, placed["space"]).chips == ()
    changes = [e.change for e in chips_of(sink, placed["space"])]
    assert changes == [0, 1, 2, 3, 4, 5]  # every change once, in order


def test_a_burst_arrives_whole_and_in_order(sim, sink):
    process = sim("bets", "--game", "fubacc", "--seats", "3")
    with BetSensorDriver(process.link, sink, reactor=sink.reactor, **FAST):
        sink.wait_for(SpaceChips, 12)
        process.command("burst", n=300)  # far more than the window (8) and the queue (64) hold
        until(sink, lambda: process.command("state")["held"] == [], "the held spaces to go out")
        for space in range(12):
            settled(sink, process, space)
    for space in range(12):
        events = chips_of(sink, space)
        assert [len(e.chips) for e in events] == sorted(len(e.chips) for e in events)  # never goes back
        assert len(events[-1].chips) == 25


def test_a_stack_longer_than_a_frame_and_one_beyond_the_cap(sim, sink):
    process = sim("bets", "--game", "fortune7", "--seats", "1")
    with BetSensorDriver(process.link, sink, reactor=sink.reactor, **FAST):
        sink.wait_for(SpaceChips, 5)
        process.command("place", space=0, values=",".join(["100"] * 60))  # 4 SPACE frames
        event = settled(sink, process, 0)
        assert len(event.chips) == 60 and not event.overflow and event.total == 6000
        process.command("add", space=0, values=",".join(["5"] * 80))  # 140 chips: 128 reported
        sink.wait_for(SpaceChips, where=lambda e: e.space == 0 and e.overflow)
        last = chips_of(sink, 0)[-1]
        assert len(last.chips) == 128 and last.overflow
    assert not sink.of(DeviceError)


def test_a_reconnect_resends_the_current_state(sim, sink):
    process = sim("bets", "--game", "fortune6", "--seats", "1")
    with BetSensorDriver(process.link, sink, reactor=sink.reactor, **FAST):
        sink.wait_for(SpaceChips, 6)
        process.command("place", space="1:banker", values="1000")
        settled(sink, process, 1)
        process.command("fault", kind="unplug")
        sink.wait_for(LinkDown)
        process.command("add", space="1:banker", values="500")  # changed while unheard
        process.command("place", space="1:tie", values="100")
        process.command("fault", kind="replug")
        sink.wait_for(SessionUp, 2)  # the session after the loss
        assert settled(sink, process, 1).total == 1500
        assert settled(sink, process, 2).total == 100
        until(sink, lambda: process.command("state")["queued"] == 0, "the whole state to be acknowledged")
    # what changed while unheard is posted once; the unchanged spaces and layout are not again
    assert [e.total for e in chips_of(sink, 1)] == [0, 1000, 1500]
    assert [e.total for e in chips_of(sink, 2)] == [0, 100]
    assert all(len(chips_of(sink, space)) == 1 for space in (0, 3, 4, 5))
    assert len(sink.of(BetLayout)) == 1 and not sink.of(DeviceError)


def test_a_reboot_keeps_the_chips_and_restarts_the_counts(sim, sink):
    process = sim("bets", "--game", "fortune6", "--seats", "1")
    with BetSensorDriver(process.link, sink, reactor=sink.reactor, **FAST):
        sink.wait_for(SpaceChips, 6)
        process.command("place", space=0, values="100,100")
        process.command("add", space=0, values="100")
        assert settled(sink, process, 0).change == 2
        process.command("fault", kind="reboot")
        booted = sink.of(SessionUp)[0].hello.boot_id
        rebooted = sink.wait_for(SessionUp, where=lambda e: e.hello.boot_id != booted)[0]  # a new boot id
        sink.wait_for(BetLayout, 2)
        event = sink.wait_for(SpaceChips, where=lambda e: e.space == 0 and e.change == 0 and e.total == 300)[0]
        assert sink.events.index(event) > sink.events.index(rebooted)


def test_space_query_and_an_unknown_space(sim, sink):
    process = sim("bets", "--game", "fortune6", "--seats", "1")
    with BetSensorDriver(process.link, sink, reactor=sink.reactor, **FAST) as driver:
        sink.wait_for(SpaceChips, 6)
        process.command("place", space=3, values="700")
        settled(sink, process, 3)
        before = len(sink.of(SpaceChips))
        driver.request_space(200)  # no such space
        error = sink.wait_for(DeviceError)[0]
        assert error.code == ErrorCode.BAD_SPACE and "space 200" in error.detail
        driver.request_space()  # every space: the same lists, already posted
        driver.request_space(3)
        sink.reactor.run_until(lambda: False, 0.5)
        assert len(sink.of(SpaceChips)) == before


def test_a_tail_without_its_start_is_dropped_and_asked_again(sim, sink):
    process = sim("bets", "--game", "fortune6", "--seats", "1")
    with BetSensorDriver(process.link, sink, reactor=sink.reactor, **FAST) as driver:
        sink.wait_for(SpaceChips, 6)
        process.command("place", space=4, values=",".join(["100"] * 30))
        settled(sink, process, 4)
        count = len(chips_of(sink, 4))
        # what a host that crashed after acknowledging part 0 hears: part 1 alone
        driver._on_message(Space(4, 9, 0, (Chip(b"\x04" * 7, 5),), part=1), sink.reactor.now())
        driver._flush()
        error = sink.wait_for(DeviceError)[0]
        assert "without the parts before it" in error.detail
        sink.reactor.run_until(lambda: False, 0.5)  # the space asked again: its list, unchanged
    assert len(chips_of(sink, 4)) == count
    assert all(len(e.chips) in (0, 30) for e in chips_of(sink, 4))


def test_durable_acks_hold_each_space_until_released(sim, sink):
    process = sim("bets", "--game", "fortune6", "--seats", "1")
    driver = BetSensorDriver(process.link, sink, reactor=sink.reactor, durable_acks=True, **FAST).start()
    try:
        sink.wait_for(SessionUp)
        sink.wait_for(AckWhenDurable, 7)  # the layout and six spaces
        for held in sink.of(AckWhenDurable):
            held.release()
        until(sink, lambda: process.command("state")["queued"] == 0, "the acks")
        process.command("place", space=0, values="500")
        held = sink.wait_for(AckWhenDurable, 8)[-1]
        assert isinstance(held.event, SpaceChips) and held.event.total == 500
        sink.reactor.run_until(lambda: False, 0.1)
        assert process.command("state")["queued"] == 1  # delivered, not acknowledged
        held.release()
        until(sink, lambda: process.command("state")["queued"] == 0, "the release")
        assert process.command("state")["protocol"] == "1.3"
    finally:
        driver.close()


def test_with_a_key_the_lists_come_authenticated_and_a_keyless_sensor_is_refused(sim, sink, tmp_path):
    key = bytes(range(32))
    path = tmp_path / "bets.key"
    path.write_text(key.hex() + "\n")
    path.chmod(0o600)
    process = sim("bets", "--game", "fortune6", "--seats", "1", "--key-file", str(path))
    with BetSensorDriver(process.link, sink, reactor=sink.reactor, link_options={"key": key}, **FAST) as driver:
        sink.wait_for(SpaceChips, 6)
        process.command("place", space="1:tie", values="100")
        assert settled(sink, process, 2).total == 100
        assert driver.authenticated and not sink.of(DeviceError)
    process.close()  # the keyless sensor below takes the same path
    plain = sim("bets", "--game", "fortune6", "--seats", "1")
    with BetSensorDriver(plain.link, sink, reactor=sink.reactor, name="plain", link_options={"key": key}, **FAST):
        refused = sink.wait_for(SessionRefused, where=lambda e: e.device == "plain")[0]
        assert "no session" in refused.reason
    assert not [e for e in sink.of(SpaceChips) if e.device == "plain"]


def test_a_change_heard_before_the_layout_is_posted_again_with_its_seat(sim, sink):
    """A new driver (the daemon restarted) whose sensor first resends a change made while no
    host listened, before the layout it answers the host's STATUS_QUERY with: that list is
    posted without a seat (journaled only), and again with its seat and wager once the layout
    names them, though the session's whole state repeats its change count."""
    process = sim("bets", "--game", "fortune6", "--seats", "1")
    with BetSensorDriver(process.link, sink, reactor=sink.reactor, **FAST):
        sink.wait_for(SpaceChips, 6)
    process.command("place", space="1:banker", values="1000")  # nobody listens
    with BetSensorDriver(process.link, sink, reactor=sink.reactor, **FAST):
        sink.wait_for(SpaceChips, where=lambda e: e.space == 1 and e.total == 1000 and e.name == "banker")
    seen = [(e.seat, e.name) for e in chips_of(sink, 1) if e.total == 1000]
    assert seen[-1] == (1, "banker") and all(name in (None, "banker") for _, name in seen)
