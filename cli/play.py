"""`tablectl play GAME CARD... [--decks N] [--spots 1,3] [--decide 1=play,hit 3=fold]
[--wager SEAT[/NAME]:BET=AMOUNT ...] [--player-dealer SEAT=STAKE --schedule N] [--minor-unit 1]
[--rounding down] [--json]`

Resolves one round from the cards in the order they left the shoe. A void is a result
(JSON on stdout, exit 0); bad input exits 2 naming the bad token. With `--wager`, the answer
gains `money`: each wager settled (docs/money.md); a void returns every wager. At a table
with a player-dealer (Fortune 7), `--player-dealer SEAT=STAKE` banks the wagers instead of the
house, `--schedule N` names the collection fee schedule, and back-line bettors wager as
`SEAT/NAME:BET=AMOUNT` (docs/money.md, RULINGS.md 25-26).

Spots and decisions (Fu Bacc, Pai Gow): `--spots` lists the live seats (default: seat 1).
`--decide SPOT=D[,D...]` gives a spot's decisions in the order the game asks for them:
  fubacc   fold | play,hit | play,stay | bonus | no_ante   (see docs/fubacc.md)
  paigow   house | the low hand as CARD+CARD, e.g. 1=Ks+Qs   (default: house)
"""
from __future__ import annotations

from cli.common import (
    Parser,
    UsageError,
    cards_from,
    game_argument,
    game_with_decks,
    print_json,
    run_command,
)
from games.baccarat.california.fees import SCHEDULES
from games.baccarat.california.round_money import PlayerDealerMoney, PlayerDealerTable
from games.baccarat.california.stakes import SEATED, WagerError
from games.baccarat.california.stakes import Stake as BackedStake
from games.money import BadAmount, BadWager, MoneyRules, Rounding, RoundMoney, Stake, parse_amount, returned, settle
from games.money.amounts import ROUNDINGS
from games.registry import get_table_profile
from games.replay import DecisionMissing, play_json, run_round
from games.round import Game, Irregular

MAX_WAGER_CHARS = 100  # a --wager token is bounded before it is parsed


def _parser() -> Parser:
    parser = Parser(prog="tablectl play", description="Resolve one round from cards in shoe order.")
    game_argument(parser)
    parser.add_argument("cards", nargs="*", metavar="CARD", help="cards in the order they left the shoe")
    parser.add_argument("--decks", type=int, help="deck count in the shoe (default: the game's own)")
    parser.add_argument("--spots", help="live spots, comma-separated seat numbers (default 1)")
    parser.add_argument("--decide", nargs="*", default=[], metavar="SPOT=D[,D]", help="decisions per spot")
    parser.add_argument("--wager", action="append", default=[], metavar="SEAT[/NAME]:BET=AMOUNT",
                        help="a wager to settle: SEAT the seat (spot games: the spot), BET a key of `bets`, "
                             "AMOUNT a decimal; SEAT/NAME a back-line bettor (with --player-dealer); repeat for more")
    parser.add_argument("--player-dealer", metavar="SEAT=STAKE",
                        help="a seated player banks the wagers with STAKE (Fortune 7; needs --schedule)")
    parser.add_argument("--schedule", metavar="N", help="the collection fee schedule option, 1-26 (with --player-dealer)")
    parser.add_argument("--minor-unit", default="1", metavar="AMOUNT",
                        help="the smallest amount the table pays (default 1; 0.01 = cents)")
    parser.add_argument("--rounding", default=Rounding.DOWN.value, choices=ROUNDINGS,
                        help="how a win short of a whole minor unit is paid (default down: to the house)")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    return parser


def _seat(token: str, what: str) -> int:
    try:
        seat = int(token)
    except ValueError:
        raise UsageError(f"bad {what} {token!r}: not a seat number") from None
    if seat < 1:
        raise UsageError(f"bad {what} {token!r}: seats are numbered from 1")
    return seat


def parse_spots(text: str | None, game) -> tuple[int, ...]:
    if not game.uses_spots:
        if text:
            raise UsageError(f"--spots {text!r}: {game.key} has no spots")
        return ()
    if not text:
        return (1,)
    spots = tuple(_seat(t, "spot") for t in text.split(","))
    if len(set(spots)) != len(spots):
        raise UsageError(f"--spots {text!r}: a seat is named twice")
    if max(spots) > game.max_spots:
        raise UsageError(f"--spots {text!r}: {game.key} has seats 1-{game.max_spots}")
    return spots


def parse_decisions(tokens, spots) -> dict[int, list[str]]:
    decisions: dict[int, list[str]] = {}
    for token in tokens:
        seat_text, sep, choices = token.partition("=")
        if not sep or not choices:
            raise UsageError(f"bad decision {token!r}: expected SPOT=DECISION[,DECISION]")
        seat = _seat(seat_text, "decision spot")
        if seat not in spots:
            raise UsageError(f"bad decision {token!r}: spot {seat} is not live (--spots)")
        decisions.setdefault(seat, []).extend(c.strip() for c in choices.split(","))
    return decisions


def parse_wager(token: str) -> Stake:
    """`SEAT:BET=AMOUNT`, e.g. `1:banker=25`, or a UsageError naming the token."""
    stake = parse_backed_wager(token)
    if stake.bettor != SEATED:
        raise UsageError(f"bad wager {token!r}: a back-line bettor (SEAT/NAME) wagers only against a "
                         f"player-dealer (--player-dealer)")
    return Stake(stake.seat, stake.space, stake.amount)


def parse_backed_wager(token: str) -> BackedStake:
    """`SEAT[/NAME]:BET=AMOUNT`, e.g. `3/ann:player=10`, or a UsageError naming the token."""
    if len(token) > MAX_WAGER_CHARS:
        raise UsageError(f"bad wager {token[:MAX_WAGER_CHARS]!r}...: longer than {MAX_WAGER_CHARS} characters")
    who, colon, rest = token.partition(":")
    bet, equals, amount_text = rest.partition("=")
    if not colon or not equals or not bet:
        raise UsageError(f"bad wager {token!r}: expected SEAT:BET=AMOUNT, e.g. 1:banker=25")
    seat_text, slash, bettor = who.partition("/")
    seat = _seat(seat_text, f"wager {token!r}: seat")
    if slash and (not bettor or bettor == SEATED):
        raise UsageError(f"bad wager {token!r}: back-line bettor {bettor!r}: give a name after '/', e.g. 3/ann")
    try:
        return BackedStake(seat, bet, parse_amount(amount_text), bettor if slash else SEATED)
    except BadAmount as bad:
        raise UsageError(f"bad wager {token!r}: {bad}") from None


def player_dealer_table(game: Game, banker: str | None, option: str | None, rules: MoneyRules) -> PlayerDealerTable | None:
    """`--player-dealer SEAT=STAKE` with `--schedule N`, checked, or None without them."""
    if banker is None:
        if option is not None:
            raise UsageError(f"--schedule {option!r}: a fee schedule needs --player-dealer SEAT=STAKE")
        return None
    if get_table_profile(game.key).player_dealer is None:
        raise UsageError(f"--player-dealer {banker!r}: {game.key} has no player-dealer position")
    if option is None:
        raise UsageError(f"--player-dealer {banker!r}: give the collection fee schedule, --schedule N (1-26)")
    seat_text, equals, stake_text = banker.partition("=")
    if not equals:
        raise UsageError(f"--player-dealer {banker!r}: expected SEAT=STAKE, e.g. 4=500")
    seat = _seat(seat_text, "--player-dealer seat")
    try:
        stake = parse_amount(stake_text)
    except BadAmount as bad:
        raise UsageError(f"--player-dealer {banker!r}: stake: {bad}") from None
    if not (option.isascii() and option.isdigit() and len(option) <= 2) or int(option) not in SCHEDULES:
        raise UsageError(f"--schedule {option[:MAX_WAGER_CHARS]!r}: collection schedule options are 1-26")
    try:
        return PlayerDealerTable(seat, stake, int(option), rules)
    except ValueError as bad:
        raise UsageError(f"--player-dealer {banker!r}: {bad}") from None


def money_rules(minor_unit: str, rounding: str) -> MoneyRules:
    try:
        return MoneyRules(parse_amount(minor_unit), Rounding(rounding))
    except BadAmount as bad:
        raise UsageError(f"--minor-unit {minor_unit!r}: {bad}") from None


def _hand_line(label: str, hand: dict) -> str:
    return f"{label}: {' '.join(hand['cards'])}  ({hand['total']})"


def _bet_lines(bets: dict, indent: str) -> list[str]:
    return [
        f"{indent}{key}: {bet['result']}" + (f" {bet['pays']}" if bet["pays"] not in (None, bet["result"]) else "")
        for key, bet in bets.items()
    ]


def _text(out: dict) -> str:
    if out["void"]:
        return f"VOID ({out['clause']}): {out.get('detail', '')}"
    lines = [f"winner: {out['winner']}"] if out["winner"] else []
    for name in ("player", "banker", "dealer", "dealer_high", "dealer_low"):
        if name in out:
            lines.append(_hand_line(name, out[name]))
    lines.extend(_bet_lines(out["bets"], "  "))
    for spot, detail in out.get("spots", {}).items():
        lines.append(f"spot {spot}:" + (f" {detail['decision']}" if detail.get("decision") else ""))
        lines.extend(_hand_line(f"  {name}", detail[name]) for name in ("hand", "high", "low") if name in detail)
        lines.extend(_bet_lines(detail.get("bets", {}), "    "))
    lines.extend(f"note: {note}" for note in out.get("notes", ()))
    if "money" in out:
        lines.extend(_money_lines(out["money"]))
    return "\n".join(lines)


def _money_lines(money: dict) -> list[str]:
    banked = "player_dealer" in money
    header = (("seat", "bettor", "bet", "stake", "net", "back", "covered", "returned", "fee") if banked
              else ("seat", "bet", "stake", "net", "back", "commission"))
    cells = [list(header), *([str(wager[k]) for k in header] for wager in money["wagers"])]
    text_columns = (1, 2) if banked else (1,)
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["money:"]
    for row in cells:
        lines.append("  " + "  ".join(c.ljust(w) if i in text_columns else c.rjust(w)
                                      for i, (c, w) in enumerate(zip(row, widths))))
    if banked:
        bank = money["player_dealer"]
        lines.append(f"  player-dealer seat {bank['seat']}: stake {bank['stake']}, net {bank['net']}, fee {bank['fee']}")
    lines.append(f"  house net: {money['house_net']}")
    return lines


def _money(game, cards, decks, spots, decisions, stakes, rules, void: bool) -> RoundMoney:
    """The wagers settled on the round `play_json` decided (played again for its result, a
    few milliseconds), or every wager returned on a void."""
    if void:
        return returned(game, stakes, spots, rules)
    _, result = run_round(game, cards, decks=decks, spots=spots, decisions=decisions)
    return settle(game, result, stakes, rules)


def _banked_money(game, cards, decks, table: PlayerDealerTable, stakes, void: bool) -> PlayerDealerMoney:
    """The wagers settled by the player-dealer's bank, or every wager and fee returned on a void."""
    if void:
        return table.void(stakes)
    _, result = run_round(game, cards, decks=decks)
    return table.settle(stakes, result.bets)


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    game = game_with_decks(args.game, args.decks)
    spots = parse_spots(args.spots, game)
    decisions = parse_decisions(args.decide, spots)
    rules = money_rules(args.minor_unit, args.rounding)
    table = player_dealer_table(game, args.player_dealer, args.schedule, rules)
    stakes = [parse_wager(token) for token in args.wager] if table is None else None
    backed = [parse_backed_wager(token) for token in args.wager] if table is not None else []
    cards = cards_from(args.cards)
    try:
        if table is not None:
            table.take_fees(backed)  # refused before the deal, as the table would
        out = play_json(game, cards, decks=args.decks, spots=spots, decisions=decisions)
        if table is not None:
            out["money"] = _banked_money(game, cards, args.decks, table, backed, void=out["void"]).to_json()
        elif stakes:
            out["money"] = _money(game, cards, args.decks, spots, decisions, stakes, rules, void=out["void"]).to_json()
    except DecisionMissing as missing:
        raise UsageError(f"{missing} (give --decide {missing.spot}=...)") from None
    except Irregular as refused:
        raise UsageError(f"refused: {refused.detail} ({refused.rule.clause})") from None
    except (BadWager, WagerError) as bad:
        raise UsageError(str(bad)) from None
    print_json(out) if args.json else print(_text(out))
    return 0


def main(argv) -> int:
    return run_command("play", _main, argv)
