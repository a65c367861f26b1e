"""Two sans-IO links joined by a wire we control, with an explicit clock (no sleeping)."""
from __future__ import annotations

from firmware_bridge.enums import DeviceKind
from firmware_bridge.frame import FrameDecoder
from firmware_bridge.link import Link
from firmware_bridge.messages import Hello, Message, unpack

HOST_HELLO = Hello(DeviceKind.HOST, boot_id=100, serial="table-7")
SHOE_HELLO = Hello(DeviceKind.SHOE, boot_id=0xABCD0001, serial="SHOE-1", firmware=(1, 4, 2))


def frame_types(frames: list[bytes]) -> list[str]:
    """Message names of encoded frames, for readable assertions."""
    names = []
    for data in frames:
        (frame,) = FrameDecoder().feed(data)
        names.append(type(unpack(frame.msg_type, frame.payload)).__name__)
    return names


class Wire:
    """host <-> device. `manipulate(direction, frames) -> frames` may drop, repeat or corrupt."""

    def __init__(self, host: Link | None = None, device: Link | None = None, **link_options):
        self.host = host or Link(HOST_HELLO, **link_options)
        self.device = device or Link(SHOE_HELLO, **link_options)
        self.now = 0.0
        self.events = {"host": [], "device": []}
        self.manipulate = lambda direction, frames: frames
        self.sent = {"host": [], "device": []}  # every frame each side wrote, by message name

    def _ends(self, name):
        return (self.host, self.device, "device") if name == "host" else (self.device, self.host, "host")

    def pump(self, rounds: int = 20) -> None:
        """Move bytes back and forth until both sides are quiet (no time passes)."""
        for _ in range(rounds):
            moved = False
            for name in ("host", "device"):
                src, dst, other = self._ends(name)
                frames = src.outgoing_frames()
                self.sent[name] += frame_types(frames)
                frames = self.manipulate(name, frames)
                if frames:
                    moved = True
                    self.events[other] += dst.receive(b"".join(frames), self.now)
            if not moved:
                return

    def advance(self, seconds: float) -> None:
        """Let time pass in steps to each deadline, polling both sides."""
        end = self.now + seconds
        while True:
            deadlines = [d for d in (self.host.next_deadline(), self.device.next_deadline()) if d is not None]
            step = min([d for d in deadlines if d > self.now] + [end])
            self.now = min(step, end)
            for name, link in (("host", self.host), ("device", self.device)):
                self.events[name] += link.poll(self.now)
            self.pump()
            if self.now >= end:
                return

    def connect(self) -> None:
        self.host.start(self.now)
        self.pump()

    def take(self, name: str) -> list:
        events, self.events[name] = self.events[name], []
        return events

    def delivered(self, name: str) -> list:
        return [e for e in self.take(name) if isinstance(e, Message)]
