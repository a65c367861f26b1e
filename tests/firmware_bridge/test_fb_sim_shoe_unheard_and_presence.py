"""The shoe simulator's faults for the HIL suite (tests/hil): a card the reader missed but the
draw counter counted (`unheard`: the host sees a gap), and the shoe taken out of its place
and put back (`remove` / `insert`: SHOE_STATUS's present flag). A real pty, a tiny host."""
from firmware_bridge.link_events import Connected
from firmware_bridge.messages import CardRead, ShoeStatus
from games.cards import parse_card


def connected(start_sim, open_host, *args):
    shoe = start_sim("shoe", *args)
    host = open_host(shoe.link)
    host.wait_event(Connected)
    return shoe, host


def test_an_unheard_card_is_counted_but_never_sent(start_sim, open_host):
    shoe, host = connected(start_sim, open_host, "--cards", "As Kd 9h 8c")
    shoe.ok("draw")
    assert shoe.ok("fault", kind="unheard")["next_draw"] == "unheard"
    reply = shoe.ok("draw", n=2)
    assert [(d["card"], d["counter"], d.get("unheard", False)) for d in reply["drawn"]] == [
        ("Kd", 2, True), ("9h", 3, False)]
    cards = host.wait_messages(CardRead, 2)
    assert [(c.draw_counter, c.code) for c in cards] == [(1, parse_card("As").code), (3, parse_card("9h").code)]
    state = shoe.ok("state")
    assert state["draw_counter"] == 3 and state["dealt"] == 3 and state["next_draw_faults"] == []


def test_remove_and_insert_report_the_present_flag(start_sim, open_host):
    shoe, host = connected(start_sim, open_host, "--seed", "4")
    assert shoe.ok("fault", kind="remove")["present"] is False
    (status,) = host.wait_messages(ShoeStatus)
    assert not status.present and not status.door_open
    assert shoe.ok("state")["present"] is False
    assert shoe.ok("fault", kind="insert")["present"] is True
    (status,) = host.wait_messages(ShoeStatus)
    assert status.present
