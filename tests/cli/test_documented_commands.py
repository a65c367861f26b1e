"""Every command README.md shows in its code blocks, run as written (in a shell, with `~` a
temporary home), and the walk-through of docs/simulators.md pasted into bash as a whole. A
command added to the README that this test cannot place fails it, so the page stays true.

The two set-up commands are checked for their form here; running them (apt, a fresh .venv)
is what CI's `.ci/run` does."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli import COMMANDS
from cli.send import parse_fields

pytestmark = pytest.mark.hil  # the real daemon against the simulators, started by the demo

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SETUP = ["bash .ci/setup --run && .venv/bin/tablectl demo", "bash .ci/setup && .venv/bin/python -m pytest -q"]
DEMO_CONFIG = "--config ~/.local/state/tablectl/demo/tablectl.toml"
WAIT = 120.0  # a guard against a hang, not a measurement


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


def shell(line: str, home: Path, timeout: float = WAIT) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home), "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("XDG_STATE_HOME", None)
    return subprocess.run(["bash", "-c", line], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


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


def test_the_two_setup_commands_are_one_line_each_and_the_script_takes_them():
    lines = code_lines(README)
    assert [line for line in lines if ".ci/setup" in line] == SETUP
    assert subprocess.run(["bash", "-n", ".ci/setup"], cwd=ROOT).returncode == 0
    wrong = subprocess.run(["bash", ".ci/setup", "--nonsense"], cwd=ROOT, capture_output=True, text=True)
    assert wrong.returncode == 2 and "usage: bash .ci/setup [--run]" in wrong.stderr
    assert ".venv/bin/python -m pytest" in (ROOT / ".ci" / "run").read_text()


def test_every_command_in_the_readme_works_as_written(tmp_path):
    lines = [line for line in code_lines(README) if line not in SETUP]
    during = [line for line in lines if DEMO_CONFIG in line and line.split()[1] in ("status", "watch")]
    after = [line for line in lines if DEMO_CONFIG in line and line not in during]
    alone = [line for line in lines if DEMO_CONFIG not in line]
    assert during and after and alone
    unknown = [line for line in lines if not line.startswith("tablectl ")]
    assert not unknown, f"README commands this test cannot run: {unknown}"

    for line in alone:
        done = shell(line, tmp_path)
        assert done.returncode == 0 and done.stdout, f"{line}\n{done.stderr}"

    demo = BackgroundDemo(tmp_path)
    try:
        for line in during:
            if line.split()[1] == "watch":  # runs until Ctrl-C: some events, then it is stopped
                with pytest.raises(subprocess.TimeoutExpired) as stopped:
                    shell(line, tmp_path, timeout=5)
                assert stopped.value.stdout and b"  " in stopped.value.stdout, line
            else:
                done = shell(line, tmp_path)
                assert done.returncode == 0 and "shoe ok · panel ok · lights ok" in done.stdout, f"{line}\n{done.stderr}"
    finally:
        demo.stop()

    played = shell("tablectl demo", tmp_path)  # the tour's demo, piped: 10 rounds; its journal stays
    assert played.returncode == 0 and len(played.stdout.splitlines()) == 10, played.stderr
    for line in after:
        done = shell(line, tmp_path)
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
def test_the_simulators_walk_through_works_pasted_as_it_is(tmp_path):
    page = (ROOT / "docs" / "simulators.md").read_text(encoding="utf-8")
    script = re.search(r"```sh\n(.*?)```", page, re.S)[1].replace("/tmp/table", str(tmp_path / "table"))
    done = shell(f"set -e\n{script}", tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "round 1 settled" in done.stdout
    assert "  winner   player\n  player   9h Ks (9)\n  banker   8d 7c (5)" in done.stdout
    assert "irregularity" not in done.stdout
    # stopped daemon first: it switched the lamps off and read them back while the board was there
    assert "off (read back from the board)" in (tmp_path / "table" / "daemon.log").read_text(encoding="utf-8")
