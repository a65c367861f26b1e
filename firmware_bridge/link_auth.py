"""One link end's protocol 1.1 state (PROTOCOL.md §8): its HELLO nonces, the session key
and the frame counters. The Link asks it to sign what it sends and to check what arrives;
the decisions (refuse, report, deliver) stay in link.py.
"""
from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable

from firmware_bridge.auth import FROM_DEVICE, FROM_HOST, HelloSigner, SessionSigner, macs_equal
from firmware_bridge.frame import FLAG_AUTH, Frame, encode_frame, signed_part

COUNTER_MAX = 0xFFFFFFFF
# A sender this close to the end of its counter starts a new session (a new key, counters
# from 1) before it runs out: at 500 frames/s that is after 99 days.
COUNTER_RENEW_AT = COUNTER_MAX - 0x10000


def random_nonce() -> int:
    return secrets.randbits(32)


class LinkAuth:
    def __init__(self, key: bytes, is_host: bool, nonces: Callable[[], int] = random_nonce) -> None:
        self.hello = HelloSigner(key)
        self.out_dir, self.in_dir = (FROM_HOST, FROM_DEVICE) if is_host else (FROM_DEVICE, FROM_HOST)
        self.is_host = is_host
        self._nonces = nonces
        self.session: SessionSigner | None = None
        self.tx_counter = 0  # the last counter we sent in this session
        self.rx_counter = 0  # the last counter we accepted from the peer in this session
        self.request: tuple[int, int] | None = None  # (our boot_id, nonce) of our latest request
        self.earlier_requests: deque[tuple[int, int]] = deque(maxlen=4)  # a late answer to one is no tamper
        self.answer_nonce = 0
        self.answering: tuple[int, int] | None = None  # (peer boot_id, nonce) of the request we answered

    # ------------------------------------------------------------ sessions
    def new_request(self, boot_id: int) -> None:
        if self.request is not None:
            self.earlier_requests.append(self.request)
        self.request = (boot_id, self._nonces())
        self.session = None

    def close(self) -> None:
        """Forget the session (a reset: a new boot or a new host session)."""
        if self.request is not None:  # its answer may still come: late, not tamper
            self.earlier_requests.append(self.request)
        self.session = None
        self.request = None
        self.answering = None

    def open(self, local_boot: int, peer_boot: int, local_nonce: int, peer_nonce: int) -> None:
        if self.is_host:
            self.session = self.hello.session(local_boot, peer_boot, local_nonce, peer_nonce)
        else:
            self.session = self.hello.session(peer_boot, local_boot, peer_nonce, local_nonce)
        self.tx_counter = self.rx_counter = 0

    def answer(self, local_boot: int, peer_boot: int, peer_nonce: int) -> None:
        """We answer the peer's request: a new nonce of ours, and the session both imply."""
        self.answering = (peer_boot, peer_nonce)
        self.answer_nonce = self._nonces()
        self.open(local_boot, peer_boot, self.answer_nonce, peer_nonce)

    def answered(self, local_boot: int, peer_boot: int, peer_nonce: int) -> None:
        """The peer answered our request."""
        assert self.request is not None
        self.open(local_boot, peer_boot, self.request[1], peer_nonce)

    @property
    def renew_due(self) -> bool:
        return self.session is not None and self.tx_counter >= COUNTER_RENEW_AT

    # ------------------------------------------------------------ sending
    def encode(self, frame: Frame, hello_request: bool | None) -> bytes | None:
        """`frame` signed (FLAG_AUTH, counter, MAC); None when it cannot be: a frame other than
        a HELLO with no session yet, or a counter used up. `hello_request` says which HELLO
        this is (None: not a HELLO)."""
        if hello_request is None:
            if self.session is None or self.tx_counter >= COUNTER_MAX:
                return None
            self.tx_counter += 1
            session = self.session
            return encode_frame(_auth(frame, self.tx_counter), lambda signed: session.mac(self.out_dir, signed))
        if hello_request:
            assert self.request is not None
            return encode_frame(_auth(frame, self.request[1]), lambda signed: self.hello.mac(self.out_dir, signed))
        binding = self.answering
        return encode_frame(_auth(frame, self.answer_nonce), lambda signed: self.hello.mac(self.out_dir, signed, binding))

    # ------------------------------------------------------------ receiving
    def request_verifies(self, frame: Frame) -> bool:
        return macs_equal(self.hello.mac(self.in_dir, signed_part(frame)), frame.mac)

    def answer_verifies(self, frame: Frame, request: tuple[int, int] | None) -> bool:
        return request is not None and macs_equal(self.hello.mac(self.in_dir, signed_part(frame), request), frame.mac)

    def answers_an_earlier_request(self, frame: Frame) -> bool:
        return any(self.answer_verifies(frame, request) for request in self.earlier_requests)

    def check(self, frame: Frame) -> str | None:
        """None if `frame` is the peer's, of this session, and newer than the last one
        accepted (then it is taken as the newest); else what is wrong with it."""
        if self.session is None:
            return "no session key"
        if not macs_equal(self.session.mac(self.in_dir, signed_part(frame)), frame.mac):
            return "its MAC does not verify"
        if frame.counter <= self.rx_counter:
            return f"its counter {frame.counter} is not above the last one accepted ({self.rx_counter}): a replay"
        self.rx_counter = frame.counter
        return None


def _auth(frame: Frame, counter: int) -> Frame:
    return Frame(frame.msg_type, frame.seq, frame.ack, frame.flags | FLAG_AUTH, frame.payload, frame.version, counter)
