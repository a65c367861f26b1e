"""The daemon's part of `tablectl status` (its `daemon` object): readiness, the devices, the
journal, the control socket, the loop's timings. Its fields are read by other programs: the
control socket's protocol (docs/control.md) names them."""
from __future__ import annotations

import gc
import os
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from controller.logs import output_state

if TYPE_CHECKING:
    from controller.daemon.loop import EventLoop


def daemon_info(loop: EventLoop, control_info: Callable[[], dict[str, Any]], subscribers: Callable[[], int]) -> dict[str, Any]:
    supervisor, committer, journal = loop.supervisor, loop.committer, loop.journal
    return {"ready": supervisor.ready, "pid": os.getpid(), "status": supervisor.line(),
            "devices": loop.sessions.to_json(), "timers": loop.table_timers.timers.running(),
            "journal": {"path": str(journal.path), "records": journal.head_seq,
                        "waiting": len(committer.blocked), "queued": len(loop.inbox), "full": committer.full,
                        "signing": loop.trust.signing, "shoe_held": loop.trust.shoe_held},
            "last_draw_counter": loop.table.shoe.last_counter, "subscribers": subscribers(),
            "control": control_info(), "log": output_state(), "alive": not supervisor.problems,
            "problems": supervisor.problems, "loop_us": loop.timing.to_json(),
            "python": {"threads": threading.active_count(), "switch_interval_s": sys.getswitchinterval(),
                       "gc_frozen": gc.get_freeze_count()}}
