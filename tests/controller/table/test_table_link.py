"""Local ruling L4: the shoe's link drops or it reboots mid-round; resume only when its draw
counter proves that no card left it unheard."""
import pytest
from table_helpers import Run, fortune6_dealing

from controller.table import inputs as i
from controller.table import machine as m


def test_link_lost_mid_round_holds_and_a_matching_counter_resumes():
    run = fortune6_dealing()
    run.send(i.ShoeLinkLost("hang-up"))
    assert run.state == m.HELD and run.irregularity()["clause"] == "local ruling L4"
    assert run.lamps()["error"] == "fast" and [type(e).__name__ for e in run.timers()] == ["CancelTimer"]
    run.key()
    refused = run.cmd("reconstruct")
    assert not refused.ok and "draw counter" in refused.message
    run.send(i.ShoeLinkRestored(draw_counter=5))
    assert run.state == m.DEALING and run.journal("round_resumed")[-1]["how"].startswith("the shoe's link came back")
    assert [type(e).__name__ for e in run.timers()] == ["StartTimer"]
    run.cards("Kh", "Kd")
    assert run.state == m.DRAWING  # 2 v 3: the player draws


def test_a_counter_that_moved_on_holds_the_unheard_cards_for_the_supervisor_to_key_in():
    """Ruling 24: cards that left the shoe while it was unheard are judged as if heard: missing
    while dealing, held under §5.2 to be keyed in where they were due."""
    run = fortune6_dealing()
    run.send(i.ShoeLinkLost("hang-up"))
    run.send(i.ShoeLinkRestored(draw_counter=7))
    resumed = run.journal("round_resumed")[-1]
    assert resumed["how"] == ("the shoe's link came back: draw counter 7 shows 2 card(s) left unheard after 5, "
                              "judged as if heard (ruling 24)")
    held = run.irregularity()
    assert (held["kind"], held["clause"], held["consequence"]) == ("missing_card", "fortune6 §5.2 (ruling 24)", "hold")
    assert held["detail"] == ("the shoe's link came back with draw counter 7; the last card heard was 5: "
                              "2 card(s) left unheard")
    assert run.state == m.HELD and run.table.hold.need == "card" and run.table.hold.keyed == 2
    assert run.table.hold.void_rule.clause == "fortune6 §5.2 (ruling 24)"
    assert run.table.shoe.drawn == 7 and run.table.shoe.unknown == 2 and not run.journal("void")
    run.card("9s", counter=8)  # the dealer goes on: it waits behind the two to be keyed in
    run.key()
    refused = run.cmd("reconstruct", card="Kh")
    assert not refused.ok and "key in 2 card(s)" in refused.message
    assert run.cmd("reconstruct", cards=["Kh", "Kd"]).ok
    assert run.table.play.hands() == {"player": ["2h", "Kh", "9s"], "banker": ["3c", "Kd"]}
    assert run.table.shoe.unknown == 0 and run.state == m.DRAWING  # 2 v 3, player drew 9: banker's turn


def test_unheard_cards_the_supervisor_cannot_key_in_void_citing_the_same_clause():
    run = fortune6_dealing()
    run.send(i.ShoeRebooted(draw_counter=6))
    refused = run.cmd("place_bets")  # the next game cannot start over a held round
    assert not refused.ok and "held for the supervisor (fortune6 §5.2 (ruling 24))" in refused.message
    run.key()
    assert run.cmd("void", reason="the card is not on the table").ok
    void = run.void()
    assert (void["kind"], void["clause"], void["by"]) == ("missing_card", "fortune6 §5.2 (ruling 24)", "supervisor")


def test_a_supervisor_void_while_the_shoe_is_unheard_cites_l4_order_altered():
    run = fortune6_dealing()
    run.send(i.ShoeLinkLost("unplugged"))
    assert run.table.hold.void_rule.clause == "local ruling L4, fortune6 §5.4"
    run.key()
    assert run.cmd("void").ok
    assert (run.void()["kind"], run.void()["clause"]) == ("order_altered", "local ruling L4, fortune6 §5.4")


def test_an_unheard_card_after_the_result_is_an_extra_card_held_as_if_heard():
    run = fortune6_dealing()
    run.cards("Kh", "Kd", "9s", "4d")  # player 2+K+9 = 1, banker 3+K+4 = 7
    assert run.state == m.RESULT
    run.send(i.ShoeRebooted(draw_counter=10))
    held = run.irregularity()
    assert (held["kind"], held["clause"]) == ("extra_card", "fortune6 §5.2 (ruling 24)")
    assert run.table.hold.need == "confirm"
    run.key()
    assert run.cmd("reconstruct").ok and run.state == m.RESULT and run.cmd("confirm").ok


@pytest.mark.parametrize("counter", [None, 2])
def test_a_counter_that_cannot_prove_the_order_voids_as_order_altered(counter):
    run = fortune6_dealing()
    run.send(i.ShoeLinkLost("unplugged"))
    run.send(i.ShoeLinkRestored(draw_counter=counter))
    void = run.void()
    assert void["clause"] == "local ruling L4, fortune6 §5.4" and void["kind"] == "order_altered"


def test_a_card_after_the_link_came_back_is_its_own_proof():
    run = fortune6_dealing()
    run.send(i.ShoeLinkLost("hang-up"))
    run.card("Kh")  # counter 6 follows 5: nothing was missed
    assert run.state == m.DEALING and run.table.play.hands()["player"] == ["2h", "Kh"]


def test_a_reboot_mid_round_resumes_only_when_the_shoe_kept_its_counter():
    kept = fortune6_dealing()
    kept.send(i.ShoeRebooted(draw_counter=5))
    assert kept.state == m.DEALING and kept.journal("round_resumed")
    reset = fortune6_dealing()
    reset.send(i.ShoeRebooted(draw_counter=0))
    assert reset.void()["clause"] == "local ruling L4, fortune6 §5.4"


def test_between_rounds_a_reboot_only_resets_the_counter_baseline():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.send(i.ShoeRebooted(draw_counter=0))
    assert not run.journal("irregularity")
    run.open_round()
    run.card("9h", counter=1)
    assert run.state == m.DEALING and not run.journal("irregularity")


def test_link_down_between_rounds_blocks_no_more_bets_and_unheard_cards_are_counted():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.send(i.ShoeLinkLost("hang-up"))
    run.cmd("place_bets")
    reply = run.cmd("no_more_bets")
    assert not reply.ok and "hang-up" in reply.message
    run.send(i.ShoeLinkRestored(draw_counter=4))  # one card left while betting was open
    void = run.void()
    assert void["kind"] == "card_before_no_more_bets" and void["clause"] == "local ruling L3 (ruling 24)"


def test_link_lost_while_held_for_a_misread_keeps_the_hold():
    run = fortune6_dealing()
    run.card("??", misread=True)
    run.send(i.ShoeLinkLost("hang-up"))
    assert run.table.hold.need == "card"
    run.send(i.ShoeLinkRestored(draw_counter=6))
    assert run.state == m.HELD and run.table.hold.need == "card"
    run.key()
    assert run.cmd("reconstruct", card="Kh").ok and run.state == m.DEALING


def test_reconstructed_while_the_shoe_is_unheard_waits_for_its_counter():
    run = fortune6_dealing()
    run.card("??", misread=True)
    run.send(i.ShoeLinkLost("hang-up"))
    run.key()
    run.cmd("reconstruct", card="Kh")
    assert run.state == m.HELD and run.table.hold.need == "counter"
    run.send(i.ShoeLinkRestored(draw_counter=6))
    assert run.state == m.DEALING


def test_a_status_while_heard_shows_a_card_the_shoe_counted_but_never_sent():
    run = fortune6_dealing()  # counters 1-5 heard
    run.send(i.ShoeCounter(5))  # a status that agrees: nothing to say
    assert run.state == m.DEALING and not run.journal("irregularity")
    run.send(i.ShoeCounter(6))
    assert run.state == m.HELD and run.irregularity()["kind"] == "missing_card"
    assert run.irregularity()["detail"] == ("the shoe's status shows draw counter 6; the last card heard was 5: "
                                            "1 card(s) left unheard")
    assert run.table.hold.need == "card" and run.table.shoe.drawn == 6


def test_a_status_whose_counter_went_back_cannot_prove_the_order():
    run = fortune6_dealing()
    run.send(i.ShoeCounter(2))
    void = run.void()
    assert void["clause"] == "local ruling L4, fortune6 §5.4" and void["kind"] == "order_altered"
    assert void["reason"] == "the shoe's draw counter went from 5 to 2: nothing proves that no card was missed or reordered"


def test_a_status_counter_when_no_card_was_heard_yet_is_the_baseline():
    run = Run("fortune6", burn=False)
    run.send(i.ShoeCounter(40))
    assert not run.journal("irregularity") and run.table.counter.last == 40
