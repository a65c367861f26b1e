"""For random rounds and random wagers at every game, the money is conserved: what the players
net plus what the house nets is zero (commission is part of the house's net), each space's
`back` is its stake plus its net and never negative, every wager of record is settled at its
frozen stake, and a void returns every stake."""
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from money_helpers import Sensor, deal_to_result, fresh_shoe
from table_helpers import GAMES, Run

from controller.table import machine as m
from games.registry import get_game

AMOUNTS = st.sampled_from([Fraction(1), Fraction(5), Fraction(10), Fraction(25), Fraction(33), Fraction(101)])


def wager_lists(game_key: str):
    game = get_game(game_key)
    seats = st.integers(1, game.max_spots if game.uses_spots else 7)
    bets = st.sampled_from([key for key, w in game.wagers.items() if w.stake_of is None])
    return st.lists(st.tuples(seats, bets, AMOUNTS), max_size=10, unique_by=lambda w: (w[0], w[1]))


def check_conserved(run: Run) -> None:
    frozen = {(w["seat"], w["bet"]): w["stake"] for w in run.journal("wagers")[-1]["wagers"]}
    money = run.journal("settlement")[-1]
    nets = sum((Fraction(w["net"]) for w in money["wagers"]), Fraction(0))
    assert nets + Fraction(money["house_net"]) == 0
    for row in money["wagers"]:
        assert Fraction(row["back"]) == Fraction(row["stake"]) + Fraction(row["net"]) >= 0, row
        assert Fraction(row["commission"]) >= 0
        if (row["seat"], row["bet"]) in frozen:
            assert row["stake"] == frozen[(row["seat"], row["bet"])]
    settled = {(w["seat"], w["bet"]) for w in money["wagers"]}
    unsettled = {u["seat"] for u in money.get("unsettled", [])}
    assert all(key in settled or key[0] in unsettled for key in frozen)
    if money["void"]:
        assert all(row["net"] == "0" and row["back"] == row["stake"] for row in money["wagers"])


@pytest.mark.parametrize("game_key", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_money_is_conserved_over_random_rounds(game_key, data):
    run = Run(game_key)
    fresh_shoe(run)
    by_sensor = data.draw(st.booleans(), label="sensor")
    sensor = Sensor(run) if by_sensor else None
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    for _ in range(data.draw(st.integers(1, 3), label="rounds")):
        if run.table.shoe.state == m.FINISHED:
            break
        assert run.cmd("place_bets").ok
        wagers = data.draw(wager_lists(game_key), label="wagers")
        if run.game.uses_spots:
            spots = sorted({seat for seat, _, _ in wagers} | {1})
            assert run.cmd("spots", spots=spots).ok
        for seat, bet, amount in wagers:
            if sensor is not None:
                sensor.place(seat, bet, amount)
            else:
                assert run.cmd("wagers", seat=seat, stakes=[*_given(run, seat), f"{bet}={amount}"]).ok
        assert run.cmd("no_more_bets").ok
        if data.draw(st.integers(0, 9), label="void") == 0:
            run.key()
            assert run.cmd("void", kind="order_altered").ok
            run.key(False)
        else:
            deal_to_result(run, rng)
        check_conserved(run)
        if run.state == m.RESULT:
            if sensor is not None:
                sensor.pay_out(run.journal("settlement")[-1])
            assert run.cmd("confirm").ok, run.table.snapshot()["money"]
        if sensor is not None:  # the dealer clears the layout for the next round
            for seat, bet in list(sensor.spaces):
                if sensor.chips[(seat, bet)]:
                    sensor.set_to(seat, bet, Fraction(0))


def _given(run: Run, seat: int) -> list[str]:
    return [f"{w['bet']}={w['stake']}" for w in run.table.snapshot()["money"]["commanded"] if w["seat"] == seat]
