"""100,000 fairly shuffled shoes of every deck kind, one table's worth in a row (a seeded loop,
the four kinds on two processes): no alarm at the default false-alarm rate, and at rates loose
enough to measure, each check's measured rate agrees with its arithmetic (simulation/fair_shoes)."""
import math
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from simulation.fair_shoes import CONFIGS, run_fair_shoes

SHOES = 100_000
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


@pytest.fixture(scope="module")
def tallies():
    configs = sorted(CONFIGS, key=lambda c: -(CONFIGS[c][2] or 1000))  # the big shoes first, one per worker
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        jobs = {config: pool.submit(run_fair_shoes, config, SHOES, seed) for seed, config in enumerate(configs, 1)}
        out = {config: job.result() for config, job in jobs.items()}
    print("\n" + "\n".join(t.summary() for t in out.values()))
    return out


def margin(p: float, n: int) -> float:
    """Five standard deviations of a binomial frequency."""
    return 5 * math.sqrt(max(p, 1 / n) * (1 - min(p, 0.5)) / n)


@pytest.mark.parametrize("config", CONFIGS)
def test_no_fair_shoe_raises_an_alarm(tallies, config):
    tally = tallies[config]
    assert tally.shoes == SHOES and tally.alarms == []


@pytest.mark.parametrize("config", CONFIGS)
def test_unshuffled_fires_no_more_often_than_its_bound(tallies, config):
    tally = tallies[config]
    for level, count in tally.unshuffled_at.items():
        assert count / SHOES <= float(level) + margin(float(level), SHOES), (level, count)
    assert tally.unshuffled_at[min(tally.unshuffled_at, key=lambda x: -x)] > 0  # the statistic moves


@pytest.mark.parametrize("config", CONFIGS)
def test_replayed_openings_match_the_exact_probability(tallies, config):
    tally = tallies[config]
    for k, matched in tally.replay_matched.items():
        expected = float(tally.replay_expected[k])
        assert abs(matched - expected) <= 5 * math.sqrt(expected) + 3, (k, matched, expected)
    assert tally.replay_matched[2] > 1000  # measured where the numbers are large enough to tell


@pytest.mark.parametrize("config", CONFIGS)
def test_slug_runs_are_as_rare_as_their_bound(tallies, config):
    tally = tallies[config]
    n = tally.slug_shoes
    for length, count in tally.slug_longest.items():
        bound = float(tally.slug_bound[length])
        assert count / n <= bound + margin(bound, n), (length, count / n, bound)
        if 20 <= bound * n and bound <= 0.1:  # measurable: the bound is near what happens
            assert count / n >= bound / 4, (length, count / n, bound)
