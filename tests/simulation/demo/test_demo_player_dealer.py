"""Fortune 7's player-dealer position as the demo offers it, on the real daemon through the
rig: at the start and after every two settled hands, clockwise from the seat the table names;
when nobody accepts, no hand is dealt and the offer goes round again from the same seat.
Who accepts is scripted here (a Choices whose players answer from a list) instead of seeded."""
import pytest

from games.registry import get_game
from simulation.demo.choices import Choices
from simulation.demo.rounds import DemoTable
from simulation.rig import Rig


class ScriptedPlayers(Choices):
    """Players who answer the offer from a script of (seat asked, accepts) in the order the
    rules say the seats are asked; a seat asked out of turn fails the test."""

    def __init__(self, script: list[tuple[int, bool]]) -> None:
        super().__init__(1, get_game("fortune7"))
        self.script = list(script)

    def accepts_bank(self, seat: int) -> bool:
        expected, answer = self.script.pop(0)
        assert seat == expected, f"seat {seat} was asked; the rules ask seat {expected} now"
        return answer


@pytest.fixture
def fortune7_rig():
    with Rig("fortune7", seed=4) as rig:
        yield rig


def test_offers_refusals_and_rotation_every_two_hands(fortune7_rig):
    rig = fortune7_rig
    everyone_declines = [(seat, False) for seat in range(1, 8)]
    players = ScriptedPlayers(everyone_declines + [(1, False), (2, False), (3, False), (4, True),  # seat 4
                                                   (5, False), (6, True)])  # after seat 4's two hands
    table = DemoTable(rig, players)
    mark = rig.events.mark()
    lines = [table.play() for _ in range(4)]
    # nobody on the first round of offers (from seat 1), seat 4 on the second, from seat 1 again
    assert table.log[:2] == [
        "nobody takes the player-dealer position: no hand; offered again from seat 1",
        "seat 4 takes the player-dealer position (offered from seat 1)",
    ]
    offered = [(e["what"], e["seat"]) for e in rig.events.since(mark, "player_dealer") if e["what"] == "offered"]
    assert offered == [("offered", None), ("offered", 4), ("offered", 6)]
    # two hands for seat 4; then offered from seat 5: seat 5 declines, seat 6 accepts
    assert [line["player_dealer"] for line in lines] == [4, 4, 6, 6]
    assert table.log[2] == "seat 6 takes the player-dealer position (offered from seat 5)"
    # the board once each round ended: seat 4 after its first hand; after its second the table
    # itself passed the position to the left (seat 5), before seat 5 declined the demo's offer
    assert [[n for n in line["lamps"] if n.startswith("player_dealer_")] for line in lines] == \
        [["player_dealer_4"], ["player_dealer_5"], ["player_dealer_6"], ["player_dealer_7"]]
    assert all(not line["void"] for line in lines) and players.script == []
