"""The scoreboard's two figures:

1. The roads of an 80-round shoe computed from scratch (games/baccarat/roads.py `roads()`),
   and the whole board the service builds after each result (`Board.board_json()`: the
   roads plus round numbers, counts, last result), on seeded random shoes.
2. Result event -> board redrawn in the browser: the real daemon and simulators (simulation.rig)
   deal whole shoes; `tablectl scoreboard` follows the journal; headless Chromium shows the
   board. For every `result` record the page notes when its redraw was painted (two animation
   frames after the update arrived; window.boardTimings) against the record's journal time
   (`at`, the same wall clock): journal commit -> follower woken by the daemon's event ->
   board folded and serialized -> SSE -> JSON parsed -> DOM redrawn -> painted.
3. The page's own redraw of the last shoe's whole board (every road, the counts, the results)
   and the layout it forces, timed in the page with performance.now(), `--redraws` times.

    python3 bench/bench_scoreboard.py [--seed 7] [--roads-repeat 200] [--shoes 3] [--redraws 100]
                                      [--screenshot docs/scoreboard.png] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "services" / "scoreboard"))

from kiosk import BIG_ROAD_IN_DOM, ScoreboardProcess, big_road_of, chromium, close_browser, wait_until  # noqa: E402

from controller.journal import Record  # noqa: E402
from games.baccarat.roads import Outcome, roads  # noqa: E402
from services.scoreboard.board import Board  # noqa: E402
from simulation.rig import Rig  # noqa: E402

ROUNDS = 80
# Punto Banco's odds, near enough for a realistic mix of streaks (banker 45.9%, player 44.6%, tie 9.5%)
WEIGHTS = {"B": 0.459, "P": 0.446, "T": 0.095}
RESULT_HANDS = {"B": ("Ks 5h", "9c Qd", "banker"), "P": ("9s Kh", "Qc 7d", "player"), "T": ("Ks 7h", "Qc 7d", "tie")}


def random_shoe(rng: random.Random) -> list[Outcome]:
    winners = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()), k=ROUNDS)
    return [Outcome(w, rng.random() < 0.075, rng.random() < 0.075) for w in winners]


def per_call_ms(function, repeat: int) -> dict:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1e3)
    times.sort()
    return {"n": repeat, "p50_ms": round(statistics.median(times), 3),
            "p99_ms": round(times[min(len(times) - 1, int(0.99 * len(times)))], 3)}


def board_after(shoe: list[Outcome]) -> Board:
    """A Board that has folded an 80-round shoe's result records."""
    board = Board("fortune6")
    seq = 0

    def record(kind: str, round_no: int | None, payload: dict) -> Record:
        nonlocal seq
        seq += 1
        return Record(seq, "2026-01-01T00:00:00.000000Z", 0, kind, round_no, json.dumps(payload), "", "")

    board.apply(record("shoe", None, {"event": "new", "shoe": 1}))
    for number, outcome in enumerate(shoe, 1):
        player, banker, winner = RESULT_HANDS[outcome.winner]
        board.apply(record("round_opened", number, {"round": number, "game": "fortune6", "shoe": 1}))
        board.apply(record("result", number, {"round": number, "winner": winner, "hands": {
            "player": {"cards": player.split(), "total": 0}, "banker": {"cards": banker.split(), "total": 0}}}))
    return board


def roads_figures(seed: int, repeat: int) -> dict:
    rng = random.Random(seed)
    shoes = [random_shoe(rng) for _ in range(repeat)]
    cycle = iter(shoes * 2)
    boards = [board_after(shoe) for shoe in shoes[:20]]
    board_cycle = iter(boards * (repeat // 20 + 2))
    return {"roads_80_rounds": per_call_ms(lambda: roads(next(cycle)), repeat),
            "board_json_80_rounds": per_call_ms(lambda: next(board_cycle).board_json(), repeat)}


# render() is board.js's: the whole board redrawn from the state it holds; reading
# offsetHeight makes the browser lay the page out before the clock stops.
REDRAW_TIMES = """
const times = [];
for (let n = 0; n < arguments[0]; n++) {
  const started = performance.now();
  render({board: true, round: true});
  void document.body.offsetHeight;
  times.push(performance.now() - started);
}
return times;
"""


def browser_figures(seed: int, shoes: int, redraws: int, screenshot: str | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-scoreboard-") as directory:
        rig = Rig("fortune6", seed=seed, config={"scoreboard": {"table_name": "Table 7"}}).start()
        board = browser = None
        try:
            board = ScoreboardProcess(rig.config_path, directory=directory)
            browser = chromium()
            browser.get(board.url)
            wait_until(lambda: browser.execute_script("return document.body.dataset.link") == "online", "the board online")
            played = 0
            for _ in range(shoes):
                rig.new_shoe()
                while rig.status()["shoe"]["state"] != "finished" and played < 120 * shoes:
                    rig.play_round()
                    played += 1
            state = board.get_json()
            wait_until(lambda: browser.execute_script(BIG_ROAD_IN_DOM) == big_road_of(state), "the last redraw")
            time.sleep(0.2)
            timings = browser.execute_script("return window.boardTimings")
            redraw_times = sorted(browser.execute_script(REDRAW_TIMES, redraws))
            if screenshot:
                browser.save_screenshot(screenshot)
        finally:
            if browser is not None:
                close_browser(browser)
            if board is not None:
                board.stop()
            rig.stop()
    results = [t for t in timings if t["kind"] == "result" and t["at"] is not None]
    to_paint = sorted(t["drawn"] - t["at"] for t in results)
    to_arrival = sorted(t["received"] - t["at"] for t in results)

    def pick(values: list[float], q: float) -> float:
        return values[min(len(values) - 1, int(q * len(values)))]

    return {"rounds": played, "results": len(results),
            "result_to_painted_ms": {"p50": statistics.median(to_paint), "p99": pick(to_paint, 0.99), "max": to_paint[-1]},
            "result_to_update_received_ms": {"p50": statistics.median(to_arrival), "p99": pick(to_arrival, 0.99)},
            "whole_board_redraw_ms": {"n": redraws, "p50": round(statistics.median(redraw_times), 2),
                                      "p99": round(pick(redraw_times, 0.99), 2)}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--roads-repeat", type=int, default=200)
    parser.add_argument("--shoes", type=int, default=3, help="whole shoes dealt for the browser figure")
    parser.add_argument("--redraws", type=int, default=100, help="whole-board redraws timed in the page")
    parser.add_argument("--screenshot", metavar="PNG", help="save the board at the end of the last shoe")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
               **roads_figures(args.seed, args.roads_repeat), **browser_figures(args.seed, args.shoes, args.redraws, args.screenshot)}
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
