"""`tablectl status` for people: the daemon's snapshot as a few labelled lines (the whole
reply, machine-readable, is `--json`). Keys it does not know are shown last as they come,
so nothing the daemon adds is hidden."""
from __future__ import annotations

import json

from games.clauses import summary
from games.integrity import CLAUSE

# the snapshot's keys each line below covers (the rest are shown as "key: value")
SHOWN = {"id", "ok", "message", "game", "decks", "state", "shoe", "round", "hands", "lamps", "spots",
         "selected_spot", "pending_decision", "held", "link_up", "supervisor_key", "door_open", "attention",
         "player_dealer", "daemon", "integrity", "money"}
LABEL = 12  # width of the label column


def _line(label: str, text: str) -> str:
    return f"{label:<{LABEL}}{text}"


def _compact(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _shoe(shoe: dict) -> str:
    parts = [str(shoe.get("state", "?")).replace("_", " ")]
    if shoe.get("size"):
        parts.append(f"{shoe.get('remaining')} of {shoe['size']} cards left")
    if shoe.get("burn_remaining"):
        turned = f" (first card {shoe['burn_card']})" if shoe.get("burn_card") else ""
        parts.append(f"{shoe['burn_remaining']} more to burn{turned}")
    elif shoe.get("burned"):
        parts.append(f"{shoe['burned']} burned")
    if shoe.get("cut_card_seen"):
        parts.append("cut card out")
    if shoe.get("last_round"):
        parts.append("last round")
    return " · ".join(parts)


def _round(snapshot: dict) -> str:
    rnd = snapshot["round"]
    parts = [f"{rnd.get('number')} {snapshot.get('state', '')}".rstrip()]
    if rnd.get("spots") and snapshot.get("spots") is not None:
        parts.append("spots " + ",".join(map(str, rnd["spots"])))
    if rnd.get("decisions"):
        parts.append("decided " + ", ".join(f"spot {spot} {choice}" for spot, choice in rnd["decisions"]))
    return " · ".join(parts)


def _hands(hands: dict) -> str:
    return " · ".join(f"{name} {' '.join(c if c is not None else '??' for c in cards)}" for name, cards in hands.items()) or "-"


def _devices(daemon: dict, snapshot: dict) -> str:
    devices = daemon.get("devices") or {}
    parts = [f"{name} {info.get('link')}" + (f" ({info['reason']})" if info.get("reason") else "")
             for name, info in devices.items()]
    parts.append(f"key {'on' if snapshot.get('supervisor_key') else 'off'}")
    if snapshot.get("door_open"):
        parts.append("shoe door OPEN")
    return " · ".join(parts)


def _unauthenticated(daemon: dict) -> str | None:
    """The devices whose links take frames without a MAC (no key configured), as a warning."""
    names = [name for name, info in (daemon.get("devices") or {}).items()
             if isinstance(info, dict) and info.get("authenticated") is False]
    if not names:
        return None
    return (f"{', '.join(names)} unauthenticated: no key in [keys], so a frame forged on the line is taken as "
            f"the device's (protocol 1.0); `tablectl keys provision DEVICE` makes one (docs/configuration.md)")


LINE_COUNTS = (("out_of_sequence", "out of sequence"), ("repeated", "repeated"), ("disputed", "disputed"),
               ("tampered", "tampered"), ("garbage_bytes", "garbage bytes"), ("bad_crcs", "bad CRCs"),
               ("bad_headers", "bad headers"), ("truncated", "truncated"))


def _line_counts(daemon: dict) -> str | None:
    """Per device, the frames its line carried and what could not be used (non-zero only)."""
    parts = []
    for name, info in (daemon.get("devices") or {}).items():
        counts = info.get("frames") if isinstance(info, dict) else None
        if not isinstance(counts, dict) or not counts:
            continue
        bad = [f"{counts[key]} {label}" for key, label in LINE_COUNTS if counts.get(key)]
        parts.append(f"{name} {counts.get('frames', 0)} frames" + (f" ({', '.join(bad)})" if bad else ""))
    return " · ".join(parts) or None


def _money(money: dict) -> list[str]:
    """The money briefly (docs/money.md): the sensor and the check, the wagers of record and
    what was refused, the payouts owed, the mispays; `--json` has every space."""
    sensor = "bet sensor live" if money.get("sensor") == "live" else "no bet sensor (wagers by command)"
    parts = [sensor, "payouts checked at confirm" if money.get("payout_check") else "no payout check"]
    if money.get("registry") == "no chip registry":
        parts.append("no chip registry")
    lines = [_line("money", " · ".join(parts))]
    wagers = money.get("wagers") or money.get("commanded") or []
    if wagers:
        lines.append(_line("wagers", " · ".join(f"{w.get('seat')} {w.get('bet')} {w.get('stake')}" for w in wagers)))
    if money.get("refused"):
        lines.append(_line("refused", " · ".join(f"{r.get('seat')} {r.get('bet')} {r.get('stake')}: {r.get('reason')}"
                                                 for r in money["refused"])))
    bank = _bank(money)
    if bank:
        lines.append(_line("bank", bank))
    if money.get("payouts"):
        lines.append(_line("payouts", " · ".join(f"{w.get('seat')} {w.get('bet')} back {w.get('back')}"
                                                 for w in money["payouts"])))
    for m in money.get("mispays") or []:
        lines.append(_line("MISPAY", f"seat {m.get('seat')} {m.get('bet')}: holds {m.get('found')}, should hold "
                                     f"{m.get('expected')} ({m.get('direction')})"))
    return lines


def _bank(money: dict) -> str | None:
    """Fortune 7's player-dealer: its seat and stake, the fees taken, the bank after settlement."""
    pd, fees = money.get("player_dealer"), money.get("fees")
    if not isinstance(pd, dict):
        return None
    parts = [f"seat {pd.get('seat')} banks {pd.get('stake')}"]
    if isinstance(fees, dict):
        parts.append(f"fees {fees.get('total')} (schedule {fees.get('option')})")
    if "net" in pd:
        parts.append(f"net {pd.get('net')}, its space back {pd.get('back')}")
    return " · ".join(parts)


def _held(held: dict) -> str:
    clause = held.get("clause", "")
    text = f"{held.get('kind')} ({clause}): needs {held.get('need')}: {held.get('detail', '')}"
    return text + (f"\n{'':<{LABEL}}{clause}: {summary(clause)}" if summary(clause) else "")


def _integrity(integrity: dict) -> str:
    """Why no round opens (local ruling L7), with the clause's summary."""
    why = str(integrity.get("why") or "")
    return why + (f"\n{'':<{LABEL}}{CLAUSE}: {summary(CLAUSE)}" if summary(CLAUSE) else "")


# the shape each structured key has in the daemon's snapshot; a key of another shape is shown as it is
SHAPES = {"shoe": dict, "round": dict, "hands": dict, "lamps": dict, "pending_decision": dict, "held": dict,
          "player_dealer": dict, "daemon": dict, "attention": list, "integrity": dict, "money": dict}


def status_lines(reply: dict) -> list[str]:
    """The readable form of a `status` reply."""
    odd = {key for key, shape in SHAPES.items() if reply.get(key) is not None and not isinstance(reply[key], shape)}
    shown, original = SHOWN - odd, reply
    reply = {key: value for key, value in reply.items() if key not in odd}
    daemon = reply.get("daemon") or {}
    lines = [daemon["status"]] if daemon.get("status") else []
    if reply.get("game"):
        lines.append(_line("game", f"{reply['game']} · {reply.get('decks')} deck{'s' if reply.get('decks') != 1 else ''}"))
    if reply.get("round"):
        lines.append(_line("round", _round(reply)))
    elif reply.get("state"):
        lines.append(_line("state", str(reply["state"])))
    if reply.get("hands"):
        lines.append(_line("hands", _hands(reply["hands"])))
    if reply.get("pending_decision"):
        pending = reply["pending_decision"]
        lines.append(_line("waiting for", f"spot {pending.get('spot')}: {', '.join(pending.get('options', []))}"))
    if reply.get("held"):
        lines.append(_line("HELD", _held(reply["held"])))
    if reply.get("shoe"):
        lines.append(_line(f"shoe {reply['shoe'].get('number') or '-'}", _shoe(reply["shoe"])))
    if (reply.get("integrity") or {}).get("blocked"):
        lines.append(_line("NO ROUND", _integrity(reply["integrity"])))
    if reply.get("player_dealer"):
        bank = reply["player_dealer"]
        lines.append(_line("banker seat", f"{bank.get('seat')} ({bank.get('hands_left')} hands left)"))
    if reply.get("money"):
        lines += _money(reply["money"])
    if reply.get("lamps") is not None:
        lit = [name if pattern == "on" else f"{name}({pattern})" for name, pattern in reply["lamps"].items() if pattern != "off"]
        lines.append(_line("lamps lit", " ".join(lit) or "none"))
    for note in reply.get("attention") or []:
        lines.append(_line("attention", note.get("detail") or _compact(note) if isinstance(note, dict) else str(note)))
    if daemon.get("devices") or "supervisor_key" in reply:
        lines.append(_line("devices", _devices(daemon, reply)))
    if _unauthenticated(daemon):
        lines.append(_line("WARNING", str(_unauthenticated(daemon))))
    if _line_counts(daemon):
        lines.append(_line("line", str(_line_counts(daemon))))
    if daemon.get("journal"):
        journal = daemon["journal"]
        lines.append(_line("journal", f"{journal.get('path')} ({journal.get('records')} records)"))
    if daemon.get("pid"):
        lines.append(_line("daemon", f"pid {daemon['pid']}, {'ready' if daemon.get('ready') else 'starting'}"))
    lines += [_line(key, _compact(value)) for key, value in original.items() if key not in shown]
    return lines
