"""The drivers' options from the config's [timeouts]: reconnect backoff and link timings."""
from __future__ import annotations

from controller.config import Config
from drivers.reconnect import Backoff

SILENCE_HEARTBEATS = 3.5  # a device unheard for this many heartbeat intervals is silent (PROTOCOL.md §2)


def driver_options(config: Config) -> dict:
    """Keyword options for drivers.factory.driver_for (a new Backoff each call: it keeps state)."""
    t = config.timeouts
    return {
        "backoff": Backoff(initial=t.reconnect_min_s, maximum=t.reconnect_max_s),
        "link_options": {"ack_timeout": t.ack_timeout_s, "heartbeat_interval": t.heartbeat_interval_s,
                         "silence_timeout": SILENCE_HEARTBEATS * t.heartbeat_interval_s},
    }
