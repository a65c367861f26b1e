"""A real PostgreSQL server for tests and benchmarks: Debian's `postgresql` binaries (initdb,
postgres; not on PATH) run on a data directory of their own in a fresh temp dir, listening
only on a Unix socket there (listen_addresses=''), no system service, stopped by its PID.

    with PostgresServer() as server:
        url = server.database("pit_1")       # postgresql://tablectl@/pit_1?host=/tmp/...: a new, empty database

PostgreSQL refuses to run as root: as root the server runs as `nobody` (its temp dir handed
to that user); as anyone else, as oneself. The superuser `tablectl` logs in over the socket
without a password (trust: only whoever can enter the temp dir reaches it).
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

START_WAIT_S = 60.0
STOP_WAIT_S = 30.0
SUPERUSER = "tablectl"
UNPRIVILEGED = "nobody"  # who the server runs as when we are root
needs_postgresql_reason = "PostgreSQL is not installed (Debian's `postgresql` package; .ci/setup installs it)"


def postgresql_bin() -> Path | None:
    """The newest installed PostgreSQL's bin directory (Debian: /usr/lib/postgresql/N/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"), key=lambda p: int(Path(p).parent.parent.name))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("postgres")
    return Path(on_path).parent if on_path else None


class PostgresError(RuntimeError):
    pass


class PostgresServer:
    def __init__(self, bin_dir: Path | None = None, *, durable: bool = False) -> None:
        """durable=False (tests): no fsync, as a test's data dies with it; True (benchmarks):
        PostgreSQL's defaults, each commit flushed to disk before it returns."""
        found = bin_dir or postgresql_bin()
        if found is None:
            raise PostgresError(needs_postgresql_reason)
        self.bin = found
        # short (a socket's path has ~100 bytes); as root in /tmp, which `nobody` can enter whatever TMPDIR is
        self.directory = Path(tempfile.mkdtemp(prefix="tablectl-pg-", dir="/tmp" if os.geteuid() == 0 else None))
        self.data = self.directory / "data"
        self.log = self.directory / "postgres.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = UNPRIVILEGED
            account = pwd.getpwnam(UNPRIVILEGED)
            os.chown(self.directory, account.pw_uid, account.pw_gid)
        self.durable = durable
        self._made = 0

    def _run(self, *argv: str) -> None:
        done = subprocess.run(argv, user=self.user, capture_output=True, text=True, cwd=self.directory, timeout=START_WAIT_S)
        if done.returncode != 0:
            raise PostgresError(f"{Path(argv[0]).name} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> PostgresServer:
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [str(self.bin / "postgres"), "-D", str(self.data), "-k", str(self.directory), "-c", "listen_addresses=",
                 *([] if self.durable else ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"])],
                user=self.user, stdout=log, stderr=subprocess.STDOUT, cwd=self.directory, start_new_session=True)
        deadline = time.monotonic() + START_WAIT_S
        while not (self.directory / ".s.PGSQL.5432").exists() or not self._ready():
            if self.process.poll() is not None:
                raise PostgresError(f"postgres exited ({self.process.returncode}): {self.log.read_text()[-2000:]}")
            if time.monotonic() > deadline:
                self.stop()
                raise PostgresError(f"postgres did not start in {START_WAIT_S:.0f} s: {self.log.read_text()[-2000:]}")
            time.sleep(0.05)
        return self

    def _ready(self) -> bool:
        done = subprocess.run([str(self.bin / "pg_isready"), "-h", str(self.directory), "-U", SUPERUSER, "-q"], timeout=10)
        return done.returncode == 0

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@/{dbname}?host={self.directory}"

    def database(self, prefix: str = "pit") -> str:
        """A new, empty database: its URL."""
        import psycopg  # the test extra and the pit's dependency; not needed to start the server

        self._made += 1
        name = f"{prefix}_{self._made}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')  # a name we made: [a-z_0-9]
        return self.url(name)

    def stop(self) -> None:
        """A fast shutdown (SIGINT to the postmaster, its PID), waited for; then the temp dir goes."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(2)
            try:
                self.process.wait(STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.stop()
