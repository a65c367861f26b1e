"""`tablectl run` with one bug planted, for the tests of an unplanned stop: button 63 (on
the rig's panel, in no game's button map) raises inside the panel driver's reactor callback,
as a bug in a driver would. Everything else is the real daemon.

    python -m tests.hil.planted_fault_daemon --config FILE     (Rig(daemon_module=...))
"""
import sys

from cli import run
from drivers.panel import PanelDriver

PLANTED_BUTTON = 63
_real_on_message = PanelDriver._on_message


def _on_message(self, msg, now):
    if getattr(msg, "button", None) == PLANTED_BUTTON and getattr(msg, "pressed", False):
        raise RuntimeError(f"a planted bug: button {PLANTED_BUTTON} raises in the panel driver")
    return _real_on_message(self, msg, now)


PanelDriver._on_message = _on_message

if __name__ == "__main__":
    sys.exit(run.main(sys.argv[1:]))
