"""The loop's timer heap: one-shot, a restart replaces, a cancel forgets, due ones in order."""
from controller.daemon.timers import Timers


def test_due_timers_come_out_in_deadline_order_once():
    timers = Timers()
    timers.start("card", 30.0, now=100.0)
    timers.start("other", 5.0, now=100.0)
    assert timers.next_deadline() == 105.0 and timers.running() == ["card", "other"]
    assert timers.pop_due(104.9) == []
    assert timers.pop_due(200.0) == ["other", "card"]
    assert timers.pop_due(300.0) == [] and timers.next_deadline() is None and timers.running() == []


def test_a_restart_replaces_the_running_timer():
    timers = Timers()
    timers.start("card", 30.0, now=0.0)
    timers.start("card", 30.0, now=20.0)  # a card came: the wait starts again
    assert timers.next_deadline() == 50.0
    assert timers.pop_due(31.0) == []
    assert timers.pop_due(50.0) == ["card"]


def test_cancel_forgets_and_a_stale_entry_is_skipped():
    timers = Timers()
    timers.start("card", 30.0, now=0.0)
    timers.cancel("card")
    timers.cancel("never started")
    assert timers.next_deadline() is None and timers.pop_due(100.0) == []
    timers.start("card", 1.0, now=100.0)
    assert timers.pop_due(101.0) == ["card"]
