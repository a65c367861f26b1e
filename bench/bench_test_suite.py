"""What a test run costs, and how long it would take on an idle machine.

    python3 bench/bench_test_suite.py [PYTEST ARGS...]     (default: the README's `-n auto --dist loadfile`)

Runs `python -m pytest -q PYTEST ARGS` in the checkout and reports its wall time, its CPU time
(user + system, every child process included: the load-independent figure), and an estimate of
its wall time on an idle machine. Every Python process of the run (pytest, its pytest-xdist
workers and every Python child they start) reports at exit, through a sitecustomize module this
script puts first on PYTHONPATH, how long it ran and how long it was runnable but waiting for a
core (the run queue, /proc/<pid>/task/<tid>/schedstat); a child killed by SIGKILL reports
nothing. A worker's estimate is its span less the waits of its own processes (a child inherits
its worker's PYTEST_XDIST_WORKER); the run's is the slowest worker's plus the time outside the
workers (start-up, collection), and no less than the CPU time spread over every core. Children
that wait at the same time are all subtracted, so on a busy machine the estimate leans low; the
report says what share of the children's CPU the reports cover.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README_ARGS = ["-n", "auto", "--dist", "loadfile"]  # the README's test command: `.venv/bin/python -m pytest -q` and these

SITECUSTOMIZE = '''
import atexit, os, time
_started = time.time()
def _report():
    out = os.environ.get("BENCH_RUNQUEUE_OUT")
    if not out:
        return
    run = wait = 0
    try:
        for tid in os.listdir("/proc/self/task"):
            fields = open(f"/proc/self/task/{tid}/schedstat").read().split()
            run, wait = run + int(fields[0]), wait + int(fields[1])
    except OSError:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER") or "-"
    with open(out, "a") as f:
        f.write(f"{os.getpid()} {run} {wait} {worker} {_started} {time.time()}\\n")
atexit.register(_report)
'''


def idle_estimate(rows: list[list[str]], wall: float, cpu: float) -> float:
    """The run's wall time on an idle machine (see the module's docstring)."""
    waited: dict[str, float] = defaultdict(float)
    first: dict[str, float] = {}
    last: dict[str, float] = {}
    for _, _, wait, worker, started, ended in rows:
        waited[worker] += int(wait) / 1e9
        first[worker] = min(first.get(worker, float(started)), float(started))
        last[worker] = max(last.get(worker, float(ended)), float(ended))
    workers = [w for w in waited if w != "-"]
    if not workers:  # no pytest-xdist: one process runs every test
        return max(wall - waited["-"], 0.0)
    spans = {w: last[w] - first[w] for w in workers}
    slowest = max(spans[w] - waited[w] for w in workers)
    return max(wall - max(spans.values()) - waited["-"] + slowest, cpu / (os.cpu_count() or 1))


def main(pytest_args: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-tests-") as tmp:
        Path(tmp, "sitecustomize.py").write_text(SITECUSTOMIZE)
        reports = Path(tmp, "runqueue")
        env = {**os.environ, "BENCH_RUNQUEUE_OUT": str(reports),
               "PYTHONPATH": os.pathsep.join(p for p in (tmp, os.environ.get("PYTHONPATH", "")) if p)}
        load_before = os.getloadavg()
        started = time.monotonic()
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", *pytest_args], cwd=ROOT, env=env)
        wall = time.monotonic() - started
        load_after = os.getloadavg()
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = usage.ru_utime + usage.ru_stime
        rows = [line.split() for line in reports.read_text().splitlines()] if reports.exists() else []
    reported_run = sum(int(r[1]) for r in rows) / 1e9
    waited = sum(int(r[2]) for r in rows) / 1e9
    workers = sorted({r[3] for r in rows} - {"-"})
    idle = idle_estimate(rows, wall, cpu)
    print(f"\npytest -q {' '.join(pytest_args)}: exit {run.returncode}")
    print(f"wall {wall:.0f} s at load {load_before[0]:.1f} -> {load_after[0]:.1f} (1-minute averages), "
          f"{len(workers) or 'no'} pytest-xdist workers, {os.cpu_count()} cores")
    print(f"CPU {cpu:.0f} s (user {usage.ru_utime:.0f} + system {usage.ru_stime:.0f}), every child included")
    print(f"run-queue wait {waited:.0f} s over {len(rows)} Python processes whose CPU ({reported_run:.0f} s) "
          f"is {reported_run / cpu:.0%} of the run's")
    print(f"estimated on an idle machine: {idle:.0f} s ({idle / 60:.1f} min)")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or README_ARGS))
