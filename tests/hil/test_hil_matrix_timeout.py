"""A missing card by time, for every game: the daemon's card timer (config
`timeouts.card_timeout_s`, short here) expires while a card is due. The game's rules decide:
held (the supervisor confirms the hands and the deal goes on, or voids) or void. The wait is
the daemon's own configured timeout, observed through its events, never measured."""
import re

import pytest
from hil_matrix import (
    GAMES,
    clause,
    complete,
    consequence,
    expect_held,
    expect_result_on_the_board,
    expect_void,
    next_round_is_clean,
    supervisor,
)

pytestmark = pytest.mark.hil
CARD_TIMEOUT_S = 1.5  # long enough for the rig's own dealing between cards, on a loaded machine
RIG_OPTIONS = {"config": {"timeouts": {"card_timeout_s": CARD_TIMEOUT_S}}}
CASES = [(game, resolution) for game in GAMES
         for resolution in (("reconstruct", "void") if consequence(game, "missing_card") == "hold" else ("void",))]


@pytest.mark.parametrize("game, resolution", CASES, scope="module")
def test_no_card_within_the_card_timeout_is_a_missing_card(table, game, resolution):
    rig, before = table, table.records()
    number = rig.open_round()
    (card,) = rig.draw(1)
    mark = rig.events.mark()
    irregularity = rig.events.wait_for("irregularity", after=mark, round=number, timeout=10 * CARD_TIMEOUT_S)
    assert irregularity["evidence"]["round_cards"] == [card["card"]]
    due = rf"no card within {CARD_TIMEOUT_S:g} s: card 2 is due to (banker|spot1)"
    assert re.fullmatch(due, irregularity["detail"]), irregularity["detail"]
    wanted = clause(game, "missing_card")
    if consequence(game, "missing_card") == "void":
        expect_void(rig, mark, number, "missing_card", wanted)
    else:
        held = expect_held(rig, mark, number, "missing_card", wanted, "confirm")
        assert held["void_clause"] == wanted and "card" not in rig.status()["daemon"]["timers"]
        if resolution == "void":
            assert supervisor(rig, "void")["ok"]
            expect_void(rig, mark, number, "missing_card", wanted, by="supervisor")
        else:
            assert supervisor(rig, "reconstruct")["ok"]
            rig.events.wait_for("resumed", after=mark, round=number)
            end = complete(rig, mark, number)
            assert end["event"] == "result" and end["cards"][0] == card["card"]
            expect_result_on_the_board(rig, end)
    next_round_is_clean(rig, before)
