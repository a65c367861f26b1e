"""Rounds with money written into a real journal the way the table writes them (the money
contract's records: `wagers` at no more bets, `result`, `settlement` with its wagers in the
rules' order, money `irregularity` records, `payouts_accepted`, `settled`). The settlement is
computed by games.money from the round the rules decide for the cards given, so the page is
checked against the real pays, never against numbers typed here."""
from __future__ import annotations

from fractions import Fraction

from games.cards import parse_cards
from games.money import MoneyRules, RoundMoney, Stake, format_amount, parse_amount, returned, settle
from games.registry import get_game
from games.replay import run_round

# A round of each game (cards in shoe order, live spots, decisions) and wagers on it, "SEAT:BET=AMOUNT".
ROUNDS = {
    "fortune6": ("2s 3h Kd 3c 9s", (), None, ["1:banker=25", "2:player=10", "2:fortune6=5", "3:tie=5",
                                                "3:banker=10", "3:banker_pair=5", "4:player=10", "4:player_pair=5"]),
    "fortune7": ("2s 3h Kd 3c 9s", (), None, ["1:banker=25", "1:fortune7=5", "2:player=10", "2:tie=5",
                                                "2:one_up=5"]),
    "fafa4": ("4-gold 4-fire 4-wood 4-water", (), None,
              ["1:banker=20", "1:tie=5", "3:player=10", "3:player_fabulous4=10", "3:banker_fabulous4=10",
               "4:player=10", "4:player_precious_pair=5", "4:banker_precious_pair=5"]),
    "fubacc": ("6h Kd 2c 8s 7h Qd", (1,), {1: ["play", "stay"]}, ["1:ante=5", "1:tie=5", "1:lucky_monkey=5"]),
    "paigow": ("As Ah Kd Qd 8s 7c 5h Kc Qh 9s 6h 4c 3d 2s", (1,), None, ["1:standard=25", "1:fortune_bonus=5"]),
}


def stakes_of(tokens: list[str]) -> list[Stake]:
    out = []
    for token in tokens:
        seat, _, rest = token.partition(":")
        bet, _, amount = rest.partition("=")
        out.append(Stake(int(seat), bet, parse_amount(amount)))
    return out


def decided(game_key: str) -> tuple[dict, RoundMoney, list[Stake], tuple[int, ...]]:
    """The round of ROUNDS[game_key] decided by the rules: its result JSON, its money, its stakes, its spots."""
    cards, spots, decisions, tokens = ROUNDS[game_key]
    game, stakes = get_game(game_key), stakes_of(tokens)
    _, result = run_round(game, parse_cards(cards.split()), spots=spots, decisions=decisions)
    return result.to_json(), settle(game, result, stakes, MoneyRules()), stakes, spots


def chips_for(amount: Fraction, seat: int, bet: str) -> list[list]:
    """Chips of 5 (500 minor units) making up `amount` (whole multiples of 5 here), UIDs made up per space."""
    count = int(amount // 5)
    return [[f"04{seat:02x}{abs(hash(bet)) % 0xffff:04x}{n:04x}", 500] for n in range(count)]


class MoneyTable:
    """Writes a game's rounds into `journal` (controller.journal.Journal), as the table does."""

    def __init__(self, journal, game: str, publish=None) -> None:
        self.journal, self.game = journal, game
        self.round = 0
        self.publish = publish or (lambda event: None)

    def append(self, kind: str, payload: dict, durable: bool = False):
        record = self.journal.append(kind, payload, round=payload.get("round"), durable=durable)
        self.publish({"event": kind, "seq": record.seq})
        return record

    def open(self, spots: tuple[int, ...] = ()):
        self.round += 1
        return self.append("round_opened", {"round": self.round, "game": self.game, "decks": 8, "shoe": 1,
                                            "spots": list(spots)})

    def wagers(self, stakes: list[Stake], source: str = "sensor", refused: list[dict] | None = None):
        self.append("bets_closed", {"round": self.round})
        wagers = []
        for stake in stakes:
            wager = {"seat": stake.seat, "bet": stake.bet, "stake": format_amount(stake.amount)}
            if source == "sensor":
                wager["chips"] = chips_for(stake.amount, stake.seat, stake.bet)
            wagers.append(wager)
        return self.append("wagers", {"round": self.round, "source": source, "wagers": wagers,
                                      "refused": refused or []}, durable=True)

    def result(self, result: dict, money: RoundMoney):
        self.append("result", {"round": self.round, "game": self.game, **result}, durable=True)
        return self.append("settlement", {"round": self.round, "void": False, **money.to_json()}, durable=True)

    def void(self, stakes: list[Stake], spots: tuple[int, ...], clause: str, reason: str):
        self.append("void", {"round": self.round, "kind": "order_altered", "clause": clause, "reason": reason,
                             "by": "table", "cards": [], "evidence": {}}, durable=True)
        money = returned(get_game(self.game), stakes, spots, MoneyRules())
        return self.append("settlement", {"round": self.round, "void": True, **money.to_json()}, durable=True)

    def irregularity(self, kind: str, clause: str, detail: str, **fields):
        return self.append("irregularity", {"round": self.round, "kind": kind, "clause": clause,
                                            "consequence": "refuse", "detail": detail, "evidence": {}, **fields})

    def mispay(self, seat: int, bet: str, expected: str, found: str):
        difference = Fraction(found) - Fraction(expected)  # as the table writes it: negative when under
        sign = "-" if difference < 0 else ""
        return self.irregularity("mispay", "local ruling L10", f"seat {seat} {bet} holds {found}, not {expected}",
                                 seat=seat, bet=bet, expected=expected, found=found,
                                 difference=sign + format_amount(abs(difference)), direction="under" if difference < 0 else "over")

    def accepted(self, by: dict, differences: list[dict]):
        return self.append("payouts_accepted", {"round": self.round, "by": by, "differences": differences},
                           durable=True)

    def settled(self):
        return self.append("settled", {"round": self.round}, durable=True)

    def play(self):
        """A whole round of ROUNDS[game], by the sensor, to the result (not yet confirmed)."""
        result, money, stakes, spots = decided(self.game)
        self.open(spots)
        self.wagers(stakes)
        self.result(result, money)
        return money
