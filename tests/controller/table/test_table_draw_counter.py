"""The draw-counter proof (local ruling L4), where it lives: the table's DrawCounter judges
every counter the shoe reports (a card's, a status's, the first after the shoe was unheard).
The shoe driver only drops a card it already delivered (tests/drivers/test_shoe_driver.py)."""
from controller.table.draw_counter import DrawCounter, Unheard, Unproven


def counter_at(last: int | None) -> DrawCounter:
    counter = DrawCounter()
    counter.stands_at(last)
    return counter


def test_in_sequence_is_silent():
    counter = DrawCounter()
    for n in (1, 2, 3):
        assert counter.check_card(n) is None
        counter.saw(n)
    assert counter.last == 3


def test_the_first_report_sets_the_baseline():
    counter = DrawCounter()
    assert counter.check_card(41) is None
    counter.saw(41)
    assert counter.check_card(42) is None


def test_a_gap_names_the_unheard_cards():
    counter = counter_at(5)
    assert counter.check_card(8) == Unheard(count=2, last=5)
    counter.saw(8)
    assert counter.check_card(9) is None


def test_a_counter_already_seen_proves_nothing():
    # a resent card is dropped by the driver before it gets here; any other card at or below
    # the last counter cannot prove the order
    counter = counter_at(5)
    assert counter.check_card(5) == Unproven(last=5, now=5)
    assert counter.check_card(3) == Unproven(last=5, now=3)


def test_a_status_after_a_reconnect_proves_nothing_was_missed():
    counter = counter_at(12)
    counter.unheard_from_now()
    assert counter.proof_needed
    assert counter.check_return(12) is None and not counter.proof_needed


def test_a_status_after_a_reconnect_shows_cards_drawn_unheard():
    counter = counter_at(12)
    counter.unheard_from_now()
    assert counter.check_return(14) == Unheard(count=2, last=12)


def test_a_reboot_that_lost_the_count_proves_nothing():
    counter = counter_at(20)
    counter.unheard_from_now()
    assert counter.check_return(0) == Unproven(last=20, now=0)
    assert counter_at(20).check_return(None) == Unproven(last=20, now=None)


def test_a_status_going_backwards_while_heard_is_reported():
    assert counter_at(20).check_status(3) == Unproven(last=20, now=3)
    assert counter_at(20).check_status(20) is None
