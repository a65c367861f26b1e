"""Every device's session, owned here alone, and driver events turned into table inputs.

A session is `waiting` until the device's first one, `ok` while one is up, `lost` after a
LinkLost (`absent` when it has never been up: the device was not there at start). A lamp
board that reports fewer lamps than the game's map uses is `incomplete`: up, but some result
lamps cannot light (`missing` and the reason say which). The daemon is ready (READY=1) once
every device has had a session; `tablectl status` shows each session (`to_json`).

Each driver event goes through ONE registry keyed by (device kind, event type): its handler
updates the session, names the change to publish (a `device` or `tamper` event), and turns
the event into table inputs (docs/table.md, "From driver events to table inputs"). An event
without a handler is journaled only. A new device kind is one entry of `kinds` (its handlers) in DeviceSessions.

The shoe's proof (local ruling L4): when its session comes up (first connect, link restored,
reboot) the proof is owed, and the session's first status carries it: it becomes
ShoeLinkRestored(counter) (ShoeRebooted(counter) after a reboot); a later status hands the
table its counter as ShoeCounter(counter). What the counter proves is the table's to judge
(controller/table/draw_counter.py).

Which status fields changed is the driver's to say (`changed`, across reconnects, so a
reconnect does not read as "door closed" and "a shoe is in"). Only the very first status
after start-up names every field: the baseline is then what the table already knows
(restored from its journal), and only the fields that differ become inputs.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.daemon.device_record import device_record
from controller.journal import RecordKind
from controller.table import Table, UnknownButton, command_for_button, lamp_ids
from controller.table import inputs as i
from drivers import events as ev

SESSION_UP = {ev.DeviceConnected: "connected", ev.LinkRestored: "restored", ev.DeviceRebooted: "rebooted"}


@dataclass
class Session:
    state: str = "waiting"  # waiting / ok / lost / absent / incomplete
    reason: str = ""
    ever_up: bool = False
    boot_id: int | None = None
    tampered: int = 0  # frames that failed authentication since the daemon started
    missing: tuple[int, ...] = ()  # lamp ids the game uses that the board does not have
    authenticated: bool | None = None  # a key is configured for it (None: no driver watched)
    frame_counts: Callable[[], dict[str, int]] = field(default=dict)  # the driver's line counters
    proof_owed: str | None = None  # the session came up ("connected" / "restored" / "rebooted"): its first status proves
    baseline_due: bool = True  # no status heard since start-up: compared with what the table knows

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


Handler = Callable[[Session, Any, Translation], None]


class DeviceSessions:
    """One per daemon, used from the loop's thread only."""

    def __init__(self, game_key: str, table: Table) -> None:
        self.game_key = game_key
        self.table = table  # read for the start-up baseline (door, key, cut card)
        self.lamps_used = frozenset(lamp_ids(game_key).values())  # the board must have them all
        link: dict[type, Handler] = {**dict.fromkeys(SESSION_UP, self._up), ev.LinkLost: self._lost, ev.LinkRefused: self._lost,
                ev.DeviceError: self._error, ev.FrameTampered: self._tampered}
        kinds: dict[str, dict[type, Handler]] = {
            "shoe": {**dict.fromkeys(SESSION_UP, self._shoe_up), ev.LinkLost: self._shoe_lost,
                     ev.FrameTampered: self._shoe_tampered, ev.CardDrawn: self._card_drawn,
                     ev.ShoeStatusChanged: self._shoe_status},
            "panel": {ev.ButtonPressed: self._button_pressed, ev.KeyTurned: self._key_turned,
                      ev.PanelState: self._panel_state},
            "lights": {ev.LampReport: self._lamp_report},
        }
        self.devices = {name: Session() for name in kinds}  # shoe, panel, lights: STATUS= names them in this order
        self.registry: dict[tuple[str, type], Handler] = {
            (kind, event_type): handler for kind, own in kinds.items() for event_type, handler in {**link, **own}.items()}

    def translate(self, event: ev.DeviceEvent) -> Translation:
        out = Translation(device_record(event))
        handler = self.registry.get((event.device, type(event)))
        if handler is not None:
            handler(self.devices[event.device], event, out)
        return out

    # ------------------------------------------------------------ what status and STATUS= say
    def watch(self, name: str, driver: Any) -> None:
        """Show `driver`'s authentication and line counters in the status (drivers.device)."""
        session = self.devices[name]
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
    def _up(self, s: Session, e: ev.DeviceConnected | ev.LinkRestored | ev.DeviceRebooted, out: Translation) -> None:
        s.state, s.reason, s.ever_up, s.boot_id = "ok", "", True, e.hello.boot_id
        out.change = {"event": "device", "device": e.device, "link": SESSION_UP[type(e)], "boot_id": e.hello.boot_id}

    def _lost(self, s: Session, e: ev.LinkLost | ev.LinkRefused, out: Translation) -> None:
        s.state, s.reason = ("lost" if s.ever_up else "absent"), e.reason
        out.change = {"event": "device", "device": e.device, "link": s.state, "reason": e.reason}

    def _error(self, s: Session, e: ev.DeviceError, out: Translation) -> None:
        out.change = {"event": "device", "device": e.device, "error": e.detail, "code": e.code}

    def _tampered(self, s: Session, e: ev.FrameTampered, out: Translation) -> None:
        s.tampered += e.count
        out.kind = RecordKind.TAMPER
        out.change = {"event": "tamper", "device": e.device, "detail": e.detail, "count": e.count}

    # ------------------------------------------------------------ shoe
    def _shoe_up(self, s: Session, e: ev.DeviceConnected | ev.LinkRestored | ev.DeviceRebooted, out: Translation) -> None:
        self._up(s, e, out)
        s.proof_owed = SESSION_UP[type(e)]

    def _shoe_lost(self, s: Session, e: ev.LinkLost, out: Translation) -> None:
        self._lost(s, e, out)
        s.proof_owed = None
        out.inputs.append(i.ShoeLinkLost(e.reason))

    def _shoe_tampered(self, s: Session, e: ev.FrameTampered, out: Translation) -> None:
        """Local ruling L8: two frames for one SEQ, one of them a card: the card dealt may be forged."""
        self._tampered(s, e, out)
        if e.disputed is not None and "CARD" in (e.disputed["taken"]["type"], e.disputed["repeat"]["type"]):
            out.inputs.append(i.CardDisputed(e.detail, e.disputed))

    def _card_drawn(self, s: Session, e: ev.CardDrawn, out: Translation) -> None:
        out.inputs.append(e)  # the table's card input as it is (controller/table/inputs.py Card)

    def _shoe_status(self, s: Session, e: ev.ShoeStatusChanged, out: Translation) -> None:
        if s.proof_owed is not None:
            restore = i.ShoeRebooted if s.proof_owed == "rebooted" else i.ShoeLinkRestored
            out.inputs.append(restore(draw_counter=e.draw_counter))
            s.proof_owed = None
        else:
            out.inputs.append(i.ShoeCounter(e.draw_counter))
        changed = e.changed
        if s.baseline_due:
            s.baseline_due = False
            known = {"present": True, "door_open": self.table.door_open,
                     "cut_card": self.table.shoe.cut_card_seen, "empty": False}
            changed = tuple(name for name in changed if getattr(e, name) != known[name])
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
