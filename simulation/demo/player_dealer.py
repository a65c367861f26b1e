"""Fortune 7's player-dealer position, offered as the rules say: at the start of the game and
after every two hands, clockwise from the seat the table names (`offer_from`); the first
seated player who accepts (the seed decides who does) takes it, and the dealer presses that
seat and the player-dealer button. Nobody accepting is what the rules allow too: no hand is
dealt (the dealer sends `player_dealer seat=0`), and the offer goes round again from the same seat."""
from __future__ import annotations

from games.baccarat.california.rotation import HANDS_PER_TURN, offer_order
from games.baccarat.california.seats import SEATS
from simulation.demo.choices import Choices
from simulation.rig import Rig, RigError

MAX_OFFERS = 10  # rounds of offers before the demo gives up (a 1-in-10^40 run of refusals)


class PlayerDealerOffers:
    def __init__(self, rig: Rig, choices: Choices, log: list[str]) -> None:
        self.rig, self.choices, self.log = rig, choices, log  # log: lines for the live view
        self.hands = HANDS_PER_TURN  # settled hands since the last offer: the first hand needs one

    def before_round(self) -> None:
        """Offer the position when a turn begins; a no-op for other games."""
        bank = self.rig.status()["player_dealer"]
        if bank is None or self.hands < HANDS_PER_TURN:
            return
        for _ in range(MAX_OFFERS):
            seat = next((s for s in offer_order(bank["offer_from"], SEATS) if self.choices.accepts_bank(s)), None)
            if seat is not None:
                self.rig.press("select_spot", spot=seat)
                answer = self.rig.press("player_dealer")
                self._check(answer)
                self.log.append(f"seat {seat} takes the player-dealer position (offered from seat {bank['offer_from']})")
                self.hands = 0
                return
            self._check(self.rig.send("player_dealer", seat=0))
            self.log.append(f"nobody takes the player-dealer position: no hand; offered again from seat {bank['offer_from']}")
            bank = self.rig.status()["player_dealer"]
        raise RigError(f"nobody took the player-dealer position in {MAX_OFFERS} offers")

    def hand_settled(self) -> None:
        self.hands += 1

    @staticmethod
    def _check(answer: dict) -> None:
        if not answer.get("ok"):
            raise RigError(f"player_dealer refused: {answer.get('message') or answer.get('error')}")
