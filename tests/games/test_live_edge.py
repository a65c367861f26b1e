"""The live edge: equal to `tablectl odds` off a full shoe, equal to hand counts on small shoes,
and a shoe short of what a side bet fears turns that bet in the players' favour."""
from collections import Counter
from fractions import Fraction

import pytest

from games.baccarat.odds import layout_odds
from games.cards import Card, DeckKind, parse_card, parse_cards
from games.fortune6 import game as fortune6
from games.live_edge import cards_left, live_edge
from games.paigow.bonus import seven_card_flags
from games.paigow.bonus_count import count_flags_of, tally
from games.paigow.game import fortune_odds
from games.registry import GAME_KEYS, get_game, get_odds

# odds report key -> the layout's wagers that key stands for
SAME_ODDS = {"precious_pair": ("player_precious_pair", "banker_precious_pair"),
             "pair": ("player_pair", "banker_pair")}


@pytest.mark.parametrize("game", GAME_KEYS)
def test_a_full_shoe_gives_exactly_what_tablectl_odds_gives(game):
    decks = get_game(game).default_decks
    odds = get_odds(game, decks)
    edge = live_edge(game, decks)
    assert edge.cards_out == 0 and edge.cards_left == decks * len(get_game(game).deck_kind.cards)
    compared = set()
    for key, bet in odds.bets.items():
        for wager in SAME_ODDS.get(key, (key,)):
            live = edge.bets[wager]
            assert live.house_edge == bet.house_edge, wager
            assert [(o.outcome, o.count) for o in live.outcomes] == [(o.outcome, o.count) for o in bet.outcomes]
            compared.add(wager)
    assert compared == set(edge.bets)
    if game in ("fafa4", "fortune7", "fortune6"):
        assert list(edge.bets) == list(get_game(game).wagers)  # every betting area of the layout


def test_hand_counted_shoe_of_ten_ranks_only():
    """Six tens: every hand is 0, both draw (the banker draws on 0 whatever the player's third
    card), the round ends 0-0 with three cards each: a tie, always. The player's first two cards
    are a pair of tens always: Pair pays 11:1."""
    composition = Counter({parse_card("Ts"): 3, parse_card("Th"): 3})
    odds = layout_odds(fortune6.GAME, composition)
    assert odds["tie"].house_edge == -8
    assert odds["player"].house_edge == 0 == odds["banker"].house_edge  # pushed
    assert odds["player_pair"].house_edge == -11 == odds["banker_pair"].house_edge
    assert odds["fortune6"].house_edge == 1


def test_hand_counted_shoe_of_one_nine_and_six_tens():
    """Seven cards, one 9. The 9 is one of the first four cards (4/7): half the time the
    player's (a natural 9 wins), half the banker's. Otherwise (3/7) both hands are 0 and draw:
    the player's third card is the 9 (1/3: the player wins 9-0), else the banker's is (1/2 of
    the rest: the banker wins 9-0) or neither (a 0-0 tie). Player 3/7, banker 3/7, tie 1/7.
    The player's first two cards are both tens 6/7 x 5/6 = 5/7 of the time."""
    composition = Counter({parse_card("9h"): 1, parse_card("Td"): 6})
    odds = layout_odds(fortune6.GAME, composition)
    outcome = {key: {o.outcome: o.probability for o in bet.outcomes} for key, bet in odds.items()}
    assert outcome["player"] == {"player wins": Fraction(3, 7), "tie": Fraction(1, 7), "lose": Fraction(3, 7)}
    assert outcome["banker"] == {"banker wins": Fraction(3, 7), "tie": Fraction(1, 7), "lose": Fraction(3, 7)}
    assert odds["tie"].house_edge == -(Fraction(1, 7) * 8 - Fraction(6, 7))
    assert odds["player_pair"].house_edge == -(Fraction(5, 7) * 11 - Fraction(2, 7))
    assert odds["fortune6"].house_edge == 1


def test_a_shoe_short_of_eights_and_nines_turns_fortune_7_in_the_players_favour():
    """Fortune 7 (a three-card banker 7) needs the hands to draw: without naturals they do.
    Forty 8s and 9s out of eight decks turn the bonus from a 7.6% house edge to a players' edge."""
    full = live_edge("fortune7", 8).edges()["fortune7"]
    out = [Card(rank, suit) for rank in (8, 9) for suit in "shdc" for _ in range(5)]
    report = live_edge("fortune7", 8, out)
    assert full > 0 > report.edges()["fortune7"]
    assert "fortune7" in report.in_players_favour(Fraction(1, 10))
    assert report.cards_out == 40 and report.cards_left == 376
    assert "banker" not in report.in_players_favour()


def test_fubacc_after_cards_out_plays_the_strategy_for_the_deck_left():
    """Fu Bacc off a 52-card deck with the four 9s out: no natural 9, fewer monkey rescues."""
    full = live_edge("fubacc", 1).edges()
    out = parse_cards(["9s", "9h", "9d", "9c"])
    short = live_edge("fubacc", 1, out)
    assert short.cards_left == 48 and short.edges()["ante"] > full["ante"]
    assert {o.outcome: o.count for o in short.bets["ante"].outcomes}["natural 9"] == 0


def test_paigow_counts_the_hands_of_the_deck_left_like_a_brute_force():
    """A deck left with 13 cards (spades, the joker... ) counted by rank patterns equals every
    seven-card hand judged one by one."""
    from itertools import combinations

    left = parse_cards(["As", "Ks", "Qs", "Js", "Ts", "9s", "2s", "Kh", "Qh", "Ad", "Ac", "Ah", "JK"])
    brute = Counter(seven_card_flags(hand) for hand in combinations(left, 7))
    assert count_flags_of(left) == dict(brute)
    odds = fortune_odds(left)
    assert sum(o.count for o in odds.outcomes) == 1716
    assert dict(tally(count_flags_of(left), lambda f: f)) == dict(brute)


def test_paigow_full_deck_count_without_suit_symmetry_equals_the_symmetric_one():
    from games.paigow.bonus_count import count_flags

    assert count_flags_of(DeckKind.PAIGOW53.cards) == dict(count_flags())


def test_bad_cards_and_short_shoes_are_refused_by_name():
    with pytest.raises(ValueError, match="card 2, 4-gold, is not a card of the standard52 deck"):
        cards_left("fortune6", 8, [parse_card("As"), parse_card("4-gold")])
    with pytest.raises(ValueError, match="card 2, As, is one more As than 1 deck"):
        cards_left("fubacc", 1, parse_cards(["As", "As"]))
    with pytest.raises(ValueError, match="played with 4-10 decks, not 2"):
        live_edge("fafa4", 2)
    with pytest.raises(ValueError, match="5 card\\(s\\) left: a round needs at least 6"):
        live_edge("paigow", 1, DeckKind.PAIGOW53.cards[:48])
