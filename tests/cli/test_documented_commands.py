"""Every command README.md and the pages under docs/ show in their code blocks, run as written
(in a shell, with `~` a temporary home): alone, beside a running demo, or — the walk-throughs
of docs/simulators.md and docs/floor.md — pasted into bash as a whole. A command this test
cannot place fails it, so the pages stay true.

A command that cannot run here (as root, the test suite itself, a benchmark of minutes, a
device that runs until stopped) is listed in NOT_RUN_HERE with the reason, and checked for its
form instead: the command or script exists and takes the options the line gives. The two
set-up commands of the README are checked the same way; running them (apt, a fresh .venv) is
what CI's `.ci/run` does."""
from __future__ import annotations

import os
import re
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from cli import COMMANDS
from cli.send import parse_fields

pytestmark = pytest.mark.hil  # the real daemon against the simulators, started by the demo

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SETUP = ["bash .ci/setup --run && .venv/bin/tablectl demo", "bash .ci/setup && .venv/bin/python -m pytest -q -n auto --dist loadfile"]
DEMO_CONFIG = "--config ~/.local/state/tablectl/demo/tablectl.toml"
WAIT = 120.0  # a guard against a hang, not a measurement
DOCS = sorted((ROOT / "docs").glob("*.md"))
WALK_THROUGHS = ("simulators.md", "floor.md")  # their blocks run pasted as a whole, below
RUN_UNTIL_STOPPED = ("watch", "scoreboard")  # some output, then Ctrl-C


def _paths_exist(line: str) -> bool:
    """The test files and directories a pytest line names are there."""
    return all((ROOT / word.split("::")[0]).exists() for word in line.split() if word.startswith("tests/"))


def _script_takes_its_options(line: str) -> bool:
    """The script is there and has every --option the line gives."""
    words = line.split()
    script = ROOT / words[1]
    return script.is_file() and all(f'"{word.split("=")[0]}"' in script.read_text(encoding="utf-8")
                                    for word in words[2:] if word.startswith("--"))


def _module_takes_its_options(line: str) -> bool:
    """`python3 -m PACKAGE.MODULE --option ...`: the module is there and has every --option."""
    words = line.split("#")[0].split()
    module = ROOT.joinpath(*words[2].split(".")).with_suffix(".py")
    return module.is_file() and all(f'"{word.split("=")[0]}"' in module.read_text(encoding="utf-8")
                                    for word in words[3:] if word.startswith("--"))


def _names_a_command(line: str) -> bool:
    """Each `tablectl COMMAND` the line runs (first, after sudo, or after a pipe) is a command."""
    return all(word in COMMANDS for word in re.findall(r"(?:^|[|;&]\s*|sudo (?:-u \S+ )?)tablectl (\S+)", line))


def _tool_in_the_venv(line: str) -> bool:
    return (ROOT / line.split()[0]).exists() or (Path(sys.executable).parent / Path(line.split()[0]).name).exists()


# (page, a pattern of its lines, why it is not run here, the check of its form instead)
NOT_RUN_HERE = [
    ("*", r"^(python3|\.venv/bin/python) -m pytest", "the test suite itself, which CI's .ci/run runs", _paths_exist),
    ("*", r"^python3 bench/", "a benchmark of minutes, run by hand for docs/benchmarks.md", _script_takes_its_options),
    ("developing.md", r"^\.venv/bin/(ruff|mypy)", "the checks CI runs before the tests (tests/test_checks.py)",
     _tool_in_the_venv),
    ("developing.md", r"^(bash \.ci/setup|\. \.venv/bin/activate)$", "makes the .venv these tests run in",
     lambda line: (ROOT / ".ci/setup").is_file()),
    ("install.md", r"", "a table PC's installation as root (apt, pip into /opt, systemd, udev)", _names_a_command),
    ("firmware_bridge.md", r"^sudo ", "writes a key under /etc/tablectl as root", _names_a_command),
    ("firmware_bridge.md", r"^(tablectl sim |echo |printf )",
     "devices that run until stopped, each in a terminal of its own (simulators.md's walk-through runs them)",
     _names_a_command),
    ("*", r"^tablectl .*\[--", "a synopsis ([optional] options, a|b choices)", _names_a_command),
    ("hil.md", r"^python3 -m simulation\.kill_soak ", "a soak of the daemon killed while dealing, 25 minutes to hours",
     _module_takes_its_options),
]


def docs_lines() -> list[tuple[str, str]]:
    """(page, command line) for every page under docs/ but the walk-throughs."""
    return [(page.name, line) for page in DOCS if page.name not in WALK_THROUGHS for line in code_lines(page)]


def not_run_here(page: str, line: str):
    return next(((reason, check) for where, pattern, reason, check in NOT_RUN_HERE
                 if where in ("*", page) and re.search(pattern, line)), None)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def until_stopped(line: str, home: Path, expected: str) -> str:
    """A command that runs until Ctrl-C (watch, scoreboard): its output once `expected` is in it
    (it must still be running by then), then it is killed with its process group. A documented
    --listen port is swapped for a free one, so that parallel runs cannot collide."""
    line = re.sub(r"--listen 127\.0\.0\.1:\d+", f"--listen 127.0.0.1:{_free_port()}", line)
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(["bash", "-c", line], cwd=ROOT, env=shell_env(home), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=err, start_new_session=True)
        assert proc.stdout is not None
        out = b""
        deadline = time.monotonic() + WAIT
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(proc.stdout, selectors.EVENT_READ)
                while expected.encode() not in out:
                    assert time.monotonic() < deadline, f"{line}: no {expected!r} in {out!r}; stderr {said(err)!r}"
                    if selector.select(timeout=0.5):
                        chunk = os.read(proc.stdout.fileno(), 65536)
                        assert chunk, f"{line}: ended by itself: {out!r}; stderr {said(err)!r}"
                        out += chunk
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            rest, _ = proc.communicate(timeout=WAIT)
    return (out + rest).decode(errors="replace")


def said(file) -> bytes:
    file.seek(0)
    return file.read()


def code_lines(path: Path) -> list[str]:
    """The command lines of a page's ```sh blocks, comments dropped."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", path.read_text(encoding="utf-8"), re.S):
        for line in block.splitlines():
            line = re.sub(r"(^|\s{2,})#.*$", "", line).strip()
            if line:
                lines.append(line)
    return lines


def inline_commands(path: Path) -> list[str]:
    """`tablectl ...` in the prose (inline code spans), not in code blocks."""
    prose = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return [" ".join(span.split()) for span in re.findall(r"`(tablectl [^`]+)`", prose)]


def shell_env(home: Path) -> dict[str, str]:
    env = {**os.environ, "HOME": str(home), "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("XDG_STATE_HOME", None)
    return env


def shell(line: str, home: Path, timeout: float = WAIT) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", line], cwd=ROOT, env=shell_env(home), capture_output=True, text=True, timeout=timeout)


class BackgroundDemo:
    """`tablectl demo` headless for many rounds, so that `status` and `watch` have a daemon."""

    def __init__(self, home: Path) -> None:
        env = {**os.environ, "HOME": str(home)}
        env.pop("XDG_STATE_HOME", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "cli", "demo", "--rounds", "100000", "--seed", "1"], cwd=ROOT,
                                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + WAIT
        while not (home / ".local/state/tablectl/demo/control.sock").exists():
            assert self.proc.poll() is None, self.proc.stderr.read()
            assert time.monotonic() < deadline, "the demo did not start"
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        assert self.proc.wait(WAIT) in (0, 130), self.proc.stderr.read()


@pytest.fixture
def home():
    """A temporary home with a short path. The demo keeps its table in ~/.local/state/tablectl/demo
    only while its sockets' paths fit a Unix socket (107 bytes), else in a temporary directory;
    pytest's tmp_path (longer under pytest-xdist, with a long user name or run number) may not fit."""
    directory = tempfile.mkdtemp(prefix="home-", dir="/tmp")
    yield Path(directory)
    shutil.rmtree(directory, ignore_errors=True)


def test_the_two_setup_commands_are_one_line_each_and_the_script_takes_them():
    lines = code_lines(README)
    assert [line for line in lines if ".ci/setup" in line] == SETUP
    assert subprocess.run(["bash", "-n", ".ci/setup"], cwd=ROOT).returncode == 0
    wrong = subprocess.run(["bash", ".ci/setup", "--nonsense"], cwd=ROOT, capture_output=True, text=True)
    assert wrong.returncode == 2 and "usage: bash .ci/setup [--run]" in wrong.stderr
    assert ".venv/bin/python -m pytest" in (ROOT / ".ci" / "run").read_text()


def test_every_command_of_the_docs_pages_is_run_or_marked_and_checked():
    pages = {page for page, _ in docs_lines()}
    assert {"games.md", "paigow.md", "install.md", "developing.md", "scoreboard.md"} <= pages
    unplaced = []
    for page, line in docs_lines():
        marked = not_run_here(page, line)
        if marked is not None:
            reason, check = marked
            assert check(line), f"{page}: {line!r} ({reason}): its form does not check"
        elif not line.startswith("tablectl "):
            unplaced.append(f"{page}: {line}")
    assert not unplaced, f"docs commands this test cannot run (run them, or mark them in NOT_RUN_HERE): {unplaced}"


def test_every_command_of_the_docs_pages_that_runs_alone_works_as_written(tmp_path):
    alone = [(page, line) for page, line in docs_lines() if not_run_here(page, line) is None and DEMO_CONFIG not in line]
    assert any(page == "paigow.md" for page, _ in alone)
    for page, line in alone:
        done = shell(line, tmp_path)
        assert done.returncode == 0 and done.stdout, f"{page}: {line}\n{done.stderr}"


def test_commands_in_the_docs_prose_exist():
    for page in DOCS:
        for span in inline_commands(page):
            word = span.split()[1].rstrip(":")  # `tablectl journal: ...` quotes a message of the command
            assert word.startswith("-") or word.isupper() or word in COMMANDS, f"{page.name}: {span}"


def test_every_command_in_the_readme_works_as_written(home):
    lines = [line for line in code_lines(README) if line not in SETUP]
    beside = [line for page, line in docs_lines() if DEMO_CONFIG in line and not_run_here(page, line) is None]
    assert any(line.startswith("tablectl scoreboard ") for line in beside)
    during = [line for line in lines if DEMO_CONFIG in line and line.split()[1] in ("status", "watch")]
    after = [line for line in lines if DEMO_CONFIG in line and line not in during]
    alone = [line for line in lines if DEMO_CONFIG not in line]
    assert during and after and alone
    unknown = [line for line in lines if not line.startswith("tablectl ")]
    assert not unknown, f"README commands this test cannot run: {unknown}"

    for line in alone:
        done = shell(line, home)
        assert done.returncode == 0 and done.stdout, f"{line}\n{done.stderr}"

    demo = BackgroundDemo(home)
    try:
        for line in during + beside:
            if line.split()[1] == "watch":  # runs until Ctrl-C: some events, then it is stopped
                assert "  " in until_stopped(line, home, "  "), line
            elif line.split()[1] == "scoreboard":
                serving = "tablectl scoreboard: serving http://127.0.0.1:"
                assert serving in until_stopped(line, home, serving), line
            else:
                done = shell(line, home)
                assert done.returncode == 0 and "shoe ok · panel ok · lights ok" in done.stdout, f"{line}\n{done.stderr}"
    finally:
        demo.stop()

    played = shell("tablectl demo", home)  # the tour's demo, piped: 10 rounds; its journal stays
    assert played.returncode == 0 and len(played.stdout.splitlines()) == 10, played.stderr
    for line in after:
        done = shell(line, home)
        assert done.returncode == 0, f"{line}\n{done.stderr}"
        if "recall" in line:
            assert [row.split()[1] for row in done.stdout.splitlines() if row.startswith("round ")] == ["8", "9", "10"]


def test_commands_in_the_readmes_prose_exist_and_parse():
    spans = inline_commands(README)
    assert any(span.startswith("tablectl send void kind=") for span in spans)
    for span in spans:
        words = span.split()
        if words[1].startswith("-") or words[1].isupper():  # an option, or a placeholder (COMMAND)
            continue
        assert words[1] in COMMANDS, span
        if words[1] == "send" and len(words) > 2 and "=" in span:
            parse_fields(words[2], [w.replace('"', "") for w in re.findall(r'\S+="[^"]*"|\S+', " ".join(words[3:]))])
    assert shell("tablectl --help", ROOT).returncode == 0


@pytest.mark.skipif(shutil.which("socat") is None, reason="socat is not installed (.ci/setup installs it)")
def test_the_simulators_walk_through_works_pasted_as_it_is(home):
    page = (ROOT / "docs" / "simulators.md").read_text(encoding="utf-8")
    walk, key = (block.replace("/tmp/table", str(home / "table")) for block in re.findall(r"```sh\n(.*?)```", page, re.S))
    # then the key file for authenticated frames; a step that fails leaves no simulator running
    done = shell(f"set -e\ntrap 'kill $(jobs -p) 2> /dev/null || true' EXIT\n{walk}\n{key}", home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "round 1 settled" in done.stdout
    assert "  winner   player\n  player   9h Ks (9)\n  banker   8d 7c (5)" in done.stdout
    assert "irregularity" not in done.stdout
    from controller.journal import iter_records, open_readonly

    conn = open_readonly(home / "table" / "journal.sqlite")
    chips = [r.payload["chips"] for r in iter_records(conn, 0) if r.kind == "device" and r.payload["event"] == "SpaceChips"]
    conn.close()
    assert [[value for _, value in listed] for listed in chips[-2:]] == [[2500, 500], []]  # placed, then taken: journaled
    wagers = [r.payload for r in iter_records(open_readonly(home / "table" / "journal.sqlite"), 0) if r.kind == "wagers"]
    assert [(w["seat"], w["bet"], w["stake"]) for w in wagers[-1]["wagers"]] == [(3, "banker", "30")]
    # stopped daemon first: it switched the lamps off and read them back while the board was there
    assert "off (read back from the board)" in (home / "table" / "daemon.log").read_text(encoding="utf-8")
    assert len(bytes.fromhex((home / "table" / "shoe.key").read_text().strip())) == 32
    assert (home / "table" / "shoe.key").stat().st_mode & 0o777 == 0o640


@pytest.mark.skipif(not Path("/usr/sbin/mosquitto").is_file(), reason="no /usr/sbin/mosquitto (.ci/setup installs it)")
def test_the_floor_lab_on_one_machine_works_pasted_as_it_is(home):
    """docs/floor.md's lab after a demo: its own Mosquitto, the feed and the pit. The pit's live
    line runs until Ctrl-C: here it runs in the background and gets Ctrl-C (SIGINT) once it has
    the demo's last round; the port is a free one instead of 1884."""
    played = shell("tablectl demo", home)  # 10 rounds; its journal stays
    assert played.returncode == 0, played.stderr
    page = (ROOT / "docs" / "floor.md").read_text(encoding="utf-8")
    script = re.search(r"```sh\n(mkdir -p /tmp/floor-lab.*?)```", page, re.S)[1]
    script = script.replace("/tmp/floor-lab", str(home / "floor-lab")).replace("1884", str(_free_port()))
    pit = next(line for line in script.splitlines() if line.startswith("tablectl pit --broker"))
    script = script.replace(pit, f"{pit.split('  #')[0]} > pit.out 2>&1 & pit=$!\n"
                            "for _ in $(seq 240); do tablectl pit recall --table lab/t01 --last 1 --db pit.sqlite 2> /dev/null "
                            "| grep -q '^round 10 ' && break; sleep 0.5; done\nkill -INT $pit; wait $pit")
    done = shell(f"set -e\ntrap 'kill $(jobs -p) 2> /dev/null || true' EXIT\n{script}", home, timeout=WAIT + 60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [row.split()[1] for row in done.stdout.splitlines() if row.startswith("round ")] == ["8", "9", "10"], done.stdout
