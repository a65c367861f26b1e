"""The feed unit's network allowance: the broker's addresses, as a systemd drop-in.

`tablectl install-service` writes it from the installed config's feed.broker: a literal
address as it is, a host name resolved at install time (run the install again when the
broker moves). Without feed.broker the unit keeps IPAddressDeny=any and reaches nothing.
"""
from __future__ import annotations

import ipaddress
import socket
from pathlib import Path


def broker_addresses(host: str) -> list[str]:
    try:
        return [str(ipaddress.ip_address(host))]
    except ValueError:
        pass
    found = {str(info[4][0]) for info in socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)}  # the IP text
    return sorted(found)


def broker_drop_in(config_path: Path) -> tuple[str | None, str]:
    """(the drop-in's text, "") or (None, why there is none)."""
    from controller.config import ConfigError, load_config

    if not config_path.is_file():
        return None, f"no {config_path} yet: set feed.broker there and install again"
    try:
        config = load_config(config_path)
    except ConfigError as error:
        return None, f"{config_path} has errors ({str(error).splitlines()[0]}): fix it and install again"
    if not config.feed.broker:
        return None, "feed.broker is not set: the feed unit reaches no address until it is (then install again)"
    from urllib.parse import urlsplit

    host = urlsplit(config.feed.broker).hostname or ""
    try:
        addresses = broker_addresses(host)
    except OSError as error:
        return None, f"cannot resolve the broker {host!r} ({error}): the feed unit reaches no address"
    return ("# Written by `tablectl install-service` from feed.broker in the config: the only addresses\n"
            f"# the feed may reach ({config.feed.broker}). Install again when the broker moves.\n"
            "[Service]\n"
            f"IPAddressAllow={' '.join(addresses)}\n"), ""
