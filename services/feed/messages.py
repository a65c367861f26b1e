"""Topics and payloads on the floor's broker: what the feed publishes and the pit reads.

Topics (PREFIX may have several levels; SITE and TABLE are one level each):

    PREFIX/SITE/TABLE/record        every journal record (QoS 1): one, or a backlog's in order
    PREFIX/SITE/TABLE/round         a summary per result or void (QoS 1)
    PREFIX/SITE/TABLE/irregularity  each irregularity, its clause and consequence (QoS 1)
    PREFIX/SITE/TABLE/status        the table's state line (QoS 1, retained; last will: offline)
    PREFIX/SITE/TABLE/replay        a consumer asks the feed to send records again (QoS 1)

Every payload is a UTF-8 JSON object carrying `site`, `table`, and (all but status and
replay) the journal record's `seq` and `hash`: a consumer keeps the first message per
(table, seq) and drops the redeliveries QoS 1 allows. docs/floor.md shows each with an example.

A `record` message holds one record (`{"site", "table", "seq", ... "hash"}`), or, when the
feed found several waiting (catching up), several in order: `{"site", "table", "records":
[{"seq", ... "hash"}, ...]}`, each exactly as `tablectl journal export` writes it.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from controller.config.schema import topic_level
from controller.journal import Record, RoundView
from controller.journal.records import json_string

LEAVES = ("record", "round", "irregularity", "status", "replay")
REPLAY_MAX = 5000  # records sent again per replay request; ask again for the rest


@dataclass(frozen=True)
class Topics:
    prefix: str
    site: str
    table: str

    def topic(self, leaf: str) -> str:
        return f"{self.prefix}/{self.site}/{self.table}/{leaf}"


def split_topic(topic: str, prefix: str) -> tuple[str, str, str] | None:
    """`PREFIX/SITE/TABLE/LEAF` -> (site, table, leaf); None for anything else."""
    if not topic.startswith(prefix + "/"):
        return None
    parts = topic[len(prefix) + 1:].split("/")
    if len(parts) != 3 or parts[2] not in LEAVES or topic_level(parts[0]) or topic_level(parts[1]):
        return None
    return parts[0], parts[1], parts[2]


def encode(message: Mapping[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def record_message(topics: Topics, record: Record) -> bytes:
    """The record as `tablectl journal export` writes it, plus site and table. Its hash is
    recomputed from `prev_hash, seq, at, mono_ns, kind, round` and the canonical JSON text
    of `payload` (docs/journal.md)."""
    return f"{_envelope(topics)},{_record_fields(record)}}}".encode()


def records_message(topics: Topics, records: Sequence[Record]) -> bytes:
    """Several records in order, in one message: `{"site", "table", "records": [...]}`, each
    as `tablectl journal export` writes it."""
    return f"{_envelope(topics)},\"records\":[{','.join('{' + _record_fields(r) + '}' for r in records)}]}}".encode()


def _envelope(topics: Topics) -> str:
    return f'{{"site":{json_string(topics.site)},"table":{json_string(topics.table)}'


def _record_fields(record: Record) -> str:
    """The fields of `record.to_json()` as JSON text (no braces), the payload's stored text
    spliced in, not parsed and written again: it is the canonical JSON of an object, or
    `Record.payload` refuses it (DamagedRecord, naming the record), as `to_json` would."""
    try:
        is_object = type(orjson.loads(record.payload_text)) is dict  # the quick look
    except orjson.JSONDecodeError:
        is_object = False
    if not is_object:
        record.payload  # noqa: B018 -- json decides: DamagedRecord unless it reads an object
    return (f'"seq":{record.seq},"at":{json_string(record.at)},"mono_ns":{record.mono_ns},'
            f'"kind":{json_string(record.kind)},"round":{"null" if record.round is None else record.round},'
            f'"payload":{record.payload_text},"prev_hash":{json_string(record.prev_hash)},"hash":{json_string(record.hash)}')


def irregularity_message(topics: Topics, record: Record) -> bytes:
    p = record.payload
    return encode({"site": topics.site, "table": topics.table, "seq": record.seq, "hash": record.hash, "at": record.at,
                   "round": record.round, "kind": p.get("kind"), "clause": p.get("clause"),
                   "consequence": p.get("consequence"), "detail": p.get("detail")})


def round_message(topics: Topics, record: Record, view: RoundView, supersedes: int | None) -> bytes:
    """The round as it stands after its result or void record. A void after a result of the
    same round names that result's seq in `supersedes`: it replaces that summary."""
    result = view.result if record.kind == "result" else None
    void = view.void if record.kind == "void" else None
    message: dict[str, Any] = {
        "site": topics.site, "table": topics.table, "seq": record.seq, "hash": record.hash, "at": record.at,
        "round": view.round, "game": view.game, "shoe": view.shoe, "outcome": record.kind,
        "cards": [{"card": c.card, "hand": c.hand, "status": c.status} for c in view.cards],
        "hands": None, "winner": None, "bets": None, "spots": None, "void": None, "supersedes": supersedes,
    }
    if result is not None:
        message.update(hands=result.get("hands"), winner=result.get("winner"), bets=result.get("bets"),
                       spots=result.get("spots"))
    if void is not None:
        message["void"] = {k: void.get(k) for k in ("kind", "clause", "reason")}
    return encode(message)
