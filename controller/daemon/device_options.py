"""The drivers' options from the config's [timeouts] and [keys]: reconnect backoff, link
timings, and the device key that makes a link authenticated (protocol 1.1)."""
from __future__ import annotations

from typing import Any

from controller.config import Config
from controller.config.schema import OPTIONAL_DEVICES
from drivers.reconnect import Backoff
from firmware_bridge.auth import KeyFileError, load_key

SILENCE_HEARTBEATS = 3.5  # a device unheard for this many heartbeat intervals is silent (PROTOCOL.md §2)
DEVICE_HEARTBEAT_S = 1.0  # a device sends something at least this often (PROTOCOL.md §2), whatever ours is


DEVICES = ("shoe", "panel", "lights", "bets")


def configured_devices(config: Config) -> tuple[str, ...]:
    """The devices this table has: every one but an optional one [devices] gives as ""."""
    return tuple(kind for kind in DEVICES if kind not in OPTIONAL_DEVICES or getattr(config.devices, kind))


def driver_options(config: Config, kind: str) -> dict:
    """Keyword options for drivers.factory.driver_for the device `kind` (a new Backoff each
    call: it keeps state). A configured key file that cannot be used raises KeyFileError
    (a ValueError) naming the config key and the file."""
    t = config.timeouts
    link_options: dict[str, Any] = {"ack_timeout": t.ack_timeout_s, "heartbeat_interval": t.heartbeat_interval_s,
                    "silence_timeout": SILENCE_HEARTBEATS * max(t.heartbeat_interval_s, DEVICE_HEARTBEAT_S)}
    key_path = getattr(config.keys, kind)
    if key_path:
        try:
            link_options["key"] = load_key(key_path)
        except KeyFileError as error:
            raise KeyFileError(f"keys.{kind}: {error}") from None
    # What the shoe and the bet sensor say are facts: acknowledged only once journaled and
    # fsynced (PROTOCOL.md §9.1, §10.1). A panel press is acknowledged when it arrives: one resent after a crash could not
    # be told from a second press (BUTTON has no counter), and one lost did nothing. A lamp
    # report is state the daemon asks for again.
    return {"backoff": Backoff(initial=t.reconnect_min_s, maximum=t.reconnect_max_s), "link_options": link_options,
            "durable_acks": kind in ("shoe", "bets")}
