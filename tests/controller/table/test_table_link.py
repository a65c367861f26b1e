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


def test_a_counter_that_moved_on_voids_as_a_missing_card():
    run = fortune6_dealing()
    run.send(i.ShoeLinkLost("hang-up"))
    run.send(i.ShoeLinkRestored(draw_counter=7))
    void = run.void()
    assert void["clause"] == "local ruling L4, fortune6 §5.2" and void["kind"] == "missing_card"
    assert "2 card(s) left unheard" in void["reason"]
    assert run.table.shoe.drawn == 7 and run.table.shoe.unknown == 2


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
    assert void["kind"] == "card_before_no_more_bets" and void["clause"] == "local ruling L4, local ruling L3"


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
