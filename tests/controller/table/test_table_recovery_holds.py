"""A round held for the supervisor when the daemon stops is held again after the restart: the
same hold (rule, detail, need, keyed cards, where it resumes to, the void clause) and the cards
waiting in it, in order, rebuilt from the journal; the supervisor resolves it as before. The
shoe's draw counter is still owed: cards it shows left meanwhile join the hold (ruling 24).
Where the journal cannot prove the hold, the round is void (local ruling L4) as before."""
import pytest
from table_helpers import Run, fortune6_dealing

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.effects import Journal
from controller.table.recovery import TableRecovery
from games.cards import parse_card


def records(effects) -> list[tuple[str, dict]]:
    return [(e.kind, dict(e.payload)) for e in effects if isinstance(e, Journal)]


def restored(run: Run, edit=None) -> Run:
    """A fresh table restored from `run`'s journal (each record through `edit` first, if given)."""
    written = records(run.effects)
    if edit is not None:
        written = [(kind, edit(kind, dict(p))) for kind, p in written]
    again = Run(run.game.key, decks=run.table.decks)
    again.last = again.table.restore(TableRecovery.from_journal(written))
    again.effects += again.last
    again.counter = run.counter
    return again


def hold_fields(run: Run) -> dict:
    hold = run.table.hold
    assert hold is not None
    return {**hold.to_json(), "void_rule": hold.void_rule, "rule": hold.rule,
            "pending": [(a.code, a.card, a.draw_counter, a.double_draw, a.misread, a.foreign) for a in hold.pending]}


def misread_with_cards_waiting() -> Run:
    """Fortune 6: 2h, 3c dealt; the third card misread (counter 6); 9s and Kd came out meanwhile."""
    run = fortune6_dealing()
    run.card("??", misread=True)
    run.cards("9s", "Kd")
    assert run.state == m.HELD and run.table.hold.need == "card"
    return run


def test_a_misread_hold_is_held_again_with_its_waiting_cards_and_keyed_in():
    run = misread_with_cards_waiting()
    again = restored(run)
    assert again.state == m.HELD and again.journal("recovered")[0]["outcome"] == "held for the supervisor"
    assert hold_fields(again) == hold_fields(run) and not again.journal("void")
    assert again.lamps()["supervisor"] == "fast"
    again.send(i.ShoeLinkRestored(draw_counter=run.counter))  # the counter agrees: nothing left meanwhile
    assert again.state == m.HELD and not again.journal("irregularity")
    assert again.table.shoe.snapshot() == run.table.shoe.snapshot()
    for table in (run, again):
        table.key()
        assert table.cmd("reconstruct", card="Kh").ok
        assert table.state == m.DRAWING  # player 2h Kh, banker 3c 9s: both on 2, player draws Kd, banker draws
        table.card("8d")
    assert again.journal("result")[-1]["cards"] == run.journal("result")[-1]["cards"] == [
        "2h", "3c", "Kh", "9s", "Kd", "8d"]
    assert again.journal("result")[-1]["bets"] == run.journal("result")[-1]["bets"]
    assert again.table.shoe.snapshot() == run.table.shoe.snapshot() and again.table.shoe.unknown == 0


def test_a_supervisor_void_after_the_restart_cites_the_holds_void_clause():
    again = restored(misread_with_cards_waiting())
    again.key()
    assert again.cmd("void", reason="the card is not on the table").ok
    void = again.void()
    assert (void["clause"], void["kind"], void["by"]) == ("local ruling L5, fortune6 §5.4", "order_altered", "supervisor")
    assert void["evidence"]["pending"] == [None, "9s", "Kd"]


def test_place_bets_is_refused_while_the_restored_hold_waits():
    again = restored(misread_with_cards_waiting())
    refused = again.cmd("place_bets")
    assert not refused.ok and "held for the supervisor (local ruling L5)" in refused.message


def test_a_double_draw_hold_is_ordered_after_the_restart():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.cards("2h", "3c", "Kh", "Kd")
    run.card("5s", double_draw=True)
    run.card("4d", double_draw=True)
    again = restored(run)
    assert again.state == m.HELD and again.table.hold.need == "order"
    assert hold_fields(again) == hold_fields(run)
    again.key()
    assert again.cmd("reconstruct", order=["4d", "5s"]).ok
    result = again.journal("result")[-1]
    assert result["hands"]["player"]["cards"] == ["2h", "Kh", "4d"] and result["hands"]["banker"]["cards"] == ["3c", "Kd", "5s"]


def test_a_missing_card_hold_of_ruling_24_survives_a_restart():
    run = fortune6_dealing()
    run.send(i.ShoeLinkLost("hang-up"))
    run.send(i.ShoeLinkRestored(draw_counter=6))  # one card left unheard: held to be keyed in
    held = run.irregularity()
    assert (held["clause"], run.table.hold.need) == ("fortune6 §5.2 (ruling 24)", "card")
    again = restored(run)
    assert again.state == m.HELD and hold_fields(again) == hold_fields(run)
    again.send(i.ShoeLinkRestored(draw_counter=6))
    again.counter = 6
    again.key()
    assert again.cmd("reconstruct", card="Kh").ok and again.state == m.DEALING
    again.cards("Kd", "9s", "8d")
    assert again.journal("result")[-1]["cards"] == ["2h", "3c", "Kh", "Kd", "9s", "8d"]
    again.key(False)
    assert again.cmd("confirm").ok


def test_an_extra_card_hold_after_the_result_resumes_to_the_result_it_had():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.cards("9h", "Kh", "Kd", "8d")
    run.card("5c")  # after the result: extra card, held under §5.2
    assert run.state == m.HELD and run.table.hold.resume_to == m.RESULT
    again = restored(run)
    assert again.state == m.HELD and hold_fields(again) == hold_fields(run)
    again.key()
    assert again.cmd("reconstruct").ok and again.state == m.RESULT
    assert again.lamps()["bet_player"] == "on" and not again.journal("result")  # the journaled result stands
    assert again.cmd("confirm").ok and again.journal("settled")


def test_cards_the_counter_shows_left_while_the_daemon_was_down_join_the_hold_as_if_heard():
    """Ruling 24: cards that left unheard while the round was held are what cards heard then
    would have been: they wait in the hold, and at its turn each is a missing card to key in."""
    run = fortune6_dealing()
    run.card("??", misread=True)  # counter 6
    again = restored(run)
    again.send(i.ShoeLinkRestored(draw_counter=8))  # 7 and 8 left while the daemon was down
    joined = again.irregularity()
    assert (joined["kind"], joined["clause"], joined["consequence"]) == ("missing_card", "fortune6 §5.2 (ruling 24)",
                                                                        "hold")
    assert again.state == m.HELD and again.table.hold.need == "card" and len(again.table.hold.pending) == 3
    assert again.table.shoe.drawn == run.table.shoe.drawn + 2 and not again.journal("void")
    again.key()
    assert again.cmd("reconstruct", card="Kh").ok  # the misread card; then card 7 is due and unseen
    held = again.irregularity()
    assert (held["kind"], held["clause"]) == ("missing_card", "fortune6 §5.2 (ruling 24)")
    assert again.state == m.HELD and again.table.hold.need == "card" and len(again.table.hold.pending) == 2
    assert again.cmd("reconstruct", card="9s").ok
    assert again.cmd("reconstruct", card="Kd").ok
    again.card("8d", 9)
    assert again.journal("result")[-1]["cards"] == ["2h", "3c", "Kh", "9s", "Kd", "8d"]
    assert again.table.shoe.unknown == 0


def test_the_joined_hold_itself_survives_a_second_restart():
    run = fortune6_dealing()
    run.card("??", misread=True)
    once = restored(run)
    once.send(i.ShoeLinkRestored(draw_counter=7))
    both = Run("fortune6")  # the journal across both daemons
    both.effects = [*run.effects, *once.effects]
    both.counter = 7
    twice = restored(both)
    assert twice.state == m.HELD and hold_fields(twice) == hold_fields(once)
    twice.key()
    assert twice.cmd("reconstruct", card="Kh").ok and twice.cmd("reconstruct", card="9s").ok
    assert twice.state == m.DRAWING and twice.table.play.hands() == {"player": ["2h", "Kh"], "banker": ["3c", "9s"]}


def test_a_counter_that_went_back_voids_the_restored_hold_l4():
    run = misread_with_cards_waiting()
    again = restored(run)
    again.send(i.ShoeLinkRestored(draw_counter=3))
    void = again.void()
    assert void["clause"] == "local ruling L4, fortune6 §5.4" and void["evidence"]["pending"] == [None, "9s", "Kd"]


def test_a_card_the_shoe_resends_after_the_restart_waits_in_the_hold():
    run = fortune6_dealing()
    run.card("??", misread=True)
    again = restored(run)
    again.card("9s")  # its counter, 7, proves nothing was missed; it waits
    assert again.state == m.HELD and [a.text for a in again.table.hold.pending] == [None, "9s"]
    assert again.journal("card")[-1]["status"] == "held"


# ---------------------------------------------------------------- what the journal cannot prove: void (L4)

def test_a_journal_written_before_holds_were_journaled_whole_voids_as_before():
    run = misread_with_cards_waiting()

    def without_hold(kind, p):
        p.pop("hold", None)
        if kind == "card":
            p.pop("foreign", None)
        return p
    again = restored(run, without_hold)
    void = again.void()
    assert void["clause"] == "local ruling L4, fortune6 §5.4" and again.state == m.VOID
    assert void["reason"] == ("the daemon stopped while the round was held for the supervisor; the journal does not "
                              "say what the hold waits for (written before holds were journaled whole) (local ruling L4)")
    again.cmd("new_shoe")  # nothing else is lost: the shoe and round number carry on
    assert again.table.round_no == run.table.round_no


def test_a_round_held_for_the_shoes_counter_at_the_stop_voids_l4_saying_so():
    run = fortune6_dealing()
    run.card("??", misread=True)
    run.send(i.ShoeLinkLost("hang-up"))
    run.key()
    run.cmd("reconstruct", card="Kh")
    assert run.table.hold.need == "counter"
    void = restored(run).void()
    assert void["clause"] == "local ruling L4, fortune6 §5.4" and "held for the shoe's draw counter" in void["reason"]


@pytest.mark.parametrize("field, value, why", [
    ("clause", "fortune6 §9.9", "which is no hold fortune6 names"),
    ("void_clause", "fortune6 §5.2", "not local ruling L5, fortune6 §5.4"),
    ("resume_to", m.DRAWING, "the journaled cards stand at dealing"),
    ("keyed", 5, "which local ruling L5 does not give"),
])
def test_a_hold_the_journal_does_not_prove_voids_l4_saying_why(field, value, why):
    def tampered(kind, p):
        if kind == "irregularity" and "hold" in p:
            p["hold"] = {**p["hold"], field: value}
        return p
    void = restored(misread_with_cards_waiting(), tampered).void()
    assert void["clause"] == "local ruling L4, fortune6 §5.4" and why in void["reason"]


def test_a_held_round_on_a_shoe_without_a_draw_counter_voids_l4():
    run = Run("fortune6")
    run.cmd("new_shoe")
    for token in ("2s", "Kd", "Qc"):
        run.send(i.Card(parse_card(token).code))  # no draw counter
    run.open_round()
    run.send(i.Card(0, misread=True))
    assert run.state == m.HELD
    void = restored(run).void()
    assert "keeps no draw counter" in void["reason"]


# ---------------------------------------------------------------- a crash after every input

def _held_rounds_feed() -> list:
    """Four Fortune 6 rounds, each held for the supervisor on the way: a misread with cards
    waiting, a late double draw, an extra card after the result, and a double draw with an
    unread card (ordered, then keyed in, then an extra card: holds that follow one another)."""
    counter = 0

    def card(token: str, **flags) -> i.Card:
        nonlocal counter
        counter += 1
        return i.Card(0 if token == "??" else parse_card(token).code, counter, **flags)

    def round_(*steps) -> list:
        return [i.Command("place_bets"), i.Command("no_more_bets"), *steps, i.Command("confirm")]
    return [
        i.ShoeLinkRestored(draw_counter=0), i.Command("new_shoe"), card("2s"), card("Kd"), card("Qc"),
        i.SupervisorKey(True),
        *round_(card("2h"), card("3c"), card("??", misread=True), card("9s"), card("Kd"),
                i.Command("reconstruct", {"card": "Kh"}), card("8d")),
        *round_(card("2h"), card("3c"), card("Kh"), card("Kd"), card("5s", double_draw=True),
                card("4d", double_draw=True), i.Command("reconstruct", {"order": ["4d", "5s"]})),
        *round_(card("9h"), card("Kh"), card("Kd"), card("8d"), card("5c"), i.Command("reconstruct")),
        *round_(card("2c"), card("3h"), card("Ks"), card("Qd"), card("5d", double_draw=True),
                card("??", double_draw=True, misread=True), card("7c"), i.Command("reconstruct"),
                i.Command("reconstruct", {"card": "4h"}), i.Command("reconstruct")),
    ]


def test_a_crash_after_any_input_of_held_rounds_changes_no_result():
    """For every crash point: restore from the journal written so far, the shoe's counter agrees,
    the supervisor's key is still on where it was, the rest of the inputs follow: the results are
    the uncrashed table's, nothing is void, and the shoe ends the same."""
    feed = _held_rounds_feed()
    plan = Run("fortune6")
    for inp in feed:
        plan.send(inp)
    expected = [(r["round"], r["cards"], r["bets"]) for r in plan.journal("result")]
    assert len(expected) == 4 and len(plan.journal("settled")) == 4 and not plan.journal("void")
    assert len([r for r in plan.journal("irregularity") if r["consequence"] == "hold"]) == 6
    for crash in range(1, len(feed)):
        before = Run("fortune6")
        for inp in feed[:crash]:
            before.send(inp)
        again = restored(before)
        again.send(i.ShoeLinkRestored(draw_counter=before.table.counter.last))
        if before.table.key_on:
            again.send(i.SupervisorKey(True))
        for inp in feed[crash:]:
            again.send(inp)
        got = [(r["round"], r["cards"], r["bets"]) for r in before.journal("result") + again.journal("result")]
        assert not again.journal("void"), (crash, again.void())
        assert sorted({x[0]: x for x in got}.values()) == expected, crash
        assert again.table.shoe.snapshot() == plan.table.shoe.snapshot(), crash
