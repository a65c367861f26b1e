"""The demo's shoes are fair shuffles, and the daemon's integrity checks (local ruling L7) call
none of them: for many seeds of every game, the very shoes and decks the demo's rig deals (the
shoe simulator's seeded shuffle, then the rig's own seeds for each new shoe or deck) run through
the checks in a row, as the daemon runs them; and a real headless demo of a deck-per-round game
plays many decks with no irregularity at all."""
import random

import pytest
from demo_process import assert_all_stopped, run_demo

from firmware_bridge.sim.shoe import shuffled_shoe
from games.integrity import ShoeWatch
from games.registry import GAME_KEYS, get_game, get_table_profile
from simulation.rig.rig import CUT_CARD_FROM_END

SEEDS = range(1, 41)


def demo_loads(game_key: str, seed: int, loads: int) -> list[list]:
    """The rig's first `loads` shoes (decks): its shoe simulator starts with `seed`, and each
    later shoe or deck is shuffled with the next seed of random.Random(seed) (simulation/rig)."""
    game = get_game(game_key)
    rng = random.Random(seed)
    seeds = [seed] + [rng.randrange(1 << 31) for _ in range(loads - 1)]
    return [shuffled_shoe(game.deck_kind, game.default_decks, s) for s in seeds]


@pytest.mark.parametrize("game_key", GAME_KEYS)
def test_the_demos_shoes_raise_no_alarm(game_key):
    game = get_game(game_key)
    per_round = get_table_profile(game_key).deck_per_round
    loads = 30 if per_round else 3
    for seed in SEEDS:
        watch = ShoeWatch(game.deck_kind, game.default_decks)
        for n, cards in enumerate(demo_loads(game_key, seed, loads), start=1):
            if per_round:  # the demo's live spots vary: check the deck as far as all seats would deal it
                dealt = game.max_cards(tuple(range(1, game.max_spots + 1)))
                watch.new_shoe(f"shoe 1 deck {n}", cards_to_deal=dealt)
            else:  # dealt to the cut card, and the round after it
                dealt = len(cards) - CUT_CARD_FROM_END + 6
                watch.new_shoe(f"shoe {n}")
            for counter, card in enumerate(cards[:dealt], start=1):
                assert not watch.feed(card, counter), (game_key, seed, n, watch.alarms)


def test_a_headless_demo_deals_many_decks_without_an_irregularity():
    run = run_demo("--game", "fubacc", "--rounds", "25", "--seed", "8")
    assert run.code == 0, run.stderr
    assert len(run.lines) == 25 and all(line["irregularities"] == [] for line in run.lines)
    assert_all_stopped(run.stderr)
