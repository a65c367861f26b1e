"""What the daemon knows about its three device links, and the STATUS= line built from it.

A link is `waiting` until its first session, `ok` while a session is up, `lost` after a
LinkLost (`absent` when it has never been up: the device was not there at start). A lamp
board that reports fewer lamps than the game's map uses is `incomplete`: up, but some result
lamps cannot light (its `missing` ids and the reason say which). The
daemon is ready (READY=1) once every device has had a session. The STATUS line is what
`systemctl status tablectl` shows, e.g.

    fortune6 · shoe 3 · round 57 betting · shoe ok · panel ok · lights lost
    starting: waiting for the lights (cannot open /dev/tablectl/lights: ...) · fortune6 · no shoe · ...
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from drivers import events as ev
from games.integrity import CLAUSE

DEVICES = ("shoe", "panel", "lights")


@dataclass
class Link:
    state: str = "waiting"  # waiting / ok / lost / absent
    reason: str = ""
    ever_up: bool = False
    boot_id: int | None = None
    tampered: int = 0  # frames that failed authentication since the daemon started
    missing: tuple[int, ...] = ()  # lamp ids the game uses that the board does not have
    authenticated: bool | None = None  # a key is configured for it (None: no driver watched)
    frame_counts: Callable[[], dict[str, int]] = field(default=dict)  # the driver's line counters

    def to_json(self) -> dict:
        return {"link": self.state, "reason": self.reason or None, "boot_id": self.boot_id, "tampered": self.tampered,
                "missing_lamps": list(self.missing), "authenticated": self.authenticated,
                "frames": self.frame_counts()}


class Links:
    def __init__(self, lamps_used: frozenset[int] = frozenset()) -> None:
        self.devices = {name: Link() for name in DEVICES}
        self.lamps_used = lamps_used  # the lamp ids of the game's map: the board must have them all

    def watch(self, name: str, driver) -> None:
        """Show `driver`'s authentication and line counters in the status (drivers.device)."""
        link = self.devices[name]
        link.authenticated, link.frame_counts = driver.authenticated, driver.frame_counts

    def unauthenticated(self) -> list[str]:
        return [name for name, link in self.devices.items() if link.authenticated is False]

    @property
    def all_up_once(self) -> bool:
        return all(link.ever_up for link in self.devices.values())

    def note(self, event: ev.DeviceEvent) -> dict | None:
        """Update from a driver event; returns an event-stream event for a link change."""
        link = self.devices.get(event.device)
        if link is None:
            return None
        if isinstance(event, (ev.DeviceConnected, ev.LinkRestored, ev.DeviceRebooted)):
            what = {ev.DeviceConnected: "connected", ev.LinkRestored: "restored",
                    ev.DeviceRebooted: "rebooted"}[type(event)]
            link.state, link.reason, link.ever_up, link.boot_id = "ok", "", True, event.hello.boot_id
            return {"event": "device", "device": event.device, "link": what, "boot_id": event.hello.boot_id}
        if isinstance(event, (ev.LinkLost, ev.LinkRefused)):
            link.state, link.reason = ("lost" if link.ever_up else "absent"), event.reason
            return {"event": "device", "device": event.device, "link": link.state, "reason": event.reason}
        if isinstance(event, ev.DeviceError):
            return {"event": "device", "device": event.device, "error": event.detail, "code": event.code}
        if isinstance(event, ev.LampReport):
            return self._lamps_on_board(link, len(event.lamps))
        if isinstance(event, ev.FrameTampered):
            link.tampered += event.count
            return {"event": "tamper", "device": event.device, "detail": event.detail, "count": event.count}
        return None

    def _lamps_on_board(self, link: Link, count: int) -> dict | None:
        """A board of `count` lamps (ids 0..count-1), as it reports at every session."""
        missing = tuple(sorted(i for i in self.lamps_used if i >= count))
        if missing == link.missing and (link.state == "incomplete") == bool(missing):
            return None
        link.missing = missing
        if missing and link.state == "ok":
            link.state = "incomplete"
            link.reason = (f"lamp{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} of the game's map "
                           f"not on the board (it has {count}: 0-{count - 1})")
        elif not missing and link.state == "incomplete":
            link.state, link.reason = "ok", ""
        return {"event": "device", "device": "lights", "link": link.state, "reason": link.reason or None,
                "missing_lamps": list(missing)}

    def to_json(self) -> dict:
        return {name: link.to_json() for name, link in self.devices.items()}

    def waiting_for(self) -> list[str]:
        return [name for name, link in self.devices.items() if not link.ever_up]


def status_line(table, links: Links, ready: bool, note: str = "") -> str:
    """One human line for systemd's STATUS=."""
    parts = [table.game.key]
    shoe = table.shoe
    if not shoe.number:
        parts.append("no shoe")
    else:
        parts.append(f"shoe {shoe.number}" + ("" if shoe.state == "in_play" else f" {shoe.state.replace('_', ' ')}"))
    if table.play is not None:
        parts.append(f"round {table.play.number} {table.state.replace('_', ' ')}")
    else:
        parts.append("no round yet")
    if table.integrity.blocked:
        parts.append(f"shoe failed an integrity check: waits for the supervisor ({CLAUSE})")
    parts += [f"{name} missing {len(link.missing)} lamp{'s' if len(link.missing) > 1 else ''}"
              if link.state == "incomplete" else f"{name} {link.state}" for name, link in links.devices.items()]
    line = " · ".join(parts)
    if not ready:
        waiting = []
        for name in links.waiting_for():
            reason = links.devices[name].reason
            waiting.append(f"the {name}" + (f" ({reason})" if reason else ""))
        line = f"starting: waiting for {', '.join(waiting)} · {line}"
    if note:
        line = f"{note} · {line}"
    return line
