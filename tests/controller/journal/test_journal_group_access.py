"""Read-only access for the daemon's group: a member (not root, not the owner) runs `tablectl
recall` and `tablectl journal verify` whether the daemon runs, stopped cleanly or crashed;
someone outside the group gets a clear refusal. The files are laid out as systemd gives them
to the service: StateDirectory mode 0750 owned by the daemon's user and group, UMask=0027.

Real other uids and gids: the tests run as root and fork children that drop to them with
setgroups/setgid/setuid (the project's Python lives under /root, which other users cannot
enter, so the children run the already imported CLI in-process instead of exec'ing it). The
uids need no passwd entries: the kernel checks numbers."""
from __future__ import annotations

import io
import os
import signal
import sys
import tempfile

import pytest
from journal_history import write_history

import cli
import cli.journal
import cli.recall
from controller.journal import Journal
from simulation.rig.other_users import fork_as, read_all

OWNER = GROUP = 64_010  # the daemon's user and group ("tablectl")
MEMBER, MEMBER_GID = 64_011, 64_011  # an operator: own primary group, tablectl as a supplementary one
OUTSIDER = 64_012  # a local user outside the group

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as other users")


def tablectl_as(uid: int, gid: int, groups: list[int], *argv: str) -> tuple[int, str, str]:
    """`tablectl ARGV` run by another user: (exit code, stdout, stderr)."""
    def body(write: int) -> None:
        out, err = io.StringIO(), io.StringIO()
        sys.stdout, sys.stderr = out, err
        code = cli.main(list(argv))
        os.write(write, f"{code}\0{out.getvalue()}\0{err.getvalue()}".encode())

    pid, read = fork_as(uid, gid, groups, body)
    text = read_all(read)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, text
    code, out, err = text.split("\0")
    return int(code), out, err


def as_member(*argv: str):
    return tablectl_as(MEMBER, MEMBER_GID, [GROUP], *argv)


class Daemon:
    """The journal's writer as the daemon's user with the unit's UMask=0027, in a process of
    its own: it writes a history and then waits, to be stopped cleanly or killed."""

    def __init__(self, path: str):
        def body(write: int) -> None:
            journal = Journal(path)
            write_history(journal)
            journal.anchor()
            os.write(write, b"ready\n")
            signal.sigwait([signal.SIGTERM])
            journal.close()

        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])  # the child inherits it blocked
        try:
            self.pid, self._read = fork_as(OWNER, GROUP, [], body, umask=0o027)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        assert os.read(self._read, 6) == b"ready\n"

    def stop(self) -> None:
        os.kill(self.pid, signal.SIGTERM)
        self._wait()

    def kill(self) -> None:
        os.kill(self.pid, signal.SIGKILL)
        self._wait()

    def _wait(self) -> None:
        _, status = os.waitpid(self.pid, 0)
        rest = read_all(self._read)
        assert rest == "" or os.waitstatus_to_exitcode(status) == -signal.SIGKILL, rest


@pytest.fixture(scope="module", autouse=True)
def warm_imports(tmp_path_factory):
    """Run each command once as root first: whatever they import lazily is then loaded before
    a child becomes a user who cannot read the Python installation."""
    path = tmp_path_factory.mktemp("warm") / "journal.sqlite"
    with Journal(path) as journal:
        write_history(journal)
    for argv in (["recall", "--journal", str(path)], ["journal", "verify", "--journal", str(path)],
                 ["journal", "check", "--journal", str(path)],
                 ["recall", "--journal", str(path.parent / "absent.sqlite")]):
        saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = io.StringIO()
        try:
            cli.main(argv)
        finally:
            sys.stdout, sys.stderr = saved


@pytest.fixture
def state_dir():
    """/var/lib/tablectl as systemd makes it: 0750, the daemon's user and group."""
    path = tempfile.mkdtemp(prefix="tablectl-state-", dir="/tmp")  # /tmp/pytest-of-root is 0700
    os.chown(path, OWNER, GROUP)
    os.chmod(path, 0o750)
    yield path
    for name in os.listdir(path):
        os.unlink(os.path.join(path, name))
    os.rmdir(path)


def files(directory: str) -> dict[str, tuple[int, int, int]]:
    found = {}
    for name in sorted(os.listdir(directory)):
        st = os.stat(os.path.join(directory, name))
        found[name] = (st.st_mode & 0o777, st.st_uid, st.st_gid)
    return found


def member_reads(path: str) -> None:
    code, out, err = as_member("recall", "--journal", path)
    assert (code, err) == (0, "") and out.startswith("round 1  fortune6  8 decks  shoe 1")
    assert len(out.split("\nround ")) == 4
    code, out, err = as_member("journal", "verify", "--journal", path)
    assert (code, err) == (0, "") and out.startswith(f"{path}: ok: 26 records, chain intact; head 26 ")
    code, out, err = as_member("journal", "check", "--journal", path)
    assert (code, err) == (0, "") and out.startswith(f"{path}: ok: anchored at record 26; 0 records checked; head 26 ")


def test_while_the_daemon_runs(state_dir):
    path = f"{state_dir}/journal.sqlite"
    daemon = Daemon(path)
    try:
        tablectl_files = {"journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm", "journal.sqlite.anchor"}
        assert set(files(state_dir)) == tablectl_files
        assert all(mode == (0o640, OWNER, GROUP) for mode in files(state_dir).values())
        member_reads(path)
    finally:
        daemon.stop()


def test_after_the_daemon_stopped(state_dir):
    """The failure this reproduces: "attempt to write a readonly database" (WAL mode needs the
    -shm file, which the member may not create in the daemon's 0750 directory)."""
    path = f"{state_dir}/journal.sqlite"
    Daemon(path).stop()
    left = {"journal.sqlite": (0o640, OWNER, GROUP), "journal.sqlite.anchor": (0o640, OWNER, GROUP)}
    assert files(state_dir) == left  # SQLite removed -wal and -shm
    member_reads(path)
    assert files(state_dir) == left  # the reader left nothing behind


def test_after_the_daemon_was_killed(state_dir):
    """-wal and -shm are left behind; the records still only in the WAL are read too."""
    path = f"{state_dir}/journal.sqlite"
    Daemon(path).kill()
    assert set(files(state_dir)) == {"journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm", "journal.sqlite.anchor"}
    member_reads(path)


def test_someone_outside_the_group_is_refused_clearly(state_dir):
    path = f"{state_dir}/journal.sqlite"
    Daemon(path).stop()
    os.chmod(state_dir, 0o755)  # even with the directory open to all, the file is not theirs
    code, out, err = tablectl_as(OUTSIDER, OUTSIDER, [], "recall", "--journal", path)
    assert (code, out) == (1, "")
    assert err == (f"tablectl recall: {path}: permission denied: the journal is readable by its owner "
                   f"(uid {OWNER}) and group (gid {GROUP}) only; ask to be added to that group\n")


def test_someone_who_cannot_enter_the_directory_is_told_so(state_dir):
    path = f"{state_dir}/journal.sqlite"
    Daemon(path).stop()
    code, out, err = tablectl_as(OUTSIDER, OUTSIDER, [], "journal", "verify", "--journal", path)
    assert (code, out) == (1, "")
    assert err == (f"tablectl journal: {path}: permission denied: its directory {state_dir} is open to the "
                   "daemon's user and group only; ask to be added to that group\n")


def test_a_wal_with_records_but_no_shm_is_explained(state_dir):
    path = f"{state_dir}/journal.sqlite"
    Daemon(path).kill()
    os.unlink(f"{path}-shm")
    code, out, err = as_member("recall", "--journal", path)
    assert (code, out) == (1, "")
    assert err == (f"tablectl recall: {path}: cannot read the journal: its write-ahead log ({path}-wal) holds records "
                   "and its -shm file is missing, which only the daemon's user may create: start the daemon, or read "
                   "as its user\n")


def test_a_reader_without_the_daemon_notices_when_the_file_changes_under_it(state_dir):
    """Read as immutable (no -shm): if the daemon starts and checkpoints meanwhile, the reader
    says so instead of trusting what it read."""
    path = f"{state_dir}/journal.sqlite"
    Daemon(path).stop()
    go_read, go_write = os.pipe()

    def body(write: int) -> None:
        from controller.journal import JournalError, open_readonly

        conn = open_readonly(path)
        conn.check_unchanged()  # nothing changed yet
        os.write(write, b"opened\n")
        assert os.read(go_read, 8) == b"changed\n"
        try:
            conn.check_unchanged()
        except JournalError as error:
            os.write(write, str(error).encode())

    pid, read = fork_as(MEMBER, MEMBER_GID, [GROUP], body)
    assert os.read(read, 7) == b"opened\n"
    with Journal(path) as journal:  # the daemon (here: root) starts, writes and checkpoints
        journal.append("daemon_started", {"pid": os.getpid()})
        journal.checkpoint()
    os.write(go_write, b"changed\n")
    said = read_all(read)
    os.waitpid(pid, 0)
    assert said == (f"{path}: the journal changed while it was read without the daemon (the daemon started?): "
                    "run the command again")
