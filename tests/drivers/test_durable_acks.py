"""ShoeDriver with durable_acks (the daemon's, PROTOCOL.md §9) against the real simulator over a
real pty: a card is acknowledged only once released; a driver that never releases (the daemon
killed before its commit) leaves the card in the 1.2 shoe, which sends it again to the next
driver, and a driver that remembers it from the journal drops it as a repeat."""
from __future__ import annotations

import time

import pytest

from drivers.events import AckWhenDurable, CardDrawn, DrawRepeated, SessionUp, ShoeStatusHeard
from drivers.reconnect import Backoff
from drivers.shoe import ShoeDriver
from firmware_bridge.enums import Msg
from firmware_bridge.frame import FrameDecoder
from firmware_bridge.messages import CardRead
from games.cards import parse_card

CARDS = "9h 8d As Kc"
CODES = [parse_card(c).code for c in CARDS.split()]
FAST = dict(backoff=Backoff(0.01, 2.0, 0.1))


def events(sink, cls) -> list:
    return [e.event for e in sink.of(AckWhenDurable) if isinstance(e.event, cls)]


def wait_held(sink, cls, count: int = 1) -> list:
    sink.wait_for(AckWhenDurable, count, where=lambda e: isinstance(e.event, cls))
    return events(sink, cls)


def queued(process) -> int:
    return process.command("state")["queued"]


def release_all(sink) -> None:
    for held in sink.of(AckWhenDurable):
        held.release()


def until(condition, what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_the_card_stays_queued_in_the_shoe_until_released(sim, sink):
    process = sim("shoe", "--cards", CARDS)
    driver = ShoeDriver(process.link, sink, reactor=sink.reactor, durable_acks=True, **FAST).start()
    try:
        sink.wait_for(SessionUp)
        (status,) = wait_held(sink, ShoeStatusHeard)
        process.command("draw")
        (card,) = wait_held(sink, CardDrawn)
        assert (card.code, card.draw_counter) == (CODES[0], 1)
        sink.reactor.run_until(lambda: False, 0.1)  # acks of what is not released do not go out
        assert queued(process) == 2  # the status and the card: delivered, not acknowledged
        for held in sink.of(AckWhenDurable):
            held.release()
        until(lambda: sink.reactor.run_until(lambda: False, 0.02) or queued(process) == 0, "the acks")
        assert not sink.of(CardDrawn)  # every event came wrapped: nothing was posted bare
        assert process.command("state")["protocol"] == "1.2"
    finally:
        driver.close()


def test_the_releases_of_one_commit_go_out_as_one_ack_frame(sim, sink):
    """The loop releases a commit's messages one after the other in one reactor turn (a round's
    cards read at once): the ack is cumulative, so the shoe is sent one ACK frame for all of
    them, not one a card."""
    process = sim("shoe", "--cards", CARDS)
    driver = ShoeDriver(process.link, sink, reactor=sink.reactor, durable_acks=True, **FAST).start()
    try:
        sink.wait_for(SessionUp)
        wait_held(sink, ShoeStatusHeard)
        release_all(sink)
        until(lambda: sink.reactor.run_until(lambda: False, 0.02) or queued(process) == 0, "the status's ack")
        process.command("draw", n=3)  # of 4: the shoe sends no "empty" status with them
        wait_held(sink, CardDrawn, 3)
        assert queued(process) == 3
        written: list[bytes] = []
        write = driver.transport.write

        def noted(data) -> None:  # the real pty write, its bytes kept to be decoded
            written.append(bytes(data))
            write(data)

        driver.transport.write = noted
        cards = [held for held in sink.of(AckWhenDurable) if isinstance(held.event, CardDrawn)]
        sink.reactor.call_soon(lambda: [held.release() for held in cards])  # as the loop does after one commit
        until(lambda: sink.reactor.run_until(lambda: False, 0.02) or queued(process) == 0, "the cards' ack")
        acks = [frame for frame in FrameDecoder().feed(b"".join(written)) if frame.msg_type == Msg.ACK]
        assert len(acks) == 1
    finally:
        driver.close()


@pytest.mark.parametrize("same_boot", [True, False])
def test_a_card_never_released_comes_again_to_the_next_driver_once(sim, sink, same_boot):
    """The first driver dies before its commit (never releases), the shoe's retries run out
    (SessionFailed: the card kept), a new driver opens the port: the card comes again, in order,
    once. A driver that remembers it (journaled before the crash) drops it as a repeat."""
    process = sim("shoe", "--cards", CARDS)
    first = ShoeDriver(process.link, sink, reactor=sink.reactor, durable_acks=True, **FAST).start()
    sink.wait_for(SessionUp)
    wait_held(sink, ShoeStatusHeard)
    for held in sink.of(AckWhenDurable):
        held.release()
    process.command("draw", n=2)
    cards = wait_held(sink, CardDrawn, 2)
    hello = sink.of(SessionUp)[0].hello
    first.close()  # killed: nothing more is acknowledged
    until(lambda: any("session failed" in line for line in process.command("state")["log"]),
          "the shoe's retries to run out")
    assert queued(process) == 2
    process.command("draw")  # dealt while no host listens: queued behind them
    sink.events.clear()
    second = ShoeDriver(process.link, sink, reactor=sink.reactor, durable_acks=True, **FAST)
    # the first card was journaled before the crash, the second was not
    # (journaled from another boot of the shoe, it proves nothing: the card counts)
    boot_id = hello.boot_id if same_boot else hello.boot_id ^ 1
    second.remember(boot_id, [CardRead(cards[0].code, cards[0].draw_counter, cards[0].device_time)])
    second.start()
    try:
        sink.wait_for(AckWhenDurable, 3, where=lambda e: isinstance(e.event, (CardDrawn, DrawRepeated)))
        got = [(type(e.event).__name__, e.event.draw_counter) for e in sink.of(AckWhenDurable)
               if isinstance(e.event, (CardDrawn, DrawRepeated))]
        assert got == [("DrawRepeated" if same_boot else "CardDrawn", 1), ("CardDrawn", 2), ("CardDrawn", 3)]
        # as the daemon does after each commit: whatever is held, released (a status the shoe sends
        # again in a session it renews comes held too: the driver posts every status)
        until(lambda: release_all(sink) or sink.reactor.run_until(lambda: False, 0.02) or queued(process) == 0,
              "the acks")
    finally:
        second.close()
