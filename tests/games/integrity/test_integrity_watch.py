"""ShoeWatch as the table will use it: factory-order shoes of every deck kind caught within 10
cards, a replayed shoe within 12, a slug of 20 cards caught; each alarm names its check, cards,
draw counters and probability; each check fires once per shoe."""
import random
from fractions import Fraction

import pytest
from integrity_helpers import SHOES, factory_decks, fair_shoe

from games.cards import Card, DeckKind, parse_cards
from games.integrity import CLAUSE, Check, ShoeHistory, ShoeWatch
from games.integrity.alarm import check_level


def fed_until_alarm(watch, cards, first_counter=1):
    """Feed until the first alarm: (the card number that raised it, the alarms)."""
    for n, card in enumerate(cards, 1):
        alarms = watch.feed(card, first_counter + n - 1)
        if alarms:
            return n, alarms
    return None, ()


def with_history(kind, decks, shoes, seed):
    """A watch whose table has dealt `shoes` fair shoes before."""
    rng = random.Random(seed)
    history = ShoeHistory()
    for n in range(shoes):
        history.add(f"past {n}", kind, decks, fair_shoe(kind, decks, rng))
    return ShoeWatch(kind, decks, history)


@pytest.mark.parametrize("shoe", SHOES)
def test_a_factory_order_shoe_is_caught_within_ten_cards(shoe):
    kind, decks, deal = SHOES[shoe]
    for name, deck in factory_decks(kind).items():
        watch = with_history(kind, decks, 3, seed=1)
        watch.new_shoe(f"{shoe} {name}", cards_to_deal=deal)
        at, alarms = fed_until_alarm(watch, deck * decks, first_counter=41)
        assert at is not None and at <= 10, (name, at)
        assert [a.check for a in alarms] == [Check.UNSHUFFLED]
        alarm = alarms[0]
        assert alarm.probability <= alarm.level == check_level(Fraction(1, 10**6)) and not alarm.exact
        assert alarm.cards == tuple(deck[a - 1] for a in alarm.positions) and alarm.positions[-1] == at
        assert alarm.draw_counters == tuple(40 + p for p in alarm.positions)
        assert alarm.clause == CLAUSE == "local ruling L7" and "factory order" in alarm.detail


@pytest.mark.parametrize("every, within", [(6, 20), (4, 52)])
def test_close_to_factory_order_is_caught_too(every, within):
    """One deck of eight in new-deck order with every 6th (4th) card swapped with a random card
    of the shoe: a third (half) of the steps broken, still called within the deck."""
    rng = random.Random(5)
    order = factory_decks(DeckKind.STANDARD52)["new deck order"]
    shoe = fair_shoe(DeckKind.STANDARD52, 7, rng)
    cards = list(order)
    for n in range(every - 1, len(cards), every):
        other = rng.randrange(len(shoe))
        cards[n], shoe[other] = shoe[other], cards[n]
    watch = ShoeWatch(DeckKind.STANDARD52, 8)
    watch.new_shoe("shoe 1")
    at, alarms = fed_until_alarm(watch, cards + shoe)
    assert at is not None and at <= within and alarms[0].check is Check.UNSHUFFLED


@pytest.mark.parametrize("shoe", SHOES)
def test_a_replayed_shoe_is_caught_within_twelve_cards(shoe):
    kind, decks, deal = SHOES[shoe]
    watch = with_history(kind, decks, 2000, seed=2)
    rng = random.Random(3)
    stacked = fair_shoe(kind, decks, rng)
    watch.history.add("shoe 2001", kind, decks, stacked)
    for n in range(5):  # other shoes in between
        watch.history.add(f"shoe {2002 + n}", kind, decks, fair_shoe(kind, decks, rng))
    watch.new_shoe("shoe 2007", cards_to_deal=deal)
    at, alarms = fed_until_alarm(watch, stacked)
    assert at is not None and at <= 12
    assert [a.check for a in alarms] == [Check.REPLAYED]
    alarm = alarms[0]
    assert alarm.exact and alarm.probability <= alarm.level
    assert alarm.evidence["replays"] == ["shoe 2001"] and alarm.evidence["past_shoes"] == 2006
    assert alarm.cards == tuple(stacked[:at]) and alarm.positions == tuple(range(1, at + 1))
    # the probability is the exact chance that a fair shoe opens like any past one
    assert alarm.probability == watch.history.index(kind, decks).probability(at)


@pytest.mark.parametrize("shoe", ["standard52x8", "element65x8"])
def test_a_slug_of_twenty_cards_from_the_previous_shoe_is_caught(shoe):
    kind, decks, _ = SHOES[shoe]
    rng = random.Random(4)
    previous = fair_shoe(kind, decks, rng)
    slug = previous[200:220]
    rest = list(kind.cards) * decks
    for card in slug:
        rest.remove(card)
    rng.shuffle(rest)
    new = rest[:150] + slug + rest[150:]
    watch = ShoeWatch(kind, decks)
    watch.new_shoe("shoe 1")
    for card in previous:
        watch.feed(card)
    watch.new_shoe("shoe 2")
    at, alarms = fed_until_alarm(watch, new)
    assert at is not None and 151 < at <= 170
    assert [a.check for a in alarms] == [Check.SLUG]
    alarm = alarms[0]
    length = len(alarm.cards)
    assert alarm.cards == tuple(slug[:length]) and alarm.positions == tuple(range(151, 151 + length))
    assert alarm.evidence == {"previous_shoe": "shoe 1", "previous_positions": [201, 200 + length]}
    assert alarm.probability <= alarm.level and not alarm.exact
    assert not [a for card in new[at:] for a in watch.feed(card)]  # fired once: not again
    stats = {s.check: s for s in watch.statistics()}
    assert stats[Check.SLUG].fired and stats[Check.SLUG].value == "longest run from shoe 1: 20 cards"


def test_each_check_fires_at_most_once_per_shoe_and_again_in_the_next():
    kind = DeckKind.STANDARD52
    deck = factory_decks(kind)["all ascending"]
    watch = ShoeWatch(kind, 8)
    watch.new_shoe("shoe 1")
    raised = [a.check for card in deck * 8 for a in watch.feed(card)]
    assert raised == [Check.UNSHUFFLED]
    watch.new_shoe("shoe 2")  # the same factory shoe again: unshuffled, replayed and a slug
    raised = [(n, a.check) for n, card in enumerate(deck * 8, 1) for a in watch.feed(card)]
    assert raised == [(4, Check.REPLAYED), (7, Check.UNSHUFFLED), (7, Check.SLUG)]


def test_deck_per_round_each_deck_is_its_own_shoe():
    """Fu Bacc: a fresh deck each round; one spot deals 6 cards. A factory deck is caught in its
    6 cards; a fair deck after it is not called; the next deck replaying an earlier one is."""
    kind = DeckKind.STANDARD52
    watch = ShoeWatch(kind, 1)
    rng = random.Random(6)
    decks = [fair_shoe(kind, 1, rng) for _ in range(3)]
    for n, deck in enumerate(decks, 1):
        watch.new_shoe(f"shoe 1 deck {n}", cards_to_deal=6)
        assert not [a for card in deck[:6] for a in watch.feed(card)]
    watch.new_shoe("shoe 1 deck 4", cards_to_deal=6)
    assert [a.check for card in factory_decks(kind)["all ascending"][:6] for a in watch.feed(card)] == [Check.UNSHUFFLED]
    watch.new_shoe("shoe 1 deck 5", cards_to_deal=6)
    alarms = [a for card in decks[1][:6] for a in watch.feed(card)]
    assert [a.check for a in alarms] == [Check.REPLAYED] and alarms[0].evidence["replays"] == ["shoe 1 deck 2"]


def test_unread_cards_stay_in_place_and_do_not_hide_a_factory_order():
    """An unread card is no step (its pair is unknown) but the run around it goes on: a factory
    shoe with every third card unread is still called, the unread cards in the evidence."""
    kind = DeckKind.STANDARD52
    deck = factory_decks(kind)["all ascending"]
    watch = ShoeWatch(kind, 8)
    watch.new_shoe("shoe 1")
    cards = [c if n % 3 else None for n, c in enumerate(deck * 8, 1)]
    at, alarms = fed_until_alarm(watch, cards)
    assert at is not None and at <= 30 and None in alarms[0].cards
    assert watch.cards == cards[:at]
    stats = {s.check: s for s in watch.statistics()}
    assert stats[Check.UNSHUFFLED].value == "longest factory-order run 2 cards"  # consecutive follows


def test_cards_of_another_deck_kind_count_as_unknown():
    watch = ShoeWatch(DeckKind.STANDARD52, 8)
    watch.new_shoe("shoe 1")
    assert watch.feed(Card(4, "gold")) == ()
    assert watch.feed(parse_cards(["As"])[0]) == ()


def test_resume_after_a_restart_returns_only_alarms_not_yet_journaled():
    kind = DeckKind.STANDARD52
    deck = factory_decks(kind)["all ascending"]
    watch = ShoeWatch(kind, 8)
    watch.new_shoe("shoe 3")
    again = watch.resume([(card, n) for n, card in enumerate(deck[:12], 1)], fired=["unshuffled"])
    assert again == () and [a.check for a in watch.alarms] == [Check.UNSHUFFLED]
    watch = ShoeWatch(kind, 8)
    watch.new_shoe("shoe 3")
    assert [a.check for a in watch.resume([(card, None) for card in deck[:12]])] == [Check.UNSHUFFLED]


def test_a_fair_shoe_raises_nothing_and_reports_each_statistic():
    kind = DeckKind.ELEMENT65
    watch = with_history(kind, 8, 50, seed=7)
    rng = random.Random(8)
    watch.new_shoe("shoe 51")
    shoe = fair_shoe(kind, 8, rng)
    assert not [a for card in shoe for a in watch.feed(card)]
    stats = watch.statistics()
    assert [s.check for s in stats] == [Check.UNSHUFFLED, Check.REPLAYED, Check.SLUG]
    assert all(not s.fired and s.level == Fraction(1, 3 * 10**6) for s in stats)
    assert all(s.smallest_probability is None or s.smallest_probability > s.level for s in stats)
    assert stats[1].exact and stats[1].detail.startswith("50 past shoes; fires when the first")
    assert stats[2].value.startswith("longest run from past 49: ")
    assert all(isinstance(s.to_json()["smallest_probability"], (float, type(None))) for s in stats)


def test_feeding_without_a_shoe_and_a_bad_rate_are_refused():
    watch = ShoeWatch(DeckKind.STANDARD52, 8)
    with pytest.raises(RuntimeError, match="new_shoe"):
        watch.feed(None)
    with pytest.raises(ValueError, match="between 0 and 1"):
        ShoeWatch(DeckKind.STANDARD52, 8, false_alarm_rate=Fraction(3, 2))


def test_the_alarm_json_names_check_cards_counters_and_probability():
    kind = DeckKind.PAIGOW53
    watch = ShoeWatch(kind, 1)
    watch.new_shoe("shoe 1 deck 1", cards_to_deal=14)
    alarm = fed_until_alarm(watch, factory_decks(kind)["joker on top"], first_counter=100)[1][0]
    data = alarm.to_json()
    assert data["check"] == "unshuffled" and data["clause"] == "local ruling L7" and data["shoe"] == "shoe 1 deck 1"
    assert data["cards"] == [str(c) for c in alarm.cards] and data["draw_counters"] == [99 + p for p in alarm.positions]
    assert 0 < data["probability"] <= data["level"] and data["exact"] is False
