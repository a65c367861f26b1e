"""A round's money in `tablectl recall`'s words: the wagers of record and the refused ones, the
payouts in the order the rules settle them, the supervisor's acceptances, and what a money
irregularity names (the space, the chip, what was frozen and what is there now, a mispay's
difference). Amounts are the records' own strings."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from controller.journal.round_money import FOREIGN_CHIP, LATE_WAGER, MISPAY, WAGER_REMOVED, MoneySeen

SOURCE_WORDS = {"sensor": "read by the bet sensor", "command": "given by command", "none": "none placed"}


def _space(entry: Mapping[str, Any]) -> str:
    return f"seat {entry.get('seat')} {entry.get('bet')}"


def _list(value: object) -> list[Mapping[str, Any]]:
    return [e for e in value if isinstance(e, Mapping)] if isinstance(value, list) else []


def _wager(entry: Mapping[str, Any]) -> str:
    chips = entry.get("chips")
    counted = f" ({len(chips)} chip{'s' if len(chips) != 1 else ''})" if isinstance(chips, list) else ""
    return f"{_space(entry)} {entry.get('stake')}{counted}"


def _payout(entry: Mapping[str, Any]) -> str:
    commission = entry.get("commission")
    kept = f", commission {commission}" if commission not in (None, "0") else ""
    return f"{_space(entry)}: stake {entry.get('stake')}, net {entry.get('net')}, back {entry.get('back')}{kept}"


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
    return lines


def payout_lines(money: MoneySeen, by_text: Callable[[dict[str, Any]], str]) -> list[str]:
    """The payouts in the rules' order, the round's drop and house net, and each acceptance."""
    lines = []
    if money.settlement is not None:
        void = " (void: every stake returned)" if money.settlement.get("void") is True else ""
        settled = _list(money.settlement.get("wagers"))
        lines.append(f"  payouts{void}  " + (" · ".join(map(_payout, settled)) if settled else "none"))
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


def irregularity_money(irregular: Mapping[str, Any]) -> str:
    """What a money irregularity names, after its detail; "" for any other."""
    kind = irregular.get("kind")
    if kind == MISPAY:
        # the record's difference is found less expected (negative when under): the direction says which way
        difference = f" by {str(irregular['difference']).lstrip('-')}" if irregular.get("difference") is not None else ""
        return (f"{_space(irregular)}: expected {irregular.get('expected')}, found {irregular.get('found')} "
                f"({irregular.get('direction')}{difference})")
    if kind == FOREIGN_CHIP:
        return (f"{_space(irregular)} space {irregular.get('space')}: chip {irregular.get('uid')} "
                f"value {irregular.get('value')} ({irregular.get('why')})")
    if kind in (LATE_WAGER, WAGER_REMOVED) and "frozen" in irregular:
        return f"{_space(irregular)}: frozen {irregular.get('frozen')}, now {irregular.get('now')}"
    return ""
