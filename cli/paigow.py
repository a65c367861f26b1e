"""`tablectl paigow house-way C C C C C C C [--json]`: how the dealer sets seven cards.

Prints the high hand (five cards) and the low hand (two) by the House Way (Appendix A of
fortune-paigow-poker.txt), with the hands' ranks and the Appendix A row that decided it.
`--json` prints {"high": [5 cards], "low": [2 cards]}. A bad card, a wrong count or a
duplicate exits 2 naming the token.
"""
from __future__ import annotations

from cli.common import Parser, UsageError, cards_from, print_json, run_command
from games.cards import DeckKind
from games.paigow.hands import describe_high, describe_low, high_value, low_value
from games.paigow.house_way import house_way


def _parser() -> Parser:
    parser = Parser(prog="tablectl paigow", description="Fortune Pai Gow Poker tools.")
    tools = parser.add_subparsers(dest="tool", metavar="TOOL")
    tools.required = True
    way = tools.add_parser("house-way", help="set seven cards by the House Way (Appendix A)")
    way.add_argument("cards", nargs="*", metavar="CARD", help="seven cards, e.g. As Kd JK 7c 7h 3s 2d")
    way.add_argument("--json", action="store_true", help="one JSON object on stdout")
    return parser


def seven_cards(tokens) -> list:
    """Seven distinct cards of the pai gow deck, or a UsageError naming the bad token."""
    cards = cards_from(tokens)
    for token, card in zip(tokens, cards):
        if not DeckKind.PAIGOW53.contains(card):
            raise UsageError(f"bad card {token!r}: not in the pai gow deck (52 cards and JK)")
    if len(cards) != 7:
        raise UsageError(f"expected 7 cards, got {len(cards)}")
    for i, card in enumerate(cards):
        if card in cards[:i]:
            raise UsageError(f"duplicate card {tokens[i]!r}: {card} is given twice")
    return cards


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    setting = house_way(seven_cards(args.cards))
    if args.json:
        print_json(setting.to_json())
        return 0
    print(f"high: {' '.join(map(str, setting.high))}  ({describe_high(high_value(setting.high))})")
    print(f"low:  {' '.join(map(str, setting.low))}  ({describe_low(low_value(setting.low))})")
    print(f"rule: {setting.rule}")
    return 0


def main(argv) -> int:
    return run_command("paigow", _main, argv)
