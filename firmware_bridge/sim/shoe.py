"""`tablectl sim shoe`: a card shoe that deals on command and sends CARD / SHOE_STATUS.

    tablectl sim shoe --link /run/tablectl-sim/shoe --control /run/tablectl-sim/shoe.sock \
        --deck-kind standard52 --decks 8 --seed 7 --cut-card 380 [--auto-deal 1500]
    tablectl sim shoe --link ... --cards "9h 8d As Kc"      # a scripted shoe, in draw order

Commands (JSON {"cmd": ...} on the control socket, or text lines on stdin):
    draw [n]                      deal n cards (default 1); the reply's written_at is
                                  time.monotonic() just before the CARD frames went to the pty
    load [seed] [cards=..] [cut_card=POS]  a new shoe (or deck) goes in: the cards are replaced by a
                                  fresh shuffle or a scripted list; the draw counter carries on
    auto MS                       deal one card every MS milliseconds while a host is connected; 0 stops
                                  (cards drawn with no host listening wait in the link's queue,
                                  protocol 1.2: up to 64 messages; a card that finds it full is
                                  counted but never sent, "unheard": true in the reply)
    status                        send a SHOE_STATUS now
    state                         everything the simulator knows, as JSON
    fault KIND [VALUE]            garbage [n] | bad_crc | drop | duplicate | unplug | replug |
                                  reboot [clear_counter] | stall [seconds] |
                                  forge [plain|mac] [code=C] (inject a CARD that never left the
                                  shoe: good CRC, the SEQ the host expects, no valid MAC) |
                                  double_draw | foreign [code] | misread | door_open | door_close |
                                  unheard (the next card leaves and is counted, but no CARD is sent:
                                  the host sees a gap in the draw counter) |
                                  remove | insert (the shoe taken out of / put back in its place)
    sleep S / wait connected      (stdin scripts only) pause the script
    quit

The cut card lies after card POS: it passes the reader with the draw of card POS+1,
so "cut card seen" is sent just before that card. The draw counter survives a reboot
(non-volatile) unless the reboot says clear_counter.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import deque
from collections.abc import Sequence
from typing import BinaryIO, TextIO

from firmware_bridge.enums import DeviceKind
from firmware_bridge.messages import CardRead, Message, ShoeStatus, StatusQuery
from firmware_bridge.sim.commands import Command, CommandError, Reply, arg_bool, arg_int
from firmware_bridge.sim.device import VirtualDevice, common_arguments, run_device
from games.cards import JOKER_CODE, Card, CardError, DeckKind, card_from_code, parse_card

FOREIGN_DEFAULTS = {  # a real card of another deck kind
    DeckKind.STANDARD52: JOKER_CODE,
    DeckKind.PAIGOW53: 0x0201,  # A-fire
    DeckKind.ELEMENT65: 0x0101,  # As
}


def shuffled_shoe(kind: DeckKind, decks: int, seed: int) -> list[Card]:
    cards = [card for card in kind.cards for _ in range(decks)]
    random.Random(seed).shuffle(cards)
    return cards


class Shoe(VirtualDevice):
    KIND = DeviceKind.SHOE
    NAME = "shoe"
    TEXT_ARGS = {"draw": ("n",), "auto": ("ms",), "load": ("seed",)}
    DEVICE_FAULTS = ("double_draw", "foreign", "misread", "door_open", "door_close", "unheard", "remove", "insert")

    def __init__(self, options: argparse.Namespace, stdin: BinaryIO | None = None,
                 stdout: TextIO | None = None):
        self.deck_kind = DeckKind(options.deck_kind)
        if options.decks < 1:
            raise CommandError(f"--decks {options.decks}: at least 1")
        self.decks = options.decks
        self.draw_counter = 0
        self.door_open = False
        self.present = True
        self._fill(options.cards, options.seed, options.cut_card, "--")
        self.next_draw_faults: deque[tuple[str, dict[str, int]]] = deque()  # (kind, detail)
        self.auto_ms = options.auto_deal or 0
        self.next_auto: float | None = None
        super().__init__(options, stdin, stdout)

    def _fill(self, cards: str | None, seed: int | None, cut_card: int | None, prefix: str) -> None:
        """Put a shoe in: scripted `cards` in draw order, else `decks` decks shuffled with `seed`."""
        if cards is not None:
            try:
                self.cards = [parse_card(token) for token in cards.replace(",", " ").split()]
            except CardError as error:
                raise CommandError(f"{prefix}cards: bad card {error.token!r}: {error.reason}") from None
            self.seed = None
        else:
            self.seed = seed if seed is not None else random.SystemRandom().getrandbits(32)
            self.cards = shuffled_shoe(self.deck_kind, self.decks, self.seed)
        if cut_card is not None and not 0 <= cut_card <= len(self.cards):
            raise CommandError(f"{prefix}cut{'-' if prefix == '--' else '_'}card {cut_card}: the shoe holds {len(self.cards)} cards")
        self.cut_card = cut_card
        self.position = 0  # cards dealt from self.cards
        self.cut_card_seen = False

    @property
    def empty(self) -> bool:
        return self.position >= len(self.cards)

    def ready_details(self) -> Reply:
        return {"seed": self.seed, "cards": len(self.cards)}

    def status_message(self, now: float) -> ShoeStatus:
        return ShoeStatus(self.draw_counter, self.device_ms(now), present=self.present,
                          door_open=self.door_open,
                          cut_card_seen=self.cut_card_seen, empty=self.empty)

    def on_message(self, msg: Message, now: float) -> None:
        if isinstance(msg, StatusQuery):
            self.send(self.status_message(now), now)
        else:
            super().on_message(msg, now)

    # ------------------------------------------------------------ dealing

    def _card_out(self, code: int, now: float, **flags: bool) -> Reply:
        self.draw_counter = (self.draw_counter + 1) % (1 << 32)
        queued = self.send(CardRead(code, self.draw_counter, self.device_ms(now), **flags), now)
        # a full queue (PROTOCOL.md §9): the card still counts, so the host sees the gap
        return {"code": f"0x{code:04x}", "counter": self.draw_counter,
                **{name: True for name, on in flags.items() if on}, **({} if queued else {"unheard": True})}

    def _next_real_card(self, now: float) -> Card:
        if self.cut_card is not None and self.position == self.cut_card and not self.cut_card_seen:
            self.cut_card_seen = True
            self.send(self.status_message(now), now)
        card = self.cards[self.position]
        self.position += 1
        return card

    def draw_one(self, now: float) -> list[Reply]:
        fault, detail = self.next_draw_faults[0] if self.next_draw_faults else (None, {})
        if self.empty and fault != "foreign":
            raise CommandError(f"draw: the shoe is empty ({self.position} cards dealt)")
        if fault:
            self.next_draw_faults.popleft()
        if fault == "foreign":  # a card that was never in this shoe: it leaves, it counts
            out = self._card_out(detail["code"], now)
            return [{**out, "card": _card_text(detail["code"]), "foreign": True}]
        if fault == "double_draw" and len(self.cards) - self.position >= 2:
            drawn = []
            for _ in range(2):
                card = self._next_real_card(now)
                drawn.append({**self._card_out(card.code, now, double_draw=True), "card": str(card)})
        elif fault == "unheard":  # the reader missed it, the counter did not: a gap the host must see
            card = self._next_real_card(now)
            self.draw_counter = (self.draw_counter + 1) % (1 << 32)
            drawn = [{"code": f"0x{card.code:04x}", "counter": self.draw_counter, "card": str(card), "unheard": True}]
        else:
            card = self._next_real_card(now)
            misread = fault == "misread"
            out = self._card_out(0 if misread else card.code, now, misread=misread)
            drawn = [{**out, "card": str(card)}]  # a misread still tells the test what left the shoe
        if self.empty:
            self.send(self.status_message(now), now)
        return drawn

    def cmd_draw(self, command: Command, now: float) -> Reply:
        count = arg_int(command, "n", 1, 1, 1000)
        drawn: list[Reply] = []
        for _ in range(count):
            try:
                drawn += self.draw_one(now)
            except CommandError:
                if not drawn:
                    raise
                break
        written_at = time.monotonic()  # CLOCK_MONOTONIC is system-wide: bench/bench_card_to_lamp.py
        self.flush()
        return {"drawn": drawn, "remaining": len(self.cards) - self.position, "written_at": written_at}

    def cmd_load(self, command: Command, now: float) -> Reply:
        """A new shoe (or a shuffler's next deck) is loaded. The counter counts cards that
        leave the shoe, so it carries on; the new cut card position is not yet seen."""
        seed = arg_int(command, "seed", None, 0) if command.get("seed") is not None else None
        cut_card = arg_int(command, "cut_card", None, 0) if command.get("cut_card") is not None else None
        cards = command.get("cards")
        if cards is not None and not isinstance(cards, str):
            cards = " ".join(map(str, cards)) if isinstance(cards, list) else str(cards)
        self._fill(cards, seed, cut_card, "load: ")
        self.next_draw_faults.clear()
        self.send(self.status_message(now), now)
        return {"cards": len(self.cards), "seed": self.seed, "cut_card": self.cut_card}

    def cmd_auto(self, command: Command, now: float) -> Reply:
        self.auto_ms = arg_int(command, "ms", None, 0, 3_600_000)
        self.next_auto = None
        return {"auto_ms": self.auto_ms}

    def cmd_status(self, command: Command, now: float) -> Reply:
        self.send(self.status_message(now), now)
        return {"draw_counter": self.draw_counter}

    def next_device_timer(self) -> float | None:
        if not self.auto_ms or self.empty:
            return None
        return self.next_auto if self.next_auto is not None else 0.0

    def on_device_timer(self, now: float) -> None:
        self.next_auto = now + self.auto_ms / 1000
        if not self.empty:
            self.draw_one(now)

    # ------------------------------------------------------------ faults and state

    def device_fault(self, kind: str, command: Command, now: float) -> Reply:
        if kind in ("door_open", "door_close"):
            self.door_open = kind == "door_open"
            self.send(self.status_message(now), now)
            return {"door_open": self.door_open}
        if kind in ("remove", "insert"):
            self.present = kind == "insert"
            self.send(self.status_message(now), now)
            return {"present": self.present}
        detail: dict[str, int] = {}
        if kind == "foreign":
            code = arg_int(command, "code", FOREIGN_DEFAULTS[self.deck_kind], 0, 0xFFFF)
            if _in_deck(code, self.deck_kind):
                raise CommandError(f"fault: code=0x{code:04x} is a {self.deck_kind.value} card, not foreign")
            detail = {"code": code}
        self.next_draw_faults.append((kind, detail))
        return {"next_draw": kind, **detail}

    def forged_message(self, command: Command, now: float) -> Message:
        """A card that never left the shoe, with the counter the next real one will have."""
        real = self.cards[self.position].code if not self.empty else None
        code = arg_int(command, "code", 0x0109 if real != 0x0109 else 0x0108, 0, 0xFFFF)
        return CardRead(code, (self.draw_counter + 1) % (1 << 32), self.device_ms(now), misread=code == 0)

    def on_reboot(self, command: Command) -> None:
        if arg_bool(command, "clear_counter", False):
            self.draw_counter = 0
        self.next_auto = None

    def device_state(self) -> Reply:
        return {"draw_counter": self.draw_counter, "dealt": self.position,
                "remaining": len(self.cards) - self.position, "door_open": self.door_open, "present": self.present,
                "cut_card": self.cut_card, "cut_card_seen": self.cut_card_seen, "empty": self.empty,
                "auto_ms": self.auto_ms, "seed": self.seed, "deck_kind": self.deck_kind.value,
                "next_draw_faults": [kind for kind, _ in self.next_draw_faults]}


def _card_text(code: int) -> str | None:
    try:
        return str(card_from_code(code))
    except CardError:
        return None


def _in_deck(code: int, kind: DeckKind) -> bool:
    try:
        return kind.contains(card_from_code(code))
    except CardError:
        return False


def build_parser(prog: str = "tablectl sim shoe") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    common_arguments(parser)
    parser.add_argument("--deck-kind", default="standard52", choices=[k.value for k in DeckKind])
    parser.add_argument("--decks", type=int, default=8, help="decks in the shoe (default 8)")
    parser.add_argument("--seed", type=int, help="deterministic shuffle (default: random, reported)")
    parser.add_argument("--cards", help="scripted shoe: cards in draw order, e.g. '9h 8d As'")
    parser.add_argument("--cut-card", type=int, metavar="POS", help="the cut card lies after card POS")
    parser.add_argument("--auto-deal", type=int, metavar="MS", help="deal a card every MS ms")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_device(Shoe, build_parser(), argv)


if __name__ == "__main__":
    sys.exit(main())
