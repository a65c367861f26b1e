"""The daemon's part of `tablectl status` (its `daemon` object): readiness, the devices, the
journal, the control socket, the loop's timings. Its fields are read by other programs: the
control socket's protocol (docs/control.md) names them."""
from __future__ import annotations

import gc
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

from controller.daemon.committer import Committer
from controller.daemon.inbox import Inbox
from controller.daemon.journal_trust import JournalTrust
from controller.daemon.sessions import DeviceSessions
from controller.daemon.supervisor import Supervisor
from controller.daemon.timers import Timers
from controller.daemon.timing import LoopTiming
from controller.logs import output_state
from controller.table import Table

_frozen: list[int] = []  # how many objects start-up set apart from the collector, counted once


def freeze_start_up() -> None:
    """Set what start-up built apart from the collector (it lives as long as the daemon), so a
    collection in the loop does not walk it again; count it once here: gc.get_freeze_count()
    walks every frozen object (~3 ms for the daemon's), too much for every `status`."""
    gc.freeze()
    _frozen[:] = [gc.get_freeze_count()]


def daemon_info(*, supervisor: Supervisor, committer: Committer, inbox: Inbox, sessions: DeviceSessions, timers: Timers,
                trust: JournalTrust, table: Table, timing: LoopTiming, control_info: Callable[[], dict[str, Any]],
                subscribers: Callable[[], int]) -> dict[str, Any]:
    journal = committer.journal
    return {"ready": supervisor.ready, "pid": os.getpid(), "status": supervisor.line(),
            "devices": sessions.to_json(), "timers": timers.running(),
            "journal": {"path": str(journal.path), "records": journal.head_seq,
                        "waiting": len(committer.blocked), "queued": len(inbox), "full": committer.full,
                        "signing": trust.signing, "shoe_held": trust.shoe_held},
            "last_draw_counter": table.counter.last, "subscribers": subscribers(),
            "control": control_info(), "log": output_state(), "alive": not supervisor.problems,
            "problems": supervisor.problems, "loop_us": timing.to_json(),
            "python": {"threads": threading.active_count(), "switch_interval_s": sys.getswitchinterval(),
                       "gc_frozen": _frozen[0] if _frozen else 0}}
