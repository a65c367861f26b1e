"""Where `tablectl demo` keeps its table: the config, the journal and the logs of the last demo
stay in one predictable directory (default $XDG_STATE_HOME/tablectl/demo, that is
~/.local/state/tablectl/demo), so `tablectl recall --journal ~/.local/state/tablectl/demo/journal.sqlite`
reads the demo just played. Each demo replaces the last one's files there (a journal carried
over would be recovered by the new daemon as if the same table went on).

When another demo is running in that directory (it holds a lock beside it), or the directory's
socket paths would be too long for a Unix socket, the demo runs in a temporary directory that
is removed when it ends, and says so.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import re
from collections.abc import Iterator
from pathlib import Path

UNIX_PATH_MAX = 107  # bytes of a socket path, without the terminating NUL
LONGEST_SOCKET = "control.sock"  # the longest socket name the rig makes in its directory
# what a demo (the rig) leaves in its directory; only these are removed before the next demo
DEMO_FILE = re.compile(r"(tablectl\.toml|table\.key(\.pub)?|journal\.sqlite(-wal|-shm|\.anchor)?|daemon\.(out|err)|chips\.csv"
                       r"|sim-(shoe|panel|lights|bets)\.(out|err)|(shoe|panel|lights|bets|control|notify)(\.sock)?)")


def default_directory() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "tablectl" / "demo"


def _clear(directory: Path) -> None:
    for entry in directory.iterdir():
        if DEMO_FILE.fullmatch(entry.name) and (entry.is_symlink() or not entry.is_dir()):
            entry.unlink()


@contextlib.contextmanager
def demo_directory(wanted: Path) -> Iterator[tuple[Path | None, str]]:
    """(directory, why not) for this demo: `wanted`, emptied of the last demo's files and locked
    until the demo ends; or (None, the reason) when it cannot be used (the rig then makes and
    removes a temporary one)."""
    if len(str(wanted / LONGEST_SOCKET).encode()) > UNIX_PATH_MAX:
        yield None, f"{wanted} is too long a path for the demo's sockets"
        return
    try:
        wanted.mkdir(parents=True, exist_ok=True)
        lock = open(wanted.parent / f".{wanted.name}.lock", "w")  # noqa: SIM115 (held until the demo ends)
    except OSError as error:
        yield None, f"cannot use {wanted}: {error.strerror}"
        return
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield None, f"another demo is running in {wanted}"
            return
        _clear(wanted)
        yield wanted, ""
