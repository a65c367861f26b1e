"""Voids, holds and refusals: each names its clause (fafa §5.N, fortune6 §5.N, local ruling
L1 (fortune6 §5.N) for Fortune 7, local rulings L3-L6)."""
import re

import pytest
from baccarat_helpers import GAME_LIST, GAMES

from games.cards import JOKER, parse_cards
from games.replay import play_json, run_round
from games.round import Consequence as C
from games.round import Irregular
from games.round import IrregularityKind as K

CLAUSE = re.compile(r"^(fafa|fortune6) §[35]\.\d$|^local ruling L([3-68]|10)$|^local ruling L1 \(fortune6 §5\.\d\)$"
                    r"|^fortune7 Dealing Procedures and Round of Play$")


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.key)
def test_every_kind_has_a_rule_citing_its_source(game):
    assert set(game.irregularities) == set(K)
    for kind, rule in game.irregularities.items():
        assert rule.kind is kind
        assert CLAUSE.match(rule.clause), rule.clause
        assert rule.summary


@pytest.mark.parametrize("key,tag", [("fafa4", "fafa"), ("fortune6", "fortune6"), ("fortune7", "local ruling L1 (fortune6")])
def test_section5_clause_for_clause(key, tag):
    rules = GAMES[key].irregularities
    want = {
        K.FOREIGN_CARD: ("§5.1", C.VOID), K.EXTRA_CARD: ("§5.2", C.HOLD), K.MISSING_CARD: ("§5.2", C.HOLD),
        K.WRONG_HAND_SIZE: ("§5.2", C.HOLD), K.DOUBLE_DRAW: ("§5.3", C.VOID), K.ORDER_ALTERED: ("§5.4", C.VOID),
        K.INSUFFICIENT_CARDS: ("§5.5", C.VOID), K.LATE_WAGER: ("§5.6", C.REFUSE),
        K.CARD_BEFORE_NO_MORE_BETS: ("L3", C.VOID), K.DEVICE_LOST: ("L4", C.HOLD), K.MISREAD: ("L5", C.HOLD),
        K.BAD_DECISION: ("", C.REFUSE), K.WAGER_REMOVED: ("§5.7", C.REFUSE),
        K.FOREIGN_CHIP: ("L10", C.REFUSE), K.MISPAY: ("L10", C.REFUSE),
    }
    for kind, (section, consequence) in want.items():
        rule = rules[kind]
        assert rule.consequence is consequence, kind
        assert section in rule.clause, (kind, rule.clause)
        if section.startswith("§"):
            assert rule.clause.startswith(tag)
    assert "§5.7" in rules[K.LATE_WAGER].summary  # a withdrawn wager stands and is settled


def _void(key, cards, decks=None):
    out = play_json(GAMES[key], parse_cards(cards.split()), decks=decks)
    assert out["void"] is True and out["winner"] is None and out["bets"] == {}
    return out


@pytest.mark.parametrize("key,cards,clause", [
    ("fortune6", "4-gold 2s 3s 4s", "fortune6 §5.1"),
    ("fafa4", "4-gold As 4-wood 4-water", "fafa §5.1"),
    ("fortune7", "2s 3s 4-fire 5s", "local ruling L1 (fortune6 §5.1)"),
])
def test_a_card_of_another_deck_voids(key, cards, clause):
    out = _void(key, cards)
    assert (out["clause"], out["irregularity"]) == (clause, "foreign_card")
    assert "is not a card of the" in out["detail"]


def test_the_joker_is_foreign_everywhere():
    for game in GAME_LIST:
        with pytest.raises(Irregular) as caught:
            game.with_card(game.start(), JOKER)
        assert caught.value.rule.kind is K.FOREIGN_CARD


def test_an_impossible_duplicate_voids():
    # five As of spades from a 4-deck shoe: the fifth is one copy too many
    out = _void("fortune6", "As As As As As", decks=4)
    assert out["clause"] == "fortune6 §5.1"
    assert out["detail"] == "impossible duplicate: copy 5 of As in a shoe of 4 decks"
    out = _void("fafa4", "A-fire A-fire A-fire A-fire A-fire", decks=4)
    assert out["clause"] == "fafa §5.1" and "copy 5 of A-fire" in out["detail"]
    # four copies in 4 decks are fine
    assert play_json(GAMES["fortune6"], parse_cards("As As As As 9s Ks".split()), decks=4)["void"] is False


@pytest.mark.parametrize("key,prefix", [("fafa4", "fafa"), ("fortune6", "fortune6"), ("fortune7", "local ruling L1 (fortune6")])
def test_too_few_and_too_many_cards(key, prefix):
    few = _void(key, "As 2s 3s" if key != "fafa4" else "A-fire 2-fire 3-fire")
    assert few["irregularity"] == "missing_card" and few["clause"].startswith(prefix) and "§5.2" in few["clause"]
    assert few["detail"] == "3 cards given; card 4 is due to banker"
    # 9 and K to the player: a natural; the fifth card is one too many
    many = "9s 2s Ks 3s 4s" if key != "fafa4" else "9-fire 2-fire 10-fire 3-fire 4-fire"
    out = _void(key, many)
    assert out["irregularity"] == "extra_card" and "§5.2" in out["clause"]
    assert "complete after 4 cards" in out["detail"]


def test_with_card_after_complete_and_result_before_it():
    game = GAMES["fortune6"]
    state, _ = run_round(game, parse_cards("9s 2s Ks 3s".split()))
    with pytest.raises(Irregular) as caught:
        game.with_card(state, parse_cards(["4s"])[0])
    assert caught.value.rule.kind is K.EXTRA_CARD and caught.value.rule.clause == "fortune6 §5.2"
    partial = game.with_card(game.start(), parse_cards(["9s"])[0])
    with pytest.raises(Irregular) as caught:
        game.result(partial)
    assert caught.value.rule.kind is K.MISSING_CARD
    assert "card 2 is due to the banker" in caught.value.detail


def test_decisions_are_refused():
    for game in GAME_LIST:
        with pytest.raises(Irregular) as caught:
            game.with_decision(game.start(), 1, "hit")
        assert caught.value.rule.kind is K.BAD_DECISION and caught.value.rule.consequence is C.REFUSE


@pytest.mark.parametrize("key,good,bad", [("fafa4", (4, 8, 10), (3, 11)), ("fortune6", (4, 10), (1, 3, 11)),
                                          ("fortune7", (8,), (6, 7, 9))])
def test_deck_counts(key, good, bad):
    game = GAMES[key]
    for decks in good:
        assert game.start(decks).decks == decks
    for decks in bad:
        with pytest.raises(ValueError, match=str(decks)):
            game.start(decks)
