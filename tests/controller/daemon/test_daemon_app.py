"""`tablectl run` as a real process, where it refuses to start: every error names what is
wrong (the config's file and key, the journal, the socket, the environment)."""
import json
import subprocess
import sys

from controller.journal import Journal
from simulation.rig.processes import ROOT, child_env

WAIT = 30.0


def run(config_path, *args, **env):
    return subprocess.run([sys.executable, "-m", "cli.run", "--config", str(config_path), *args],
                          cwd=ROOT, env=child_env(**env), capture_output=True, text=True, timeout=WAIT)


def config(tmp_path, text="", journal='unsigned = true\n'):
    path = tmp_path / "tablectl.toml"
    path.write_text('game = "fortune6"\n[devices]\nshoe = "/nonexistent/shoe"\npanel = "/nonexistent/panel"\n'
                    'lights = "/nonexistent/lights"\n[journal]\npath = "journal.sqlite"\n' + journal +
                    '[control]\nsocket = "control.sock"\n' + text)
    return path


def cannot_start(done) -> str:
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    errors = [line for line in lines if line["event"] == "cannot_start"]
    assert done.returncode == 1 and errors, done.stdout
    return errors[0]["error"]


def test_without_a_signing_key_the_daemon_does_not_start_unless_told_unsigned(tmp_path):
    error = cannot_start(run(config(tmp_path, journal='signing_key = "nokey/table.key"\n')))
    assert error == (f"{tmp_path}/nokey/table.key: no such table key file (journal.signing_key): `tablectl keys table` "
                     "makes the table's key pair (docs/journal.md, Signed heads), or set journal.unsigned = true (a lab only)")
    error = cannot_start(run(config(tmp_path, journal='signing_key = ""\n')))
    assert error.startswith("journal.signing_key is not set: the table signs its journal with its own key")
    assert not (tmp_path / "journal.sqlite").exists()  # refused before anything was written


def test_a_signing_key_others_may_read_is_refused(tmp_path):
    from controller.journal.signing import new_key_pair
    key = tmp_path / "table.key"
    new_key_pair(key)
    key.chmod(0o640)
    error = cannot_start(run(config(tmp_path, journal='signing_key = "table.key"\ntable = "t1"\n')))
    assert error == (f"{key}: mode 0640 lets others than its owner read it; the table's signing key must be 0600 or "
                     "stricter, owned by the daemon's user (chmod 0600)")


def test_a_bad_config_names_command_file_and_key_and_exits_2(tmp_path):
    path = config(tmp_path, "[timeouts]\ncard_timeout_s = \"soon\"\n")
    done = run(path)
    assert done.returncode == 2
    assert done.stderr.strip() == f"tablectl run: {path}: timeouts.card_timeout_s: expected a number, got 'soon' (a string)"
    missing = run(tmp_path / "nope.toml")
    assert missing.returncode == 2 and missing.stderr.strip() == f"tablectl run: {tmp_path / 'nope.toml'}: no such file"


def test_a_journal_another_process_writes_is_refused_with_exit_1(tmp_path):
    path = config(tmp_path)
    with Journal(tmp_path / "journal.sqlite"):
        done = run(path)
    assert done.returncode == 1
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    errors = [line for line in lines if line["event"] == "cannot_start"]
    assert errors and "another process is writing this journal" in errors[0]["error"]
    assert lines[-1]["event"] == "stopped"


def test_a_socket_path_taken_by_a_file_is_refused(tmp_path):
    path = config(tmp_path)
    (tmp_path / "control.sock").write_text("not a socket")
    done = run(path, "--log-format", "console")
    assert done.returncode == 1
    assert "control.sock exists and is not a socket; not replacing it" in done.stdout
    assert not done.stdout.lstrip().startswith("{")  # the console format, for people


def test_a_malformed_notify_socket_is_named(tmp_path):
    done = run(config(tmp_path), NOTIFY_SOCKET="relative/path")
    assert done.returncode == 2
    error = [json.loads(line) for line in done.stdout.splitlines()][-1]
    assert error["event"] == "bad_environment" and "NOTIFY_SOCKET='relative/path'" in error["error"]
