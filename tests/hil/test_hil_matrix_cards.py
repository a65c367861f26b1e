"""Irregular cards, for every game, through the real daemon and the shoe simulator on ptys:
an extra card, a missing card (a gap in the draw counter), a foreign card (another deck kind's
code, a code of no card, one copy more than the shoe holds), two cards drawn at once in the
initial deal and after it (baccarat: local ruling L6), a misread (local ruling L5), a card
before "No more bets" (local ruling L3), not enough cards (a short scripted shoe).

Each test checks the event on the stream with the clause the game's rules give (and, for a
few, the literal clause), the lamp board, the journal, and that the next round plays
normally with every earlier record unchanged. One rig per game serves the whole module.
The foreign card of another deck kind for fortune6 is in test_hil_shoe_faults.py."""
import pytest
from hil_matrix import (
    GAMES,
    SEEDS,
    ace,
    baccarat,
    clause,
    complete,
    consequence,
    deal_some,
    deal_until,
    every_game,
    expect_held,
    expect_result_on_the_board,
    expect_void,
    journaled,
    next_round_is_clean,
    script_next_round,
    supervisor,
    third_card_script,
    via,
)

from games.registry import get_game

pytestmark = pytest.mark.hil

FOREIGN = {"fafa4": "fafa §5.1", "fortune7": "local ruling L1 (fortune6 §5.1)", "fortune6": "fortune6 §5.1",
           "fubacc": "local ruling L2 (fafa §5.1)", "paigow": "paigow §5.1"}
DOUBLE_DRAW = {"fafa4": "fafa §5.3", "fortune7": "local ruling L1 (fortune6 §5.3)", "fortune6": "fortune6 §5.3",
               "fubacc": "local ruling L2 (fafa §5.3)", "paigow": "paigow §5.4"}
MISSING = {"fafa4": "fafa §5.2", "fortune7": "local ruling L1 (fortune6 §5.2)", "fortune6": "fortune6 §5.2",
           "fubacc": "local ruling L2 (fafa §5.2)", "paigow": "paigow §5.3"}  # ruling 23: Fu Bacc through L2 too
A_CARD_OF_ANOTHER_KIND = {"standard52": "A-fire", "element65": "As", "paigow53": "A-fire"}


@every_game
def test_an_extra_card_holds_for_reconstruction(table, game):
    """Baccarat: a card after the result; Fu Bacc and Pai Gow: a card while a decision is awaited.
    Every game holds it (ruling 23: a hand dealt the wrong number of cards, §5.2)."""
    rig, before = table, table.records()
    number = rig.open_round()
    waiting = deal_until(rig, "awaiting_decisions", "result")["state"]
    mark = rig.events.mark()
    (extra,) = rig.draw(1)
    wanted = clause(game, "extra_card")
    assert wanted == MISSING[game]  # the rules cite the same clause for an extra and a missing card
    (record,) = [r.payload for r in journaled(rig, "card", number) if r.payload["draw_counter"] == extra["counter"]]
    assert record["status"] == "extra" and record["card"] == extra["card"]
    assert consequence(game, "extra_card") == "hold"
    expect_held(rig, mark, number, "extra_card", wanted, "confirm")
    assert supervisor(rig, "reconstruct")["ok"]
    resumed = rig.events.wait_for("resumed", after=mark, round=number)
    assert resumed["state"] == waiting and resumed["clause"] == wanted
    if waiting == "result":  # the result stands as decided
        assert rig.press("confirm")["ok"]
        (result,) = [r.payload for r in journaled(rig, "result", number)]
        expect_result_on_the_board(rig, {"event": "result", **result})
    else:
        result = complete(rig, mark, number)
        expect_result_on_the_board(rig, result)
    dealt = [r.payload["card"] for r in journaled(rig, "card", number) if r.payload["status"] == "dealt"]
    assert result["cards"] == dealt  # the extra card is in none of the hands
    assert journaled(rig, "settled", number)
    next_round_is_clean(rig, before)


@every_game
def test_a_gap_in_the_draw_counter_is_a_missing_card(table, game):
    """The shoe counted a card it never sent: the next card's counter jumps. Every game holds
    the missing card (ruling 23: §5.2); the supervisor keys it in and the round completes with
    it in place."""
    rig, before = table, table.records()
    number, (first,), mark = deal_some(rig, 1)
    rig.fault("unheard")
    (lost,) = rig.draw(1, wait=False)  # counted by the shoe, never heard by the daemon
    (after,) = rig.draw(1)
    assert lost["unheard"] and after["counter"] == lost["counter"] + 1 == first["counter"] + 2
    wanted = clause(game, "missing_card")
    assert wanted == MISSING[game]
    gap = (f"the shoe reports a draw gap: card {lost['counter']} never heard, {after['counter']} came next "
           "(1 card(s) unheard)")
    assert consequence(game, "missing_card") == "hold"
    held = expect_held(rig, mark, number, "missing_card", wanted, "card")
    assert held["detail"] == gap
    assert held["keyed"] == 1 and held["pending"] == [None]  # the unheard card, to be keyed in
    assert rig.status()["held"]["pending"] == [None, after["card"]]  # the next card waits behind it
    assert supervisor(rig, "reconstruct", card=lost["card"])["ok"]
    rig.events.wait_for("resumed", after=mark, round=number)
    end = complete(rig, mark, number)
    expect_result_on_the_board(rig, end, number)
    assert end["cards"][:3] == [first["card"], lost["card"], after["card"]]
    keyed = [r.payload for r in journaled(rig, "card", number) if r.payload["keyed_in"]]
    assert [(k["card"], k["status"]) for k in keyed] == [(lost["card"], "dealt")]
    next_round_is_clean(rig, before)


@pytest.mark.parametrize("game, foreign", [(g, kind) for g in GAMES for kind in ("other_deck", "no_card")
                                          if (g, kind) != ("fortune6", "other_deck")], scope="module")
def test_a_foreign_card_voids(table, game, foreign):
    """A real card of another deck kind (the simulator's default), and a code that is no card at all."""
    rig, before = table, table.records()
    number, _, mark = deal_some(rig, 2)
    armed = rig.fault("foreign", **({"code": 0x0999} if foreign == "no_card" else {}))
    (card,) = rig.draw(1)
    assert clause(game, "foreign_card") == FOREIGN[game]
    void = expect_void(rig, mark, number, "foreign_card", FOREIGN[game])
    deck = get_game(game).deck_kind.value
    assert void["reason"] == (f"{card['card']} is not a card of the {deck} deck" if foreign == "other_deck"
                              else "0x0999 is not the code of any card")
    assert void["evidence"]["card"]["code"] == armed["code"]
    next_round_is_clean(rig, before)


@every_game
def test_one_copy_more_than_the_shoe_holds_is_a_foreign_card(table, game):
    """A scripted shoe (deck) with one ace too many: the extra copy voids its round, earlier
    rounds of the same shoe stand."""
    rig, before = table, table.records()
    copies = rig.decks
    script_next_round(rig, [ace(game)] * (copies if not rig.deck_per_round else copies + 1))
    for _ in range(4):
        mark = rig.events.mark()
        end = rig.play_round()
        if end["event"] == "void":
            break
        assert end["event"] == "result"
    void = expect_void(rig, mark, end["round"], "foreign_card", clause(game, "foreign_card"))
    held = f"{copies} deck{'s' if copies != 1 else ''} hold {copies} cop{'ies' if copies != 1 else 'y'}"
    assert void["reason"] == f"{ace(game)} came out once more than the shoe holds ({held})"
    next_round_is_clean(rig, before)


@every_game
def test_two_cards_drawn_at_once_in_the_initial_deal_void(table, game):
    rig, before = table, table.records()
    number, _, mark = deal_some(rig, 1)
    rig.fault("double_draw")
    pair = rig.draw(1)
    assert [card["double_draw"] for card in pair] == [True, True]
    wanted = get_game(game).double_draw_rule(True).clause
    assert wanted == DOUBLE_DRAW[game] == clause(game, "double_draw")
    void = expect_void(rig, mark, number, "double_draw", wanted)
    assert void["evidence"]["initial"] is True and void["evidence"]["card"]["card"] == pair[0]["card"]
    statuses = [r.payload["status"] for r in journaled(rig, "card", number)][-2:]
    assert statuses == ["double_draw", "after_void"]
    next_round_is_clean(rig, before)


@baccarat
@pytest.mark.parametrize("resolution", ["as_read", "reordered", "void"])
def test_two_third_cards_at_once_hold_for_the_supervisor_l6(table, game, resolution):
    """Player 5 and banker 4 both draw; the third cards leave together. Local ruling L6: held;
    the supervisor confirms the order as read (a tie), gives the other order (the banker
    wins), or voids (order altered, §5.4)."""
    rig, before = table, table.records()
    initial, thirds = third_card_script(game)
    script_next_round(rig, initial + thirds)
    number = rig.open_round()
    rig.draw(4)
    assert rig.status()["state"] == "drawing"
    mark = rig.events.mark()
    rig.fault("double_draw")
    assert [c["card"] for c in rig.draw(1)] == thirds
    assert get_game(game).double_draw_rule(False).clause == "local ruling L6"
    expect_held(rig, mark, number, "double_draw", "local ruling L6", "order")
    if resolution == "void":
        answer = supervisor(rig, "void")
        assert answer["ok"]
        expect_void(rig, mark, number, "order_altered", via("local ruling L6", game, "order_altered"), by="supervisor")
    else:
        order = thirds if resolution == "as_read" else thirds[::-1]
        # as read: the panel's button; another order: the socket, naming it
        answer = supervisor(rig, "reconstruct", **({} if resolution == "as_read" else {"order": order}))
        assert answer["ok"], answer
        assert answer["message"] == f"round {number} resumed (the supervisor confirmed the order {', '.join(order)})"
        end = complete(rig, mark, number)
        assert end["cards"] == initial + order
        assert end["winner"] == ("tie" if resolution == "as_read" else "banker")
        expect_result_on_the_board(rig, end)
    next_round_is_clean(rig, before)


@every_game
@pytest.mark.parametrize("resolution", ["keyed_in", "void"])
def test_a_misread_holds_until_the_supervisor_keys_the_card_in_l5(table, game, resolution):
    rig, before = table, table.records()
    number, (first,), mark = deal_some(rig, 1)
    rig.fault("misread")
    (unread,) = rig.draw(1)
    assert unread["misread"] and unread["code"] == "0x0000"
    assert clause(game, "misread") == "local ruling L5"
    held = expect_held(rig, mark, number, "misread", "local ruling L5", "card")
    assert held["void_clause"] == via("local ruling L5", game, "order_altered")
    if resolution == "void":
        assert supervisor(rig, "void")["ok"]
        expect_void(rig, mark, number, "order_altered", held["void_clause"], by="supervisor")
    else:
        garbled = supervisor(rig, "reconstruct", card="Zz")
        assert not garbled["ok"] and garbled["message"].startswith("reconstruct: card: 'Zz': not a card")
        stranger = A_CARD_OF_ANOTHER_KIND[get_game(game).deck_kind.value]
        refused = supervisor(rig, "reconstruct", card=stranger)
        assert not refused["ok"] and "if that card really is on the table, void the round" in refused["message"]
        assert rig.status()["state"] == "held"
        assert supervisor(rig, "reconstruct", card=unread["card"])["ok"]
        end = complete(rig, mark, number)
        expect_result_on_the_board(rig, end, number)
        assert end["cards"][:2] == [first["card"], unread["card"]]
        records = [r.payload for r in journaled(rig, "card", number) if r.payload["draw_counter"] == unread["counter"]]
        assert [(r["status"], r["card"]) for r in records] == [("misread", None)]
        assert [r.payload["card"] for r in journaled(rig, "card", number) if r.payload["keyed_in"]] == [unread["card"]]
    next_round_is_clean(rig, before)


@every_game
def test_a_card_before_no_more_bets_voids_l3(table, game):
    rig, before = table, table.records()
    number = rig.open_round(close_bets=False)
    rig.wait_lamps({"bets_open": "on"})
    mark = rig.events.mark()
    (card,) = rig.draw(1)
    wanted = clause(game, "card_before_no_more_bets")
    assert wanted == ("local ruling L3 (fubacc procedure 2)" if game == "fubacc" else "local ruling L3")
    void = expect_void(rig, mark, number, "card_before_no_more_bets", wanted)
    assert void["evidence"]["card"]["card"] == card["card"]
    assert not rig.press("no_more_bets")["ok"]  # the round is over: nothing to close
    next_round_is_clean(rig, before)


@every_game
def test_a_short_shoe_runs_out_mid_round_not_enough_cards(table, game):
    """A scripted shoe (deck) of three cards: it reports empty with the round not complete."""
    rig, before = table, table.records()
    cards = [str(card) for card in get_game(game).deck_kind.cards[3:6]]
    if rig.deck_per_round:
        rig.load_shoe(cards=cards)
    else:
        rig.new_shoe(cards=[ace(game), str(get_game(game).deck_kind.cards[9])] + cards)
    number = rig.open_round()
    mark = rig.events.mark()
    rig.draw(3)
    wanted = clause(game, "insufficient_cards")
    assert wanted == {"fafa4": "fafa §5.5", "fortune7": "local ruling L1 (fortune6 §5.5)", "fortune6": "fortune6 §5.5",
                      "fubacc": "local ruling L2 (fafa §5.5)", "paigow": "paigow §5.5"}[game]
    void = expect_void(rig, mark, number, "insufficient_cards", wanted)
    assert void["reason"] == f"the shoe reports empty with round {number} not complete"
    assert void["cards"] == cards
    if not rig.deck_per_round:
        assert rig.status()["shoe"]["state"] == "finished"
        rig.wait_lamps({"new_shoe": "slow"})
    next_round_is_clean(rig, before)


@pytest.mark.parametrize("game", ["fafa4", "fortune6"])
def test_too_few_cards_left_at_no_more_bets_voids(start_rig, game):
    """A 4-deck shoe whose cut card never comes out, dealt to its end: "No more bets" finds
    fewer cards than a round may need (6) and voids that round (§5.5). The shoe games' other
    path (the shoe runs out mid-round) is test_a_short_shoe_runs_out_mid_round_not_enough_cards."""
    decks = 4
    size = decks * len(get_game(game).deck_kind.cards)
    rig = start_rig(game, seed=SEEDS[game], decks=decks, cut_card=size)
    rig.new_shoe()
    for _ in range(size // 4):
        mark = rig.events.mark()
        end = rig.play_round()
        if end["event"] == "void":
            break
        expect_result_on_the_board(rig, end)
    wanted = clause(game, "insufficient_cards")
    void = expect_void(rig, mark, end["round"], "insufficient_cards", wanted)
    left = void["evidence"]["remaining"]
    assert 0 <= left < 6 == void["evidence"]["needed"] and void["cards"] == []
    assert void["reason"] == f"{left} card(s) left in the shoe; round {end['round']} may need 6"
    refused = rig.events.wait_for("command", after=mark, command="no_more_bets")
    assert not refused["ok"] and refused["message"] == f"round {end['round']} void: {void['reason']} ({wanted})"
    assert rig.status()["shoe"]["remaining"] == left and rig.verify().ok
