"""The table's signing key: Ed25519 signatures over the journal's head and the table's identity.

Each table has its own key pair. The private key (`/etc/tablectl/keys/table.key`, PEM PKCS#8,
mode 0600, owned by the daemon's user) never leaves the table PC; the public key beside it
(`table.key.pub`, PEM, readable by all) is what `tablectl journal verify` and the pit check
against. A signed head says "record SEQ of table TABLE's journal has hash HASH":

    message   = b"tablectl signed head 1\\n" + canonical_json({"hash": HASH, "seq": SEQ, "table": TABLE})
    signature = Ed25519(private key, message)          # 64 bytes, stored as 128 hex digits

The hash of record SEQ chains every record before it, so one good signature vouches for the
whole chain up to SEQ. The anchor file carries the newest signed head, and the journal
carries each one as a `signed_head` record (docs/journal.md, "Signed heads").
"""
from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from controller.journal.records import JournalError, canonical_json

SIGNED_HEAD_LABEL = b"tablectl signed head 1\n"
PUBLIC_SUFFIX = ".pub"
KEY_FILE_BYTES = 4096  # a PEM Ed25519 key is about 120 bytes: anything far larger is not one
SIGNATURE_HEX = 128
KEY_ID_HEX = 16


class SigningKeyError(JournalError):
    """A table key file that cannot be used: the message names the file and what is wrong."""


def public_key_path(private_path: str | os.PathLike) -> Path:
    """Where the public key of a table key lives: beside it, `.pub` appended."""
    return Path(f"{private_path}{PUBLIC_SUFFIX}")


def key_id(public: Ed25519PublicKey) -> str:
    """A short public name for a table key (16 hex digits of the SHA-256 of its raw bytes)."""
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:KEY_ID_HEX]


def signed_message(table: str, seq: int, hash: str) -> bytes:
    return SIGNED_HEAD_LABEL + canonical_json({"hash": hash, "seq": seq, "table": table}).encode("utf-8")


def _is_hex(value: object, length: int) -> bool:
    return isinstance(value, str) and len(value) == length and all(c in "0123456789abcdef" for c in value)


@dataclass(frozen=True)
class SignedHead:
    table: str  # the table's identity (journal.table)
    seq: int  # the record signed for (0: the empty chain, hash GENESIS)
    hash: str  # its hash
    key_id: str  # which key signed it
    signature: str  # 128 hex digits

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "seq": self.seq, "hash": self.hash, "key_id": self.key_id, "signature": self.signature}

    @classmethod
    def from_json(cls, data: object) -> SignedHead:
        """ValueError naming the field when `data` is not a signed head."""
        if not isinstance(data, dict):
            raise ValueError("a signed head is a JSON object")
        head = cls(data.get("table"), data.get("seq"), data.get("hash"), data.get("key_id"), data.get("signature"))  # type: ignore[arg-type]
        if not isinstance(head.table, str) or not head.table:
            raise ValueError(f"table {head.table!r}")
        if type(head.seq) is not int or head.seq < 0:
            raise ValueError(f"seq {head.seq!r}")
        if not _is_hex(head.hash, 64):
            raise ValueError(f"hash {head.hash!r}")
        if not _is_hex(head.key_id, KEY_ID_HEX):
            raise ValueError(f"key_id {head.key_id!r}")
        if not _is_hex(head.signature, SIGNATURE_HEX):
            raise ValueError("signature: expected 128 hex digits")
        return head


class TableVerifier:
    """A table's public key and identity: whether a signed head is this table's."""

    def __init__(self, public: Ed25519PublicKey, table: str) -> None:
        self.public, self.table = public, table
        self.key_id = key_id(public)

    def problem(self, head: SignedHead) -> str | None:
        """Why `head` is not this table's signature, or None when it is."""
        if head.table != self.table:
            return f"it is signed as table {head.table!r}, not {self.table!r} (another table's journal?)"
        if head.key_id != self.key_id:
            return f"it is signed with key {head.key_id}, not this table's key {self.key_id} (another table's journal?)"
        try:
            self.public.verify(bytes.fromhex(head.signature), signed_message(head.table, head.seq, head.hash))
        except InvalidSignature:
            return f"its signature is not valid under this table's key {self.key_id} (forged or altered)"
        return None

    @classmethod
    def from_public_file(cls, path: str | os.PathLike, table: str) -> TableVerifier:
        return cls(load_public_key(path), table)


class TableSigner(TableVerifier):
    """The table's private key: signs heads."""

    def __init__(self, private: Ed25519PrivateKey, table: str) -> None:
        super().__init__(private.public_key(), table)
        self._private = private

    def sign(self, seq: int, hash: str) -> SignedHead:
        signature = self._private.sign(signed_message(self.table, seq, hash)).hex()
        return SignedHead(self.table, seq, hash, self.key_id, signature)

    @classmethod
    def from_file(cls, path: str | os.PathLike, table: str) -> TableSigner:
        return cls(load_private_key(path), table)


def _read(path: Path, what: str) -> tuple[bytes, int]:
    try:
        with open(path, "rb") as file:
            mode = os.fstat(file.fileno()).st_mode
            data = file.read(KEY_FILE_BYTES + 1)
    except FileNotFoundError:
        raise SigningKeyError(f"{path}: no such {what} (`tablectl keys table` makes the table's key pair)") from None
    except OSError as error:
        raise SigningKeyError(f"{path}: cannot read the {what}: {error.strerror}") from None
    if len(data) > KEY_FILE_BYTES:
        raise SigningKeyError(f"{path}: not a {what}: larger than {KEY_FILE_BYTES} bytes")
    return data, mode


def load_private_key(path: str | os.PathLike) -> Ed25519PrivateKey:
    """The table's private key, refused when its group or others may read it (mode 0600 or 0400)."""
    path = Path(path)
    data, mode = _read(path, "table key file")
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise SigningKeyError(f"{path}: mode {stat.S_IMODE(mode):04o} lets others than its owner read it; the table's "
                              "signing key must be 0600 or stricter, owned by the daemon's user (chmod 0600)")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as error:
        raise SigningKeyError(f"{path}: not a PEM private key ({error})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{path}: not an Ed25519 key ({type(key).__name__})")
    return key


def load_public_key(path: str | os.PathLike) -> Ed25519PublicKey:
    path = Path(path)
    data, _ = _read(path, "table public key file")
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as error:
        raise SigningKeyError(f"{path}: not a PEM public key ({error})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise SigningKeyError(f"{path}: not an Ed25519 public key ({type(key).__name__})")
    return key


def new_key_pair(private_path: str | os.PathLike, owner: tuple[int, int] | None = None) -> Ed25519PublicKey:
    """Make a new Ed25519 key pair: PRIVATE (mode 0600 from its first byte, chowned to `owner`
    (uid, gid) when given) and PRIVATE.pub (0644). Each is written under a temporary name,
    fsynced and renamed into place."""
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    public_pem = private.public_key().public_bytes(serialization.Encoding.PEM,
                                                   serialization.PublicFormat.SubjectPublicKeyInfo)
    _write(Path(private_path), pem, 0o600, owner)
    _write(public_key_path(private_path), public_pem, 0o644, owner)
    return private.public_key()


def _write(path: Path, data: bytes, mode: int, owner: tuple[int, int] | None) -> None:
    partial = path.with_name(f".{path.name}.partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, mode)
    try:
        os.fchmod(fd, mode)
        if owner is not None:
            os.fchown(fd, *owner)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, path)
