"""Fa Fa Fabulous 4 Baccarat (fafa-fabulous4-baccarat.txt): 4-10 five-element decks of 65.

Player wins pay 2:1 on 1, 1:2 on 4, else 1:1; banker wins pay 2:1 on 1, push on 4, else
1:1 (fafa §4.1, ruling 5). Tie pays 8:1, or 800:1 instead on Tie on Element Eights (ruling
4). Fabulous 4 wins when its side wins with 4. Precious Pair judges the rank (ruling 2) and
pays once, the highest line (ruling 3).
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

TABLE_OF_PLAY = "fafa §3.8"
ELEMENT_EIGHTS = "tie on element eights"
GOLD = "gold"
GOLD_FOURS, OTHER_FOURS, GOLD_PAIR, OTHER_PAIR = "pair of gold 4s", "other pair of 4s", "gold pair", "other pair"


def _side_lines(side: str, on_four: Pay | None) -> tuple[PayLine, ...]:
    return (
        PayLine(f"{side} wins with 1", Pay(2)),
        PayLine(f"{side} wins with 4", on_four),
        PayLine(f"{side} wins", Pay(1)),
        PayLine(TIE, None),
    )


_PRECIOUS = (PayLine(GOLD_FOURS, Pay(30)), PayLine(OTHER_FOURS, Pay(15)),
             PayLine(GOLD_PAIR, Pay(12)), PayLine(OTHER_PAIR, Pay(9)))

WAGERS = (
    Wager("player", "Player", "fafa §4.1, ruling 5", _side_lines(PLAYER, Pay(1, 2))),
    Wager("banker", "Banker", "fafa §3.11, §4.1, ruling 5", _side_lines(BANKER, None)),
    Wager("tie", "Tie", "fafa §4.1, ruling 4", (PayLine(TIE, Pay(8)), PayLine(ELEMENT_EIGHTS, Pay(800)))),
    Wager("player_fabulous4", "Player Fabulous 4", "fafa §3.12, §4.1", (PayLine("player wins with 4", Pay(50)),)),
    Wager("banker_fabulous4", "Banker Fabulous 4", "fafa §3.11, §4.1", (PayLine("banker wins with 4", Pay(25)),)),
    Wager("player_precious_pair", "Player Precious Pair", "fafa §4.2, rulings 2-3", _PRECIOUS),
    Wager("banker_precious_pair", "Banker Precious Pair", "fafa §4.2, rulings 2-3", _PRECIOUS),
)


def _side(coup: Coup, side: str) -> str | None:
    if coup.winner == TIE:
        return TIE
    if coup.winner != side:
        return None
    total = coup.winner_total()
    return f"{side} wins with {total}" if total in (1, 4) else f"{side} wins"


def settle_coup(coup: Coup) -> dict[str, str | None]:
    winner, total = coup.winner, coup.winner_total()
    return {
        "player": _side(coup, PLAYER),
        "banker": _side(coup, BANKER),
        "tie": (ELEMENT_EIGHTS if coup.fours else TIE) if winner == TIE else None,
        "player_fabulous4": "player wins with 4" if winner == PLAYER and total == 4 else None,
        "banker_fabulous4": "banker wins with 4" if winner == BANKER and total == 4 else None,
    }


def precious_pair(first: Card, second: Card) -> str | None:
    """The highest line the two cards make (rulings 2-3): same rank, not same point."""
    if first.rank != second.rank:
        return None
    both_gold = first.suit == second.suit == GOLD
    if first.rank == 4:
        return GOLD_FOURS if both_gold else OTHER_FOURS
    return GOLD_PAIR if both_gold else OTHER_PAIR


GAME = BaccaratGame(
    key="fafa4",
    title="Fa Fa Fabulous 4 Baccarat",
    deck_kind=DeckKind.ELEMENT65,
    deck_counts=tuple(range(4, 11)),  # fafa §2.1, ruling 1
    default_decks=8,
    wagers=WAGERS,
    irregularities=section5_rules("fafa", TABLE_OF_PLAY, foreign_names_deck=True),
    settle_coup=settle_coup,
    pair_wagers={"player_precious_pair": (PLAYER, precious_pair), "banker_precious_pair": (BANKER, precious_pair)},
)

# The table: a result lamp per betting area; an 8-deck style shoe that burns; the board counts
# Element Eights (ruling 4) and Fabulous 4s (fafa §3.11, §3.12).
TABLE = TableProfile(
    result_lamps={"player": 16, "banker": 17, "tie": 18, "player_fabulous4": 19, "banker_fabulous4": 20,
                  "player_precious_pair": 21, "banker_precious_pair": 22},
    board_counts=(BoardCount("element_eights", {"en": "Element Eights", "zh-Hant": "五行八"}, (("tie", ELEMENT_EIGHTS),)),
                  BoardCount("fabulous4", {"en": "Fabulous 4", "zh-Hant": "發發4"},
                             (("player_fabulous4", None), ("banker_fabulous4", None)))),
)


def odds(decks: int = 8) -> OddsReport:
    main = {"banker": "banker", "player": "player", "tie": "tie",
            "player_fabulous4": "player_fabulous4", "banker_fabulous4": "banker_fabulous4"}
    return baccarat_odds.report(GAME, decks, main, {"precious_pair": "player_precious_pair"})


def edge_bets(left: Mapping[Card, int], decks: int) -> tuple[dict[str, BetOdds], tuple[str, ...]]:
    """Every wager of the layout for a round dealt from `left` (games.live_edge)."""
    return baccarat_odds.edge_bets(GAME, left)
