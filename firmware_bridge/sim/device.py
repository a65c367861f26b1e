"""What every simulated device shares: the pty, the link, the command loop and the common faults.

One thread, one selector: pty bytes go through the sans-IO `Link`; commands come from
the control socket and stdin; timers come from the link's deadlines and the device's
own (auto-deal, stall, script sleep). A subclass says what the device is: its
messages (`on_message`), its commands (`COMMANDS`) and its faults (`DEVICE_FAULTS`).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import signal
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from types import FrameType
from typing import BinaryIO, TextIO

from firmware_bridge.auth import key_id, load_key
from firmware_bridge.enums import DeviceKind, ErrorCode
from firmware_bridge.link import Link
from firmware_bridge.link_events import (
    Connected,
    LinkEvent,
    PeerRebooted,
    PeerSilent,
    ProtocolViolation,
    SendFailed,
    SessionFailed,
    SessionRefused,
    Tampered,
)
from firmware_bridge.messages import Error, Hello, Message
from firmware_bridge.sim.commands import (
    Command,
    CommandError,
    Reply,
    arg_bool,
    arg_choice,
    arg_float,
    arg_int,
    parse_json_line,
    parse_text_line,
    reply_line,
)
from firmware_bridge.sim.control import ControlServer, StdinScript
from firmware_bridge.sim.pty_port import PtyPort
from firmware_bridge.sim.wire_faults import FORGERIES, FRAME_FAULTS, WireFaults, forged_frame

FIRMWARE = (1, 0, 0)
PROTOCOLS = ("1.3", "1.2", "1.1")  # what --protocol takes: 1.1 drops what its retries did not deliver
# Protocol 1.2 (PROTOCOL.md §9): reliable messages a device keeps waiting for an ack, across
# failed sessions and while no host listens. A round of any game fits many times over.
QUEUE_LIMIT = 64
COMMON_FAULTS = FRAME_FAULTS + ("garbage", "unplug", "replug", "reboot", "stall", "forge")
COMMON_TEXT_ARGS = {"fault": ("kind", "value"), "sleep": ("seconds",), "wait": ("what",)}
FAULT_VALUE_NAMES = {"garbage": "n", "stall": "seconds", "reboot": "clear_counter", "foreign": "code", "forge": "how"}


class _Stop(Exception):
    """Raised from the SIGTERM/SIGINT handler to leave the loop and clean up."""


def common_arguments(parser: argparse.ArgumentParser, default_protocol: str = "1.2") -> None:
    """The options every simulator takes; a device whose messages came with a later minor
    version (the bet sensor, 1.3) speaks it by default."""
    parser.add_argument("--link", required=True, metavar="PATH",
                        help="stable symlink to publish the pty at, e.g. /run/tablectl-sim/shoe")
    parser.add_argument("--control", metavar="PATH", help="Unix socket for JSON-line commands")
    parser.add_argument("--serial", help="serial number the device reports in HELLO")
    parser.add_argument("--ack-timeout", type=float, default=0.25, metavar="S", help="link ack timeout")
    parser.add_argument("--retries", type=int, default=5, help="link retransmissions before giving up")
    parser.add_argument("--protocol", choices=PROTOCOLS, default=default_protocol,
                        help=f"{default_protocol} (default); 1.2 and later: what was not acknowledged waits for the next session, up to "
                             f"{QUEUE_LIMIT} messages; 1.1: dropped after the retries (PROTOCOL.md §2, §9)")
    parser.add_argument("--key-file", metavar="PATH",
                        help="the device key (64 hex digits, mode 0640 or stricter): protocol 1.1, "
                             "authenticated sessions only (PROTOCOL.md §8)")


class VirtualDevice:
    KIND: DeviceKind
    NAME: str
    TEXT_ARGS: dict[str, tuple[str, ...]] = {}
    DEVICE_FAULTS: tuple[str, ...] = ()

    def __init__(self, options: argparse.Namespace, stdin: BinaryIO | None = None,
                 stdout: TextIO | None = None):
        self.options = options
        self.rng = random.Random()  # boot ids and garbage; a shoe's shuffle has its own seed
        self.out = stdout or sys.stdout
        self.selector = selectors.DefaultSelector()
        self.port = PtyPort(options.link)
        self._pty_registered: int | None = None
        now = time.monotonic()
        self.boot_time = now
        minor = int(getattr(options, "protocol", "1.2").split(".")[1])
        hello = Hello(self.KIND, boot_id=self.rng.getrandbits(32), firmware=FIRMWARE,
                      serial=options.serial or f"SIM-{self.NAME.upper()}-{os.getpid()}", protocol=(1, minor))
        key = load_key(options.key_file) if getattr(options, "key_file", None) else None
        self.key_id = key_id(key) if key is not None else None
        keeps = minor >= 2
        self.link = Link(hello, ack_timeout=options.ack_timeout, retries=options.retries, key=key,
                         keep_unacked=keeps, queue_limit=QUEUE_LIMIT if keeps else None)
        self.faults = WireFaults(self.rng)
        self.stalled_until: float | None = None
        self.log: list[str] = []  # last link events, for `state`
        self.control = ControlServer(options.control, self.selector, self._on_control_line) \
            if options.control else None
        self.script = self._open_script(stdin)
        self._script_sleep_until: float | None = None
        self._script_waiting = False
        self.running = True

    # ------------------------------------------------------------ for subclasses

    def on_message(self, msg: Message, now: float) -> None:
        self.send(Error(ErrorCode.UNSUPPORTED, f"{self.NAME} does not handle {type(msg).__name__}"), now)

    def on_reboot(self, command: Command) -> None:
        """Device state a reboot clears (the link and clock are done here)."""

    def device_state(self) -> Reply:
        return {}

    def next_device_timer(self) -> float | None:
        return None

    def on_device_timer(self, now: float) -> None:
        """A device whose next_device_timer() says when runs its timed work here (the shoe's
        auto-deal); devices without timers never get this call."""

    def device_fault(self, kind: str, command: Command, now: float) -> Reply:
        raise CommandError(f"fault: unknown kind {kind!r}")

    def forged_message(self, command: Command, now: float) -> Message:
        """What `fault forge` injects, as if from this device (the shoe: a card)."""
        raise CommandError(f"fault: forge: the {self.NAME} simulator has nothing to forge")

    # ------------------------------------------------------------ helpers for subclasses

    def device_ms(self, now: float) -> int:
        return int((now - self.boot_time) * 1000) % (1 << 32)

    def send(self, msg: Message, now: float) -> bool:
        """Queue `msg` on the link; False when the queue is full (protocol 1.2, QUEUE_LIMIT):
        it was not queued, and the device says so on stderr and in `state`."""
        if self.link.send(msg, now):
            return True
        self._note_text(f"queue full ({self.link.queue_limit}): {type(msg).__name__} not sent")
        return False

    # ------------------------------------------------------------ the loop

    def run(self) -> int:
        def stop(signum: int, frame: FrameType | None) -> None:
            raise _Stop()
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        try:
            self._announce()
            while self.running:
                self._step()
        except _Stop:
            pass
        finally:
            self.close()
        return 0

    def _announce(self) -> None:
        ready = {"event": "ready", "device": self.NAME, "link": self.port.link_path, "pty": self.port.tty_name,
                 "control": self.control.path if self.control else None, "boot_id": self.link.local.boot_id,
                 "key_id": self.key_id}
        ready.update(self.ready_details())
        self.print_line(json.dumps(ready))

    def ready_details(self) -> Reply:
        return {}

    def print_line(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _step(self) -> None:
        now = time.monotonic()
        self._run_script(now)
        self._sync_pty_registration(now)
        timeout = self._timeout(now)
        for key, _ in self.selector.select(timeout):
            key.data()
        now = time.monotonic()
        if self.stalled_until is not None and now >= self.stalled_until:
            self.stalled_until = None
        if not self.stalled:
            self._handle(self.link.poll(now), now)
            if self.link.connected and (due := self.next_device_timer()) is not None and now >= due:
                self.on_device_timer(now)
            self.flush()

    @property
    def stalled(self) -> bool:
        return self.stalled_until is not None

    def _timeout(self, now: float) -> float | None:
        times = [self.stalled_until, self._script_sleep_until]
        if not self.stalled:
            times += [self.link.next_deadline(), self.next_device_timer() if self.link.connected else None]
        if self.script and self.script.lines and not self._script_blocked(now):
            return 0.0
        if self._script_waiting:
            times.append(now + 0.05)
        due = [t for t in times if t is not None]
        return max(0.0, min(due) - now) if due else None

    def _sync_pty_registration(self, now: float) -> None:
        """Listen to the pty only while plugged in and not stalled (a stalled MCU reads nothing)."""
        wanted = self.port.master if self.port.plugged and not self.stalled else None
        if wanted == self._pty_registered:
            return
        if self._pty_registered is not None:
            try:
                self.selector.unregister(self._pty_registered)
            except (KeyError, ValueError):
                pass
        if wanted is not None:
            self.selector.register(wanted, selectors.EVENT_READ, self._on_pty)
        self._pty_registered = wanted

    def _on_pty(self) -> None:
        data = self.port.read()
        if data:
            now = time.monotonic()
            self._handle(self.link.receive(data, now), now)
            self.flush()

    def flush(self) -> None:
        if self.stalled:
            return
        frames = self.faults.apply(self.link.outgoing_frames())
        if frames:
            self.port.write(b"".join(frames))

    def _handle(self, events: Iterable[LinkEvent], now: float) -> None:
        for event in events:
            if isinstance(event, Message):
                self.on_message(event, now)
            else:
                self._note(event)

    def _note(self, event: LinkEvent) -> None:
        if isinstance(event, (Connected, PeerRebooted)):
            text = f"session with host boot {event.hello.boot_id:#010x}"
        elif isinstance(event, SendFailed):
            text = f"send failed: {type(event.msg).__name__}"
        elif isinstance(event, SessionFailed):
            text = f"session failed: {event.kept} message(s) kept for the next session"
        elif isinstance(event, ProtocolViolation):
            text = f"protocol violation: {event.detail}"
        elif isinstance(event, PeerSilent):
            text = f"host silent for {event.silent_for:.1f}s"
        elif isinstance(event, Tampered):
            text = f"tampered: {event.detail}" + (f" ({event.count} frames)" if event.count > 1 else "")
        elif isinstance(event, SessionRefused):
            text = f"session refused: {event.reason}"
        else:
            text = repr(event)
        self._note_text(text)

    def _note_text(self, text: str) -> None:
        self.log = (self.log + [text])[-20:]
        print(f"{self.NAME}: {text}", file=sys.stderr, flush=True)

    # ------------------------------------------------------------ commands

    def _open_script(self, stream: BinaryIO | None) -> StdinScript | None:
        stream = stream if stream is not None else sys.stdin.buffer
        try:
            return StdinScript(self.selector, stream)
        except (PermissionError, OSError, ValueError):
            return None  # /dev/null or a closed stdin: no script

    def _script_blocked(self, now: float) -> bool:
        if self._script_sleep_until is not None:
            if now < self._script_sleep_until:
                return True
            self._script_sleep_until = None
        if self._script_waiting:
            if not self.link.connected:
                return True
            self._script_waiting = False
        return False

    def _run_script(self, now: float) -> None:
        while self.script and self.script.lines and not self._script_blocked(now) and self.running:
            line = self.script.lines.pop(0)
            try:
                command = parse_text_line(line, {**COMMON_TEXT_ARGS, **self.TEXT_ARGS})
            except CommandError as error:
                self.print_line(reply_line({"ok": False, "error": str(error)}).decode().rstrip())
                continue
            if command is None:
                continue
            if command["cmd"] == "sleep":
                self._script_sleep_until = now + arg_float(command, "seconds", 1.0)
                continue
            if command["cmd"] == "wait":
                self._script_waiting = True
                continue
            self.print_line(reply_line(self.execute(command)).decode().rstrip())
            now = time.monotonic()

    def _on_control_line(self, line: str, reply: Callable[[bytes], None]) -> None:
        try:
            command = parse_json_line(line)
        except CommandError as error:
            reply(reply_line({"ok": False, "error": str(error)}))
            return
        reply(reply_line(self.execute(command)))

    def execute(self, command: Command) -> Reply:
        """Run one command; the reply is always a dict with "ok"."""
        now = time.monotonic()
        name = command["cmd"]
        handler = getattr(self, f"cmd_{name}", None)
        if name in ("sleep", "wait"):
            return {"ok": False, "error": f"{name} is for stdin scripts only"}
        if handler is None:
            names = sorted(n[4:] for n in dir(self) if n.startswith("cmd_"))
            return {"ok": False, "error": f"unknown command {name!r} (one of {', '.join(names)})"}
        try:
            result = handler(command, now) or {}
        except CommandError as error:
            return {"ok": False, "error": str(error)}
        self.flush()
        return {"ok": True, **result}

    def cmd_state(self, command: Command, now: float) -> Reply:
        return {"device": self.NAME, "connected": self.link.connected, "plugged": self.port.plugged,
                "link_path": self.port.link_path, "pty": self.port.tty_name,
                "boot_id": self.link.local.boot_id, "stalled": self.stalled, "key_id": self.key_id,
                "host": self.link.peer.boot_id if self.link.peer else None,
                "protocol": ".".join(map(str, self.link.local.protocol)), "queued": self.link.queued(),
                "link": self.link.link_stats(), "faults_applied": self.faults.applied, "forged": self.faults.forged,
                "dropped_bytes": self.port.dropped_bytes, "log": self.log[-5:], **self.device_state()}

    def cmd_quit(self, command: Command, now: float) -> Reply:
        self.running = False
        return {}

    def cmd_fault(self, command: Command, now: float) -> Reply:
        kind = command.get("kind")
        if kind in FAULT_VALUE_NAMES and "value" in command:
            command = {**command, FAULT_VALUE_NAMES[kind]: command["value"]}
        if kind in FRAME_FAULTS:
            self.faults.arm(kind)
            return {"armed": kind}
        if kind == "garbage":
            count = arg_int(command, "n", 16, 1, 4096)
            if not self.stalled:
                self.flush()
                self.port.write(self.faults.garbage(count))
            return {"garbage": count}
        if kind == "unplug":
            self.port.unplug()
            self.link.decoder.reset()
            return {"plugged": False}
        if kind == "replug":
            self.port.replug()
            return {"plugged": True, "pty": self.port.tty_name}
        if kind == "reboot":
            return self._reboot(command, now)
        if kind == "stall":
            seconds = arg_float(command, "seconds", 2.0)
            self.stalled_until = now + seconds
            return {"stalled_for": seconds}
        if kind == "forge":
            return self._forge(command, now)
        if kind in self.DEVICE_FAULTS:
            return self.device_fault(kind, command, now)
        kinds = ", ".join(COMMON_FAULTS + self.DEVICE_FAULTS)
        raise CommandError(f"fault: kind={kind!r} is not one of {kinds}")

    def _forge(self, command: Command, now: float) -> Reply:
        """Inject a frame the way someone at the line would: a good CRC, the SEQ the host
        expects next, no valid MAC; the link does not know of it."""
        how = arg_choice({**command, "how": command.get("how", "plain")}, "how", FORGERIES)
        msg = self.forged_message(command, now)
        seq = self.link.tx.next_seq
        if self.port.plugged and not self.stalled:
            self.flush()
            self.port.write(forged_frame(self.link, msg, how, self.rng))
            self.faults.forged += 1
        return {"forged": type(msg).__name__, "seq": seq, "how": how}

    def _reboot(self, command: Command, now: float) -> Reply:
        arg_bool(command, "clear_counter", False)  # checked here, used by the shoe
        self.link.reset(self.rng.getrandbits(32))
        self.boot_time = now
        self.stalled_until = None
        self.on_reboot(command)
        self.link.start(now)  # a rebooted device announces itself: an unsolicited HELLO
        return {"boot_id": self.link.local.boot_id}

    def close(self) -> None:
        if self.control:
            self.control.close()
        if self.script:
            self.script.close()
        self.port.close()
        self.selector.close()


def run_device(device_class: type[VirtualDevice], parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    options = parser.parse_args(argv)
    try:
        device = device_class(options)
    except (CommandError, ValueError) as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    return device.run()
