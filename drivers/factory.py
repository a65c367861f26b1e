"""Make a driver from a device kind and a URL (config files, the daemon, tests)."""
from __future__ import annotations

from typing import Any

from drivers.bets import BetSensorDriver
from drivers.device import DeviceDriver, Post
from drivers.lights import LightsDriver
from drivers.panel import PanelDriver
from drivers.reactor import Reactor
from drivers.shoe import ShoeDriver

DRIVERS: dict[str, type[DeviceDriver]] = {"shoe": ShoeDriver, "panel": PanelDriver, "lights": LightsDriver,
                                          "bets": BetSensorDriver}


def driver_for(kind: str, url: str, post: Post, *, reactor: Reactor, start: bool = True,
               **options: Any) -> DeviceDriver:
    """`driver_for("shoe", "serial:///dev/tablectl/shoe", loop.post, reactor=reactor)`, started
    (its first open due on the reactor) unless start=False.

    Options go to the driver (name=, backoff=, usb_backend=, link_options=, ...).
    """
    try:
        cls = DRIVERS[kind]
    except KeyError:
        raise ValueError(f"unknown device kind {kind!r} (known: {', '.join(DRIVERS)})") from None
    driver = cls(url, post, reactor=reactor, **options)
    return driver.start() if start else driver
