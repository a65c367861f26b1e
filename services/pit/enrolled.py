"""What the pit trusts: each table's public key, enrolled by hand (`tablectl pit enroll SITE/TABLE
KEYFILE`), and the records its signed heads vouch for.

A table's journal carries `signed_head` records (controller/journal/signing.py): "record N of
table T has hash H", signed with the table's Ed25519 key. The pit holds the public key of
every enrolled table; a publisher holds none of them. When a signed head of an enrolled table
arrives and its signature is good, the pit walks back from record N along prev_hash, from H,
to the last record it had verified: every record on that walk is the table's own and becomes
verified (`verified_through`). Where the record first received for a seq is not the one the
signature vouches for, the table's own version (kept apart when it arrived second) takes its
place, and the displaced one is kept apart as a forgery. A record that conflicts with a
verified one never displaces it: it is kept apart, and the alarm names a forgery.
"""
from __future__ import annotations

from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization

from controller.journal.signing import TableVerifier, load_public_key
from services.pit.database import Database

ENROLLED_SCHEMA = """
CREATE TABLE IF NOT EXISTS enrolled (
    table_id TEXT PRIMARY KEY, public_key TEXT NOT NULL, key_id TEXT NOT NULL, enrolled_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS verified (
    table_id TEXT PRIMARY KEY, through INTEGER NOT NULL, hash TEXT NOT NULL, signed_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS apart (
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, at TEXT NOT NULL, mono_ns INTEGER NOT NULL,
    kind TEXT NOT NULL, round INTEGER, payload TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
    received_at TEXT NOT NULL, why TEXT NOT NULL,   -- contested | forgery
    PRIMARY KEY (table_id, seq, hash)) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class Enrolment:
    table: str  # SITE/TABLE
    key_id: str
    enrolled_at: str
    verifier: TableVerifier  # the identity it signs as: TABLE (the topic's table level)


def signed_identity(table: str) -> str:
    """The identity a table's journal is signed as (journal.table = feed.table): the TABLE of SITE/TABLE."""
    return table.split("/", 1)[1] if "/" in table else table


def enrol(conn: Database, table: str, key_file: str, now: str) -> Enrolment:
    """Enrol (or re-enrol) `table` with the public key in `key_file` (SigningKeyError if it is none)."""
    public = load_public_key(key_file)
    pem = public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii")
    verifier = TableVerifier(public, signed_identity(table))
    conn.execute("INSERT INTO enrolled VALUES (?, ?, ?, ?) ON CONFLICT(table_id) DO UPDATE SET public_key = excluded.public_key, "
                 "key_id = excluded.key_id, enrolled_at = excluded.enrolled_at", (table, pem, verifier.key_id, now))
    return Enrolment(table, verifier.key_id, now, verifier)


def enrolments(conn: Database) -> dict[str, Enrolment]:
    out = {}
    for table, pem, key_id, at in conn.execute("SELECT table_id, public_key, key_id, enrolled_at FROM enrolled"):
        public = serialization.load_pem_public_key(pem.encode("ascii"))
        out[table] = Enrolment(table, key_id, at, TableVerifier(public, signed_identity(table)))  # type: ignore[arg-type]
    return out
