"""Draw-counter tracking: gaps, repeats, and what a reconnect or reboot can prove (local ruling L4)."""
from firmware_bridge.draw_counter import CounterRestarted, DrawCounter, DrawGap, DrawRepeated


def test_in_sequence_is_silent():
    counter = DrawCounter()
    assert [counter.card(n) for n in (1, 2, 3)] == [[], [], []]
    assert counter.last == 3


def test_first_report_sets_the_baseline():
    counter = DrawCounter()
    assert counter.card(41) == []
    assert counter.card(42) == []


def test_gap_names_the_missing_counters():
    counter = DrawCounter(5)
    assert counter.card(8) == [DrawGap(expected=6, got=8, missed=2)]
    assert counter.card(9) == []


def test_repeat_is_reported_and_does_not_move_the_count():
    counter = DrawCounter(5)
    assert counter.card(5) == [DrawRepeated(5)]
    assert counter.card(3) == [DrawRepeated(3)]
    assert counter.card(6) == []


def test_status_after_reconnect_proves_nothing_was_missed():
    counter = DrawCounter(12)
    assert counter.status(12) == []


def test_status_after_reconnect_shows_cards_drawn_unheard():
    counter = DrawCounter(12)
    assert counter.status(14) == [DrawGap(expected=13, got=14, missed=2)]
    assert counter.card(15) == []


def test_reboot_that_kept_the_count():
    counter = DrawCounter(20)
    counter.rebooted()
    assert counter.status(20) == []
    assert counter.card(21) == []
    assert counter.card(21) == [DrawRepeated(21)]  # the reboot allowance is used up


def test_reboot_that_lost_the_count():
    counter = DrawCounter(20)
    counter.rebooted()
    assert counter.card(1) == [CounterRestarted(last=20, now=1)]
    assert counter.card(2) == []


def test_status_going_backwards_without_a_reboot_is_still_reported():
    counter = DrawCounter(20)
    assert counter.status(3) == [CounterRestarted(last=20, now=3)]
