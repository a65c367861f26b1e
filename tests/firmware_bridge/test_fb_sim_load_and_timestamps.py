"""Additions the daemon's rig and benchmarks use: the shoe's `load` (a new shoe or a
shuffler's next deck goes in; the draw counter carries on) and the timestamps the sims
report (the shoe's `written_at` for a draw, the lights' `changed_at` for a lamp change),
tested as separate processes on real ptys with a tiny host."""
import time

from firmware_bridge.enums import LampPattern
from firmware_bridge.link_events import Connected
from firmware_bridge.messages import CardRead, LampQuery, LampReport, LampSet, ShoeStatus
from firmware_bridge.sim.shoe import shuffled_shoe
from games.cards import DeckKind


def test_load_replaces_the_cards_and_the_counter_carries_on(start_sim, open_host):
    shoe = start_sim("shoe", "--cards", "As Kd", "--cut-card", "1")
    host = open_host(shoe.link)
    host.wait_event(Connected)
    shoe.ok("draw", n=2)
    assert [c.draw_counter for c in host.wait_messages(CardRead, 2)] == [1, 2]
    assert shoe.command("draw")["error"].startswith("draw: the shoe is empty")
    loaded = shoe.ok("load", seed=5, cut_card=3)
    assert loaded == {"ok": True, "cards": 8 * 52, "seed": 5, "cut_card": 3}
    statuses = host.wait_messages(ShoeStatus, 3)  # cut card seen, empty, then the new shoe's
    assert [(s.cut_card_seen, s.empty, s.draw_counter) for s in statuses] == [(True, False, 1), (True, True, 2),
                                                                              (False, False, 2)]
    drawn = shoe.ok("draw", n=4)["drawn"]
    expected = [str(card) for card in shuffled_shoe(DeckKind.STANDARD52, 8, 5)[:4]]
    assert [d["card"] for d in drawn] == expected and [d["counter"] for d in drawn] == [3, 4, 5, 6]
    assert shoe.ok("state")["cut_card_seen"]  # passed the reader with the fourth card
    assert shoe.ok("load", cards=["9h", "8d"])["cards"] == 2
    assert [d["card"] for d in shoe.ok("draw", n=2)["drawn"]] == ["9h", "8d"]


def test_load_names_what_is_wrong(start_sim):
    shoe = start_sim("shoe", "--seed", "1")
    assert shoe.command("load", cards="9h 1x")["error"].startswith("load: cards: bad card '1x': ")
    assert shoe.command("load", cards="9h", cut_card=5)["error"] == "load: cut_card 5: the shoe holds 1 cards"
    assert shoe.command("load", seed="x")["error"] == "load: seed='x' is not a whole number"


def test_draw_reports_when_its_frames_were_written(start_sim, open_host):
    shoe = start_sim("shoe", "--seed", "2")
    host = open_host(shoe.link)
    host.wait_event(Connected)
    before = time.monotonic()
    reply = shoe.ok("draw")
    host.wait_messages(CardRead)
    assert before <= reply["written_at"] <= time.monotonic()  # the same system-wide clock


def test_lights_report_when_the_last_change_arrived(start_sim, open_host):
    lights = start_sim("lights", "--lamps", "8")
    assert lights.ok("state")["changed_at"] is None
    host = open_host(lights.link)
    host.wait_event(Connected)
    before = time.monotonic()
    host.send(LampSet(3, LampPattern.ON))
    host.send(LampQuery())
    host.wait_messages(LampReport)
    state = lights.ok("state")
    assert state["changes"] == 1 and before <= state["changed_at"] <= time.monotonic()
    host.send(LampSet(3, LampPattern.ON))  # no change: the time stays
    host.send(LampQuery())
    host.wait_messages(LampReport)
    assert lights.ok("state")["changed_at"] == state["changed_at"]
