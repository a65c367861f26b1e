"""A round's money in `tablectl recall`'s words: the wagers of record and the refused ones, the
payouts in the order the rules settle them, the supervisor's acceptances, and what a money
irregularity names (the space, the chip, what was frozen and what is there now, a mispay's
difference); at a table banked by a player-dealer (Fortune 7, rulings 25-26) also the bank's
seat and stake, the fees taken before the deal, each wager's covered and returned parts and fee,
the bank's walk and the player-dealer's net. Amounts are the records' own strings."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from controller.journal.round_money import MoneySeen
from games.round import IrregularityKind as I

SOURCE_WORDS = {"sensor": "read by the bet sensor", "command": "given by command", "none": "none placed"}


def _space(entry: Mapping[str, Any]) -> str:
    bettor = entry.get("bettor")
    behind = f" {bettor}" if bettor not in (None, "seat") else ""  # a back-line bettor's name
    return f"seat {entry.get('seat')}{behind} {entry.get('bet')}"


def _list(value: object) -> list[Mapping[str, Any]]:
    return [e for e in value if isinstance(e, Mapping)] if isinstance(value, list) else []


def _wager(entry: Mapping[str, Any]) -> str:
    chips = entry.get("chips")
    counted = f" ({len(chips)} chip{'s' if len(chips) != 1 else ''})" if isinstance(chips, list) else ""
    return f"{_space(entry)} {entry.get('stake')}{counted}"


def _payout(entry: Mapping[str, Any]) -> str:
    commission = entry.get("commission")
    kept = f", commission {commission}" if commission not in (None, "0") else ""
    banked = (f", covered {entry.get('covered')}, returned {entry.get('returned')}, fee {entry.get('fee')}"
              if "covered" in entry else "")
    return f"{_space(entry)}: stake {entry.get('stake')}, net {entry.get('net')}, back {entry.get('back')}{kept}{banked}"


def _fee(line: Mapping[str, Any]) -> str:
    if line.get("space") is None:
        return f"player-dealer seat {line.get('seat')} {line.get('fee')}"
    return f"{_space({**line, 'bet': line.get('space')})} {line.get('fee')}"


def _fees(fees: object, taken: str) -> str:
    if not isinstance(fees, Mapping):
        return ""
    lines = " · ".join(map(_fee, _list(fees.get("lines"))))
    return (f"  fees     {taken} (schedule option {fees.get('option')}, table action {fees.get('table_action')}, "
            f"total {fees.get('total')})" + (f": {lines}" if lines else ""))


def wager_lines(money: MoneySeen) -> list[str]:
    """The wagers of record, frozen at no more bets, and each refused one with why."""
    lines = []
    if money.wagers is not None:
        source = str(money.wagers.get("source"))
        placed = _list(money.wagers.get("wagers"))
        lines.append(f"  wagers   {SOURCE_WORDS.get(source, source)}" + (": " + " · ".join(map(_wager, placed)) if placed else ""))
        for refused in _list(money.wagers.get("refused")):
            clause = f" ({refused['clause']})" if refused.get("clause") else ""
            lines.append(f"  refused  {_space(refused)} {refused.get('stake')}: {refused.get('reason')}{clause}")
        banker = money.wagers.get("player_dealer")
        if isinstance(banker, Mapping):
            lines.append(f"  bank     seat {banker.get('seat')} banks {banker.get('stake')} (player-dealer)")
        fees = _fees(money.wagers.get("fees"), "taken before the deal")
        lines += [fees] if fees else []
    return lines


def payout_lines(money: MoneySeen, by_text: Callable[[dict[str, Any]], str]) -> list[str]:
    """The payouts in the rules' order, the round's drop and house net, and each acceptance."""
    lines = []
    if money.settlement is not None:
        void = " (void: every stake returned)" if money.settlement.get("void") is True else ""
        settled = _list(money.settlement.get("wagers"))
        lines.append(f"  payouts{void}  " + (" · ".join(map(_payout, settled)) if settled else "none"))
        lines += _bank_lines(money.settlement, settled)
    summary = money.to_json()
    totals = [f"{label} {summary[key]}" for key, label in (("drop", "drop"), ("house_net", "house net"))
              if summary[key] is not None]
    if totals:
            lines.append("  money    " + " · ".join(totals))
    for accepted in money.accepted:
        by = accepted.get("by")
        who = by_text(by) if isinstance(by, dict) else str(by)
        differences = " · ".join(f"{_space(d)} expected {d.get('expected')} found {d.get('found')}"
                                 for d in _list(accepted.get("differences")))
        lines.append(f"  accepted payouts as they stand, by {who}" + (f": {differences}" if differences else ""))
    return lines


def _bank_lines(settlement: Mapping[str, Any], settled: list[Mapping[str, Any]]) -> list[str]:
    """The bank's walk over the wagers, where it was exhausted, the player-dealer's net; on a
    void, the fees returned."""
    lines = []
    bank = settlement.get("bank")
    if isinstance(bank, Mapping):
        after = bank.get("after")
        walk = " → ".join(str(b) for b in [bank.get("start"), *(after if isinstance(after, list) else [])])
        lines.append(f"  bank     {walk}")
        at = bank.get("exhausted_at")
        if isinstance(at, int) and not isinstance(at, bool) and 0 <= at < len(settled):
            lines.append(f"           exhausted by {_space(settled[at])}: every later wager returned untouched (ruling 26)")
    pd = settlement.get("player_dealer")
    if isinstance(pd, Mapping):
        lines.append(f"  player-dealer seat {pd.get('seat')}: stake {pd.get('stake')}, net {pd.get('net')}, "
                     f"fee {pd.get('fee')}, back {pd.get('back')}")
    fees = _fees(settlement.get("fees_returned"), "returned")
    return lines + ([fees] if fees else [])


def irregularity_money(irregular: Mapping[str, Any]) -> str:
    """What a money irregularity names, after its detail; "" for any other."""
    kind = irregular.get("kind")
    if kind == I.MISPAY:
        # the record's difference is found less expected (negative when under): the direction says which way
        difference = f" by {str(irregular['difference']).lstrip('-')}" if irregular.get("difference") is not None else ""
        return (f"{_space(irregular)}: expected {irregular.get('expected')}, found {irregular.get('found')} "
                f"({irregular.get('direction')}{difference})")
    if kind == I.FOREIGN_CHIP:
        return (f"{_space(irregular)} space {irregular.get('space')}: chip {irregular.get('uid')} "
                f"value {irregular.get('value')} ({irregular.get('why')})")
    if kind in (I.LATE_WAGER, I.WAGER_REMOVED) and "frozen" in irregular:
        return f"{_space(irregular)}: frozen {irregular.get('frozen')}, now {irregular.get('now')}"
    return ""
