"""`tablectl chips import FILE.csv | list [--uid UID] | retire UID... [--socket PATH | --config FILE] [--json]`

The cage's chip registry, kept by the daemon (journaled as `chips` records):
    import   FILE.csv with the header `uid,value,set`: one chip a row, its UID as hex (4 to 10
             bytes, as the bet sensor reads it), its value as a positive decimal in currency
             (25 or 2.50), its chip set's name. The whole file is checked first (every bad
             line named, a UID twice, a file larger than MAX_FILE_BYTES): nothing is sent
             unless all of it is good. Then `chips_import` requests, as many rows as fit the
             control socket's line (controller/control/protocol.py MAX_LINE) each.
    list     the registry as the daemon answers `chips` (one chip with --uid).
    retire   take chips out of service (`chips_retire`), in batches the same way.
Exit 0 when the daemon took everything, 1 when it refused a batch (the batches before it
were taken: the message says how many chips) or cannot be reached, 2 for a bad file or UID.
"""
from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from cli.common import Parser, UsageError, run_command
from cli.paths import add_location_options, socket_path
from cli.status import field_lines
from controller.control import ControlClient, ControlError
from controller.control.protocol import MAX_LINE, encode
from controller.table.chip_registry import MAX_ROWS
from games.money import BadAmount, format_amount, parse_amount

MAX_FILE_BYTES = 8 * 1024 * 1024  # a cage's registry of ~200,000 chips; a larger file is not a chip list
HEADER = ("uid", "value", "set")
UID_BYTES = (4, 10)  # ISO 14443 UIDs are 4, 7 or 10 bytes; the wire takes 4..10 (PROTOCOL.md §10.3)
_HEX = re.compile(r"[0-9a-f]+\Z")
MAX_SET_CHARS = 64
MAX_PROBLEMS = 20  # bad lines named before the rest are counted


@dataclass(frozen=True)
class Chip:
    uid: str  # lower-case hex
    value: str  # a positive decimal in currency, as format_amount writes it
    chip_set: str
    line: int

    def row(self) -> str:
        """The chips_import row: "UID,VALUE,SET"."""
        return f"{self.uid},{self.value},{self.chip_set}"


def check_uid(text: str) -> str:
    """A UID as hex (upper or lower case), as lower-case hex; ValueError says what is wrong."""
    uid = text.strip().lower()
    if not uid or not _HEX.match(uid) or len(uid) % 2:
        raise ValueError(f"UID {text!r} is not hex bytes (e.g. 047b0000000001)")
    if not UID_BYTES[0] <= len(uid) // 2 <= UID_BYTES[1]:
        raise ValueError(f"UID {text!r} is {len(uid) // 2} bytes: a chip's UID is {UID_BYTES[0]} to {UID_BYTES[1]}")
    return uid


def _value(text: str) -> str:
    try:
        amount = parse_amount(text.strip())
    except BadAmount as bad:
        raise ValueError(str(bad)) from None
    if amount <= 0:
        raise ValueError(f"value {text!r} is not positive")
    return format_amount(amount)


def _chip_set(text: str) -> str:
    name = text.strip()
    if not name:
        raise ValueError("the chip set's name is empty")
    if len(name) > MAX_SET_CHARS or not name.isprintable():
        raise ValueError(f"set {name[:MAX_SET_CHARS]!r}: at most {MAX_SET_CHARS} printable characters")
    return name


def read_registry(path: str) -> list[Chip]:
    """Every chip of the CSV file, checked; UsageError naming every bad line (FILE:LINE: why)."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_FILE_BYTES:
        raise UsageError(f"{path}: larger than {MAX_FILE_BYTES} bytes: not a chip list (split it)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UsageError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    rows = csv.reader(io.StringIO(text, newline=""))
    header = next(rows, None)
    if header is None or tuple(h.strip().lower() for h in header) != HEADER:
        raise UsageError(f"{path}:1: the header must be `{','.join(HEADER)}`, got {','.join(header or []) or 'nothing'!r}")
    chips: list[Chip] = []
    problems: list[str] = []
    first: dict[str, int] = {}
    try:
        for row in rows:
            line = rows.line_num
            if not row or all(not cell.strip() for cell in row):
                continue  # a blank line
            try:
                if len(row) != len(HEADER):
                    raise ValueError(f"{len(row)} fields, expected {len(HEADER)} ({','.join(HEADER)})")
                chip = Chip(check_uid(row[0]), _value(row[1]), _chip_set(row[2]), line)
            except ValueError as error:
                problems.append(f"{path}:{line}: {error}")
                continue
            if chip.uid in first:
                problems.append(f"{path}:{line}: UID {chip.uid} is already on line {first[chip.uid]}")
                continue
            first[chip.uid] = line
            chips.append(chip)
    except csv.Error as error:
        problems.append(f"{path}:{rows.line_num}: {error}")
    if problems:
        more = len(problems) - MAX_PROBLEMS
        raise UsageError("\n".join(problems[:MAX_PROBLEMS] + ([f"... and {more} more bad lines"] if more > 0 else []))
                         + "\nnothing was imported")
    if not chips:
        raise UsageError(f"{path}: no chips (only the header)")
    return chips


def batches(cmd: str, field: str, items: Sequence[str], max_line: int = MAX_LINE,
            max_items: int = MAX_ROWS) -> Iterator[list[str]]:
    """`items` in consecutive lists, each as long as fits one request line of `cmd` (its id
    included, the longest one a client sends) within `max_line` bytes, and at most `max_items`
    (what the daemon takes in one command)."""
    overhead = len(encode({"id": 10**9, "cmd": cmd, field: []}))
    batch: list[str] = []
    size = overhead
    for item in items:
        cost = len(encode({"x": item})) - len(encode({"x": ""})) + 2 + (1 if batch else 0)  # quotes, comma
        if overhead + cost > max_line:
            raise UsageError(f"{item[:40]!r}...: too long for one request line ({max_line} bytes)")
        if size + cost > max_line or len(batch) == max_items:
            yield batch
            batch, size = [], overhead
            cost -= 1
        batch.append(item)
        size += cost
    if batch:
        yield batch


def send_batches(client: ControlClient, cmd: str, field: str, items: Sequence[str], what: str,
                 max_line: int = MAX_LINE) -> tuple[int, list[dict]]:
    """Send every batch in order; stop at the first refusal: (items taken, replies)."""
    taken, replies = 0, []
    for batch in batches(cmd, field, items, max_line):
        reply = client.request(cmd, **{field: batch})
        replies.append(reply)
        if not reply.get("ok"):
            raise Refused(f"{cmd} refused: {reply.get('error')} ({taken} of {len(items)} {what} taken before, "
                          f"in {len(replies) - 1} request{'s' if len(replies) != 2 else ''}; "
                          f"the {len(items) - taken} from {what[:-1]} {taken + 1} on were not)")
        taken += len(batch)
    return taken, replies


class Refused(Exception):
    """The daemon refused a request: exit 1."""


def _parser() -> Parser:
    parser = Parser(prog="tablectl chips", description="The cage's chip registry, kept by the daemon.")
    actions = parser.add_subparsers(dest="action", required=True, metavar="{import,list,retire}")
    for name, help_text in (("import", "load chips from a CSV file (header uid,value,set)"),
                            ("list", "the registry (one chip with --uid)"), ("retire", "take chips out of service")):
        action = actions.add_parser(name, help=help_text)
        if name == "import":
            action.add_argument("file", metavar="FILE.csv")
        elif name == "list":
            action.add_argument("--uid", help="one chip's UID (hex)")
        else:
            action.add_argument("uids", metavar="UID", nargs="+", help="the chips' UIDs (hex)")
        add_location_options(action, "--socket", "the daemon's control socket")
        action.add_argument("--json", action="store_true", help="the daemon's replies as JSON, one a line")
    return parser


def _uids(texts: Sequence[str]) -> list[str]:
    uids: list[str] = []
    for text in texts:
        try:
            uid = check_uid(text)
        except ValueError as error:
            raise UsageError(str(error)) from None
        if uid not in uids:
            uids.append(uid)
    return uids


def chip_lines(reply: dict) -> list[str]:
    """The registry for people: a chip a line (uid, value, set, then what else the daemon says)."""
    chips = reply.get("chips")
    if not isinstance(chips, list):
        return field_lines(reply)
    lines = [f"{len(chips)} chip{'s' if len(chips) != 1 else ''}"]
    for chip in chips:
        if not isinstance(chip, dict):
            lines.append(json.dumps(chip, ensure_ascii=False))
            continue
        rest = " ".join(f"{k}={v}" for k, v in chip.items() if k not in HEADER)
        lines.append(f"{chip.get('uid', '?')}  {chip.get('value', '?'):>10}  {chip.get('set', '')}  {rest}".rstrip())
    return lines


def _print(replies: list[dict], as_json: bool, text: Callable[[dict], list[str]]) -> None:
    for reply in replies:
        if as_json:
            print(json.dumps(reply, ensure_ascii=False, separators=(",", ":")))
        else:
            print("\n".join(text(reply)))


def _main(argv) -> int:
    args = _parser().parse_args(argv)
    if args.action == "import":
        rows = [chip.row() for chip in read_registry(args.file)]
        cmd, field, items, what = "chips_import", "chips", rows, "chips"
    elif args.action == "retire":
        cmd, field, items, what = "chips_retire", "uids", _uids(args.uids), "chips"
    else:
        uid = None if args.uid is None else _uids([args.uid])[0]
        with ControlClient(socket_path(args)) as client:
            reply = client.request("chips", **({} if uid is None else {"uid": uid}))
        _print([reply], args.json, chip_lines)
        if not reply.get("ok"):
            raise Refused(f"chips refused: {reply.get('error')}")
        return 0
    with ControlClient(socket_path(args)) as client:
        taken, replies = send_batches(client, cmd, field, items, what)
    if args.json:
        _print(replies, True, field_lines)
    else:
        verb = "imported" if cmd == "chips_import" else "retired"
        print(f"{verb} {taken} chip{'s' if taken != 1 else ''} in {len(replies)} request{'s' if len(replies) != 1 else ''}")
    return 0


def main(argv) -> int:
    return run_command("chips", _main, argv, (ControlError, Refused))

