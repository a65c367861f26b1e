"""Round trip host -> simulated device -> host over a real pty pair: p50 / p99.

Three figures, each over N round trips after a warm-up:
  pty echo floor  raw bytes through a pty to a child process that echoes them back
                  (what no protocol can beat on this machine);
  link            a LAMP_QUERY frame from a host Link to `sim lights` (a separate process)
                  and its LAMP_REPORT back, decoded, driven in this thread;
  driver          LightsDriver.read_back(): the same exchange through the driver on a
                  reactor (drivers/reactor.py), as the daemon runs it.

    python3 bench/bench_roundtrip.py [-n 2000]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "drivers"))

from sim_process import SimProcess  # noqa: E402

from drivers.lights import LightsDriver  # noqa: E402
from drivers.reactor import Reactor  # noqa: E402
from drivers.serial_transport import SerialTransport  # noqa: E402
from firmware_bridge.enums import DeviceKind  # noqa: E402
from firmware_bridge.link import Link  # noqa: E402
from firmware_bridge.link_events import Connected  # noqa: E402
from firmware_bridge.messages import Hello, LampQuery, LampReport  # noqa: E402

# The echo child: raw-mode pty, publishes the slave path on stdout, echoes until killed.
ECHO_CHILD = """
import os, sys, tty
master, slave = os.openpty()
tty.setraw(master); tty.setraw(slave)
print(os.ttyname(slave), flush=True)
while True:
    data = os.read(master, 4096)
    if not data:
        break
    os.write(master, data)
"""
FRAME_SIZE = 46  # a LAMP_REPORT of 32 lamps is 13 + 33 bytes


def summary(name: str, samples: list[float]) -> str:
    us = sorted(s * 1e6 for s in samples)
    p = lambda q: us[min(len(us) - 1, int(q * len(us)))]  # noqa: E731
    return (f"{name:<16} n={len(us):<6} p50={p(0.50):8.1f} us  p99={p(0.99):8.1f} us  "
            f"mean={statistics.fmean(us):8.1f} us  max={us[-1]:9.1f} us")


def read_exactly(transport: SerialTransport, n: int) -> bytes:
    data = b""
    while len(data) < n:
        data += transport.read(1.0)
    return data


def bench_echo(n: int) -> list[float]:
    child = subprocess.Popen([sys.executable, "-c", ECHO_CHILD], stdout=subprocess.PIPE, text=True)
    try:
        path = child.stdout.readline().strip()
        payload = bytes(range(FRAME_SIZE))
        samples = []
        with SerialTransport(path) as port:
            for i in range(n + n // 10):
                start = time.perf_counter()
                port.write(payload)
                read_exactly(port, len(payload))
                if i >= n // 10:
                    samples.append(time.perf_counter() - start)
        return samples
    finally:
        child.kill()  # our own child, by its handle
        child.wait()


def bench_link(sim: SimProcess, n: int) -> list[float]:
    link = Link(Hello(DeviceKind.HOST, boot_id=1, serial="bench"), heartbeat_interval=None,
                silence_timeout=None)
    samples = []
    with SerialTransport(sim.link) as port:
        def exchange(until) -> None:
            port.write(link.outgoing())
            while True:
                now = time.monotonic()
                data = port.read(0.5)
                events = link.receive(data, now) + link.poll(now)
                port.write(link.outgoing())
                if any(until(e) for e in events):
                    return

        link.start(time.monotonic())
        exchange(lambda e: isinstance(e, Connected))
        is_report = lambda e: isinstance(e, LampReport)  # noqa: E731
        for i in range(n + n // 10):
            start = time.perf_counter()
            link.send(LampQuery(), time.monotonic())
            exchange(is_report)
            if i >= n // 10:
                samples.append(time.perf_counter() - start)
    return samples


def bench_driver(sim: SimProcess, n: int) -> list[float]:
    reactor = Reactor()
    driver = LightsDriver(sim.link, lambda event: None, reactor=reactor).start()
    try:
        reactor.run_until(lambda: driver.connected, 20)
        samples = []
        for i in range(n + n // 10):
            start = time.perf_counter()
            driver.read_back(2.0)
            if i >= n // 10:
                samples.append(time.perf_counter() - start)
        return samples
    finally:
        driver.close()
        reactor.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=2000, help="round trips per figure (default 2000)")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, frame {FRAME_SIZE} bytes")
    print(summary("pty echo floor", bench_echo(args.n)))
    with tempfile.TemporaryDirectory() as tmp:
        sim = SimProcess("lights", Path(tmp))
        try:
            print(summary("link", bench_link(sim, args.n)))
        finally:
            sim.close()
        sim = SimProcess("lights", Path(tmp))
        try:
            print(summary("driver read_back", bench_driver(sim, args.n)))
        finally:
            sim.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
