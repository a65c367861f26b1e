"""`tablectl demo`: the real daemon against the simulated shoe, panel and lights (controller/rig),
the demo acting as the dealer, the players and the supervisor.

    from simulation.demo import DemoOptions, run_headless, run_live
    run_headless(DemoOptions(game="fubacc", rounds=3, seed=7), sys.stdout)   # JSON lines

Parts: choices (the seeded spots, player-dealer offers, faults, supervisor), rounds.DemoTable
(one round per play() -> its JSON line; the players decide as the game's table profile says,
e.g. Fu Bacc's games/fubacc/demo.py), faults (injection through the rig, the supervisor),
bettors (the players' chips and the dealer's payouts on the bet sensor), money_faults (mispays,
past-posts, chips taken, foreign chips, and the dealer's or supervisor's answer),
player_dealer (Fortune 7's offers), report (the JSON line), view (the live screen), session (start/stop, the two modes),
stopping (Ctrl-C), paced_rig (the live pace). docs/demo.md describes the command.
"""
from simulation.demo.choices import Choices, FaultPlan
from simulation.demo.rounds import DemoTable
from simulation.demo.session import DemoOptions, run_headless, run_live
from simulation.demo.view import ViewState, render

__all__ = ["Choices", "DemoOptions", "DemoTable", "FaultPlan", "ViewState", "render", "run_headless", "run_live"]
