"""Shoes read back from journals written with Journal directly (every odd case on purpose):
loads and labels, burn and cut card, keyed-in and re-dealt cards, counts against the decks,
rounds, voids and holds, integrity recomputed against earlier shoes, pace; and the CLI."""
import json
import random
import subprocess
import sys
from fractions import Fraction

import pytest

from controller.journal.shoe_report import NoSuchShoe, shoe_report
from controller.journal.shoes import add_to_history, iter_loads, shoe_history
from games.cards import DeckKind
from games.integrity import Check, ShoeHistory
from simulation.rig.processes import ROOT, child_env

NEW_DECK_ORDER = [str(c) for c in DeckKind.STANDARD52.cards]  # As..Ks, Ah..Kh, ...


def fair_cards(rng: random.Random) -> list[str]:
    """An 8-deck shoe, shuffled."""
    cards = [str(c) for c in DeckKind.STANDARD52.cards] * 8
    rng.shuffle(cards)
    return cards


def tablectl(*args):
    return subprocess.run([sys.executable, "-c", "import sys; from cli import main; sys.exit(main())", *args],
                          cwd=ROOT, env=child_env(), capture_output=True, text=True, timeout=60)


class Table:
    """Writes what the daemon writes, card by card, with a running draw counter."""

    def __init__(self, journal, game="fortune6", decks=8):
        self.journal, self.counter, self.rounds, self.shoe = journal, 0, 0, 0
        journal.append("daemon_started", {"game": game, "decks": decks, "pid": 1})
        self.game, self.decks = game, decks

    def new_shoe(self, burn=(), event="new"):
        self.shoe += event == "new"
        self.journal.append("shoe", {"event": event, "shoe": self.shoe}, durable=event == "new")
        for card in burn:
            self.card(card, "burn")
        if burn:
            self.journal.append("shoe", {"event": "burn_done", "shoe": self.shoe}, durable=True)

    def card(self, card, status="dealt", round_no=None, skip=0, **extra):
        self.counter += 1 + skip
        self.journal.append("card", {"round": round_no, "card": card, "code": None, "status": status,
                                     "draw_counter": self.counter, "reconstructed": False, "keyed_in": False,
                                     "hand": None, "position": None, **extra})

    def round(self, cards, result=None, void=None, spots=()):
        self.rounds += 1
        n = self.rounds
        self.journal.append("round_opened", {"round": n, "game": self.game, "decks": self.decks, "shoe": self.shoe,
                                             "spots": list(spots)})
        for card in cards:
            self.card(card, round_no=n)
        if void:
            self.journal.append("void", {"round": n, **void}, durable=True)
        else:
            self.journal.append("result", {"round": n, **(result or RESULT)}, durable=True)
            self.journal.append("settled", {"round": n}, durable=True)
        return n


RESULT = {"winner": "banker", "hands": {}, "bets": {"banker": {"result": "win", "pays": "1:1"},
                                                   "player": {"result": "lose", "pays": None}}}


def test_loads_labels_burn_cut_card_keyed_in_and_redealt_cards(journal):
    table = Table(journal)
    table.new_shoe(burn=["3s", "Ah", "2c", "7d"])
    table.round(["As", "Kd", "9h", "8c"])
    n = table.round([])
    table.card(None, "misread", n, misread=True)
    journal.append("irregularity", {"round": n, "kind": "misread", "clause": "local ruling L5", "consequence": "hold",
                                    "detail": "card 1 (player) left the shoe unread"})
    journal.append("card", {"round": n, "card": "5s", "status": "dealt", "reconstructed": True, "keyed_in": True,
                            "draw_counter": table.counter})
    journal.append("card", {"round": n, "card": "5s", "status": "dealt", "reconstructed": True, "keyed_in": False,
                            "draw_counter": table.counter})
    table.card("4d", round_no=n)
    journal.append("shoe", {"event": "cut_card", "shoe": 1}, durable=True)
    journal.append("shoe", {"event": "burn", "shoe": 1, "cards": ["Qc"]})  # an old journal's listed burn
    table.round(["6h", "6d", "Jc", "Qd"], void={"clause": "fortune6 §5.2", "reason": "extra card"})
    loads = list(iter_loads(journal.path))
    assert [load.label for load in loads] == ["shoe 1"]
    load = loads[0]
    assert [c.card for c in load.cards] == ["3s", "Ah", "2c", "7d", "As", "Kd", "9h", "8c", "5s", "4d", "Qc",
                                            "6h", "6d", "Jc", "Qd"]
    assert [c.burn for c in load.cards][:5] == [True] * 4 + [False] and load.cards[10].burn
    assert load.cards[8].keyed_in and load.cut_after == 10 and load.rounds == [1, 2, 3]
    report = shoe_report(journal.path)
    assert report.shoe == 1 and report.game == "fortune6" and report.decks == 8 and not report.finished
    rec = report.reconciliation[0]
    assert (rec.size, rec.read, rec.unread, rec.counter_gaps, rec.left) == (416, 15, 0, 0, 401) and rec.ok
    assert rec.counts["As"] == 1 and rec.counts["Ks"] == 0 and len(rec.counts) == 52
    assert [r.status for r in report.rounds] == ["settled", "settled", "void"]
    assert report.winners == {"banker": 2, "void": 1}
    assert report.bets == {"banker": {"win 1:1": 2}, "player": {"lose": 2}}
    assert report.voids == [{"round": 3, "clause": "fortune6 §5.2", "reason": "extra card"}]
    assert [h["clause"] for h in report.holds] == ["local ruling L5"] and len(report.irregularities) == 1
    assert report.pace.rounds == 3 and len(report.pace.between_rounds_s) == 2 and report.pace.hands_per_hour > 0


def test_counts_beyond_the_decks_unread_cards_and_counter_gaps_are_reported(journal):
    table = Table(journal, decks=4)
    table.new_shoe()
    table.round(["As"] * 5 + ["Kd"])  # five Aces of spades in four decks
    n = table.round(["2s", "3s"])
    table.card(None, "misread", n)
    table.card("4s", round_no=n, skip=2)  # the counter jumped: two cards unheard
    table.card("4-gold", "foreign", n)
    rec = shoe_report(journal.path).reconciliation[0]
    assert rec.over == {"As": 1} and rec.foreign == ["4-gold"] and (rec.unread, rec.counter_gaps) == (1, 2)
    assert not rec.ok and rec.left == 208 - 10 - 1 - 2
    out = tablectl("shoe", "report", "--journal", str(journal.path))
    assert out.returncode == 0, out.stderr
    assert "As: 1 more than 4 deck(s) hold" in out.stdout and "4-gold: not a card of these decks" in out.stdout
    assert "NOT RECONCILED" in out.stdout and "1 unread, 2 unheard" in out.stdout


def test_integrity_is_recomputed_against_every_earlier_shoe(journal):
    """Shoe 1 fair, shoe 2 in factory order, shoe 3 replays shoe 1: each report names its alarm."""
    fair = fair_cards(random.Random(3))
    table = Table(journal)
    for cards in (fair, NEW_DECK_ORDER * 8, fair):
        table.new_shoe()
        for start in range(0, 60, 6):
            table.round(cards[start:start + 6])
        journal.append("shoe", {"event": "finished", "shoe": table.shoe}, durable=True)
    checks = {n: {a.check for load in shoe_report(journal.path, n).integrity for a in load.alarms} for n in (1, 2, 3)}
    assert checks == {1: set(), 2: {Check.UNSHUFFLED}, 3: {Check.REPLAYED}}
    report = shoe_report(journal.path, 3)
    assert report.finished and [s.check for s in report.integrity[0].statistics] == list(Check)
    alarm = report.integrity[0].alarms[0]
    assert alarm.evidence["replays"] == ["shoe 1"] and alarm.draw_counters[0] == 121  # counters run on
    history, last = shoe_history(journal.path)
    assert history.shoes == 2 and last.label == "shoe 3" and history.previous.label == "shoe 2"
    assert len(last.cards) == 60 and len(history.previous.numbers) == 60
    text = tablectl("shoe", "report", "--journal", str(journal.path), "--shoe", "2")
    assert "ALARM unshuffled (local ruling L7)" in text.stdout, text.stdout + text.stderr
    data = json.loads(tablectl("shoe", "report", "--journal", str(journal.path), "--json").stdout)
    assert data["shoe"] == 3 and data["integrity"][0]["alarms"][0]["check"] == "replayed"
    # a looser rate is taken exactly; shoe 1 then shows its smallest probabilities against it
    loose = shoe_report(journal.path, 1, Fraction(1, 10))
    assert loose.integrity[0].statistics[0].level == Fraction(1, 30)


def test_the_start_up_history_reads_openings_and_equals_folding_every_record(journal):
    """shoe_history reads each older shoe's opening only; its index, previous shoe and shoe in
    play are those of the whole journal folded, a keyed-in card among the openings included."""
    rng = random.Random(9)
    table = Table(journal)
    for _ in range(6):
        cards = fair_cards(rng)
        table.new_shoe(burn=cards[:3])
        n = table.round([])
        table.card(None, "misread", n)
        journal.append("card", {"round": n, "card": cards[3], "status": "dealt", "reconstructed": True,
                                "keyed_in": True})
        for start in range(4, 100, 6):
            table.round(cards[start:start + 6])
    history, last = shoe_history(journal.path)
    full = ShoeHistory()
    loads = list(iter_loads(journal.path))
    for load in loads[:-1]:
        add_to_history(full, load)
    index, whole = history.index(DeckKind.STANDARD52, 8), full.index(DeckKind.STANDARD52, 8)
    assert len(index) == len(whole) == 5 and index._openings == whole._openings
    assert all(index.probability(k) == whole.probability(k) for k in range(1, 17))
    assert history.previous == full.previous and len(history.previous.numbers) == 100
    assert [c.card for c in last.cards] == [c.card for c in loads[-1].cards] and last.cards[3].keyed_in


def test_deck_per_round_decks_are_loads_of_one_shoe(journal):
    table = Table(journal, game="paigow", decks=1)
    table.new_shoe()
    for n in range(3):
        table.new_shoe(event="new_deck")
        table.round(NEW_DECK_ORDER[n * 14:(n + 1) * 14], result={"winner": None, "bets": {}, "spots": {
            "1": {"bets": {"fortune_bonus": {"result": "lose", "pays": None}}}}}, spots=[1])
    loads = list(iter_loads(journal.path))
    assert [load.label for load in loads] == ["shoe 1", "shoe 1 deck 1", "shoe 1 deck 2", "shoe 1 deck 3"]
    assert loads[1].cards_to_deal() == 14 and loads[1].spots == [1]
    report = shoe_report(journal.path)
    assert [load.label for load in report.loads] == ["shoe 1 deck 1", "shoe 1 deck 2", "shoe 1 deck 3"]
    assert all(r.ok and r.size == 53 and r.left == 39 for r in report.reconciliation)
    assert report.bets == {"fortune_bonus": {"lose": 3}}
    assert [[a.check for a in load.alarms] for load in report.integrity] == [[Check.UNSHUFFLED]] * 3
    text = tablectl("shoe", "report", "--journal", str(journal.path)).stdout
    assert "shoe 1 deck 2 (round 2):" in text and "3 decks, 3 with every card read once" in text


def test_no_shoe_and_bad_options_are_clear_errors(journal, tmp_path):
    Table(journal)
    with pytest.raises(NoSuchShoe, match="no shoe yet"):
        shoe_report(journal.path)
    out = tablectl("shoe", "report", "--journal", str(journal.path), "--shoe", "3")
    assert out.returncode == 1 and "tablectl shoe: the journal has no shoe yet; no shoe 3" in out.stderr
    out = tablectl("shoe", "report", "--journal", str(journal.path), "--false-alarm-rate", "2")
    assert out.returncode == 2 and "must be between 0 and 1" in out.stderr
    out = tablectl("shoe", "report", "--journal", str(tmp_path / "none.sqlite"))
    assert out.returncode == 1 and "no journal at" in out.stderr


def test_the_start_up_history_can_keep_only_the_most_recent_shoes(journal):
    """shoe_history(keep=N): the openings of the N loads before the one in play, read from the
    newest shoe record backwards; what it keeps equals folding every load through a history
    that keeps N (as the daemon's does while it runs), the load before the one in play is kept
    whole, and the shoe in play is whole whatever N is."""
    rng = random.Random(4)
    table = Table(journal)
    for _ in range(7):
        cards = fair_cards(rng)
        table.new_shoe(burn=cards[:3])
        for start in range(3, 40, 6):
            table.round(cards[start:start + 6])
    loads = list(iter_loads(journal.path))
    for keep in (0, 1, 3, 6, 50):
        history, last = shoe_history(journal.path, keep=keep)
        kept = ShoeHistory(limit=keep)
        for load in loads[:-1]:
            add_to_history(kept, load)
        index, expected = history.index(DeckKind.STANDARD52, 8), kept.index(DeckKind.STANDARD52, 8)
        assert history.shoes == len(index) == min(keep, 6) and index._openings == expected._openings
        assert history.previous == kept.previous and history.previous.label == "shoe 6"
        assert all(index.probability(k) == expected.probability(k) for k in range(1, 17))
        assert last is not None and last.label == "shoe 7" and len(last.cards) == len(loads[-1].cards)
