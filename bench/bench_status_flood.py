"""Another client's `status` while one client floods `status` without reading its replies,
the shoe dealing at full speed meanwhile: p50 / p99 / max of that client's round trip, quiet
and under the flood, against the real daemon and simulators (simulation.rig).

The flooder sends status requests as fast as the socket takes them and never reads; when
the daemon drops it, it connects again. The asker sends one status, waits for the answer,
sleeps 5 ms, again. The rig deals rounds throughout (card by card, as fast as the table takes
them). Also counted: the flooder's drops, rounds dealt, and whether any device link went
silent (a `device` event other than up) or a round was held.

    python3 bench/bench_status_flood.py [--seconds 20] [--flooders 1]
"""
from __future__ import annotations

import argparse
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.control import ControlClient  # noqa: E402
from simulation.rig import Rig  # noqa: E402


class Flooder(threading.Thread):
    def __init__(self, path: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.path, self.stop, self.dropped, self.sent = path, stop, 0, 0

    def run(self) -> None:
        burst = b'{"cmd":"status"}\n' * 2000
        while not self.stop.is_set():
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(0.2)
            try:
                sock.connect(self.path)
                while not self.stop.is_set():
                    try:
                        sock.sendall(burst)
                        self.sent += 2000
                    except TimeoutError:
                        continue
            except OSError:
                self.dropped += 1
            finally:
                sock.close()


def ask(path: str, stop: threading.Event, times: list[float]) -> None:
    with ControlClient(path, timeout=60) as client:
        while not stop.is_set():
            started = time.perf_counter()
            assert client.request("status")["ok"]
            times.append(time.perf_counter() - started)
            time.sleep(0.005)


def deal(rig: Rig, stop: threading.Event, ends: list[str]) -> None:
    while not stop.is_set():
        ends.append(rig.play_round(timeout=120)["event"])


def phase(rig: Rig, seconds: float, flooders: int) -> dict:
    stop = threading.Event()
    floods = [Flooder(rig.socket_path, stop) for _ in range(flooders)]
    for flood in floods:
        flood.start()
    times: list[float] = []
    ends: list[str] = []
    asker = threading.Thread(target=ask, args=(rig.socket_path, stop, times), daemon=True)
    mark = rig.events.mark()
    asker.start()
    timer = threading.Timer(seconds, stop.set)
    timer.start()
    deal(rig, stop, ends)
    asker.join(120)
    for flood in floods:
        flood.join(120)
    times.sort()
    silent = [e for e in rig.events.since(mark, "device") if e.get("link") != "up"]
    return {"answers": len(times), "p50_ms": 1000 * statistics.median(times),
            "p99_ms": 1000 * times[int(len(times) * 0.99) - 1], "max_ms": 1000 * times[-1],
            "rounds": len(ends), "held_or_void": sum(end != "result" for end in ends), "links_not_up": len(silent),
            "flood_sent": sum(f.sent for f in floods), "flood_dropped": sum(f.dropped for f in floods)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--flooders", type=int, default=1)
    args = parser.parse_args()
    with Rig("fortune6", seed=31) as rig:
        rig.new_shoe()
        for name, flooders in (("quiet", 0), (f"{args.flooders} flooder(s)", args.flooders)):
            figures = phase(rig, args.seconds, flooders)
            print(f"{name:>14}: status p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, "
                  f"max {figures['max_ms']:.1f} ms over {figures['answers']} answers; {figures['rounds']} rounds "
                  f"({figures['held_or_void']} held or void), links not up: {figures['links_not_up']}; "
                  f"flood sent {figures['flood_sent']} requests, dropped {figures['flood_dropped']} times")
        control = rig.status()["daemon"]["control"]
        print(f"daemon: dropped {control['dropped']}, refused {control['refused']}")
        silent = [sim.kind for sim in rig.sims.values() if "host silent" in sim.child.output(tail=100_000)]
        print(f"simulators that logged 'host silent': {silent or 'none'}")


if __name__ == "__main__":
    main()
