"""The shoe integrity checks in the real daemon (local ruling L7), against the simulated shoe,
panel and lights on ptys: a shoe in factory order is caught within its first 10 cards, the
round in progress completes, the next round is refused naming L7 and how to clear it, the lamps
and `tablectl status` say so; the supervisor's accept (key on) clears it and play goes on,
without the key it is refused; a new shoe clears it too; a shoe dealt again from the same seed
is caught within 12 cards; a restart keeps an unanswered alarm; fair shoes raise none."""
from __future__ import annotations

import pytest

from cli import main
from games.cards import Card, DeckKind

pytestmark = pytest.mark.hil

# The common US new-deck order (A-K spades, A-K diamonds, K-A clubs, K-A hearts), eight decks.
NEW_DECK = ([Card(r, "s") for r in range(1, 14)] + [Card(r, "d") for r in range(1, 14)]
            + [Card(r, "c") for r in range(13, 0, -1)] + [Card(r, "h") for r in range(13, 0, -1)])
FACTORY_SHOE = " ".join(str(c) for c in NEW_DECK * 8)


def integrity_alarms(rig) -> list:
    return [r for r in rig.records() if r.kind == "irregularity" and r.payload.get("kind") == "shoe_integrity"]


def factory_alarm(start_rig):
    """Fortune 6, the shoe in factory order: the burn (As, then 2s), round 1 (3s-6s: a player
    natural), round 2 opens and its first card, the shoe's 7th, raises the alarm."""
    rig = start_rig("fortune6", seed=4)
    rig.new_shoe(cards=FACTORY_SHOE)
    assert rig.play_round()["event"] == "result" and not integrity_alarms(rig)
    mark = rig.events.mark()
    rig.open_round()
    rig.draw(1)
    event = rig.events.wait_for("irregularity", after=mark, kind="shoe_integrity")
    return rig, event


def test_a_factory_order_is_caught_the_round_completes_and_the_next_is_refused(start_rig, capsys):
    rig, event = factory_alarm(start_rig)
    assert event["check"] == "unshuffled" and event["clause"] == "local ruling L7" and event["round"] == 2
    evidence = event["evidence"]
    assert evidence["cards"] == ["As", "2s", "3s", "4s", "5s", "6s", "7s"] and evidence["draw_counters"] == list(range(1, 8))
    assert max(evidence["positions"]) <= 10 and evidence["probability"] <= 1e-6 / 3
    [record] = integrity_alarms(rig)
    assert record.payload["consequence"] == "block" and record.round == 2 and record.payload["evidence"] == evidence
    rig.wait_lamps({"error": "slow", "supervisor": "off", "no_more_bets": "on"})  # round 2 goes on
    end = rig.finish_round()
    assert end["event"] == "result" and end["round"] == 2  # completed normally, and settled
    rig.wait_lamps({"error": "slow", "supervisor": "fast"})
    refused = rig.press("place_bets")
    assert not refused["ok"] and "local ruling L7" in refused["message"]
    assert "accept_shoe" in refused["message"] and "new_shoe" in refused["message"]
    assert main(["status", "--socket", rig.socket_path]) == 0
    out = capsys.readouterr().out
    assert "NO ROUND    local ruling L7: shoe 1 failed the integrity check unshuffled" in out
    assert "shoe failed an integrity check: waits for the supervisor (local ruling L7)" in out.splitlines()[0]
    assert rig.notify.wait_for(lambda m: "local ruling L7" in m.fields.get("STATUS", ""), timeout=10)

    without = rig.press("accept_shoe")
    assert not without["ok"] and "supervisor key" in without["message"]
    rig.key(True)
    accepted = rig.press("accept_shoe")
    assert accepted["ok"] and "accepted" in accepted["message"]
    rig.key(False)
    records = rig.records()
    [at] = [n for n, r in enumerate(records) if r.kind == "shoe" and r.payload["event"] == "accepted"]
    assert records[at].payload["answers"][0]["check"] == "unshuffled"
    given = records[at - 1]  # who gave it: the command's own record, in the same commit
    assert given.kind == "device" and given.payload["by"] == {"source": "panel", "button": 8}
    rig.wait_lamps({"error": "off", "supervisor": "off"})
    assert rig.play_round()["event"] == "result"  # the game goes on


def test_a_new_shoe_clears_it(start_rig, capsys):
    rig, _ = factory_alarm(start_rig)
    rig.finish_round()
    rig.new_shoe(seed=77)
    new = [r for r in rig.records() if r.kind == "shoe" and r.payload["event"] == "new"][-1]
    assert new.payload["shoe"] == 2 and [a["check"] for a in new.payload["answers"]] == ["unshuffled"]
    assert rig.play_round()["event"] == "result"
    assert len(integrity_alarms(rig)) == 1
    assert main(["shoe", "report", "--shoe", "1", "--journal", str(rig.journal_path)]) == 0
    out = capsys.readouterr().out
    assert "ANSWERED unshuffled (local ruling L7): a new shoe called by panel button 5 at " in out


def test_a_restart_with_an_unanswered_alarm_still_blocks(start_rig):
    rig, _ = factory_alarm(start_rig)
    rig.finish_round()
    rig.restart_daemon()
    status = rig.status()
    assert status["integrity"]["blocked"] and status["integrity"]["waiting"][0]["check"] == "unshuffled"
    rig.wait_lamps({"error": "slow", "supervisor": "fast"})
    refused = rig.press("place_bets")
    assert not refused["ok"] and "local ruling L7" in refused["message"]
    assert len(integrity_alarms(rig)) == 1  # fed again at start-up, the shoe raised nothing new
    rig.key(True)
    assert rig.send("accept_shoe")["ok"]  # over the socket: the command record names the user
    rig.key(False)
    given = [r for r in rig.records() if r.kind == "command" and r.payload["name"] == "accept_shoe"][-1]
    assert given.payload["by"]["source"] == "socket" and "uid" in given.payload["by"]
    assert rig.play_round()["event"] == "result"


def test_a_shoe_dealt_again_from_the_same_seed_is_caught_within_12_cards(start_rig):
    rig = start_rig("fortune6", seed=9)
    rig.new_shoe(seed=1234)
    for _ in range(3):
        assert rig.play_round()["event"] == "result"
    rig.load_shoe(seed=1234)  # the same shuffle again
    mark = rig.events.mark()
    assert rig.press("new_shoe")["ok"]
    drawn = 0
    while rig.events.find("irregularity", after=mark, kind="shoe_integrity") is None and drawn < 12:
        rig.draw(1)
        drawn += 1
    event = rig.events.wait_for("irregularity", after=mark, kind="shoe_integrity", timeout=5)
    assert event["check"] == "replayed" and drawn <= 12 and event["evidence"]["evidence"]["replays"] == ["shoe 1"]
    assert event["evidence"]["probability"] <= 1e-6 / 3
    while rig.status()["shoe"]["state"] == "burning":
        rig.draw(1)
    refused = rig.press("place_bets")
    assert not refused["ok"] and "replayed" in refused["message"]


@pytest.mark.parametrize("game, decks, cut_card", [("fortune6", 4, 120), ("paigow", None, None)])
def test_a_fair_shoe_plays_through_with_no_alarm(start_rig, game, decks, cut_card):
    rig = start_rig(game, seed=31, decks=decks)
    if cut_card is not None:  # a 4-deck shoe dealt to its cut card and finished
        rig.new_shoe(seed=32, cut_card=cut_card)
        while rig.status()["shoe"]["state"] != "finished":
            assert rig.play_round()["event"] == "result"
    else:  # a deck per round: every deck is a shoe of its own
        for _ in range(15):
            assert rig.play_round()["event"] == "result"
    assert not integrity_alarms(rig) and not rig.status()["integrity"]["blocked"]


def test_the_cards_of_each_deck_kind_in_factory_order_are_caught(start_rig):
    """Pai Gow (a deck per round, 53 cards with the joker): a deck in factory order is caught in
    the round it is dealt, and blocks the next deck until accepted."""
    rig = start_rig("paigow", seed=2)
    deck = " ".join(str(c) for c in DeckKind.PAIGOW53.cards)
    mark = rig.events.mark()
    rig.load_shoe(cards=deck)  # the next round is dealt from it (the rig loads no other over an untouched deck)
    assert rig.play_round(spots=[1])["event"] == "result"
    event = rig.events.wait_for("irregularity", after=mark, kind="shoe_integrity")
    assert event["check"] == "unshuffled" and event["evidence"]["shoe"] == "shoe 1 deck 1"
    assert max(event["evidence"]["positions"]) <= 10
    assert not rig.press("place_bets")["ok"]
    rig.key(True)
    assert rig.press("accept_shoe")["ok"]
    rig.key(False)
    assert rig.play_round(spots=[1])["event"] == "result"
