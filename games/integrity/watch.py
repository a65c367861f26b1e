"""`ShoeWatch`: the three integrity checks fed card by card, and `ShoeHistory`, the table's memory.

    history = ShoeHistory()
    for shoe in past_shoes:                      # at start-up, oldest first (controller.journal.shoes)
        history.add(shoe.label, kind, decks, shoe.cards)
    watch = ShoeWatch(kind, decks, history)      # false_alarm_rate=Fraction(1, 10**6)
    watch.new_shoe("shoe 12")                    # each shoe; deck per round: each deck, with
                                                 #   cards_to_deal=game.max_cards(spots)
    for alarm in watch.feed(card, draw_counter): # every card out of the shoe, burn included;
        ...                                      #   None for an unread card
    watch.finish()                               # (new_shoe does it) the shoe joins the history

Each check fires at most once per shoe. The per-shoe false-alarm rate is split equally between
the three checks, so a fairly shuffled shoe raises any alarm with probability at most the rate.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from games.cards import Card, DeckKind
from games.integrity.alarm import DEFAULT_FALSE_ALARM_RATE, Alarm, Check, CheckStatistic, check_level
from games.integrity.deck_index import DeckIndex, deck_index
from games.integrity.factory_order import FactoryOrderCheck
from games.integrity.openings import DEPTH, OpeningIndex, ReplayCheck
from games.integrity.slug import SlugCheck


@dataclass(frozen=True)
class PastShoe:
    label: str
    kind: DeckKind
    numbers: tuple[int | None, ...]  # its cards as dealt, by number (None: unread or foreign)


def card_numbers(index: DeckIndex, cards: Iterable[Card | None]) -> list[int | None]:
    """Numbers of the cards; an unread card or one of another deck kind is None."""
    return [None if card is None else index.number.get(card) for card in cards]


class ShoeHistory:
    """The openings of the shoes dealt at the table (one index per composition) and the
    previous shoe's whole sequence. Pure data: the daemon fills it from the journal. With
    `limit`, only the openings of the `limit` most recent shoes are kept (the oldest is
    forgotten, exactly, as each new one is added); the previous shoe is kept whatever the limit."""

    def __init__(self, depth: int = DEPTH, limit: int | None = None):
        if limit is not None and limit < 0:
            raise ValueError(f"the history's limit must be 0 or more shoes, got {limit}")
        self.depth, self.limit = depth, limit
        self._indexes: dict[tuple[DeckKind, int], OpeningIndex] = {}
        self._kept: deque[tuple[tuple[DeckKind, int], str, bytes]] = deque()  # oldest first
        self.previous: PastShoe | None = None

    def add(self, label: str, kind: DeckKind, decks: int, cards: Sequence[Card | None]) -> None:
        """A finished shoe (or deck), its cards in the order they left the shoe."""
        self.add_numbers(label, kind, decks, card_numbers(deck_index(kind), cards))

    def add_numbers(self, label: str, kind: DeckKind, decks: int, numbers: Sequence[int | None]) -> None:
        """The same, the cards given by number (deck_index), None for unread ones."""
        if not numbers:
            return
        key = self.index(kind, decks).add(label, numbers)
        self.previous = PastShoe(label, kind, tuple(numbers))
        if key:
            self._kept.append(((kind, decks), label, key))
        while self.limit is not None and len(self._kept) > self.limit:
            composition, old, old_key = self._kept.popleft()
            self._indexes[composition].remove(old, old_key)

    @property
    def shoes(self) -> int:
        """The shoes whose openings are kept."""
        return len(self._kept)

    def index(self, kind: DeckKind, decks: int) -> OpeningIndex:
        key = (kind, decks)
        if key not in self._indexes:
            self._indexes[key] = OpeningIndex(deck_index(kind).composition(decks), self.depth)
        return self._indexes[key]


class ShoeWatch:
    def __init__(self, deck_kind: DeckKind, decks: int, history: ShoeHistory | None = None,
                 false_alarm_rate: Fraction = DEFAULT_FALSE_ALARM_RATE):
        self.kind, self.decks = deck_kind, decks
        self.index = deck_index(deck_kind)
        self.composition = self.index.composition(decks)
        self.size = sum(self.composition)
        self.history = ShoeHistory() if history is None else history
        self.false_alarm_rate = Fraction(false_alarm_rate)
        self.level = check_level(self.false_alarm_rate)
        self.label: str | None = None
        self.limit = 0
        self.cards: list[Card | None] = []
        self.counters: list[int | None] = []
        self._numbers: list[int | None] = []
        self.factory: FactoryOrderCheck | None = None
        self.replay: ReplayCheck | None = None
        self.slug: SlugCheck | None = None
        self.previous_label: str | None = None
        self.alarms: list[Alarm] = []

    # ------------------------------------------------------------------ shoes
    def new_shoe(self, label: str, cards_to_deal: int | None = None) -> None:
        """Finish the shoe in progress (it joins the history) and start watching `label`.
        `cards_to_deal`: the most cards this shoe can deal (default: all of it); on a
        deck-per-round table, the round's game.max_cards(spots). Cards beyond it are not
        checked (the table handles an extra card as its own irregularity)."""
        self.finish()
        self.label = label
        self.limit = self.size if cards_to_deal is None else max(1, min(cards_to_deal, self.size))
        self.cards, self.counters, self._numbers, self.alarms = [], [], [], []
        self.factory = FactoryOrderCheck(self.index, self.composition, self.limit - 1, self.level)
        index = self.history.index(self.kind, self.decks)
        self.replay = ReplayCheck(index if len(index) else None, self.level)
        previous = self.history.previous
        if previous is not None and previous.kind is self.kind:
            self.slug = SlugCheck(previous.numbers, self.composition, self.limit, self.level, len(self.index))
            self.previous_label = previous.label
        else:
            self.slug, self.previous_label = None, None

    def finish(self) -> None:
        """The shoe in progress joins the history (once); nothing more is checked in it."""
        if self.label is not None:
            self.history.add_numbers(self.label, self.kind, self.decks, self._numbers)
        self.label = None
        self.factory = self.replay = self.slug = None

    # ------------------------------------------------------------------ cards
    def feed(self, card: Card | None, draw_counter: int | None = None) -> tuple[Alarm, ...]:
        """A card out of the shoe (None: unread), with the shoe's draw counter; the alarms it
        raises (a check fires at most once per shoe; two may fire on one card)."""
        factory, replay, slug = self.factory, self.replay, self.slug
        if factory is None or replay is None:
            raise RuntimeError("no shoe is being watched: call new_shoe() first")
        cards = self.cards
        position = len(cards)
        x = None if card is None else self.index.number.get(card)
        cards.append(card)
        self.counters.append(draw_counter)
        self._numbers.append(x)
        if position >= self.limit:
            return ()
        cusum = factory.feed(x, position)
        replayed = replay.feed(x) if replay.open else None
        slugged = None if slug is None else slug.feed(x, position)
        if cusum is None and replayed is None and slugged is None:
            return ()  # nearly every card
        alarms: list[Alarm] = []
        if cusum is not None:
            alarms.append(self._unshuffled_alarm(cusum, position))
        if replayed is not None:
            alarms.append(self._replay_alarm(replayed))
        if slugged is not None:
            alarms.append(self._slug_alarm(*slugged, position))
        self.alarms += alarms
        return tuple(alarms)

    def resume(self, cards: Iterable[tuple[Card | None, int | None]], fired: Iterable[Check | str] = ()) -> tuple[Alarm, ...]:
        """After a restart: feed the shoe's cards so far again (from the journal); returns the
        alarms not already in `fired` (checks whose alarm the journal already holds)."""
        done = {Check(c) for c in fired}
        out: list[Alarm] = []
        for card, counter in cards:
            out += [a for a in self.feed(card, counter) if a.check not in done]
        return tuple(out)

    # ------------------------------------------------------------------ evidence
    def _span(self, first: int, last: int) -> tuple[tuple[Card | None, ...], tuple[int | None, ...], tuple[int, ...]]:
        return (tuple(self.cards[first:last + 1]), tuple(self.counters[first:last + 1]),
                tuple(range(first + 1, last + 2)))

    def _alarm(self, check: Check, first: int, last: int, probability: Fraction, exact: bool, detail: str,
               **evidence: object) -> Alarm:
        cards, counters, positions = self._span(first, last)
        assert self.label is not None
        return Alarm(check, self.label, cards, counters, positions, probability, exact, self.level, detail, evidence)

    def _unshuffled_alarm(self, cusum: Fraction, position: int) -> Alarm:
        assert self.factory is not None
        first = self.factory.state.run_from
        bound = self.factory.bound(cusum)
        follows = sum(1 for a, b in zip(self._numbers[first:position], self._numbers[first + 1:position + 1])
                      if a is not None and b in (self.index.up[a], self.index.down[a]))
        detail = (f"cards {first + 1}-{position + 1} of {self.label} follow a factory order "
                  f"({follows} of {position - first} steps to the next rank of the same suit); "
                  f"a fair shuffle does this with probability at most {float(bound):.3g}")
        return self._alarm(Check.UNSHUFFLED, first, position, bound, False, detail,
                           likelihood_ratio=float(cusum), steps_bounded=self.factory.steps)

    def _replay_alarm(self, matched: list[str]) -> Alarm:
        assert self.replay is not None and self.replay.index is not None and self.replay.depth is not None
        k = self.replay.depth
        p = self.replay.index.probability(k)
        detail = (f"the first {k} cards of {self.label} are the first {k} of {', '.join(matched)}; "
                  f"a fair shuffle opens like any of the {len(self.replay.index)} past shoes with probability {float(p):.3g}")
        return self._alarm(Check.REPLAYED, 0, k - 1, p, True, detail, replays=matched,
                           past_shoes=len(self.replay.index))

    def _slug_alarm(self, length: int, j: int, position: int) -> Alarm:
        assert self.slug is not None
        bound = self.slug.bound(length, self.limit, self.composition)
        first_prev = j - length + 2
        detail = (f"cards {position - length + 2}-{position + 1} of {self.label} are cards {first_prev}-{j + 1} of "
                  f"{self.previous_label} in the same order; a fair shuffle makes a run of {length} "
                  f"with probability at most {float(bound):.3g}")
        return self._alarm(Check.SLUG, position - length + 1, position, bound, False, detail,
                           previous_shoe=self.previous_label, previous_positions=[first_prev, j + 1])

    # ------------------------------------------------------------------ statistics
    def statistics(self) -> tuple[CheckStatistic, ...]:
        """Each check's statistic over the cards fed so far in this shoe."""
        if self.factory is None or self.replay is None:
            raise RuntimeError("no shoe is being watched")
        fired = {a.check for a in self.alarms}
        st = self.factory.state
        best = None if st.best is None else self.factory.bound(st.best)
        factory = CheckStatistic(
            Check.UNSHUFFLED, f"longest factory-order run {st.longest + 1} cards" if st.longest
            else "no card followed its factory predecessor",
            best, False, self.level, Check.UNSHUFFLED in fired,
            "" if st.best is None else f"strongest run: cards {st.best_run[0] + 1}-{st.best_run[1] + 1}, "
                                       f"likelihood ratio {float(st.best):.3g}")
        replay = self._replay_statistic(Check.REPLAYED in fired)
        if self.slug is None:
            slug = CheckStatistic(Check.SLUG, "no previous shoe", None, False, self.level, False)
        else:
            length = self.slug.longest
            bound = self.slug.bound(length, self.limit, self.composition) if length else None
            at = self.slug.longest_at
            slug = CheckStatistic(
                Check.SLUG, f"longest run from {self.previous_label}: {length} cards", bound, False, self.level,
                Check.SLUG in fired,
                (f"fires at {self.slug.length} cards" if self.slug.length else "no run can be rare enough to call")
                + ("" if not length else f"; longest ends at card {at[0] + 1} (previous card {at[1] + 1})"))
        return factory, replay, slug

    def _replay_statistic(self, fired: bool) -> CheckStatistic:
        assert self.replay is not None
        index = self.replay.index
        if index is None:
            return CheckStatistic(Check.REPLAYED, "no past shoe of this composition", None, True, self.level, False)
        shared = self.replay.shared()
        p = index.probability(shared) if shared else None
        depth = self.replay.depth
        most = "at least " if shared == index.depth else ""
        return CheckStatistic(
            Check.REPLAYED, f"opening shared with a past shoe: {most}{shared} cards", p, True, self.level, fired,
            f"{len(index)} past shoes; fires when the first {depth} cards match" if depth else
            f"{len(index)} past shoes; no opening of {index.depth} cards is rare enough to call")
