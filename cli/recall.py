"""`tablectl recall [--last N] [--journal PATH | --config FILE] [--json]`

The last N rounds (default 10) from the journal, oldest first: the cards in the order they
left the shoe with the hand each went to, the wagers of record and the refused ones, the result
and bets, the payouts and the round's drop and house net, a mispay's acceptance, decisions, irregularities,
voids with their clause, and who gave each command that touched the round (the panel's
button, or the socket client's user, uid and pid). Reads the journal read-only; safe while the daemon runs.
"""
from __future__ import annotations

from cli.common import Parser, UsageError, print_json, run_command
from cli.money_text import irregularity_money, payout_lines, wager_lines
from cli.paths import add_location_options, journal_path
from controller.journal import DEFAULT_RECALL, JournalError, RoundView, last_rounds
from games.bet_text import bets_text
from games.clauses import explained

HAND_ORDER = ("player", "banker", "dealer")  # the journal stores keys sorted; show hands as dealt
STATUS_WORDS = {"settled": "settled", "void": "VOID", "decided": "decided, not yet settled", "open": "in progress"}


def _parser() -> Parser:
    parser = Parser(prog="tablectl recall", description="Show the last rounds from the journal.")
    parser.add_argument("--last", type=int, default=DEFAULT_RECALL, metavar="N", help=f"how many rounds (default {DEFAULT_RECALL})")
    add_location_options(parser, "--journal", "the journal file")
    parser.add_argument("--json", action="store_true", help="one JSON array of rounds")
    return parser


def _card_text(card) -> str:
    """`As (player)`; a card that was not dealt to a hand says why: `Kd (extra)`."""
    dealt = card.status in (None, "dealt")
    notes = [card.hand or "?"] if dealt else [card.status]
    notes += ["keyed in"] if card.keyed_in else ["again"] if card.reconstructed else []
    notes += ["misread"] if card.card is None and card.status != "misread" else []
    return f"{card.card or '??'} ({', '.join(notes)})"


def _hand_text(hand: dict) -> str:
    return f"{' '.join(hand.get('cards', []))} ({hand.get('total')})"


def _spot_text(detail: dict) -> str:
    """A spot's settled hand: Fu Bacc's hand, hit card and decision; Pai Gow's high and low."""
    parts = []
    if "high" in detail and "low" in detail:
        parts.append(f"high {_hand_text(detail['high'])}  low {_hand_text(detail['low'])}")
    elif detail.get("hand"):
        parts.append(_hand_text(detail["hand"]))
    if detail.get("hit_card"):
        parts.append(f"hit card {detail['hit_card']}" + ("" if detail.get("hit_card_used") else " unused"))
    if detail.get("decision") or detail.get("setting"):
        parts.append(str(detail.get("decision") or detail.get("setting")))
    if detail.get("fouled"):
        parts.append("fouled, set by the House Way")
    if detail.get("bets"):
        parts.append(bets_text(detail["bets"]))
    if detail.get("envy"):
        parts.append(f"envy {detail['envy']}")
    return " · ".join(parts)


def _result_lines(result: dict) -> list[str]:
    lines = [f"  winner   {result['winner']}"] if result.get("winner") else []
    hands = result.get("hands") or {}
    for name in sorted(hands, key=lambda n: (HAND_ORDER.index(n) if n in HAND_ORDER else len(HAND_ORDER), n)):
        lines.append(f"  {name:<8} {_hand_text(hands[name])}")
    if result.get("bets"):
        lines.append("  bets     " + bets_text(result["bets"]))
    for spot, detail in (result.get("spots") or {}).items():
        lines.append(f"  spot {spot}   {_spot_text(detail)}")
    return lines


def clause_lines(clause: str | None, seen: set[str], indent: str = " " * 11) -> list[str]:
    """Beside a cited clause: what each of its citations says (docs/clauses.md), each once a round."""
    fresh = [(key, entry) for key, entry in explained(clause) if key not in seen]
    seen.update(key for key, _ in fresh)
    return [f"{indent}{key}: {entry.says}" for key, entry in fresh]


def round_text(view: RoundView) -> str:
    opened = (view.opened_at or "")[:19] + ("Z" if view.opened_at else "")
    head = [f"round {view.round}", view.game or "?", f"{view.decks} deck{'s' if view.decks != 1 else ''}" if view.decks else "",
            f"shoe {view.shoe}" if view.shoe else "", f"spots {','.join(map(str, view.spots))}" if view.spots else "",
            opened, STATUS_WORDS[view.status]]
    lines = ["  ".join(part for part in head if part)]
    lines.append("  cards    " + ("  ".join(_card_text(c) for c in view.cards) or "none"))
    if view.decisions:
        lines.append("  decided  " + ", ".join(f"spot {d.get('spot')} {d.get('decision')}" for d in view.decisions))
    seen: set[str] = set()
    lines += wager_lines(view.money)
    for irregular in view.irregularities:
        money = irregularity_money(irregular)
        lines.append(f"  irregularity  {irregular.get('kind')} ({irregular.get('clause')}, "
                     f"{irregular.get('consequence')}): {irregular.get('detail', '')}" + (f" · {money}" if money else ""))
        lines += clause_lines(irregular.get("clause"), seen)
    if view.result is not None:
        lines += _result_lines(view.result)
    lines += payout_lines(view.money, by_text)
    if view.void is not None:
        voided_by = f" (by {by_text(view.voided_by)})" if view.voided_by else ""
        lines.append(f"  VOID     {view.void.get('clause')}: {view.void.get('reason', '')}{voided_by}")
        lines += clause_lines(view.void.get("clause"), seen)
    if view.commands:
        lines.append("  given    " + " · ".join(f"{c['command']} ({by_text(c['by'])})" for c in view.commands))
    return "\n".join(lines)


def by_text(by: dict) -> str:
    """Who gave a command: `panel button 4`, `panel key`, `alice (uid 1000, pid 4242)`."""
    if by.get("source") == "panel":
        return f"panel button {by['button']}" if "button" in by else "panel key"
    user = by.get("user")
    return f"{user} (uid {by.get('uid')}, pid {by.get('pid')})" if user else f"uid {by.get('uid')} (pid {by.get('pid')})"


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    if args.last < 1:
        raise UsageError(f"--last {args.last}: must be at least 1")
    rounds = last_rounds(journal_path(args), args.last)
    if args.json:
        print_json([view.to_json() for view in rounds], ensure_ascii=False)
    elif not rounds:
        print("no rounds in the journal yet")
    else:
        print("\n".join(round_text(view) for view in rounds))
    return 0


def main(argv) -> int:
    return run_command("recall", _main, argv, (JournalError,))


