"""The packet deal (ruling 17), max_cards, and the voids of local ruling L2."""
import pytest
from fubacc_cases import cards
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import Card, DeckKind
from games.fubacc.game import GAME
from games.replay import play_json
from games.round import AwaitDecision, Consequence, Deal, Irregular, IrregularityKind

DECK = list(DeckKind.STANDARD52.cards)
spot_sets = st.sets(st.integers(1, GAME.max_spots), min_size=1).map(lambda s: tuple(sorted(s)))


def expected_slot(spots, k):
    """Ruling 17, written out: 3-card packets to each spot in seat order, then the dealer."""
    packet = k // 3
    return Deal(f"spot{spots[packet]}" if packet < len(spots) else "dealer", k % 3)


@settings(max_examples=60, deadline=None)
@given(spots=spot_sets, shuffled=st.permutations(DECK))
def test_the_kth_card_goes_where_ruling_17_says(spots, shuffled):
    state = GAME.start(spots=spots)
    n = 3 * (len(spots) + 1)
    assert GAME.max_cards(spots) == n
    for k, card in enumerate(shuffled[:n]):
        step = GAME.next_step(state)
        assert step == expected_slot(spots, k) and step.initial
        state = GAME.with_card(state, card)
    assert state.dealt_to == tuple(expected_slot(spots, k) for k in range(n))
    # every card is out before any decision; then the lowest seat decides first
    step = GAME.next_step(state)
    assert isinstance(step, AwaitDecision) and step.spot == spots[0]
    for spot in spots:
        assert state.hand(f"spot{spot}") == tuple(shuffled[3 * spots.index(spot):3 * spots.index(spot) + 3])
    assert state.hand("dealer") == tuple(shuffled[n - 3:n])


@settings(max_examples=60, deadline=None)
@given(spots=spot_sets, shuffled=st.permutations(DECK), data=st.data())
def test_any_legal_round_settles_every_spot_from_the_dealers_right(spots, shuffled, data):
    state = GAME.start(spots=spots)
    for card in shuffled[:GAME.max_cards(spots)]:
        state = GAME.with_card(state, card)
    while isinstance(step := GAME.next_step(state), AwaitDecision):
        state = GAME.with_decision(state, step.spot, data.draw(st.sampled_from(step.options)))
    result = GAME.result(state)
    assert list(result.spots) == sorted(spots, reverse=True)  # procedure 10
    assert [r["settled"] for r in result.spots.values()] == list(range(1, len(spots) + 1))
    assert result.winner is None and len(result.hands["dealer"].cards) in (2, 3)
    for _spot, r in result.spots.items():
        decision = r["decision"]
        assert {"lucky_monkey", "tie"} <= set(r["bets"])
        assert ("ante" in r["bets"]) is (decision != "no_ante")
        assert ("play" in r["bets"]) is decision.startswith("play")
        assert r["hit_card_used"] is (decision == "play,hit") is (len(r["hand"].cards) == 3)
        tie_won = r["bets"]["tie"].result.value == "win"
        assert tie_won is (r["hand"].total == result.hands["dealer"].total)  # ruling 14


def test_start_checks_spots_and_decks():
    with pytest.raises(ValueError, match="at least one"):
        GAME.start()
    with pytest.raises(ValueError, match="seats 1-7, not 8"):
        GAME.start(spots=(1, 8))
    with pytest.raises(ValueError, match="named twice"):
        GAME.start(spots=(2, 2))
    with pytest.raises(ValueError, match="not 2"):
        GAME.start(decks=2, spots=(1,))
    assert GAME.start(spots=(5, 2)).spots == (2, 5)


def test_game_declaration():
    assert (GAME.key, GAME.deck_kind, GAME.deck_counts, GAME.default_decks) == ("fubacc", DeckKind.STANDARD52, (1,), 1)
    assert GAME.uses_spots and GAME.max_spots == 7
    assert GAME.max_cards((1, 2, 3, 4, 5, 6, 7)) == 24


# ---------------------------------------------------------------- voids


def void(text, spots=(1,), decide=None):
    decisions = {s: d.split(",") for s, d in (decide or {1: "fold"}).items()}
    return play_json(GAME, cards(text), spots=spots, decisions=decisions)


def test_too_few_cards_is_void_as_missing():
    # offline (tablectl play) nothing can be reconstructed: the hold's clause voids (ruling 23: §5.2)
    out = void("Kd 6h 2c  8s 7h")
    assert out["void"] and out["irregularity"] == "missing_card"
    assert out["clause"] == "local ruling L2 (fafa §5.2)" and "due to dealer" in out["detail"]


def test_too_few_cards_for_a_second_spot():
    out = void("Kd 6h 2c  8s 7h Qd", spots=(1, 4), decide={1: "fold", 4: "fold"})
    assert out["irregularity"] == "missing_card" and "due to dealer" in out["detail"]


def test_an_extra_card_is_void():
    out = void("Kd 6h 2c  8s 7h Qd 3c")
    assert (out["irregularity"], out["clause"]) == ("extra_card", "local ruling L2 (fafa §5.2)")


def test_a_card_after_the_packets_is_extra_even_before_decisions():
    state = GAME.start(spots=(1,))
    for card in cards("Kd 6h 2c  8s 7h Qd"):
        state = GAME.with_card(state, card)
    with pytest.raises(Irregular) as raised:
        GAME.with_card(state, Card(3, "c"))
    assert raised.value.rule.kind is IrregularityKind.EXTRA_CARD and "3c (card 7)" in raised.value.detail


@pytest.mark.parametrize("foreign", ["4-gold", "JK"])
def test_a_foreign_card_is_void(foreign):
    out = void(f"Kd {foreign} 2c  8s 7h Qd")
    assert (out["irregularity"], out["clause"]) == ("foreign_card", "local ruling L2 (fafa §5.1)")
    assert foreign.lower() in out["detail"].lower() and "card 2" in out["detail"]


def test_a_second_copy_of_a_card_is_void():
    out = void("Kd 6h 2c  8s 6h Qd")
    assert out["irregularity"] == "foreign_card"
    assert out["detail"] == "6h (card 5) is a second 6h in a single deck (first was card 2)"


def test_result_of_an_unfinished_round_is_missing_card():
    state = GAME.with_card(GAME.start(spots=(1,)), Card(13, "d"))
    with pytest.raises(Irregular) as raised:
        GAME.result(state)
    assert raised.value.rule.kind is IrregularityKind.MISSING_CARD


def test_every_irregularity_has_a_rule_naming_its_source():
    assert set(GAME.irregularities) == set(IrregularityKind)
    for kind, rule in GAME.irregularities.items():
        assert rule.kind is kind and rule.summary
        assert rule.clause.startswith(("local ruling L", "fubacc procedure", "ruling "))
    expect = {
        IrregularityKind.EXTRA_CARD: ("local ruling L2 (fafa §5.2)", Consequence.HOLD),  # ruling 23
        IrregularityKind.MISSING_CARD: ("local ruling L2 (fafa §5.2)", Consequence.HOLD),
        IrregularityKind.FOREIGN_CARD: ("local ruling L2 (fafa §5.1)", Consequence.VOID),
        IrregularityKind.WRONG_HAND_SIZE: ("local ruling L2 (fafa §5.2)", Consequence.HOLD),
        IrregularityKind.DOUBLE_DRAW: ("local ruling L2 (fafa §5.3)", Consequence.VOID),
        IrregularityKind.ORDER_ALTERED: ("local ruling L2 (fafa §5.4)", Consequence.VOID),
        IrregularityKind.INSUFFICIENT_CARDS: ("local ruling L2 (fafa §5.5)", Consequence.VOID),
        IrregularityKind.CARD_BEFORE_NO_MORE_BETS: ("local ruling L3 (fubacc procedure 2)", Consequence.VOID),
        IrregularityKind.DEVICE_LOST: ("local ruling L4", Consequence.HOLD),
        IrregularityKind.MISREAD: ("local ruling L5", Consequence.HOLD),
        IrregularityKind.CARD_DISPUTED: ("local ruling L8", Consequence.HOLD),
        IrregularityKind.LATE_WAGER: ("fubacc procedure 2", Consequence.REFUSE),
        IrregularityKind.BAD_DECISION: ("fubacc procedures 6-8, 12-15", Consequence.REFUSE),
        IrregularityKind.WAGER_REMOVED: ("local ruling L2 (fafa §5.7)", Consequence.REFUSE),
        IrregularityKind.FOREIGN_CHIP: ("local ruling L10", Consequence.REFUSE),
        IrregularityKind.MISPAY: ("local ruling L10", Consequence.REFUSE),
    }
    assert {k: (r.clause, r.consequence) for k, r in GAME.irregularities.items()} == expect

