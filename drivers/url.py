"""Device URLs: one string names every device link, in config files and on the CLI.

    serial:///dev/tablectl/shoe?baud=115200      a tty by stable path (options: baud, exclusive)
    /tmp/sim/shoe  or  /dev/pts/5                 a plain absolute path: serial, defaults
    usb://1209:0001?serial=ABC                    VID:PID in hex (option: serial number)

`parse_device_url` raises BadDeviceUrl naming the bad part; `transport_for_url` builds the
(unopened) transport.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import SplitResult, parse_qsl, unquote, urlsplit

from drivers.errors import BadDeviceUrl
from drivers.serial_transport import SerialTransport
from drivers.transport import Transport
from drivers.usb_transport import UsbTransport

if TYPE_CHECKING:  # pyusb has no types: Any to mypy, and still says what is meant
    from usb.backend import IBackend

DEFAULT_BAUD = 115200
_HEX16 = re.compile(r"[0-9A-Fa-f]{4}")
_BOOLS = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}


@dataclass(frozen=True)
class SerialUrl:
    path: str
    baudrate: int = DEFAULT_BAUD
    exclusive: bool = True


@dataclass(frozen=True)
class UsbUrl:
    vid: int
    pid: int
    serial: str | None = None


def parse_device_url(url: str) -> SerialUrl | UsbUrl:
    if not isinstance(url, str) or not url.strip():
        raise BadDeviceUrl(f"device URL is empty: {url!r}")
    if url.startswith("/"):
        return SerialUrl(path=url)
    if "://" not in url:
        raise BadDeviceUrl(
            f"device URL {url!r}: not an absolute path and no scheme; "
            f"use /path/to/tty, serial:///path or usb://VID:PID"
        )
    parts = urlsplit(url)
    if parts.fragment:
        raise BadDeviceUrl(f"device URL {url!r}: unexpected fragment '#{parts.fragment}'")
    options = _options(url, parts.query)
    if parts.scheme == "serial":
        return _serial_url(url, parts, options)
    if parts.scheme == "usb":
        return _usb_url(url, parts, options)
    raise BadDeviceUrl(
        f"device URL {url!r}: unknown scheme '{parts.scheme}'; use serial://, usb:// or a path"
    )


def transport_for_url(url: str, *, usb_backend: IBackend | None = None) -> Transport:
    """The unopened transport for `url`; `usb_backend` goes to pyusb (tests use their own)."""
    parsed = parse_device_url(url)
    if isinstance(parsed, SerialUrl):
        return SerialTransport(parsed.path, baudrate=parsed.baudrate, exclusive=parsed.exclusive)
    return UsbTransport(parsed.vid, parsed.pid, serial=parsed.serial, backend=usb_backend)


def _options(url: str, query: str) -> dict[str, str]:
    options: dict[str, str] = {}
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise BadDeviceUrl(f"device URL {url!r}: bad query '{query}' (want key=value&...)") from None
    for key, value in pairs:
        if key in options:
            raise BadDeviceUrl(f"device URL {url!r}: option '{key}' given twice")
        options[key] = value
    return options


def _reject_unknown(url: str, options: dict[str, str], known: tuple[str, ...]) -> None:
    for key in options:
        if key not in known:
            raise BadDeviceUrl(
                f"device URL {url!r}: unknown option '{key}' (known: {', '.join(known)})"
            )


def _serial_url(url: str, parts: SplitResult, options: dict[str, str]) -> SerialUrl:
    _reject_unknown(url, options, ("baud", "exclusive"))
    if parts.netloc:
        raise BadDeviceUrl(
            f"device URL {url!r}: serial URL has host '{parts.netloc}'; "
            f"write serial:///{parts.netloc}{parts.path} (three slashes)"
        )
    path = unquote(parts.path)
    if not path.startswith("/") or path == "/":
        raise BadDeviceUrl(f"device URL {url!r}: serial URL needs an absolute device path")
    baud_text = options.get("baud", str(DEFAULT_BAUD))
    if not baud_text.isdigit() or int(baud_text) <= 0:
        raise BadDeviceUrl(f"device URL {url!r}: baud={baud_text!r} is not a positive whole number")
    exclusive_text = options.get("exclusive", "1").lower()
    if exclusive_text not in _BOOLS:
        raise BadDeviceUrl(f"device URL {url!r}: exclusive={exclusive_text!r} is not 0/1/true/false")
    return SerialUrl(path=path, baudrate=int(baud_text), exclusive=_BOOLS[exclusive_text])


def _usb_url(url: str, parts: SplitResult, options: dict[str, str]) -> UsbUrl:
    _reject_unknown(url, options, ("serial",))
    if parts.path not in ("", "/"):
        raise BadDeviceUrl(f"device URL {url!r}: USB URL takes no path, got '{parts.path}'")
    vid_text, colon, pid_text = parts.netloc.partition(":")
    if not colon:
        raise BadDeviceUrl(f"device URL {url!r}: want usb://VID:PID, got '{parts.netloc}'")
    for label, text in (("vendor id", vid_text), ("product id", pid_text)):
        if not _HEX16.fullmatch(text):
            raise BadDeviceUrl(f"device URL {url!r}: {label} '{text}' is not 4 hex digits")
    serial = options.get("serial")
    if serial is not None and not serial:
        raise BadDeviceUrl(f"device URL {url!r}: serial= is empty")
    return UsbUrl(vid=int(vid_text, 16), pid=int(pid_text, 16), serial=serial)
