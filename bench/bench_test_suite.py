"""What a test run costs, and how long it would take on an idle machine.

    python3 bench/bench_test_suite.py [PYTEST ARGS...]     (default: the README's `pytest -q`)

Runs `python -m pytest -q PYTEST ARGS` in the checkout and reports its wall time, its CPU time
(user + system, every child process included: the load-independent figure), and an estimate of
its wall time on an idle machine: the wall time less the time the run spent runnable but
waiting for a core (the run queue, /proc/<pid>/task/<tid>/schedstat), the pytest process's own
and that of every Python child it started (each child reports its own at exit, through a
sitecustomize module this script puts first on PYTHONPATH; a child killed by SIGKILL reports
nothing). Children that wait at the same time are all subtracted, so on a busy machine the
estimate leans low; the report says what share of the children's CPU the reports cover.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SITECUSTOMIZE = '''
import atexit, os
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
    with open(out, "a") as f:
        f.write(f"{os.getpid()} {run} {wait}\\n")
atexit.register(_report)
'''


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
    print(f"\npytest -q {' '.join(pytest_args)}: exit {run.returncode}")
    print(f"wall {wall:.0f} s at load {load_before[0]:.1f} -> {load_after[0]:.1f} (1-minute averages)")
    print(f"CPU {cpu:.0f} s (user {usage.ru_utime:.0f} + system {usage.ru_stime:.0f}), every child included")
    print(f"run-queue wait {waited:.0f} s over {len(rows)} Python processes whose CPU ({reported_run:.0f} s) "
          f"is {reported_run / cpu:.0%} of the run's")
    print(f"estimated on an idle machine: {wall - waited:.0f} s ({(wall - waited) / 60:.1f} min)")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
