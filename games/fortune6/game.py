"""Fortune Six Baccarat Tournament (fortune6-baccarat-tournament.txt): 4-10 standard decks.

Banker pays 1:1 with no commission (fortune6 §4.1, ruling 10). Pair = same rank (ruling 11).
Fortune Six wins when the banker wins with 6; 12:1 on two cards, 20:1 on three (§3.11, §4.1).
"""
from __future__ import annotations

from collections.abc import Mapping

from games.analysis import BetOdds, OddsReport
from games.baccarat import odds as baccarat_odds
from games.baccarat.coup import BANKER, PLAYER, TIE, Coup
from games.baccarat.engine import BaccaratGame
from games.baccarat.irregularities import section5_rules
from games.cards import Card, DeckKind
from games.round import Pay, PayLine, Wager
from games.table_profile import BoardCount, TableProfile

TABLE_OF_PLAY = "fortune6 §3.9"
SIX_ON_TWO, SIX_ON_THREE = "banker wins with two cards totalling six", "banker wins with three cards totalling six"

WAGERS = (
    Wager("player", "Player", "fortune6 §4.1", (PayLine("player wins", Pay(1)), PayLine(TIE, None))),
    Wager("banker", "Banker", "fortune6 §4.1, ruling 10", (PayLine("banker wins", Pay(1)), PayLine(TIE, None))),
    Wager("tie", "Tie", "fortune6 §4.1", (PayLine(TIE, Pay(8)),)),
    Wager("player_pair", "Player Pair", "fortune6 §3.8, §4.1", (PayLine("pair", Pay(11)),)),
    Wager("banker_pair", "Banker Pair", "fortune6 §3.8, §4.1", (PayLine("pair", Pay(11)),)),
    Wager("fortune6", "Fortune Six", "fortune6 §3.11, §4.1, ruling 11",
          (PayLine(SIX_ON_TWO, Pay(12)), PayLine(SIX_ON_THREE, Pay(20)))),
)


def settle_coup(coup: Coup) -> dict[str, str | None]:
    winner = coup.winner
    six = None
    if winner == BANKER and coup.banker == 6:
        six = SIX_ON_TWO if coup.banker_cards == 2 else SIX_ON_THREE
    return {
        "player": "player wins" if winner == PLAYER else TIE if winner == TIE else None,
        "banker": "banker wins" if winner == BANKER else TIE if winner == TIE else None,
        "tie": TIE if winner == TIE else None,
        "fortune6": six,
    }


def pair(first: Card, second: Card) -> str | None:
    """Same rank (ruling 11): two 9s or two Qs; a 10 and a K are not a pair."""
    return "pair" if first.rank == second.rank else None


GAME = BaccaratGame(
    key="fortune6",
    title="Fortune Six Baccarat Tournament",
    deck_kind=DeckKind.STANDARD52,
    deck_counts=tuple(range(4, 11)),  # fortune6 §2.1
    default_decks=8,
    wagers=WAGERS,
    irregularities=section5_rules("fortune6", TABLE_OF_PLAY),
    settle_coup=settle_coup,
    pair_wagers={"player_pair": (PLAYER, pair), "banker_pair": (BANKER, pair)},
)

# The table: a result lamp per betting area; an 8-deck style shoe that burns; the board counts
# Fortune Six wins (fortune6 §3.11, ruling 11).
TABLE = TableProfile(
    result_lamps={"player": 16, "banker": 17, "tie": 18, "player_pair": 19, "banker_pair": 20, "fortune6": 21},
    board_counts=(BoardCount("fortune_six", {"en": "Fortune Six", "zh-Hant": "幸運六"}, (("fortune6", None),)),),
)


def odds(decks: int = 8) -> OddsReport:
    main = {"banker": "banker", "player": "player", "tie": "tie", "fortune6": "fortune6"}
    return baccarat_odds.report(GAME, decks, main, {"pair": "player_pair"})


def edge_bets(left: Mapping[Card, int], decks: int) -> tuple[dict[str, BetOdds], tuple[str, ...]]:
    """Every wager of the layout for a round dealt from `left` (games.live_edge)."""
    return baccarat_odds.edge_bets(GAME, left)
