"""The pit's two stores: each test taking `pit_db_url` runs once on a SQLite file and once on
a real PostgreSQL server (Debian's `postgresql`, started once per session by
simulation/postgres.py on a Unix socket in a temp dir, no system service), a new empty
database for each test. Without PostgreSQL's binaries those runs skip naming the package; in
CI (CI=true) they fail instead. The PostgreSQL runs go with the slow tests (`-m slow`, CI's
second command): the README's command keeps to its time, and test_pit_schema.py still checks
that both stores have one schema in every run."""
from __future__ import annotations

import importlib.util
import os

import pytest

from simulation.postgres import PostgresServer, needs_postgresql_reason, postgresql_bin


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: CI must run the pit's tests on PostgreSQL")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_server():
    found = postgresql_bin()
    if found is None:
        _missing(needs_postgresql_reason)
    if importlib.util.find_spec("psycopg") is None:
        _missing("psycopg (the pit's PostgreSQL driver) is not installed: bash .ci/setup")
    server = PostgresServer(found).start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def pit_db_url(request, tmp_path) -> str:
    """Where the pit's database is: a SQLite file's path, or a postgresql:// URL of a new database."""
    if request.param == "sqlite":
        return str(tmp_path / "pit.sqlite")
    return request.getfixturevalue("postgres_server").database()
