"""The README's test command leaves the `slow` checks out (pyproject.toml's addopts), `-m slow`
runs exactly them, and `.ci/run` runs both, in that order, taking "no slow test collected"
(pytest's exit 5) as no failure but any other failure of the slow run as one."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
CI_RUN = ROOT / ".ci" / "run"
DEFAULT = ".venv/bin/python -m pytest -q -n auto --dist loadfile"  # the README's command, on every core
SLOW = ".venv/bin/python -m pytest -q -m slow"
FAIR_SHOES = "tests/games/integrity/test_integrity_fair_shoes.py"  # every test in it is marked slow
WAIT = 300.0  # a guard against a hang, not a measurement


def collect(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=WAIT)


def test_the_default_run_leaves_the_slow_tests_out():
    done = collect(FAIR_SHOES)
    assert done.returncode == 5, done.stdout + done.stderr  # pytest: no test collected
    assert "no tests collected (16 deselected)" in done.stdout


def test_dash_m_slow_runs_the_slow_tests():
    done = collect("-m", "slow", FAIR_SHOES)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "16 tests collected" in done.stdout


def test_ci_runs_the_default_command_then_the_slow_one():
    lines = CI_RUN.read_text(encoding="utf-8").splitlines()
    default = lines.index(DEFAULT)
    slow = next(n for n, line in enumerate(lines) if SLOW in line)
    assert default < slow


def run_the_slow_part_of_ci(tmp_path: pathlib.Path, pytest_exit: int) -> subprocess.CompletedProcess:
    """.ci/run's lines from the slow command on, in bash -e as .ci/run runs them, with a
    .venv/bin/python that only exits with `pytest_exit` (the real one would run the slow tests)."""
    lines = CI_RUN.read_text(encoding="utf-8").splitlines()
    start = next(n for n, line in enumerate(lines) if SLOW in line)
    while start > 0 and lines[start - 1].strip() and not lines[start - 1].startswith(".venv/"):
        start -= 1  # the lines that prepare the slow run (its exit status)
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f"#!/bin/sh\nexit {pytest_exit}\n")
    python.chmod(0o755)
    script = "set -euo pipefail\n" + "\n".join(lines[start:]) + "\necho reached the end\n"
    return subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=WAIT)


def test_ci_takes_no_slow_test_collected_as_no_failure(tmp_path):
    done = run_the_slow_part_of_ci(tmp_path, 5)
    assert done.returncode == 0 and "reached the end" in done.stdout, done.stderr


def test_ci_passes_when_the_slow_tests_pass(tmp_path):
    done = run_the_slow_part_of_ci(tmp_path, 0)
    assert done.returncode == 0 and "reached the end" in done.stdout, done.stderr


def test_ci_fails_when_a_slow_test_fails(tmp_path):
    done = run_the_slow_part_of_ci(tmp_path, 1)
    assert done.returncode == 1 and "reached the end" not in done.stdout
