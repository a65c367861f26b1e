"""The player-dealer position offered clockwise every two hands."""
from hypothesis import given, settings
from hypothesis import strategies as st

from games.baccarat.california.rotation import BankTurn, after_hand, first_turn, offer_order
from games.baccarat.california.seats import clockwise_from, left_of

ALL = set(range(1, 8))


def test_seats_run_clockwise_and_wrap():
    assert clockwise_from(5) == (5, 6, 7, 1, 2, 3, 4)
    assert left_of(7) == 1 and left_of(3) == 4


def test_two_hands_then_the_next_seat():
    turn = first_turn(ALL, ALL)
    holders = []
    for _ in range(16):
        holders.append(turn.holder)
        turn = after_hand(turn, ALL, ALL)
    assert holders == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 1, 1]


def test_a_seat_may_decline_and_the_offer_passes_clockwise():
    turn = first_turn(ALL, accepting={3, 6})
    assert turn == BankTurn(holder=3, hands_left=2, offer_from=1)
    turn = after_hand(after_hand(turn, ALL, {3, 6}), ALL, {3, 6})
    assert turn == BankTurn(holder=6, hands_left=2, offer_from=4)
    turn = after_hand(after_hand(turn, ALL, {3, 6}), ALL, {3, 6})
    assert turn.holder == 3 and turn.offer_from == 7  # wraps past 7 to 1, 2, 3


def test_empty_seats_are_skipped():
    assert offer_order(6, {2, 4, 7}) == (7, 2, 4)
    assert first_turn({2, 4}, accepting={1, 2, 4}, offer_from=3).holder == 4


def test_nobody_accepts_no_hand_then_offered_again_from_the_same_seat():
    turn = first_turn(ALL, accepting=set(), offer_from=4)
    assert turn == BankTurn(holder=None, hands_left=0, offer_from=4) and not turn.dealable
    again = after_hand(turn, ALL, accepting={2, 5})
    assert again == BankTurn(holder=5, hands_left=2, offer_from=4)


@settings(max_examples=100, deadline=None)
@given(st.sets(st.integers(1, 7), min_size=1), st.data())
def test_property_every_turn_is_two_hands_by_an_accepting_seated_player(seated, data):
    accepting = data.draw(st.sets(st.sampled_from(sorted(seated)), min_size=1))
    turn = first_turn(seated, accepting)
    held = []
    for _ in range(30):
        assert turn.holder in accepting and turn.holder in seated
        held.append(turn.holder)
        turn = after_hand(turn, seated, accepting)
    runs = [held[i:i + 2] for i in range(0, len(held), 2)]
    assert all(a == b for a, b in runs)  # two hands a turn
    order = sorted(accepting)
    for (a, _), (b, _) in zip(runs, runs[1:]):  # the next accepting seat clockwise
        assert b == order[(order.index(a) + 1) % len(order)]
