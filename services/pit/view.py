"""The pit's terminal view: one line per table, fitted to the terminal's width, alarms below;
and the one-line text form of a change for a log or a pipe."""
from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass

from services.pit.floor import TableView
from services.pit.store import Alarm

ELLIPSIS = "…"
GAP = "  "


@dataclass(frozen=True)
class Column:
    name: str
    width: int  # at full width
    least: int  # narrowest it shrinks to before columns are dropped
    keep: int  # when the terminal is too narrow even so, the lowest goes first


COLUMNS = (Column("TABLE", 16, 8, 9), Column("GAME", 8, 8, 3), Column("ROUND", 6, 5, 6), Column("STATE", 8, 8, 7),
           Column("LAST RESULT", 22, 12, 5), Column("HOLD", 5, 4, 4), Column("IRREG", 5, 5, 1),
           Column("LINK", 24, 13, 8), Column("BEHIND", 6, 6, 0), Column("ALARMS", 6, 6, 10))


def _link(view: TableView) -> str:
    since = (view.link_since or "")[11:19]
    if view.link == "online":
        return "online" + (" (daemon off)" if view.daemon == "offline" else "")
    return f"{view.link} since {since}" if since else view.link


def _cells(view: TableView) -> list[str]:
    return [view.table, view.game or "?", str(view.round or "-"), view.round_state or "-", view.last_result or "-",
            str(len(view.holds)) if view.holds else "-", str(view.irregularities) if view.irregularities else "-",
            _link(view), str(view.held_back) if view.held_back else "-", str(view.alarms) if view.alarms else "-"]


def layout(width: int) -> list[tuple[int, int]]:
    """(column index, width) of the columns shown in `width` characters: the least needed ones
    left out while even their narrowest (`least`) would not fit, then the others narrowed from
    full width, the one with most to spare first, so that each table keeps to one line."""
    shown = list(range(len(COLUMNS)))
    while len(shown) > 1 and sum(COLUMNS[i].least for i in shown) + len(GAP) * (len(shown) - 1) > width:
        shown.remove(min(shown, key=lambda i: COLUMNS[i].keep))
    widths = {i: COLUMNS[i].width for i in shown}
    while sum(widths.values()) + len(GAP) * (len(shown) - 1) > width:
        narrowable = [i for i in shown if widths[i] > COLUMNS[i].least]
        if not narrowable:
            break
        widths[max(narrowable, key=lambda i: widths[i] - COLUMNS[i].least)] -= 1
    return sorted(widths.items())


def fit(text: str, width: int) -> str:
    """`text`, or as much as fits with "…" at the end."""
    return text if len(text) <= width else text[:max(width - 1, 0)] + ELLIPSIS


def _line(cells: list[str], columns: list[tuple[int, int]]) -> str:
    return GAP.join(fit(cells[i], w).ljust(w) for i, w in columns).rstrip()


def render(views: Iterable[TableView], alarms: list[Alarm], title: str, width: int = 200, notice: str | None = None,
           height: int | None = None) -> str:
    """The floor in lines of at most `width` characters: the title, `notice` (why the pit is
    not connected, say) wrapped below it, one line per table, then holds and alarms; at most
    `height` lines, the last saying how many more there are."""
    views = sorted(views, key=lambda v: v.table)
    columns = layout(width)
    lines = [fit(title, width)]
    if notice:
        lines += textwrap.wrap(notice, width, subsequent_indent="  ", break_on_hyphens=False)
    lines += ["", _line([c.name for c in COLUMNS], columns)]
    lines += [_line(_cells(view), columns) for view in views] or ["(no table heard yet)"]
    holds = [fit(f"  {view.table}  {hold}", width) for view in views for hold in view.holds]
    if holds:
        lines += ["", "HOLDS", *holds]
    if alarms:
        lines += ["", f"ALARMS ({len(alarms)} open)"]
        lines += [fit(f"  {a.raised_at[11:19]}  {a.table}  {a.kind}: {a.detail}", width) for a in alarms[-10:]]
    if height is not None and len(lines) > height:
        more = len(lines) - height + 1
        lines = lines[:height - 1] + [fit(f"{ELLIPSIS} {more} more lines (a taller terminal shows them)", width)]
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
