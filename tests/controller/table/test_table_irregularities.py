"""Every irregularity: its clause, its consequence (void, hold, refuse), its evidence."""
import random

import pytest
from table_helpers import Run

from controller.table import inputs as i
from controller.table import machine as m
from games.cards import JOKER, parse_card


def baccarat_round(game="fortune6", **settings) -> Run:
    run = Run(game, **settings)
    run.baccarat_shoe()
    run.open_round()
    return run


def t(game, token):
    """The same card in the game's own deck: fafa4 plays five-element cards."""
    if game != "fafa4":
        return token
    rank = {"K": "F", "Q": "L", "J": "S", "T": "10"}.get(token[0], token[0])
    return f"{rank}-{ {'h': 'fire', 'd': 'gold', 'c': 'earth', 's': 'wood'}[token[1]] }"


# ---------------------------------------------------------------- foreign cards (§5.1)

@pytest.mark.parametrize("game, foreign, clause", [
    ("fortune6", "4-gold", "fortune6 §5.1"),
    ("fafa4", "4h", "fafa §5.1"),
    ("fortune7", "4-gold", "local ruling L1 (fortune6 §5.1)"),
])
def test_a_card_of_another_deck_voids(game, foreign, clause):
    run = baccarat_round(game)
    run.card(t(game, "9h"))
    run.card(foreign)
    void = run.void()
    assert run.state == m.VOID and void["clause"] == clause and void["kind"] == "foreign_card"
    assert "not a card of the" in void["reason"] and void["evidence"]["card"]["card"] == str(parse_card(foreign))
    assert run.lamps()["void"] == "on"
    assert [e.kind for e in run.last if hasattr(e, "kind")][-1] == "void"
    assert any(e.durable for e in run.last if getattr(e, "kind", None) == "void")


def test_an_unknown_card_code_voids_as_foreign():
    run = baccarat_round()
    run.send(i.Card(0x0999, run.counter + 1))
    assert run.void()["clause"] == "fortune6 §5.1" and "0x0999 is not the code of any card" in run.void()["reason"]


def test_one_copy_too_many_across_the_whole_shoe_voids():
    """Four decks hold four Aces of spades: the fifth voids although each round had one."""
    run = Run("fortune6", decks=4)
    run.baccarat_shoe()
    for zero in "KQJT":
        run.open_round()
        run.cards("As", zero + "h", "8h", zero + "s")  # player A+8 = 9: natural
        assert run.state == m.RESULT
        run.cmd("confirm")
    run.open_round()
    run.card("As")
    void = run.void()
    assert void["clause"] == "fortune6 §5.1" and "once more than the shoe holds" in void["reason"]
    assert [r["round"] for r in run.journal("settled")] == [1, 2, 3, 4]  # previous results stand


def test_the_joker_is_foreign_to_fubacc():
    run = Run("fubacc")
    run.new_shoe()
    run.open_round()
    run.send(i.Card(JOKER.code, 1))
    assert run.void()["clause"] == "local ruling L2 (fafa §5.1)"


# ---------------------------------------------------------------- extra and missing cards

def test_an_extra_card_after_the_result_holds_baccarat_for_the_supervisor():
    run = baccarat_round()
    run.cards("9h", "Kh", "Kd", "8d")
    assert run.state == m.RESULT
    run.card("5c")
    assert run.state == m.HELD and run.irregularity()["clause"] == "fortune6 §5.2"
    assert run.lamps()["supervisor"] == "fast" and run.lamps()["no_more_bets"] == "slow"
    refused = run.cmd("reconstruct")
    assert not refused.ok and "supervisor key" in refused.message
    run.key()
    assert run.cmd("reconstruct").ok
    assert run.state == m.RESULT  # the extra card was set aside; the result stands
    assert run.cmd("confirm").ok


def test_an_extra_card_during_fubacc_decisions_holds_under_fafa_5_2():
    """Ruling 23 through local ruling L2: a card beyond the packets is a hand dealt the wrong
    number of cards (fafa §5.2), not the deck's composition (§5.1): held for reconstruction."""
    run = Run("fubacc")
    run.new_shoe()
    run.open_round()
    run.cards("2h", "3d", "4c", "Ks", "3s", "9d")
    assert run.state == m.AWAITING
    run.card("5h")
    held = run.irregularity()
    assert (held["kind"], held["clause"], held["consequence"]) == ("extra_card", "local ruling L2 (fafa §5.2)", "hold")
    assert run.state == m.HELD and run.table.hold.need == "confirm" and not run.journal("void")
    run.key()
    assert run.cmd("reconstruct").ok and run.state == m.AWAITING  # the extra card set aside
    run.key(False)
    assert run.cmd("decide", decision="play").ok and run.cmd("decide", decision="hit").ok
    result = run.journal("result")[-1]  # spot 2+3+4 = 9; dealer K+3 = 3 draws 9: 2
    assert result["spots"]["1"]["hand"]["total"] == 9 and result["hands"]["dealer"]["total"] == 2
    assert result["spots"]["1"]["bets"]["ante"]["result"] == "win" and "5h" not in result["cards"]


@pytest.mark.parametrize("game", ["fortune6", "fafa4", "fubacc"])
def test_no_card_in_time_is_a_missing_card_held_under_5_2(game):
    run = Run(game, card_timeout_s=12)
    if game == "fubacc":
        run.new_shoe()
        run.open_round()
    else:
        run.baccarat_shoe()
        run.open_round()
    assert [type(e).__name__ for e in run.timers()] == ["StartTimer"] and run.timers()[0].seconds == 12
    run.card(t(game, "2h"))
    assert run.timers()[0].name == "card"  # restarted by every card
    run.send(i.Timer("card"))
    irregularity = run.irregularity()
    assert irregularity["kind"] == "missing_card" and irregularity["consequence"] == "hold"
    assert irregularity["clause"] == {"fortune6": "fortune6 §5.2", "fafa4": "fafa §5.2",
                                      "fubacc": "local ruling L2 (fafa §5.2)"}[game]
    assert "no card within 12 s" in irregularity["detail"]
    assert run.state == m.HELD and not run.table.timer.running
    run.key()
    assert run.cmd("reconstruct").ok and run.state == m.DEALING
    assert [type(e).__name__ for e in run.timers()] == ["StartTimer"]


def test_a_stale_timer_is_journaled_not_acted_on():
    run = baccarat_round()
    run.cards("9h", "Kh", "Kd", "8d")
    run.send(i.Timer("card"))
    assert run.state == m.RESULT and run.journal("timer", last=True)[0]["ignored"]


def test_a_gap_in_the_draw_counter_holds_for_the_supervisor_to_key_in_the_unheard_card():
    run = baccarat_round()
    run.card("2h")          # counter 5 (three burn cards + this)
    run.card("Kd", counter=run.counter + 2)  # counter jumped: one card unheard
    assert run.state == m.HELD and run.irregularity()["kind"] == "missing_card"
    assert run.table.hold.need == "card" and run.table.hold.keyed == 1
    run.key()
    refused = run.cmd("reconstruct", card="Zz")
    assert not refused.ok and "'Zz'" in refused.message
    assert run.cmd("reconstruct", card="3c").ok
    # the unheard card went to the banker, Kd to the player as second card
    assert run.table.play.hands() == {"player": ["2h", "Kd"], "banker": ["3c"]}
    assert run.state == m.DEALING


def test_a_draw_gap_holds_fubacc_and_the_card_that_shows_it_is_not_counted_twice():
    """Ruling 23 through local ruling L2: a card that left the shoe unread is fafa §5.2: held
    for the supervisor to key in where it was due; the card that showed the gap follows it."""
    run = Run("fubacc")
    run.new_shoe()
    run.open_round()
    run.card("2h", counter=10)
    run.card("3h", counter=12)  # card 11 left the shoe unheard
    held = run.irregularity()
    assert (held["kind"], held["clause"], held["consequence"]) == ("missing_card", "local ruling L2 (fafa §5.2)", "hold")
    assert held["detail"] == "the shoe reports a draw gap: card 11 never heard, 12 came next (1 card(s) unheard)"
    assert run.table.hold.need == "card" and run.table.hold.keyed == 1
    assert len(run.journal("irregularity")) == 1 and run.table.shoe.drawn == 3
    run.key()
    assert run.cmd("reconstruct", card="Kd").ok
    assert run.table.play.hands()["spot1"] == ["2h", "Kd", "3h"] and run.table.shoe.drawn == 3
    assert run.table.shoe.unknown == 0 and not run.journal("void")


# ---------------------------------------------------------------- double draw (§5.3, L6)

@pytest.mark.parametrize("game, clause", [("fortune6", "fortune6 §5.3"), ("fafa4", "fafa §5.3"),
                                          ("fortune7", "local ruling L1 (fortune6 §5.3)")])
def test_two_cards_at_once_in_the_initial_deal_void(game, clause):
    run = baccarat_round(game)
    run.card(t(game, "2h"))
    run.card(t(game, "3d"), double_draw=True)
    assert run.void()["clause"] == clause and run.void()["kind"] == "double_draw"


def test_two_cards_at_once_after_the_initial_deal_hold_until_the_order_is_confirmed():
    run = baccarat_round()
    run.cards("2h", "3c", "Kh", "Kd")  # player 2 draws; banker 3
    run.card("5s", double_draw=True)
    run.card("4d", double_draw=True)
    assert run.state == m.HELD and run.irregularity()["clause"] == "local ruling L6"
    assert run.table.hold.need == "order"
    run.key()
    refused = run.cmd("reconstruct", order=["4d", "9c"])
    assert not refused.ok and "5s, 4d" in refused.message
    assert run.cmd("reconstruct", order=["4d", "5s"]).ok
    # player's third card 4: banker on 3 draws 5s
    result = run.journal("result")[-1]
    assert result["hands"]["player"]["cards"] == ["2h", "Kh", "4d"]
    assert result["hands"]["banker"]["cards"] == ["3c", "Kd", "5s"]
    dealt = [c for c in run.journal("card") if c["status"] == "dealt"]
    assert [c["reconstructed"] for c in dealt[-2:]] == [True, True]


def test_a_double_draw_with_an_unread_card_is_ordered_then_the_card_keyed_in():
    # The second card of the pair left unread: the order hold names it (it once failed on None),
    # the order cannot name it, confirming the order as drawn holds it for the supervisor to key in.
    run = baccarat_round()
    run.cards("2h", "3c", "Kh", "Kd")
    run.card("5s", double_draw=True)
    run.card("??", double_draw=True, misread=True)
    assert run.state == m.HELD and run.table.hold.need == "order"
    run.key()
    refused = run.cmd("reconstruct", order=["4d", "5s"])
    assert not refused.ok and "5s, an unread card" in refused.message
    resumed = run.cmd("reconstruct")
    assert resumed.ok and "order 5s, an unread card" in resumed.message
    assert run.state == m.HELD and run.table.hold.need == "card"
    assert run.cmd("reconstruct", card="4d").ok
    result = run.journal("result")[-1]
    assert result["hands"]["player"]["cards"] == ["2h", "Kh", "5s"]
    assert result["hands"]["banker"]["cards"] == ["3c", "Kd", "4d"]


def test_a_late_double_draw_the_supervisor_cannot_order_is_void_under_order_altered():
    run = baccarat_round()
    run.cards("2h", "3c", "Kh", "Kd")
    run.card("5s", double_draw=True)
    run.key()
    assert run.cmd("void", reason="order unknown").ok
    void = run.void()
    assert void["clause"] == "local ruling L6, fortune6 §5.4" and void["by"] == "supervisor"
    assert void["evidence"]["pending"] == ["5s"]


# ---------------------------------------------------------------- misread (L5)

def test_a_misread_holds_and_the_supervisor_keys_in_the_card():
    run = baccarat_round()
    run.card("9h")
    run.card("??", misread=True)
    assert run.state == m.HELD and run.irregularity()["clause"] == "local ruling L5"
    run.card("Kh")  # the dealer goes on: the card waits
    assert run.table.hold.pending[-1].text == "Kh"
    run.key()
    refused = run.cmd("reconstruct", card="4-gold")
    assert not refused.ok and "not a card of the standard52 deck" in refused.message
    assert run.cmd("reconstruct", card="Kd").ok
    assert run.table.play.hands() == {"player": ["9h", "Kh"], "banker": ["Kd"]}
    assert run.table.shoe.unknown == 0 and run.table.shoe.drawn == 6
    keyed = [c for c in run.journal("card") if c["keyed_in"]]
    assert keyed[0]["card"] == "Kd" and keyed[0]["reconstructed"] is True and keyed[0]["hand"] == "banker"


def test_a_misread_the_supervisor_cannot_key_in_is_void_as_order_altered():
    run = baccarat_round("fafa4")
    run.card("??", misread=True)
    run.key()
    assert run.cmd("void").ok
    assert run.void()["clause"] == "local ruling L5, fafa §5.4" and run.void()["kind"] == "order_altered"


# ---------------------------------------------------------------- wrong number of cards (§5.2)

@pytest.mark.parametrize("game, clause", [("fortune6", "fortune6 §5.2"), ("paigow", "paigow §5.2"),
                                          ("fubacc", "local ruling L2 (fafa §5.2)")])
def test_a_misdeal_holds_for_reconstruction(game, clause):
    run = Run(game)
    if game == "fortune6":
        run.baccarat_shoe()
    else:
        run.new_shoe()
    run.open_round()
    refused = run.cmd("misdeal")
    assert not refused.ok and "no dealt round" in refused.message
    run.card(str(run.game.deck_kind.cards[1]))
    assert run.cmd("misdeal", hand="banker").ok
    assert run.state == m.HELD and run.irregularity()["clause"] == clause
    assert "banker" in run.irregularity()["detail"]
    run.key()
    assert run.cmd("reconstruct").ok and run.state == m.DEALING


def test_a_misdeal_that_cannot_be_reconstructed_voids_citing_5_2():
    run = baccarat_round()
    run.cards("9h", "Kh", "Kd", "8d")
    run.cmd("misdeal", hand="player")
    run.key()
    run.cmd("void", reason="cannot reconstruct")
    assert run.void()["clause"] == "fortune6 §5.2" and run.void()["kind"] == "wrong_hand_size"


# ---------------------------------------------------------------- not enough cards (§5.5)

def test_not_enough_cards_left_for_the_round_voids_at_no_more_bets():
    run = Run("fubacc", deck_per_round=False)
    run.new_shoe()
    deck = [str(c) for c in run.game.deck_kind.cards]
    random.Random(4).shuffle(deck)  # a shuffled deck: one in factory order would be an integrity alarm (L7)
    spots = list(range(1, 8))  # 7 spots + dealer = 24 cards
    for n in range(2):
        run.cmd("place_bets")
        run.cmd("spots", spots=spots)
        run.cmd("no_more_bets")
        run.cards(*deck[n * 24:(n + 1) * 24])
        for spot in spots:
            run.cmd("decide", spot=spot, decision="fold")
        assert run.cmd("confirm").ok
    run.cmd("place_bets")
    reply = run.cmd("no_more_bets")
    assert not reply.ok and "4 card(s) left" in reply.message
    assert run.void()["clause"] == "local ruling L2 (fafa §5.5)" and run.state == m.VOID


def test_the_shoe_reporting_empty_mid_round_voids():
    run = baccarat_round()
    run.cards("2h", "3c")
    run.send(i.ShoeEmpty())
    assert run.void()["clause"] == "fortune6 §5.5" and run.table.shoe.state == m.FINISHED


# ---------------------------------------------------------------- order altered (§5.4)

@pytest.mark.parametrize("event", [i.ShoeDoor(open=True), i.ShoePresence(present=False)])
def test_door_opened_or_shoe_removed_mid_round_voids(event):
    run = baccarat_round()
    run.card("2h")
    run.send(event)
    assert run.void()["clause"] == "fortune6 §5.4" and run.void()["kind"] == "order_altered"


def test_a_removed_shoe_needs_a_new_shoe_and_an_open_door_blocks_no_more_bets():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.send(i.ShoePresence(present=False))
    assert not run.journal("irregularity") and run.table.shoe.state == m.NO_SHOE
    assert "no shoe" in run.cmd("place_bets").message
    run.send(i.ShoePresence(present=True))
    run.baccarat_shoe()
    run.send(i.ShoeDoor(open=True))
    assert not run.journal("irregularity")  # between rounds the door may open
    run.cmd("place_bets")
    assert "door is open" in run.cmd("no_more_bets").message
    run.send(i.ShoeDoor(open=False))
    assert run.cmd("no_more_bets").ok


def test_door_opened_during_paigow_holds_for_reconstruction():
    run = Run("paigow")
    run.new_shoe()
    run.open_round()
    run.card("As")
    run.send(i.ShoeDoor(open=True))
    assert run.state == m.HELD and run.irregularity()["clause"] == "paigow §5.2"


# ---------------------------------------------------------------- before "No more bets" (L3)

def test_a_card_before_no_more_bets_voids_the_open_round():
    run = Run("fubacc")
    run.new_shoe()
    run.cmd("place_bets")
    run.card("5h")
    void = run.void()
    assert void["clause"] == "local ruling L3 (fubacc procedure 2)" and void["kind"] == "card_before_no_more_bets"


def test_a_card_with_no_round_open_is_noted_and_lights_the_error_lamp():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.card("5h")
    irregularity = run.irregularity()
    assert irregularity["round"] is None and irregularity["consequence"] == "noted"
    assert irregularity["clause"] == "local ruling L3" and run.lamps()["error"] == "fast"
    run.cmd("place_bets")
    assert run.lamps()["error"] == "off"
    assert run.table.shoe.drawn == 4


def test_late_wagers_are_refused_citing_5_6():
    run = baccarat_round()
    reply = run.cmd("place_bets")
    assert not reply.ok and "fortune6 §5.6" in reply.message
    fubacc = Run("fubacc")
    fubacc.new_shoe()
    fubacc.open_round()
    reply = fubacc.cmd("spots", spots=[1, 2])
    assert not reply.ok and "fubacc procedure 2" in reply.message
