"""Every device's session, owned here alone, and driver events turned into table inputs.

Drivers report raw facts (drivers/events.py): each session that comes up (SessionUp, with
the device's HELLO), each loss (LinkDown), each refusal (SessionRefused), each shoe status
whole (ShoeStatusHeard). What they mean is judged here, once:

- A session is `waiting` until the device's first one, `ok` while one is up, `lost` after a
  loss (`absent` when it has never been up: the device was not there at start). A lamp board
  that reports fewer lamps than the game's map uses is `incomplete`: up, but some result
  lamps cannot light (`missing` and the reason say which). The daemon is ready (READY=1) once
  every device has had a session; `tablectl status` shows each session (`to_json`).
- A HELLO is `connected` (the first), `restored` (after a loss), `rebooted` (a boot id other
  than the session's: after a loss, restored then rebooted), or nothing new (the device
  renewed a session that was up). A loss or a refusal while the session is already lost is
  nothing new, except a refusal for a new reason (`LinkRefused`); a device of another kind
  is a `DeviceError` once, then lost.
- The shoe's status baseline: which fields changed since the last status heard, across
  reconnects and reboots (the fields are physical: a reconnect that finds the door as it was
  says nothing about it). A status that changes nothing and owes no proof is journaled not.
  The very first status after start-up is compared with what the table already knows
  (restored from its journal): only the fields that differ become inputs.
- The shoe's proof (local ruling L4): when its session comes up (connected, restored,
  rebooted) the proof is owed, and the session's first status carries it: it becomes
  ShoeLinkRestored(counter) (ShoeRebooted(counter) after a reboot); a later status hands the
  table its counter as ShoeCounter(counter). What the counter proves is the table's to judge
  (controller/table/draw_counter.py).

Each driver event goes through ONE registry keyed by (device kind, event type): its handler
updates the session, names the change to publish (a `device` or `tamper` event), and turns
the event into table inputs (docs/table.md, "From driver events to table inputs"). An event
without a handler is journaled only. A new device kind is one entry of `kinds` (its handlers)
in DeviceSessions. The `device` records of session changes keep the journal's names
(DeviceConnected, LinkRestored, DeviceRebooted, LinkLost, LinkRefused, DeviceError,
ShoeStatusChanged with its `changed`): docs/journal.md.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.config.schema import OPTIONAL_DEVICES
from controller.daemon.bet_session import BetSession
from controller.daemon.device_record import device_record, plain
from controller.journal import RecordKind
from controller.table import Table, UnknownButton, command_for_button, lamp_ids
from controller.table import inputs as i
from drivers import events as ev

# A session that comes up, by what it is, and the name its `device` record has in the journal.
SESSION_UP = {"connected": "DeviceConnected", "restored": "LinkRestored", "rebooted": "DeviceRebooted"}
STATUS_FIELDS = ("present", "door_open", "cut_card", "empty")  # the shoe's status, as ShoeStatusHeard names it
DOWN = ("lost", "absent")
# The link's raw facts: journaled only as the session changes they make (Translation.step).
LINK_FACTS = (ev.SessionUp, ev.LinkDown, ev.SessionRefused)


@dataclass
class Session:
    state: str = "waiting"  # waiting / ok / lost / absent / incomplete / mismatch (a bet layout that does not fit)
    reason: str = ""
    ever_up: bool = False
    boot_id: int | None = None
    tampered: int = 0  # frames that failed authentication since the daemon started
    missing: tuple[int, ...] = ()  # lamp ids the game uses that the board does not have
    authenticated: bool | None = None  # a key is configured for it (None: no driver watched)
    frame_counts: Callable[[], dict[str, int]] = field(default=dict)  # the driver's line counters
    proof_owed: str | None = None  # the session came up ("connected" / "restored" / "rebooted"): its first status proves
    status: dict[str, bool] | None = None  # the last status heard (the baseline); None: none since start-up

    def to_json(self) -> dict[str, Any]:
        return {"link": self.state, "reason": self.reason or None, "boot_id": self.boot_id, "tampered": self.tampered,
                "missing_lamps": list(self.missing), "authenticated": self.authenticated,
                "frames": self.frame_counts()}


@dataclass
class Translation:
    record: dict[str, Any]  # the event's journal record
    inputs: list[Any] = field(default_factory=list)  # table inputs, in order
    problem: str | None = None  # the event cannot become an input (an unknown button): an `error` record
    kind: str = RecordKind.DEVICE  # `tamper` for a frame that failed authentication: never delivered, on record
    button: int | None = None  # the panel's button: the answer to its command is published
    change: dict[str, Any] | None = None  # the session's change, published before the inputs' effects
    journaled: bool = True  # False: nothing new (a loss already told, a renewed session, the same status): no record
    # session changes the same event made before this one, each with its own record and change
    # (a link restored, then the reboot it found; a device of another kind, then the link lost)
    prior: list[Translation] = field(default_factory=list)

    def step(self, record: dict[str, Any], change: dict[str, Any]) -> None:
        """One more session change: the one this holds so far goes first (to `prior`)."""
        if self.journaled:
            self.prior.append(Translation(self.record, kind=self.kind, change=self.change))
        self.record, self.change, self.journaled = record, change, True


Handler = Callable[[Session, Any, Translation], object]


class DeviceSessions:
    """One per daemon, used from the loop's thread only."""

    def __init__(self, game_key: str, table: Table) -> None:
        self.game_key = game_key
        self.table = table  # read for the start-up baseline (door, key, cut card)
        self.lamps_used = frozenset(lamp_ids(game_key).values())  # the board must have them all
        link: dict[type, Handler] = {ev.SessionUp: self._up, ev.LinkDown: self._down, ev.SessionRefused: self._refused,
                                     ev.DeviceError: self._error, ev.FrameTampered: self._tampered}
        self.bets = BetSession(game_key, self._up, self._down, self._refused)  # its layout and chips (bet_session.py)
        kinds: dict[str, dict[type, Handler]] = {
            "shoe": {ev.SessionUp: self._shoe_up, ev.LinkDown: self._shoe_down, ev.SessionRefused: self._shoe_refused,
                     ev.FrameTampered: self._shoe_tampered, ev.CardDrawn: self._card_drawn,
                     ev.ShoeStatusHeard: self._shoe_status},
            "panel": {ev.ButtonPressed: self._button_pressed, ev.KeyTurned: self._key_turned,
                      ev.PanelState: self._panel_state},
            "lights": {ev.LampReport: self._lamp_report},
            "bets": self.bets.handlers(),
        }
        # shoe, panel, lights: STATUS= names them in this order; the bet sensor once watched (a table may have none)
        self.devices = {name: Session() for name in kinds if name not in OPTIONAL_DEVICES}
        self.registry: dict[tuple[str, type], Handler] = {
            (kind, event_type): handler for kind, own in kinds.items() for event_type, handler in {**link, **own}.items()}

    def translate(self, event: ev.DeviceEvent) -> Translation:
        handler = self.registry.get((event.device, type(event)))
        if handler is None:
            return Translation(device_record(event))
        out = Translation(device_record(event), journaled=type(event) not in LINK_FACTS)
        handler(self.devices[event.device], event, out)
        return out

    # ------------------------------------------------------------ what status and STATUS= say
    def watch(self, name: str, driver: Any) -> None:
        """Show `driver`'s authentication and line counters in the status (drivers.device). An
        optional device (the bet sensor) gets its session here: READY waits for it only when
        the table has one."""
        session = self.devices.setdefault(name, Session())
        session.authenticated, session.frame_counts = driver.authenticated, driver.frame_counts

    def unauthenticated(self) -> list[str]:
        return [name for name, session in self.devices.items() if session.authenticated is False]

    @property
    def all_up_once(self) -> bool:
        return all(session.ever_up for session in self.devices.values())

    def waiting_for(self) -> list[str]:
        return [name for name, session in self.devices.items() if not session.ever_up]

    def to_json(self) -> dict[str, Any]:
        return {name: session.to_json() for name, session in self.devices.items()}

    # ------------------------------------------------------------ every device's link
    def _up(self, s: Session, e: ev.SessionUp, out: Translation) -> list[str]:
        """A HELLO: what it is for the session (SESSION_UP's names, in order; none: the device
        renewed a session that was up, nothing new)."""
        rebooted = s.boot_id is not None and e.hello.boot_id != s.boot_id
        if not s.ever_up:
            steps = ["connected"]
        elif s.state in DOWN:
            steps = ["restored", "rebooted"] if rebooted else ["restored"]
        else:
            steps = ["rebooted"] if rebooted else []
        for step in steps:
            out.step({"device": e.device, "event": SESSION_UP[step], "hello": plain(e.hello)},
                     {"event": "device", "device": e.device, "link": step, "boot_id": e.hello.boot_id})
        if steps:
            s.state, s.reason, s.ever_up, s.boot_id = "ok", "", True, e.hello.boot_id
        return steps

    def _down(self, s: Session, e: ev.LinkDown | ev.SessionRefused, out: Translation) -> bool:
        """A loss: news (the session is lost, or absent) only while it was not down already."""
        if s.state in DOWN:
            return False
        s.state, s.reason = ("lost" if s.ever_up else "absent"), e.reason
        out.step({"device": e.device, "event": "LinkLost", "reason": e.reason},
                 {"event": "device", "device": e.device, "link": s.state, "reason": e.reason})
        return True

    def _refused(self, s: Session, e: ev.SessionRefused, out: Translation) -> bool:
        """No session: a device of another kind is an error once, then the link is lost; while
        the link is down already, a refusal for a new reason is LinkRefused (once per reason)."""
        if s.state in DOWN:
            if e.hello is None and e.reason != s.reason:
                s.reason = e.reason
                out.step({"device": e.device, "event": "LinkRefused", "reason": e.reason},
                         {"event": "device", "device": e.device, "link": s.state, "reason": e.reason})
            return False
        if e.hello is not None:
            out.step({"device": e.device, "event": "DeviceError", "code": None, "detail": e.reason},
                     {"event": "device", "device": e.device, "error": e.reason, "code": None})
        return self._down(s, e, out)

    def _error(self, s: Session, e: ev.DeviceError, out: Translation) -> None:
        out.change = {"event": "device", "device": e.device, "error": e.detail, "code": e.code}

    def _tampered(self, s: Session, e: ev.FrameTampered, out: Translation) -> None:
        s.tampered += e.count
        out.kind = RecordKind.TAMPER
        out.change = {"event": "tamper", "device": e.device, "detail": e.detail, "count": e.count}

    # ------------------------------------------------------------ shoe
    def _shoe_up(self, s: Session, e: ev.SessionUp, out: Translation) -> None:
        steps = self._up(s, e, out)
        if steps:
            s.proof_owed = steps[-1]

    def _shoe_down(self, s: Session, e: ev.LinkDown, out: Translation) -> None:
        if self._down(s, e, out):
            self._shoe_lost(s, e.reason, out)

    def _shoe_refused(self, s: Session, e: ev.SessionRefused, out: Translation) -> None:
        if self._refused(s, e, out):
            self._shoe_lost(s, e.reason, out)

    def _shoe_lost(self, s: Session, reason: str, out: Translation) -> None:
        s.proof_owed = None
        out.inputs.append(i.ShoeLinkLost(reason))

    def _shoe_tampered(self, s: Session, e: ev.FrameTampered, out: Translation) -> None:
        """Local ruling L8: two frames for one SEQ, one of them a card: the card dealt may be forged."""
        self._tampered(s, e, out)
        if e.disputed is not None and "CARD" in (e.disputed["taken"]["type"], e.disputed["repeat"]["type"]):
            out.inputs.append(i.CardDisputed(e.detail, e.disputed))

    def _card_drawn(self, s: Session, e: ev.CardDrawn, out: Translation) -> None:
        out.inputs.append(e)  # the table's card input as it is (controller/table/inputs.py Card)

    def _shoe_status(self, s: Session, e: ev.ShoeStatusHeard, out: Translation) -> None:
        heard = {name: bool(getattr(e, name)) for name in STATUS_FIELDS}
        previous, s.status = s.status, heard
        changed = tuple(name for name in STATUS_FIELDS if previous is None or previous[name] != heard[name])
        if not changed and s.proof_owed is None:
            out.journaled = False  # the same status again: nothing new
            return
        out.record.update(event="ShoeStatusChanged", changed=list(changed))  # the journal's name, and what changed
        if s.proof_owed is not None:
            restore = i.ShoeRebooted if s.proof_owed == "rebooted" else i.ShoeLinkRestored
            out.inputs.append(restore(draw_counter=e.draw_counter))
            s.proof_owed = None
        else:
            out.inputs.append(i.ShoeCounter(e.draw_counter))
        if previous is None:  # the first status since start-up: against what the table knows
            known = {"present": True, "door_open": self.table.door_open,
                     "cut_card": self.table.shoe.cut_card_seen, "empty": False}
            changed = tuple(name for name in changed if heard[name] != known[name])
        for name in changed:
            if name == "door_open":
                out.inputs.append(i.ShoeDoor(e.door_open))
            elif name == "present":
                out.inputs.append(i.ShoePresence(e.present))
            elif name == "cut_card" and e.cut_card:
                out.inputs.append(i.CutCard())
            elif name == "empty" and e.empty:
                out.inputs.append(i.ShoeEmpty())

    # ------------------------------------------------------------ panel
    def _button_pressed(self, s: Session, e: ev.ButtonPressed, out: Translation) -> None:
        out.button = e.button
        out.record["by"] = {"source": "panel", "button": e.button}  # who gave a command: the panel, by its button
        try:
            command = command_for_button(self.game_key, e.button)
        except UnknownButton as error:
            out.problem = str(error)
            return
        out.record["command"] = command.name
        out.inputs.append(command)

    def _key_turned(self, s: Session, e: ev.KeyTurned, out: Translation) -> None:
        out.record["by"] = {"source": "panel", "key": "on" if e.on else "off"}
        out.inputs.append(i.SupervisorKey(e.on))

    def _panel_state(self, s: Session, e: ev.PanelState, out: Translation) -> None:
        if e.key_on != self.table.key_on:  # turned while the panel was not heard
            out.inputs.append(i.SupervisorKey(e.key_on))

    # ------------------------------------------------------------ lamp board
    def _lamp_report(self, s: Session, e: ev.LampReport, out: Translation) -> None:
        """A board of len(lamps) lamps (ids 0..n-1), as it reports at every session."""
        count = len(e.lamps)
        missing = tuple(sorted(lamp for lamp in self.lamps_used if lamp >= count))
        if missing == s.missing and (s.state == "incomplete") == bool(missing):
            return
        s.missing = missing
        if missing and s.state == "ok":
            s.state = "incomplete"
            s.reason = (f"lamp{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} of the game's map "
                        f"not on the board (it has {count}: 0-{count - 1})")
        elif not missing and s.state == "incomplete":
            s.state, s.reason = "ok", ""
        out.change = {"event": "device", "device": "lights", "link": s.state, "reason": s.reason or None,
                      "missing_lamps": list(missing)}
