"""PROTOCOL.md's byte examples are what the encoder and the link put on the wire.

Each example block in the page is marked `<!-- wire-example: NAME -->`; its lines read
`sender→receiver  LABEL  F5 5A ...`. The test builds the same exchange with two real Links
(as the host driver and a device firmware drive them) and compares every frame, in order,
byte for byte: the page cannot go stale.
"""
from __future__ import annotations

import pathlib
import re

from firmware_bridge.auth import HelloSigner
from firmware_bridge.enums import DeviceKind, ErrorCode
from firmware_bridge.frame import FLAG_ACK_VALID, FLAG_RELIABLE, Frame, FrameDecoder, encode_frame
from firmware_bridge.link import Link
from firmware_bridge.link_events import Connected, SessionFailed
from firmware_bridge.messages import (
    Ack,
    BetSpace,
    CardRead,
    Chip,
    Error,
    Hello,
    Layout,
    Message,
    ShoeStatus,
    Space,
    SpaceQuery,
    StatusQuery,
    pack,
)

PAGE = pathlib.Path(__file__).resolve().parents[2] / "firmware_bridge" / "PROTOCOL.md"
LINE = re.compile(r"^\s+(host|shoe|bets)→(host|shoe|bets)\s+.*?(F5 5A [0-9A-F |]+)$")


def page_example(name: str) -> list[tuple[str, bytes]]:
    """(sender, frame bytes) for each line of the example block `name`."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"<!-- wire-example: {name} -->") + 1
    frames = []
    for line in lines[start:]:
        match = LINE.match(line)
        if match is None:
            break
        frames.append((match.group(1), bytes.fromhex(match.group(3).replace("|", " "))))
    assert frames, f"example {name!r} has no frame lines"
    return frames


# The page's shoe speaks 1.2 (it has nothing of 1.3's to say) to a 1.3 host: §6's interworking.
SHOE_PROTOCOL = (1, 2)


def host_and_shoe() -> tuple[Link, Link]:
    host = Link(Hello(DeviceKind.HOST, boot_id=0x1A2B3C4D, serial="tablectl"))
    shoe = Link(Hello(DeviceKind.SHOE, boot_id=0x0BADCAFE, serial="SHOE-0042", firmware=(1, 2, 0),
                      protocol=SHOE_PROTOCOL))
    return host, shoe


EXAMPLE_KEY = bytes(range(32))


def keyed_host_and_shoe() -> tuple[Link, Link]:
    """§8.9: the same two, with the key 00..1F and fixed nonces (normally random)."""
    host = Link(Hello(DeviceKind.HOST, boot_id=0x1A2B3C4D, serial="tablectl"), key=EXAMPLE_KEY,
                nonces=lambda: 0x11223344)
    shoe = Link(Hello(DeviceKind.SHOE, boot_id=0x0BADCAFE, serial="SHOE-0042", firmware=(1, 2, 0),
                      protocol=SHOE_PROTOCOL), key=EXAMPLE_KEY, nonces=lambda: 0x55667788)
    return host, shoe


def decoded(data: bytes) -> Frame:
    (frame,) = FrameDecoder().feed(data)
    return frame


def handshake(host: Link, shoe: Link) -> list[tuple[str, bytes]]:
    """The §7 (§8 with keys) session: the host driver asks for status when the session is up;
    the shoe answers it, then deals A♠ as card 42. Returns every frame written, in order."""
    wire: list[tuple[str, bytes]] = []
    events: dict[str, list] = {"host": [], "shoe": []}

    def move(sender: str, src: Link, dst: Link) -> None:
        frames = src.outgoing_frames()
        wire.extend((sender, frame) for frame in frames)
        events["shoe" if sender == "host" else "host"].extend(dst.receive(b"".join(frames), 0.0))

    host.start(0.0)
    move("host", host, shoe)
    move("shoe", shoe, host)
    assert isinstance(events["host"][-1], Connected)
    host.send(StatusQuery(), 0.0)  # what the host driver does on Connected
    move("host", host, shoe)
    shoe.send(ShoeStatus(41, 73_000), 0.0)
    move("shoe", shoe, host)
    move("host", host, shoe)
    shoe.send(CardRead(0x0101, 42, 74_250), 0.0)
    move("shoe", shoe, host)
    move("host", host, shoe)
    # with keys the shoe reports the session once the host is heard under the session key
    assert [type(e) for e in events["shoe"]] == [Connected, StatusQuery]
    assert events["host"][1:] == [ShoeStatus(41, 73_000), CardRead(0x0101, 42, 74_250)]
    return wire


def test_the_frame_examples_are_what_the_encoder_writes():
    card_type, card = pack(CardRead(0x0101, 1, 1000))
    ack_type, empty = pack(Ack())
    expected = [("shoe", encode_frame(Frame(card_type, 5, 2, FLAG_RELIABLE | FLAG_ACK_VALID, card))),
                ("shoe", encode_frame(Frame(ack_type, 6, 9, FLAG_ACK_VALID, empty)))]
    assert page_example("frames") == expected


def test_the_handshake_example_is_what_two_links_exchange():
    assert page_example("handshake") == handshake(*host_and_shoe())


def test_the_keyed_handshake_example_is_what_two_keyed_links_exchange():
    assert page_example("keyed-handshake") == handshake(*keyed_host_and_shoe())


def test_the_keyed_examples_named_values_are_the_links():
    """The session key and the MAC inputs the page spells out are the ones the links use."""
    host, shoe = keyed_host_and_shoe()
    frames = handshake(host, shoe)
    text = PAGE.read_text(encoding="utf-8")
    spelled = text[text.index("Both now hold K_s"):text.index("- **STATUS_QUERY**")]
    session_key = bytes.fromhex(spelled[spelled.index("=\n") + 2:].strip().strip("`.").replace(" ", ""))
    assert session_key == host.auth.session.key == shoe.auth.session.key
    request, answer, query = (decoded(frames[i][1]) for i in range(3))
    signer = HelloSigner(EXAMPLE_KEY)
    assert request.mac == signer.mac(b"H", frames[0][1][2:33])  # "bytes 2 .. 32 of the frame"
    assert answer.mac == signer.mac(b"D", frames[1][1][2:34], (0x1A2B3C4D, 0x11223344))
    assert query.counter == 1
    assert query.mac == host.auth.session.mac(b"H", bytes.fromhex("00 FF 01 06 01 00 07 01 00 00 00"))


def test_the_hello_payload_table_matches_the_encoding():
    hello = Hello(DeviceKind.SHOE, boot_id=0x44332211, serial="AB", firmware=(7, 8, 9), reply_requested=True)
    payload = hello.encode()
    assert payload[0] == 1 and payload[1:3] == bytes([1, 3]) and payload[3:6] == bytes([7, 8, 9])
    assert payload[6:10] == bytes([0x11, 0x22, 0x33, 0x44]) and payload[10] == 0x01
    assert payload[11] == 2 and payload[12:] == b"AB"
    text = PAGE.read_text(encoding="utf-8")
    assert "(12 + n bytes, n ≤ 32, so 12..44 bytes)" in text
    assert len(Hello(DeviceKind.SHOE, 1).encode()) == 12 and len(Hello(DeviceKind.SHOE, 1, "x" * 32).encode()) == 44


def test_the_refusal_examples_are_what_a_shoe_answers():
    """§8.7: a keyed shoe refusing §7's plain request, a keyless 1.1 shoe refusing §8.9's."""
    frames = []
    for host_key, shoe_key in ((None, EXAMPLE_KEY), (EXAMPLE_KEY, None)):
        host, shoe = host_and_shoe()
        if host_key is not None:
            host = keyed_host_and_shoe()[0]
        if shoe_key is not None:
            shoe = keyed_host_and_shoe()[1]
        host.start(0.0)
        shoe.receive(host.outgoing(), 0.0)
        frames += [("shoe", frame) for frame in shoe.outgoing_frames()]
    assert page_example("refusals") == frames


def test_the_key_id_example_is_what_keys_id_prints():
    from firmware_bridge.auth import key_id
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    shown = lines[lines.index("<!-- key-id-example -->") + 1].split()
    assert shown == ["key", "id", key_id(EXAMPLE_KEY)]
    assert "HMAC-SHA-256(K, \"tablectl-1.1 key id\")" in PAGE.read_text(encoding="utf-8")


def kept_card() -> tuple[list[tuple[str, bytes]], list[tuple[str, bytes]]]:
    """§9.4: after the §7 session the shoe deals card 43 and the host dies before acknowledging
    it; the shoe's retries run out and it keeps the card; a new host (a restarted daemon, boot
    id + 1, acks held until durable) opens the port. Returns (the first session's frames from
    the card on, the second session's)."""
    host, shoe = host_and_shoe()
    shoe.keep_unacked = True  # a 1.2 shoe (the simulator's default)
    handshake(host, shoe)
    before: list[tuple[str, bytes]] = []
    after: list[tuple[str, bytes]] = []
    card = CardRead(0x0213, 43, 75_000)  # 3♦
    shoe.send(card, 0.0)
    before += [("shoe", frame) for frame in shoe.outgoing_frames()]
    events: list = []
    now = 0.0
    while shoe.connected:  # nobody answers: the retransmissions are the same bytes
        now = shoe.next_deadline() or now
        events += shoe.poll(now)
        again = shoe.outgoing_frames()
        assert all(frame == before[0][1] for frame in again if decoded(frame).msg_type == 0x10)
    assert [type(e) for e in events] == [SessionFailed] and events[0].kept == 1
    assert shoe.tx.retransmissions == 5 and now == 1.5
    restarted = Link(Hello(DeviceKind.HOST, boot_id=0x1A2B3C4E, serial="tablectl"), hold_acks=True)
    host_events: list = []

    def move(sender: str, src: Link, dst: Link, into: list) -> None:
        frames = src.outgoing_frames()
        after.extend((sender, frame) for frame in frames)
        into.extend(dst.receive(b"".join(frames), now))

    restarted.start(now)
    move("host", restarted, shoe, [])
    move("shoe", shoe, restarted, host_events)
    restarted.send(StatusQuery(), now)
    move("host", restarted, shoe, [])
    shoe.send(ShoeStatus(43, 76_000), now)  # the shoe answers the query
    move("shoe", shoe, restarted, host_events)
    delivered = [e for e in host_events if isinstance(e, Message)]
    assert delivered == [card, ShoeStatus(43, 76_000)]
    for event in delivered:  # both journaled, one fsynced commit: now they are acknowledged
        restarted.release(event, now)
    move("host", restarted, shoe, [])
    assert shoe.queued() == 0
    return before, after


def test_the_kept_card_example_is_what_a_restarted_host_and_a_1_2_shoe_exchange():
    before, after = kept_card()
    assert page_example("kept-card-before") == before
    assert page_example("kept-card-after") == after


# ---------------------------------------------------------------- §10, the bet sensor

BETS_LAYOUT = (BetSpace(0, 1, "standard"), BetSpace(1, 1, "fortune_bonus"))
HOUSE_CHIPS = (Chip(bytes.fromhex("047B0000000001"), 2500), Chip(bytes.fromhex("047B0000000002"), 500))
FOREIGN_CHIP = Chip(bytes.fromhex("08A1B2C3D4E5F6"), 10_000)


def host_and_bets(key: bytes | None = None) -> tuple[Link, Link]:
    """§10.5: the host and a 1.3 bet sensor of one Pai Gow spot (fixed nonces with a key)."""
    host = Link(Hello(DeviceKind.HOST, boot_id=0x1A2B3C4D, serial="tablectl"), key=key, nonces=lambda: 0x11223344)
    bets = Link(Hello(DeviceKind.BETS, boot_id=0x5EA7C0DE, serial="BETS-0007", firmware=(1, 0, 0)),
                key=key, nonces=lambda: 0x55667788)
    return host, bets


def bets_session(host: Link, bets: Link) -> list[tuple[str, bytes]]:
    """The §10.5 session: the layout and both spaces at the start, two house chips on space 0,
    the host asks for space 1 (a foreign chip lies there now) and for a space that is not."""
    wire: list[tuple[str, bytes]] = []
    heard: list = []

    def move(sender: str, src: Link, dst: Link) -> None:
        frames = src.outgoing_frames()
        wire.extend((sender, frame) for frame in frames)
        events = dst.receive(b"".join(frames), 0.0)
        if sender == "bets":
            heard.extend(e for e in events if isinstance(e, Message))
        else:
            for event in events:
                if isinstance(event, SpaceQuery):
                    if event.space == 1:
                        bets.send(Space(1, 1, 9_000, (FOREIGN_CHIP,)), 0.0)
                    else:
                        bets.send(Error(ErrorCode.BAD_SPACE, "space 7 does not exist (0-1)"), 0.0)

    host.start(0.0)
    move("host", host, bets)
    move("bets", bets, host)
    host.send(StatusQuery(), 0.0)
    move("host", host, bets)
    for msg in (Layout(BETS_LAYOUT), Space(0, 0, 8_000), Space(1, 0, 8_000)):
        bets.send(msg, 0.0)  # the answer to STATUS_QUERY
    move("bets", bets, host)
    move("host", host, bets)
    bets.send(Space(0, 1, 8_500, HOUSE_CHIPS), 0.0)
    move("bets", bets, host)
    move("host", host, bets)
    host.send(SpaceQuery(1), 0.0)
    move("host", host, bets)
    move("bets", bets, host)
    move("host", host, bets)
    host.send(SpaceQuery(7), 0.0)
    move("host", host, bets)
    move("bets", bets, host)
    move("host", host, bets)
    assert heard == [Layout(BETS_LAYOUT), Space(0, 0, 8_000), Space(1, 0, 8_000), Space(0, 1, 8_500, HOUSE_CHIPS),
                     Space(1, 1, 9_000, (FOREIGN_CHIP,)), Error(ErrorCode.BAD_SPACE, "space 7 does not exist (0-1)")]
    return wire


def test_the_bet_sensor_example_is_what_two_links_exchange():
    assert page_example("bets") == bets_session(*host_and_bets())


def test_the_keyed_bet_sensor_example_is_what_two_keyed_links_exchange():
    assert page_example("keyed-bets") == bets_session(*host_and_bets(EXAMPLE_KEY))


def test_the_bet_payload_tables_match_the_encoding():
    """§10.2-10.4's offsets, on the example's own messages."""
    layout = pack(Layout(BETS_LAYOUT))[1]
    assert layout[:3] == bytes([0, 0, 2]) and layout[3:6] == bytes([0, 1, 8]) and layout[6:14] == b"standard"
    space = pack(Space(0, 1, 8_500, HOUSE_CHIPS))[1]
    assert space[:12] == bytes([0, 0, 0, 1, 0, 0, 0, 0x34, 0x21, 0, 0, 2])
    assert space[12:24] == bytes([7]) + HOUSE_CHIPS[0].uid + (2500).to_bytes(4, "little")
    text = PAGE.read_text(encoding="utf-8")
    for phrase in ("12 + the chips' bytes", "3 + the spaces' bytes", "at most 128 chips", "0xFF: every space"):
        assert phrase in text, phrase
