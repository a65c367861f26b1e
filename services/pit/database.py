"""The pit's database: a SQLite file (one pit, one machine) or a PostgreSQL server (a floor
that outgrows one file, and a back office querying it with its own tools). Same schema, same
SQL, written once in SQLite's spelling; the PostgreSQL side (postgres.py) turns `?` into its
placeholders and the schema's SQLite-only words into its own.

    db = connect("pit.sqlite")                          # or "postgresql://pit@db.floor/pit"
    db.execute("SELECT seq FROM records WHERE table_id = ?", (table,)).fetchall()

The SQL here keeps to what both speak: `INSERT ... ON CONFLICT DO NOTHING`/`DO UPDATE`,
`RETURNING`, `TRUE`; no `?` or `%` inside string literals. Transactions are explicit:
`BEGIN`/`COMMIT` statements, each other statement committed on its own.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

POSTGRESQL_SCHEMES = ("postgresql", "postgres")


class DatabaseError(Exception):
    """The pit's database cannot be reached or refused us (its name and the driver's reason)."""


class Rows(Protocol):
    """What a statement gives back (a DB-API cursor of either driver)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Database(Protocol):
    name: str  # what the pit shows and logs: the path, or the URL without its password
    dialect: str  # "sqlite" | "postgresql"

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows: ...

    def insert_rows(self, table: str, width: int, rows: Iterable[Sequence[Any]]) -> None:
        """New rows (all of `table`'s `width` columns) in bulk; a row already there is an error,
        as with INSERT."""
        ...

    def create(self, schema: str) -> None: ...

    def close(self) -> None: ...


class SqliteDatabase:
    dialect = "sqlite"

    def __init__(self, path: str) -> None:
        self.name = path
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        return self.conn.execute(sql, params)

    def insert_rows(self, table: str, width: int, rows: Iterable[Sequence[Any]]) -> None:
        self.conn.executemany(f"INSERT INTO {table} VALUES ({','.join('?' * width)})", rows)

    def create(self, schema: str) -> None:
        self.conn.executescript(schema)

    def close(self) -> None:
        self.conn.close()


def is_url(target: str) -> bool:
    return urlsplit(target).scheme in POSTGRESQL_SCHEMES


def shown(url: str) -> str:
    """The URL without its password (for the screen and the log)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def connect(target: str) -> Database:
    """A SQLite file's path, or a postgresql:// URL (libpq's form: host, port, user, dbname, and
    ?host=/a/socket/dir for a Unix socket)."""
    if is_url(target):
        from services.pit.postgres import PostgresDatabase  # psycopg loaded only for a server

        return PostgresDatabase(target)
    return SqliteDatabase(target)
