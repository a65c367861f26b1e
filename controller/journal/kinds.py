"""Every journal record kind by name: the one list that writers and readers use.

A kind is stored as its plain string (`RecordKind.CARD == "card"`, and the journal stores
`str(kind)`), so the journal format is the strings below; docs/journal.md says what each
payload holds. A reader meets kinds it does not know (an older or newer tablectl): it keeps
them as they are and otherwise leaves them alone.
"""
from __future__ import annotations

import enum


class RecordKind(enum.StrEnum):
    # written by the daemon for what reached it
    DAEMON_STARTED = "daemon_started"
    DAEMON_STOPPED = "daemon_stopped"
    DEVICE = "device"  # a device event as it arrived
    TAMPER = "tamper"  # a frame that failed authentication: on record, never delivered (PROTOCOL.md §8)
    COMMAND = "command"  # a panel or socket command
    ERROR = "error"  # an input the table refused outright, or an effect that failed
    CHAIN_STARTED = "chain_started"  # record 1 of a journal begun again after a broken one (new_chain.py)
    SIGNED_HEAD = "signed_head"  # the table's signature over an earlier record's hash: the anchor's mirror (signing.py)
    # written by the table (its Journal effects)
    SHOE = "shoe"  # payload "event": one of ShoeEvent
    ROUND_OPENED = "round_opened"
    SPOTS = "spots"
    BETS_CLOSED = "bets_closed"
    CARD = "card"
    DECISION = "decision"
    IRREGULARITY = "irregularity"
    ROUND_RESUMED = "round_resumed"
    RESULT = "result"
    VOID = "void"
    SETTLED = "settled"
    PLAYER_DEALER = "player_dealer"
    RECOVERED = "recovered"
    TIMER = "timer"  # a timer that expired with nothing to time
    DEVICE_NOTE = "device_note"  # a device report the table had already accounted for
    # money at the table (docs/money.md)
    CHIPS = "chips"  # the chip registry: chips imported or retired
    WAGERS = "wagers"  # the round's wagers of record, frozen at "No more bets"
    SETTLEMENT = "settlement"  # every wager settled, with the result (or returned, on a void)
    PAYOUTS_ACCEPTED = "payouts_accepted"  # the supervisor accepted the spaces as they stand after a mispay
    SHIFT = "shift"  # a shift opened or closed by command: the meters' shifts (controller/journal/meters.py)


class ShoeEvent(enum.StrEnum):
    """The `event` of a `shoe` record."""

    NEW = "new"
    NEW_DECK = "new_deck"  # a fresh deck every round (a deck-per-round table)
    BURN = "burn"  # the burn cards listed in the record itself (read, not written by this tablectl)
    BURN_DONE = "burn_done"
    BURN_CARD_KEYED_IN = "burn_card_keyed_in"
    CUT_CARD = "cut_card"
    FINISHED = "finished"
    EMPTY = "empty"
    REMOVED = "removed"
    PRESENT = "present"
    DOOR_OPEN = "door_open"
    DOOR_CLOSED = "door_closed"
    LINK_LOST = "link_lost"
    LINK_RESTORED = "link_restored"
    REBOOTED = "rebooted"
    ACCEPTED = "accepted"  # the supervisor accepted a shoe that failed an integrity check (local ruling L7)


SHOE_STARTS = (ShoeEvent.NEW, ShoeEvent.NEW_DECK)  # a shoe (or a round's deck) begins: its count starts again
ROUND_ENDS = (RecordKind.VOID, RecordKind.SETTLED)  # the round is over; no later record changes it
# Settings that hold until set again: a restart needs the last of each, however old.
STICKY_KINDS = (RecordKind.SPOTS, RecordKind.PLAYER_DEALER)
