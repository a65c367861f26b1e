"""The feed's cursor: the last journal record the broker acknowledged every message of.

Its own small JSON file (never the daemon's journal), replaced atomically: written to a
temporary file beside it, fsynced, renamed over the old one, and the directory fsynced, so
after a crash or a power cut the file holds either the old cursor or the new one, whole.
The cursor only ever lags what the broker has: a restart sends again at most what was
acknowledged after the last write, and consumers drop those by sequence number and hash.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


class CursorError(Exception):
    """A cursor file that exists but cannot be read or trusted."""


@dataclass(frozen=True)
class Cursor:
    seq: int = 0  # 0: nothing acknowledged yet
    hash: str | None = None  # that record's hash: a replaced journal is noticed at restart


def load_cursor(path: str | os.PathLike) -> Cursor:
    """The saved cursor, or Cursor() when there is no file yet."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return Cursor()
    except OSError as error:
        raise CursorError(f"{path}: cannot read the feed's cursor ({error.strerror})") from None
    try:
        data = json.loads(text)
        seq, hash_ = data["seq"], data["hash"]
        if type(seq) is not int or seq < 0 or not (hash_ is None or isinstance(hash_, str)):
            raise ValueError
    except (ValueError, KeyError, TypeError):
        raise CursorError(f"{path}: not a feed cursor (expected {{\"seq\": N, \"hash\": ...}}); "
                          "move it away to send the whole journal again") from None
    return Cursor(seq, hash_)


def check_cursor_directory(path: str | os.PathLike) -> None:
    """The directory the cursor is saved in must be there: its unit's StateDirectory= makes it."""
    directory = Path(path).parent
    if not directory.is_dir():
        raise CursorError(f"feed.state: {directory} does not exist, so the cursor {path} could not be saved "
                          "(tablectl-feed.service makes /var/lib/tablectl-feed; run by hand, set feed.state "
                          "to a file in a directory you can write)")


def save_cursor(path: str | os.PathLike, cursor: Cursor) -> None:
    path = Path(path)
    partial = path.with_name(f".{path.name}.partial")
    data = json.dumps({"seq": cursor.seq, "hash": cursor.hash}).encode() + b"\n"
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, path)
    directory = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
