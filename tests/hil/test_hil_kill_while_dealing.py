"""The daemon SIGKILLed 100 times at random points while the shoe deals (PROTOCOL.md §9): the
real daemon, the real 1.2 shoe simulator, the demo's rounds with its shoe faults (0.2 a round),
every game. After each kill a new daemon starts after a random delay: 0-0.3 s mostly, every
10th 1.5-5 s (beyond the shoe's 1.25 s retry limit: its session fails, and the cards it holds
must survive that). Then every card the shoe drew is in the journal exactly once, no round was
held for a card nobody heard, and the chain verifies.

Numbers: 5 games x 20 kills (10 long restarts in all), at least 6 rounds a game; 97-199 s
on 2 loaded cores. `python -m simulation.kill_soak` runs the same for 1,000 kills and
any number of rounds (docs/hil.md)."""
import pytest

from games.registry import GAME_KEYS
from simulation.kill_soak import KillPlan, soak_game

pytestmark = [pytest.mark.hil, pytest.mark.slow]

KILLS_PER_GAME = 20
LONG_EVERY = 10


@pytest.mark.parametrize("game", GAME_KEYS)
def test_every_card_survives_kills_exactly_once(game):
    seed = GAME_KEYS.index(game) + 1
    result = soak_game(game, KillPlan(KILLS_PER_GAME, long_every=LONG_EVERY), rounds=6, faults=0.2, seed=seed)
    summary = result.to_json()
    assert result.kills == KILLS_PER_GAME and result.long_restarts == KILLS_PER_GAME // LONG_EVERY, summary
    assert result.longest_restart_s > 1.25, summary  # a restart slower than the shoe's retry limit
    assert not result.problems, summary
    assert len(result.drawn) >= result.kills  # a card was due at every kill
