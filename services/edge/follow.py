"""The edge service: follow the table's journal from the start of the shoe in play and print one
line per round with the house edge of every wager for the next round; alert (and log, for
surveillance) when a wager turns in the players' favour past the margin.

    follow_edge(journal, socket, tracker, emit=print_line, stop=threading.Event(), count=None)

Records come from services.follow.JournalFollower (woken by the daemon's event stream, polling
the journal while the daemon is away), so the lines are the same whether the service started
before the daemon, after it, or restarted in the middle of a shoe.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

import structlog

from controller.journal import JournalError, Record
from controller.journal.shoes import current_load_start
from services.edge.tracker import EdgeLine, EdgeTracker
from services.follow import JournalFollower, Link

log = structlog.get_logger("edge")


def start_cursor(journal_path: str) -> int:
    """Follow from just before the record that began the shoe in play (0: from the start)."""
    try:
        start = current_load_start(journal_path)
    except JournalError:
        return 0  # no journal yet: the follower waits for it and says so
    return 0 if start is None else start - 1


def follow_edge(journal_path: str, socket_path: str, tracker: EdgeTracker, emit: Callable[[EdgeLine], None],
                stop: threading.Event, count: int | None = None, poll_s: float = 1.0) -> int:
    """Run until `stop` is set (or `count` lines were emitted); returns the lines emitted."""
    follower = JournalFollower(journal_path, socket_path, since=start_cursor(journal_path), poll_s=poll_s)
    emitted = 0
    for item in follower.items(stop):
        if isinstance(item, Link):
            _log_link(item)
            continue
        line = _feed(tracker, item)
        if line is None:
            continue
        for key, edge in line.alerts.items():
            log.warning("player_advantage", game=line.report.game, round=line.round, shoe=line.shoe, wager=key,
                        house_edge=float(edge), house_edge_exact=str(edge), cards_left=line.report.cards_left,
                        margin=float(line.margin), seq=line.seq)
        emit(line)
        emitted += 1
        if count is not None and emitted >= count:
            stop.set()
            break  # the rest of a backlog's batch is not ours to print
    follower.close()
    return emitted


def _feed(tracker: EdgeTracker, record: Record) -> EdgeLine | None:
    try:
        return tracker.feed(record)
    except (ValueError, JournalError) as error:  # a game or deck count tablectl does not know; a damaged record
        log.error("record_not_followed", seq=record.seq, kind=record.kind, error=str(error))
        return None


def _log_link(link: Link) -> None:
    if link.journal_error:
        log.warning("journal_unreadable", error=link.journal_error)
    else:
        log.info("daemon_online" if link.online else "daemon_offline")
