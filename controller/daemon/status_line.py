"""The one human line of systemd's STATUS= (what `systemctl status tablectl` shows), e.g.

    fortune6 · shoe 3 · round 57 betting · shoe ok · panel ok · lights lost
    starting: waiting for the lights (cannot open /dev/tablectl/lights: ...) · fortune6 · no shoe · ...
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from games.integrity import CLAUSE

if TYPE_CHECKING:
    from controller.daemon.sessions import DeviceSessions
    from controller.table import Table


def status_line(table: Table, sessions: DeviceSessions, ready: bool, note: str = "") -> str:
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
    parts += [f"{name} missing {len(s.missing)} lamp{'s' if len(s.missing) > 1 else ''}"
              if s.state == "incomplete" else f"{name} {s.state}" for name, s in sessions.devices.items()]
    line = " · ".join(parts)
    if not ready:
        waiting = []
        for name in sessions.waiting_for():
            reason = sessions.devices[name].reason
            waiting.append(f"the {name}" + (f" ({reason})" if reason else ""))
        line = f"starting: waiting for {', '.join(waiting)} · {line}"
    if note:
        line = f"{note} · {line}"
    return line
