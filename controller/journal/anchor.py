"""The anchor: the chain's head (seq and hash) and its first record's hash, kept in a small
file of its own beside the journal (`journal.sqlite.anchor`), so that what the chain alone
cannot show is found at start-up: a tail cut off, the file replaced by another or an older
copy, the journal deleted or emptied.

    {"format": 2, "seq": 4120, "hash": "9f2c...", "first_hash": "5d01...", "at": "2026-11-25T22:11:56.297440Z",
     "signed": {"table": "t12", "seq": 4120, "hash": "9f2c...", "key_id": "3a7e...", "signature": "..."}}

`signed` is the table's signature over the anchored head and its identity (signing.py). A
table configured `journal.unsigned = true` writes format 1, without it.

It is written atomically (a temporary file, fsync, rename over the old one, fsync of the
directory): a crash leaves the old anchor or the new one, never a torn one. The writer makes
the anchored records durable first (Journal.anchor), so a power cut never leaves an anchor
naming a record the journal lost.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from controller.journal.records import GENESIS, JournalError
from controller.journal.signing import SignedHead

ANCHOR_FORMAT = 2
READABLE_FORMATS = (1, 2)
ANCHOR_SUFFIX = ".anchor"
FILE_MODE = 0o640  # as the journal: the daemon's group reads it


@dataclass(frozen=True)
class Anchor:
    seq: int  # the anchored record (0: an empty chain)
    hash: str  # its hash (GENESIS for seq 0)
    first_hash: str | None  # record 1's hash: which chain this is (None for an empty chain)
    at: str  # when the anchor was written (UTC, ISO 8601)
    signed: SignedHead | None = None  # the table's signature over (seq, hash); None: unsigned

    def to_json(self) -> dict:
        """An unsigned anchor keeps format 1 (an older tablectl reads it); a signed one is format 2."""
        out = {"format": 1, "seq": self.seq, "hash": self.hash, "first_hash": self.first_hash, "at": self.at}
        if self.signed is not None:
            out |= {"format": ANCHOR_FORMAT, "signed": self.signed.to_json()}
        return out


def anchor_path(journal_path: str | os.PathLike) -> Path:
    return Path(f"{journal_path}{ANCHOR_SUFFIX}")


def read_anchor(journal_path: str | os.PathLike) -> Anchor | None:
    """The anchor beside the journal, None if there is none; JournalError if it is unreadable."""
    path = anchor_path(journal_path)
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise JournalError(f"{path}: cannot read the anchor: {error.strerror}") from None
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") not in READABLE_FORMATS:
            raise ValueError(f"not an anchor of format {' or '.join(map(str, READABLE_FORMATS))}")
        signed = data.get("signed")
        anchor = Anchor(data["seq"], data["hash"], data["first_hash"], data["at"],
                        None if signed is None else SignedHead.from_json(signed))
        _check(anchor)
    except (ValueError, KeyError, TypeError) as error:
        raise JournalError(f"{path}: the anchor is damaged ({error})") from None
    return anchor


def _check(anchor: Anchor) -> None:
    if type(anchor.seq) is not int or anchor.seq < 0:
        raise ValueError(f"seq {anchor.seq!r}")
    if not _is_hash(anchor.hash) or (anchor.seq == 0) != (anchor.hash == GENESIS):
        raise ValueError(f"hash {anchor.hash!r}")
    if (anchor.first_hash is None) != (anchor.seq == 0) or not (anchor.first_hash is None or _is_hash(anchor.first_hash)):
        raise ValueError(f"first_hash {anchor.first_hash!r}")
    if not isinstance(anchor.at, str):
        raise ValueError(f"at {anchor.at!r}")
    if anchor.signed is not None and (anchor.signed.seq, anchor.signed.hash) != (anchor.seq, anchor.hash):
        raise ValueError(f"its signature is over record {anchor.signed.seq}, not the anchored record {anchor.seq}")


def _is_hash(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def write_anchor(journal_path: str | os.PathLike, anchor: Anchor) -> None:
    """Replace the anchor atomically and durably. OSError (ENOSPC, ...) leaves the old one."""
    path = anchor_path(journal_path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    data = (json.dumps(anchor.to_json(), sort_keys=True) + "\n").encode()
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)  # whatever the umask: the group reads it
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(temporary)
        raise
    os.close(fd)
    try:
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    fsync_directory(path.parent)


def fsync_directory(directory: Path) -> None:
    """Make a rename or a new name in `directory` survive a power cut."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
