"""Protocol 1.1's cryptography (PROTOCOL.md §8): per-device keys, session keys, frame MACs.

HMAC-SHA-256 from the standard library (hmac, hashlib): the well-kept, constant-time
primitive every MCU vendor also ships. A device key is 32 random bytes, kept in a file on
the host (64 hex digits) and programmed into the device; it never goes on the wire. From it:

    HELLO MAC    HMAC(K, "tablectl-1.1 hello" | dir | LEN..CTR [| request boot_id | request nonce])
    session key  K_s = HMAC(K, "tablectl-1.1 session" | host boot_id | device boot_id
                              | host nonce | device nonce)
    frame MAC    HMAC(K_s, dir | LEN..CTR)

each truncated to MAC_SIZE bytes; dir is b"H" for frames the host sends, b"D" for a device's.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import stat
import struct
from pathlib import Path

from firmware_bridge.frame import MAC_SIZE

KEY_SIZE = 32
HELLO_LABEL = b"tablectl-1.1 hello"
SESSION_LABEL = b"tablectl-1.1 session"
KEY_ID_LABEL = b"tablectl-1.1 key id"
FROM_HOST = b"H"
FROM_DEVICE = b"D"
_U32 = struct.Struct("<I")
_SESSION = struct.Struct("<IIII")


class KeyFileError(ValueError):
    """A key file that cannot be used; the message names the file and what is wrong."""


def parse_key(text: str, source: str = "key") -> bytes:
    digits = "".join(text.split())
    try:
        key = bytes.fromhex(digits)
    except ValueError:
        raise KeyFileError(f"{source}: not a key: expected {2 * KEY_SIZE} hex digits") from None
    if len(key) != KEY_SIZE:
        raise KeyFileError(f"{source}: a key is {2 * KEY_SIZE} hex digits ({KEY_SIZE} bytes), this has {len(digits)}")
    return key


def load_key(path: str | os.PathLike[str]) -> bytes:
    """The key in `path`, refused if anyone but its owner and group may read it or its
    group may write it (install mode 0640 root:tablectl)."""
    path = Path(path)
    try:
        with open(path, encoding="ascii") as file:
            mode = os.fstat(file.fileno()).st_mode
            text = file.read(4096)
    except FileNotFoundError:
        raise KeyFileError(f"{path}: no such key file (`tablectl keys provision DEVICE` makes one)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise KeyFileError(f"{path}: cannot read the key file: {error}") from None
    if mode & (stat.S_IRWXO | stat.S_IWGRP):
        raise KeyFileError(f"{path}: mode {stat.S_IMODE(mode):04o} lets others read or the group write it; "
                           "a key file must be 0640 or stricter (chmod 0640)")
    return parse_key(text, str(path))


def write_key(path: str | os.PathLike[str], key: bytes, gid: int | None = None) -> None:
    """Write `key` to `path` atomically, mode 0640 from the first byte on (owner root and group
    `gid` when given: that needs root); fsynced before it replaces an older file."""
    path = Path(path)
    partial = path.with_name(f".{path.name}.partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
    try:
        os.fchmod(fd, 0o640)
        if gid is not None:
            os.fchown(fd, 0, gid)
        os.write(fd, key_text(key).encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, path)


def key_text(key: bytes) -> str:
    """A key as its file holds it: 64 hex digits and a newline."""
    return key.hex() + "\n"


def key_id(key: bytes) -> str:
    """A short public name for a key (16 hex digits), to check that two places hold the same
    one without showing it."""
    return hmac.new(key, KEY_ID_LABEL, hashlib.sha256).hexdigest()[:16]


def _mac(state: hmac.HMAC, *parts: bytes) -> bytes:
    mac = state.copy()
    for part in parts:
        mac.update(part)
    return mac.digest()[:MAC_SIZE]


class HelloSigner:
    """MACs of HELLO frames under the device key itself (a session key needs both HELLOs)."""

    def __init__(self, key: bytes) -> None:
        if len(key) != KEY_SIZE:
            raise ValueError(f"a device key is {KEY_SIZE} bytes, not {len(key)}")
        self._key = key
        self._state = hmac.new(key, HELLO_LABEL, hashlib.sha256)

    def mac(self, direction: bytes, signed: bytes, request: tuple[int, int] | None = None) -> bytes:
        """A request's MAC (request None), or an answer's, bound to the request it answers
        (its boot_id and nonce)."""
        binding = _U32.pack(request[0]) + _U32.pack(request[1]) if request is not None else b""
        return _mac(self._state, direction, signed, binding)

    def session(self, host_boot: int, device_boot: int, host_nonce: int, device_nonce: int) -> SessionSigner:
        material = _SESSION.pack(host_boot, device_boot, host_nonce, device_nonce)
        return SessionSigner(hmac.new(self._key, SESSION_LABEL + material, hashlib.sha256).digest())


class SessionSigner:
    """MACs of every other frame of one session, one keyed state per direction."""

    def __init__(self, session_key: bytes) -> None:
        self.key = session_key
        self._states = {direction: hmac.new(session_key, direction, hashlib.sha256)
                        for direction in (FROM_HOST, FROM_DEVICE)}

    def mac(self, direction: bytes, signed: bytes) -> bytes:
        return _mac(self._states[direction], signed)


def macs_equal(a: bytes, b: bytes) -> bool:
    return hmac.compare_digest(a, b)
