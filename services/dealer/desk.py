"""`Desk`: the round in play as the dealer page shows it, folded from journal records in order.

Each space's wager of record (the `wagers` record frozen at no more bets) and the refused ones
with why; after the result each space's payout in the order the rules settle them (the
`settlement` record's order): stake, net, what must stand on the space (`back`), commission;
the money irregularities (foreign chip, late wager, wager removed) and mispays, open until a
later `settled` or `payouts_accepted` clears them; and whether the payouts are checked by the
bet sensor. At a table banked by a player-dealer (Fortune 7, rulings 25-26): its seat and stake
and the fees taken before the deal (the `wagers` record), then each wager's bettor, covered and
returned parts and fee, whether the bank paid, collected or returned it and the bank's balance
after it, the wager that exhausted the bank, the player-dealer's net and what must stand on the
bank's space (the `settlement` record); on a void, the fees returned. The record shapes are
docs/journal.md's and docs/money.md's.

Every entry is checked before it is shown (types, lengths, amounts as decimal strings, which
are shown exactly as the record has them): a record that does not fit is named in `problems`,
never fatal.
`apply(record)` names the parts it changed; `desk_json()` is what the page draws. No I/O: the
caller reads the journal.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from controller.journal import DamagedRecord, Record, RoundView
from controller.journal.kinds import RecordKind as R
from controller.journal.round_money import MONEY_IRREGULARITIES
from games.registry import GAME_KEYS, get_game
from games.round import IrregularityKind as I

DESK = "desk"  # the page's one part
PROBLEMS_KEPT = 10
TEXT_CHARS = 300  # a reason, detail or clause shown, at most
MAX_ENTRIES = 400  # spaces in one record: 7 seats x 7 bets is 49; more is not a table's
SCHEDULE_OPTIONS = range(1, 27)  # the rules' collection fee schedules
_AMOUNT = re.compile(r"-?[0-9]{1,20}(\.[0-9]{1,12})?\Z")
_KEY = re.compile(r"[a-z0-9_]{1,40}\Z")
_UID = re.compile(r"[0-9A-Fa-f]{1,64}\Z")
SOURCES = ("sensor", "command", "none")
DIRECTIONS = ("over", "under")
FOREIGN_WHY = ("unknown", "retired", "value differs")


class Unreadable(ValueError):
    """A record's entry that does not have the contract's shape; the message names it."""


def _amount(value: object, what: str) -> str:
    if not isinstance(value, str) or not _AMOUNT.match(value):
        raise Unreadable(f"{what}: {str(value)[:40]!r} is not an amount (a decimal string)")
    return value


def _seat(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
        raise Unreadable(f"{what}: seat {str(value)[:40]!r} is not a seat number")
    return value


def _key(value: object, what: str) -> str:
    if not isinstance(value, str) or not _KEY.match(value):
        raise Unreadable(f"{what}: bet {str(value)[:40]!r} is not a bet key")
    return value


def _text(value: object) -> str | None:
    return None if value is None else str(value)[:TEXT_CHARS]


def _entries(value: object, what: str) -> list[Mapping[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_ENTRIES or not all(isinstance(e, Mapping) for e in value):
        raise Unreadable(f"{what}: expected a list of at most {MAX_ENTRIES} objects")
    return value


def _lenient(check: Callable[[Any, str], Any], value: object, what: str, misfits: list[str]) -> Any:
    """`check(value)`, or the value as bounded text when it does not fit (noted in `misfits`)."""
    try:
        return check(value, what)
    except Unreadable as error:
        misfits.append(str(error))
        return _text(value)


def outcome(net: str) -> str:
    """win, lose or push, from a net amount's string (its sign)."""
    return "lose" if net.startswith("-") else "push" if _zero(net) else "win"


def _zero(amount: str) -> bool:
    return re.fullmatch(r"-?0(\.0+)?", amount) is not None


def bank_step(net: str) -> str:
    """What the player-dealer's bank did with a wager: paid it, collected it, or returned it
    whole (a push, or a wager the bank did not cover: ruling 26)."""
    return "collected" if net.startswith("-") and not _zero(net) else "returned" if _zero(net) else "paid"


def _bettor(value: object, what: str) -> str:
    """The seated player ("seat") or a back-line bettor's name, bounded."""
    if not isinstance(value, str) or not 0 < len(value) <= 40:
        raise Unreadable(f"{what}: bettor {str(value)[:40]!r} is not a bettor's name")
    return value


class Desk:
    def __init__(self, game: str) -> None:
        self.seq = 0  # the last record folded
        self.problems: list[str] = []
        self.game = game if game in GAME_KEYS else None
        self.view: RoundView | None = None
        self.source: str | None = None  # the last wagers' source other than "none": is a sensor there?
        self._reset_money()

    def _reset_money(self) -> None:
        self.wagers: list[dict[str, Any]] = []
        self.refused: list[dict[str, Any]] = []
        self.round_source: str | None = None
        self.payouts: list[dict[str, Any]] = []
        self.house_net: str | None = None
        self.void_money = False
        self.alerts: list[dict[str, Any]] = []
        self.cleared: dict[str, Any] | None = None  # what ended the alerts: {"by": kind, "seq", "who"?}
        self.accepted: list[dict[str, Any]] = []
        self.player_dealer: dict[str, Any] | None = None  # {"seat", "stake"}; after the result "net", "fee", "back"
        self.fees: dict[str, Any] | None = None  # taken before the deal: {"option", "table_action", "lines", "total"}
        self.bank: dict[str, Any] | None = None  # the bank's walk: {"start", "end", "exhausted_at"}
        self.fees_returned = False

    # ------------------------------------------------------------------ folding
    def apply(self, record: Record) -> set[str]:
        """The page's parts the record changed: {DESK}, or none."""
        return {DESK} if self._fold(record) else set()

    def _fold(self, record: Record) -> bool:
        self.seq = record.seq
        handler = _HANDLERS.get(record.kind)
        if handler is None:
            return False
        if record.kind != R.ROUND_OPENED and record.kind != R.DAEMON_STARTED and not self._ours(record):
            return False
        try:
            return handler(self, record, record.payload)
        except (Unreadable, DamagedRecord, KeyError, TypeError, ValueError) as error:
            self._problem(record, str(error))
            return True

    def _ours(self, record: Record) -> bool:
        """A record of the round in play (or, for an irregularity, between rounds)."""
        if self.view is None:
            return record.round is None and record.kind == R.IRREGULARITY
        return record.round == self.view.round or (record.round is None and record.kind == R.IRREGULARITY)

    def _daemon_started(self, record: Record, p: Mapping[str, Any]) -> bool:
        game = p.get("game")
        if game in GAME_KEYS and game != self.game:
            self.game = game
            return True
        return False

    def _opened(self, record: Record, p: Mapping[str, Any]) -> bool:
        if record.round is None:
            raise Unreadable("round_opened without a round number")
        self.view = RoundView(record.round)
        self.view.apply(record)
        if self.view.game in GAME_KEYS:
            self.game = self.view.game
        self._reset_money()
        return True

    def _round_record(self, record: Record, p: Mapping[str, Any]) -> bool:
        if self.view is not None:
            self.view.apply(record)
        return True

    def _wagers(self, record: Record, p: Mapping[str, Any]) -> bool:
        source = p.get("source")
        if source not in SOURCES:
            raise Unreadable(f"source {str(source)[:40]!r} is not one of {', '.join(SOURCES)}")
        wagers = [self._wager(e, f"wager {n}") for n, e in enumerate(_entries(p.get("wagers"), "wagers"), 1)]
        refused = [{**self._wager(e, f"refused {n}"), "reason": _text(e.get("reason")), "clause": _text(e.get("clause"))}
                   for n, e in enumerate(_entries(p.get("refused"), "refused"), 1)]
        player_dealer, fees = p.get("player_dealer"), p.get("fees")
        self.player_dealer = None if player_dealer is None else self._player_dealer(player_dealer, ("seat", "stake"))
        self.fees = None if fees is None else self._fees(fees, "fees")
        self.wagers, self.refused, self.round_source = wagers, refused, source
        if source != "none":
            self.source = source
        return self._round_record(record, p)

    def _wager(self, entry: Mapping[str, Any], what: str) -> dict[str, Any]:
        chips = entry.get("chips")
        if chips is not None and (not isinstance(chips, list) or len(chips) > MAX_ENTRIES):
            raise Unreadable(f"{what}: chips: expected a list of at most {MAX_ENTRIES}")
        seat, bet = _seat(entry.get("seat"), what), _key(entry.get("bet"), what)
        return {"seat": seat, "bet": bet, "title": self._title(bet), "stake": _amount(entry.get("stake"), what),
                "chips": None if chips is None else len(chips)}

    def _settlement(self, record: Record, p: Mapping[str, Any]) -> bool:
        payouts = []
        for n, entry in enumerate(_entries(p.get("wagers"), "wagers"), 1):
            what = f"payout {n}"
            seat, bet = _seat(entry.get("seat"), what), _key(entry.get("bet"), what)
            amounts = {name: _amount(entry.get(name), f"{what} {name}") for name in ("stake", "net", "back")}
            commission = _amount(entry.get("commission", "0"), f"{what} commission")
            payout = {"seat": seat, "bet": bet, "title": self._title(bet), **amounts, "commission": commission,
                      "outcome": outcome(amounts["net"])}
            if "covered" in entry:  # banked by a player-dealer
                payout.update({"bettor": _bettor(entry.get("bettor"), what), "step": bank_step(amounts["net"]),
                               **{name: _amount(entry.get(name), f"{what} {name}") for name in ("covered", "returned", "fee")}})
            payouts.append(payout)
        void = p.get("void") is True
        player_dealer, bank = p.get("player_dealer"), p.get("bank")
        banked = None if player_dealer is None else self._player_dealer(player_dealer, ("seat", "stake", "net", "fee", "back"))
        walk = None if bank is None else self._bank(bank, payouts)
        fees_returned = p.get("fees_returned")
        if fees_returned is not None:
            self.fees = self._fees(fees_returned, "fees_returned")  # as they were taken, now given back
        self.payouts, self.house_net = payouts, _amount(p.get("house_net"), "house_net")
        self.void_money, self.fees_returned = void, void and fees_returned is not None
        self.player_dealer, self.bank = banked or self.player_dealer, walk
        return self._round_record(record, p)

    def _player_dealer(self, value: object, names: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise Unreadable("player_dealer: expected an object")
        out: dict[str, Any] = {"seat": _seat(value.get("seat"), "player_dealer")}
        out.update({name: _amount(value.get(name), f"player_dealer {name}") for name in names[1:]})
        return out

    def _fees(self, value: object, what: str) -> dict[str, Any]:
        """The fees of one hand: per bettor and space (options 1-20), then the player-dealer's
        (`space` null); options 21-26, the player-dealer's alone, by the table action."""
        if not isinstance(value, Mapping):
            raise Unreadable(f"{what}: expected an object")
        option = value.get("option")
        if isinstance(option, bool) or option not in SCHEDULE_OPTIONS:
            raise Unreadable(f"{what}: option {str(option)[:40]!r} is not a collection schedule (1-26)")
        lines = []
        for n, entry in enumerate(_entries(value.get("lines"), f"{what} lines"), 1):
            where = f"{what} line {n}"
            space = entry.get("space")
            lines.append({"seat": _seat(entry.get("seat"), where), "bettor": _bettor(entry.get("bettor"), where),
                          "space": None if space is None else _key(space, where),
                          "title": None if space is None else self._title(space), "fee": _amount(entry.get("fee"), where)})
        return {"option": option, "table_action": _amount(value.get("table_action"), f"{what} table_action"),
                "lines": lines, "total": _amount(value.get("total"), f"{what} total")}

    def _bank(self, value: object, payouts: list[dict[str, Any]]) -> dict[str, Any]:
        """The bank's walk; its balance after each wager goes on that wager's row."""
        if not isinstance(value, Mapping):
            raise Unreadable("bank: expected an object")
        after = value.get("after")
        if not isinstance(after, list) or len(after) != len(payouts):
            raise Unreadable(f"bank: after: expected a balance for each of the {len(payouts)} wagers")
        exhausted = value.get("exhausted_at")
        if exhausted is not None and (isinstance(exhausted, bool) or not isinstance(exhausted, int)
                                      or not 0 <= exhausted < len(payouts)):
            raise Unreadable(f"bank: exhausted_at {str(exhausted)[:40]!r} is not one of the wagers")
        balances = [_amount(balance, f"bank after wager {n}") for n, balance in enumerate(after, 1)]
        for n, (payout, balance) in enumerate(zip(payouts, balances)):
            payout["bank_after"] = balance
            payout["exhausted"] = n == exhausted
            payout["untouched"] = exhausted is not None and n > exhausted  # returned whole: the bank was empty
        return {"start": _amount(value.get("start"), "bank start"), "end": _amount(value.get("end"), "bank end"),
                "exhausted_at": exhausted}

    def _irregularity(self, record: Record, p: Mapping[str, Any]) -> bool:
        """A money irregularity is always shown: a field that does not fit is shown as text
        (bounded) and named in `problems`, rather than the alert left out."""
        if self.view is not None and record.round == self.view.round:
            self.view.apply(record)
        kind = p.get("kind")
        if kind not in MONEY_IRREGULARITIES:
            return False  # the page shows money irregularities only (the scoreboard shows holds)
        misfits: list[str] = []
        alert: dict[str, Any] = {"seq": record.seq, "kind": kind, "clause": _text(p.get("clause")),
                                 "detail": _text(p.get("detail")), "open": True}
        if "seat" in p or "bet" in p:
            alert["seat"], alert["bet"] = _lenient(_seat, p.get("seat"), "seat", misfits), _lenient(_key, p.get("bet"), "bet", misfits)
            alert["title"] = self._title(alert["bet"]) if isinstance(alert["bet"], str) and _KEY.match(alert["bet"]) else alert["bet"]
        names = {I.MISPAY: ("expected", "found", "difference"), I.FOREIGN_CHIP: ("value",)}.get(kind, ("frozen", "now"))
        for name in names:
            if p.get(name) is not None:
                alert[name] = _lenient(_amount, p.get(name), name, misfits)
        if kind == I.MISPAY:
            alert["direction"] = p.get("direction") if p.get("direction") in DIRECTIONS else _text(p.get("direction"))
            for earlier in self.alerts:  # a space's latest reading is the one that stands
                if earlier["kind"] == I.MISPAY and (earlier.get("seat"), earlier.get("bet")) == (alert.get("seat"), alert.get("bet")):
                    earlier["open"] = False
        elif kind == I.FOREIGN_CHIP:
            uid = p.get("uid")
            alert["uid"] = uid if isinstance(uid, str) and _UID.match(uid) else _text(uid)
            alert["space"] = p.get("space") if isinstance(p.get("space"), int) else _text(p.get("space"))
            alert["why"] = _text(p.get("why"))
        self.alerts.append(alert)
        if misfits:
            self._problem(record, "; ".join(misfits) + " (shown as written)")
        return True

    def _ended(self, record: Record, p: Mapping[str, Any]) -> bool:
        """`settled` (the round confirmed: every space right) or `payouts_accepted` (the
        supervisor took the spaces as they stand) clears every open alert."""
        for alert in self.alerts:
            alert["open"] = False
        self.cleared = {"by": record.kind, "seq": record.seq}
        if record.kind == R.PAYOUTS_ACCEPTED:
            self.cleared["who"] = _who(p.get("by"))
            misfits: list[str] = []
            try:
                entries = _entries(p.get("differences"), "differences")
            except Unreadable as error:
                entries, misfits = [], [str(error)]
            differences = [{name: _lenient(check, entry.get(name), name, misfits)
                            for name, check in (("seat", _seat), ("bet", _key), ("expected", _amount), ("found", _amount))}
                           for entry in entries]
            self.accepted.append({"seq": record.seq, "who": self.cleared["who"], "differences": differences})
            if misfits:
                self._problem(record, "; ".join(misfits) + " (shown as written)")
        return self._round_record(record, p)

    def _problem(self, record: Record, why: str) -> None:
        self.problems = [*self.problems[-(PROBLEMS_KEPT - 1):], f"record {record.seq} ({record.kind}): {why}"]

    def _title(self, bet: str) -> str:
        if self.game is None:
            return bet
        wager = get_game(self.game).wagers.get(bet)
        return wager.title if wager is not None else bet.replace("_", " ").capitalize()

    # ------------------------------------------------------------------ what the page draws
    def desk_json(self) -> dict[str, Any]:
        view = self.view
        spec = get_game(self.game) if self.game else None
        return {
            "game": self.game, "game_title": spec.title if spec else None,
            "seat_word": ("spot" if spec.uses_spots else "seat") if spec else "seat",
            "round": view.round if view else None, "shoe": view.shoe if view else None,
            "state": _state(view), "void": _void(view),
            "payout_check": self.source == "sensor" if self.source else None,
            "wager_source": self.round_source, "sensor": self.source,
            "wagers": self.wagers, "refused": self.refused, "payouts": self.payouts, "house_net": self.house_net,
            "returned": self.void_money, "player_dealer": self.player_dealer, "fees": self.fees,
            "fees_returned": self.fees_returned, "bank": self.bank, "alerts": self.alerts,
            "open_alerts": sum(1 for a in self.alerts if a["open"]), "cleared": self.cleared, "accepted": self.accepted,
            "seq": self.seq, "problems": self.problems,
        }


def _who(by: object) -> str:
    """Who gave it, in a few words: `alice (uid 1000)`, `panel key`."""
    if not isinstance(by, Mapping):
        return _text(by) or "?"
    if by.get("source") == "panel":
        return "panel key" if "button" not in by else f"panel button {by['button']}"
    user, uid = by.get("user"), by.get("uid")
    return _text(f"{user} (uid {uid})" if user else f"uid {uid}") or "?"


def _state(view: RoundView | None) -> str:
    if view is None:
        return "waiting"
    if view.void is not None:
        return "void"
    if view.settled:
        return "settled"
    if view.result is not None:
        return "result"
    return "dealing" if view.bets_closed else "betting"


def _void(view: RoundView | None) -> dict[str, Any] | None:
    if view is None or view.void is None:
        return None
    return {"clause": _text(view.void.get("clause")), "reason": _text(view.void.get("reason"))}


_HANDLERS: dict[str, Callable[[Desk, Record, Mapping[str, Any]], bool]] = {
    R.DAEMON_STARTED: Desk._daemon_started,
    R.ROUND_OPENED: Desk._opened,
    R.BETS_CLOSED: Desk._round_record,
    R.RESULT: Desk._round_record,
    R.VOID: Desk._round_record,
    R.SETTLED: Desk._ended,
    R.IRREGULARITY: Desk._irregularity,
    R.WAGERS: Desk._wagers,
    R.SETTLEMENT: Desk._settlement,
    R.PAYOUTS_ACCEPTED: Desk._ended,
}
