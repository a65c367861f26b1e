"""The pit's terminal view: one line per table, alarms below; and the one-line text form of
a change for a log or a pipe."""
from __future__ import annotations

from collections.abc import Iterable

from services.pit.floor import TableView
from services.pit.store import Alarm

COLUMNS = (("TABLE", 16), ("GAME", 8), ("ROUND", 6), ("STATE", 8), ("LAST RESULT", 22), ("HOLD", 5),
           ("IRREG", 5), ("LINK", 24), ("BEHIND", 6), ("ALARMS", 6))


def _link(view: TableView) -> str:
    since = (view.link_since or "")[11:19]
    if view.link == "online":
        return "online" + (" (daemon off)" if view.daemon == "offline" else "")
    return f"{view.link} since {since}" if since else view.link


def _cells(view: TableView) -> list[str]:
    return [view.table, view.game or "?", str(view.round or "-"), view.round_state or "-", view.last_result or "-",
            str(len(view.holds)) if view.holds else "-", str(view.irregularities) if view.irregularities else "-",
            _link(view), str(view.held_back) if view.held_back else "-", str(view.alarms) if view.alarms else "-"]


def _line(cells: Iterable[str]) -> str:
    return "  ".join(cell[:width].ljust(width) for cell, (_, width) in zip(cells, COLUMNS)).rstrip()


def render(views: Iterable[TableView], alarms: list[Alarm], title: str) -> str:
    views = sorted(views, key=lambda v: v.table)
    lines = [title, "", _line(name for name, _ in COLUMNS)]
    lines += [_line(_cells(view)) for view in views] or ["(no table heard yet)"]
    holds = [f"  {view.table}  {hold}" for view in views for hold in view.holds]
    if holds:
        lines += ["", "HOLDS", *holds]
    if alarms:
        lines += ["", f"ALARMS ({len(alarms)} open)"]
        lines += [f"  {a.raised_at[11:19]}  {a.table}  {a.kind}: {a.detail}" for a in alarms[-10:]]
    return "\n".join(lines)


def change_text(line: dict) -> str:
    """One line for a change (the JSON line's content, for people)."""
    kind = line.get("type")
    if kind == "table":
        view = TableView(**{k: v for k, v in line.items() if k != "type"})
        return "  ".join(c for c in _cells(view)).rstrip()
    if kind in ("alarm", "alarm_cleared"):
        word = "ALARM" if kind == "alarm" else "cleared"
        return f"{word} {line['table']} {line['kind']}: {line['detail']}"
    return str(line)
