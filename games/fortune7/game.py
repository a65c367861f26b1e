"""Fortune 7 Baccarat (fortune7-baccarat.txt): a California game, 8 standard decks.

Banker pays 1:1 but pushes on a winning three-card 7; Fortune 7 pays 40:1 exactly then
(ruling 6); One Up pays when the player wins by one point, 30:1 on 1-0, 9:1 otherwise
(ruling 7). The rules name no irregularities: local ruling L1 applies Fortune Six's §5.
The player-dealer, its coverage and the collection fees are in games.baccarat.california.
"""
from __future__ import annotations

from collections.abc import Mapping

from games.analysis import BetOdds, OddsReport
from games.baccarat import odds as baccarat_odds
from games.baccarat.california.seats import SEATS
from games.baccarat.coup import BANKER, PLAYER, TIE, Coup
from games.baccarat.engine import BaccaratGame
from games.baccarat.irregularities import borrowed_rules
from games.cards import Card, DeckKind
from games.round import Needs, Pay, PayLine, Wager
from games.table_profile import BoardCount, Button, PlayerDealer, TableProfile, spot_buttons

TABLE_OF_PLAY = "fortune7 Dealing Procedures and Round of Play"
THREE_CARD_7 = "banker wins with a three-card 7"
ONE_UP_1_0, ONE_UP_BY_ONE = "player wins 1-0", "player wins by one"

WAGERS = (
    Wager("player", "Player line", "fortune7 How Winners are Determined and Paid",
          (PayLine("player wins", Pay(1)), PayLine(TIE, None))),
    Wager("banker", "Banker line", "fortune7 How Winners are Determined and Paid",
          (PayLine("banker wins", Pay(1)), PayLine(THREE_CARD_7, None), PayLine(TIE, None))),
    Wager("tie", "Tie Bet", "fortune7 Tie Bet, ruling 8", (PayLine(TIE, Pay(8)),)),
    Wager("one_up", "One Up Bonus Bet", "fortune7 One Up Bonus Bet, ruling 7",
          (PayLine(ONE_UP_1_0, Pay(30)), PayLine(ONE_UP_BY_ONE, Pay(9))),
          needs=Needs(("player", "banker"), "fortune7 One Up Bonus Bet, ruling 8")),
    Wager("fortune7", "Fortune 7 Bonus Bet", "fortune7 Fortune 7 Bonus Bet, ruling 6",
          (PayLine(THREE_CARD_7, Pay(40)),), needs=Needs(("player", "banker"), "fortune7 Fortune 7 Bonus Bet, ruling 8")),
)


def settle_coup(coup: Coup) -> dict[str, str | None]:
    winner = coup.winner
    seven = winner == BANKER and coup.banker == 7 and coup.banker_cards == 3
    one_up = None
    if winner == PLAYER and coup.margin == 1:
        one_up = ONE_UP_1_0 if coup.player == 1 else ONE_UP_BY_ONE
    banker = (THREE_CARD_7 if seven else "banker wins") if winner == BANKER else TIE if winner == TIE else None
    return {
        "player": "player wins" if winner == PLAYER else TIE if winner == TIE else None,
        "banker": banker,
        "tie": TIE if winner == TIE else None,
        "one_up": one_up,
        "fortune7": THREE_CARD_7 if seven else None,
    }


GAME = BaccaratGame(
    key="fortune7",
    title="Fortune 7 Baccarat",
    deck_kind=DeckKind.STANDARD52,
    deck_counts=(8,),  # "The game is played using 8 standard 52-card deck"
    default_decks=8,
    wagers=WAGERS,
    irregularities=borrowed_rules("fortune6", "local ruling L1", TABLE_OF_PLAY),
    settle_coup=settle_coup,
    limits_clause="fortune7 Wagering Limits and Collection Fees",  # "at least the table minimum"
)

# The table: a result lamp per betting area, a lamp per seat for the player-dealer position,
# seat buttons to pick who takes it; an 8-deck shoe that burns; the board counts three-card 7s
# (ruling 6).
TABLE = TableProfile(
    result_lamps={"player": 16, "banker": 17, "tie": 18, "one_up": 19, "fortune7": 20},
    buttons=(*spot_buttons(len(SEATS), "seat {n}: select (for the player-dealer button)"),
             Button(30, "player_dealer", meaning="the selected seat takes the player-dealer position")),
    player_dealer=PlayerDealer(SEATS, "Fortune 7"),
    board_counts=(BoardCount("three_card_7", {"en": "Three-card 7", "zh-Hant": "三張七"}, (("fortune7", None),)),),
)


def odds(decks: int = 8) -> OddsReport:
    main = {"banker": "banker", "player": "player", "tie": "tie", "fortune7": "fortune7", "one_up": "one_up"}
    return baccarat_odds.report(GAME, decks, main, {})


def edge_bets(left: Mapping[Card, int], decks: int) -> tuple[dict[str, BetOdds], tuple[str, ...]]:
    """Every wager of the layout for a round dealt from `left` (games.live_edge)."""
    return baccarat_odds.edge_bets(GAME, left)
