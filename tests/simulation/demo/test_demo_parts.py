"""The demo's pure parts, without a rig: the optimal Fu Bacc decider against the strategy
table, the seeded choices, the initial deal sizes that place faults, the JSON line pieces and
the live view's rendering of captured state."""
import io
import re

import pytest

from games.clauses import CLAUSES
from games.fubacc.demo import OptimalFuBacc, optimal_action
from games.fubacc.strategy import optimal_strategy
from games.registry import get_game
from simulation.demo.choices import FAULT_KINDS, Choices
from simulation.demo.colour import colour_wanted, paint
from simulation.demo.faults import initial_deal_size
from simulation.demo.place import demo_directory
from simulation.demo.report import lamps_lit, shoe_order
from simulation.demo.view import ViewState, event_line, fit, history_token, lamp_groups, render, short_paths

SGR = re.compile(r"\x1b\[[0-9;]*m")
CARD_OF_POINT = {0: "Kd", 1: "Ad", **{p: f"{p}d" for p in range(2, 10)}}


def test_optimal_action_is_the_strategy_table_for_every_situation():
    for choice in optimal_strategy(1):
        low, high = choice.situation.hand
        hand = [CARD_OF_POINT[high], CARD_OF_POINT[low].replace("d", "c")]  # high first: order is irrelevant
        assert optimal_action(hand, CARD_OF_POINT[choice.situation.up].replace("d", "h")) == choice.action


def test_the_decider_splits_play_hit_into_the_two_panel_decisions():
    decider = OptimalFuBacc()
    hands = {"spot2": ["4c", "Ah", "9s"], "dealer": ["7d", "2c", "Kh"]}  # a 5 against an up 7
    action = optimal_action(hands["spot2"], "7d")
    first, _, then = action.partition(",")
    assert decider.decide(2, ["fold", "play", "no_ante"], hands) == first
    if then:
        assert decider.decide(2, ["hit", "stay"], hands) == then


def test_the_decider_takes_the_bonus_where_it_is_best_and_refuses_an_impossible_option():
    decider = OptimalFuBacc()
    hands = {"spot1": ["Kc", "Qh", "2s"], "dealer": ["9d", "2c", "Kh"]}  # two monkeys against an up 9
    assert decider.decide(1, ["fold", "play", "bonus", "no_ante"], hands) == "bonus"
    with pytest.raises(ValueError, match="spot 1: the optimal 'bonus' is not among the options"):
        decider.decide(1, ["fold", "play", "no_ante"], hands)


@pytest.mark.parametrize("game, spots, size", [
    ("fortune6", None, 4), ("fafa4", None, 4), ("fortune7", None, 4),
    ("fubacc", [1, 3], 9), ("fubacc", [1, 2, 3, 4, 5, 6, 7], 24), ("paigow", [2], 14), ("paigow", [1, 4, 6], 28),
])
def test_initial_deal_size(game, spots, size):
    rules = get_game(game)
    assert initial_deal_size(rules, rules.default_decks, spots) == size


def test_choices_are_seeded_and_their_streams_independent():
    fubacc = get_game("fubacc")
    a, b = Choices(5, fubacc, 0.5), Choices(5, fubacc, 0.5)
    assert [a.live_spots() for _ in range(20)] == [b.live_spots() for _ in range(20)]
    assert [a.fault(9) for _ in range(20)] == [b.fault(9) for _ in range(20)]
    quiet, noisy = Choices(5, fubacc, 0.0), Choices(5, fubacc, 1.0)
    for _ in range(10):
        assert noisy.fault(9) is not None and quiet.fault(9) is None
    assert [Choices(5, fubacc, 0.0).live_spots() for _ in range(5)] == [Choices(5, fubacc, 1.0).live_spots() for _ in range(5)]
    plans = [Choices(seed, fubacc, 1.0).fault(9) for seed in range(200)]
    assert {p.kind for p in plans} == set(FAULT_KINDS) and all(0 <= p.before_card <= 9 for p in plans)
    assert all(s is None for s in (Choices(1, get_game("fortune6")).live_spots(),))
    for spots in (Choices(seed, fubacc).live_spots() for seed in range(50)):
        assert spots == sorted(set(spots)) and 1 <= len(spots) <= 7 and set(spots) <= set(range(1, 8))


def test_shoe_order_counts_each_card_once_in_draw_order():
    events = [
        {"event": "card", "round": 4, "card": "9h", "reconstructed": False},
        {"event": "card", "round": None, "card": "2c", "reconstructed": False},  # a burn card
        {"event": "card", "round": 4, "card": None, "reconstructed": False},  # unread (misread)
        {"event": "card", "round": 4, "card": "Kd", "reconstructed": True, "keyed_in": True},
        {"event": "card", "round": 4, "card": "JK", "status": "foreign", "reconstructed": False},
        {"event": "card", "round": 5, "card": "3s", "reconstructed": False},
    ]
    assert shoe_order(events, 4) == ["9h", None, "JK"]


def test_lamps_lit_in_id_order_with_the_blinking_ones():
    board = {"bet_banker": "on", "result": "on", "bet_tie": "slow", "supervisor": "fast", "bet_player": "off"}
    lit, blinking = lamps_lit("fortune6", board)
    assert lit == ["supervisor", "result", "bet_banker", "bet_tie"]
    assert blinking == {"supervisor": "fast", "bet_tie": "slow"}


def _fortune6_view() -> ViewState:
    view = ViewState("fortune6", 8, 7, fault_rate=0.2)
    view.status = {"state": "drawing", "shoe": {"number": 2, "remaining": 301}, "round": {"number": 12},
                   "hands": {"player": ["9h", "8d", "Kc"], "banker": ["As", "4c"]}}
    view.lamps = {"no_more_bets": "on", "bet_banker": "on", "bet_tie": "slow", "supervisor": "fast", "void": "off"}
    line = {"round": 11, "game": "fortune6", "void": False, "winner": "banker", "clause": None,
            "hands": {"player": {"cards": ["2h", "3d"], "total": 5}, "banker": {"cards": ["9s", "Kh"], "total": 9}},
            "bets": {"banker": {"result": "win", "pays": "1:1"}, "player": {"result": "lose", "pays": None}}}
    for token_line in ({**line, "winner": "player"}, {**line, "void": True, "clause": "fortune6 §5.1", "detail": "JK"}):
        view.round_ended(token_line)
    view.round_ended(line)
    view.note("round 10: VOID (fortune6 §5.1) by the table: JK is not a card of the standard52 deck")
    return view


def assert_fits(text: str, width: int = 80, height: int = 24) -> list[str]:
    lines = text.split("\n")
    assert len(lines) <= height and lines[0].startswith("tablectl demo · "), text
    assert all(len(line) <= width for line in lines), [line for line in lines if len(line) > width]
    return lines


def test_render_shows_hands_totals_lamps_by_group_history_and_clauses():
    view = _fortune6_view()
    view.note("round 12: extra_card (fortune6 §5.2): hold: Kd after the round was complete", "fortune6 §5.2")
    lines = assert_fits(render(view))
    assert lines[0] == "tablectl demo · fortune6 · 8 decks · seed 7 · faults 0.2 · Fortune Six Baccarat…"
    assert lines[1] == "shoe 2: 301 cards left · round 12 drawing · 3 played"
    assert any(line.split() == ["player", "9h", "8d", "Kc", "=", "7"] for line in lines)  # a total, not a card
    assert any(line.split() == ["banker", "As", "4c", "=", "5"] for line in lines)
    assert "lit  result: banker tie(slow)" in lines
    assert "     status: no_more_bets supervisor(fast)" in lines
    assert "round 11: banker wins · player 5 · banker 9" in lines
    assert "  banker win 1:1, player lose" in lines
    assert "history  P V B" in lines
    assert "round 10: VOID (fortune6 §5.1) by the table: JK is not a card of the standard52" in lines
    noted = lines.index("round 12: extra_card (fortune6 §5.2): hold: Kd after the round was complete")
    said = " ".join(line.strip() for line in lines[noted + 1:])
    assert said.startswith(f"= {CLAUSES['fortune6 §5.2'].says}")  # what the clause says, beside it (wrapped)


def test_a_push_reads_push_once():
    view = ViewState("fortune6", 8, 7)
    view.round_ended({"round": 1, "game": "fortune6", "void": False, "winner": "tie", "clause": None,
                      "hands": {"player": {"cards": [], "total": 7}, "banker": {"cards": [], "total": 7}},
                      "bets": {"player": {"result": "push", "pays": "push"}, "tie": {"result": "win", "pays": "8:1"}}})
    assert "  player push, tie win 8:1" in render(view).split("\n")


def test_render_of_a_spot_game_and_of_a_void():
    view = ViewState("paigow", 1, 3)
    view.lamps = {"spot2": "fast", "spot2_standard": "on", "result": "on"}
    view.round_ended({"round": 1, "game": "paigow", "void": False, "winner": None, "bets": {},
                      "hands": {"dealer": {"cards": [], "total": "Pair of 6s / K-Q"}},
                      "spots": {"2": {"decision": "house", "high": {"total": "Straight"}, "low": {"total": "Pair of 4s"},
                                      "bets": {"standard": {"result": "win", "pays": "1:1 less 5%"}}},
                                "5": {"decision": "house", "high": {"total": "Flush"}, "low": {"total": "A-K"},
                                      "bets": {"standard": {"result": "lose", "pays": None}}}}})
    text = render(view)
    assert "     status: result  spots: 2(fast)" in text and "lit  result: 2:standard" in text
    assert "  spot 2 [house]: Straight / Pair of 4s · standard win 1:1 less 5%" in text
    assert "  spot 5 [house]: Flush / A-K · all lose" in text
    assert "history  1/2" in text and "(no cards yet)" in text
    view.round_ended({"round": 2, "game": "paigow", "void": True, "winner": None, "bets": {},
                      "clause": "paigow §5.1", "detail": "A-fire is not a card of the joker53 deck"})
    text = render(view)
    assert "round 2: VOID (paigow §5.1): A-fire is not a card of the joker53 deck" in text
    assert f"  {CLAUSES['paigow §5.1'].says}" in text
    assert history_token(view.last) == "V"


def _seven_spots_view() -> ViewState:
    view = ViewState("fubacc", 1, 5, fault_rate=0.5)
    view.status = {"state": "awaiting_decisions", "shoe": {"number": 1, "remaining": 28}, "round": {"number": 9},
                   "hands": {**{f"spot{n}": ["Kd", "4d", "8c"] for n in range(1, 8)}, "dealer": ["7h", "Qs", "2c"]}}
    view.lamps = {"no_more_bets": "on", **{f"spot{n}": "on" for n in range(1, 8)}, "spot3": "fast"}
    spots = {str(n): {"decision": "play,hit", "hand": {"total": n}, "bets": {
        "ante": {"result": "win" if n % 2 else "lose", "pays": "1:1" if n % 2 else None},
        "play": {"result": "win" if n % 2 else "lose", "pays": "1:1" if n % 2 else None},
        "lucky_monkey": {"result": "lose", "pays": None}, "tie": {"result": "lose", "pays": None}}} for n in range(7, 0, -1)}
    view.round_ended({"round": 8, "game": "fubacc", "void": False, "winner": None, "bets": {},
                      "hands": {"dealer": {"cards": [], "total": 4}}, "spots": spots})
    for n in range(8):
        view.note(f"round 8: misread (local ruling L5): hold: card {n} (spot{n % 7 + 1}) left the shoe unread, "
                  "and a long explanation follows so that the line must wrap", "local ruling L5")
    return view


def test_seven_spots_fit_80x24_in_two_columns_and_pages():
    view = _seven_spots_view()
    first = assert_fits(render(view))
    assert first[3].startswith("  spot1   Kd 4d 8c") and "spot5   Kd 4d 8c" in first[3]  # two columns
    assert any("dealer  7h Qs 2c" in line for line in first)
    assert "round 8: dealer 4 · spots 1-4 of 7" in first
    assert "  spot 7 [play,hit]: 7 · ante win 1:1, play win 1:1" in first
    assert "  spot 6 [play,hit]: 6 · all lose" in first
    view.page += 1
    second = assert_fits(render(view))
    assert "round 8: dealer 4 · spots 5-7 of 7" in second and "  spot 1 [play,hit]: 1 · ante win 1:1, play win 1:1" in second
    assert first[-1] == second[-1] == "Ctrl-C stops the demo and every process it started"


@pytest.mark.parametrize("game", ["fortune6", "fubacc"])
@pytest.mark.parametrize("width, height", [(79, 24), (60, 20), (120, 40)])
def test_every_line_fits_and_words_are_whole(game, width, height):
    view = _seven_spots_view() if game == "fubacc" else _fortune6_view()
    said = " ".join(text + " " + summary for text, summary in view.log).split()
    for line in assert_fits(render(view, width, height), width, height):
        if line.startswith("round 8: misread") or line.startswith("  = "):  # the log: every word one that was said
            assert all(word in said for word in line.replace("…", "").split() if word != "="), line


def test_fit_cuts_at_a_word_boundary():
    assert fit("round 8: misread: card 3 left the shoe unread", 80) == "round 8: misread: card 3 left the shoe unread"
    assert fit("round 8: misread: card 3 left the shoe unread", 30) == "round 8: misread: card 3 left…"
    assert fit("round 8: misread: card 3 left the shoe unread", 28) == "round 8: misread: card 3…"
    assert len(fit("x" * 100, 10)) == 10


def test_the_burn_shows_how_many_cards_are_left_to_burn():
    view = ViewState("fortune6", 8, 7)
    view.status = {"state": "idle", "shoe": {"number": 1, "state": "burning", "burn_card": "9c", "burn_remaining": 8}}
    assert render(view).split("\n")[1] == "shoe 1 BURNING: 8 more to burn (first card 9c) · 0 played"
    view.status["shoe"].update(burn_card=None, burn_remaining=None)
    assert render(view).split("\n")[1] == "shoe 1 burning: turn the first card · 0 played"


def test_colour_where_it_helps_and_only_where_wanted(monkeypatch):
    text = "round 3: banker wins · player 5 · banker 9\n  player push, tie win 8:1\nround 4: VOID (x)\nhistory  P B T V 2/3"
    painted = paint(text)
    assert SGR.sub("", painted) == text  # the same characters
    assert "\x1b[31mbanker\x1b[0m" in painted and "\x1b[34mplayer\x1b[0m" in painted and "\x1b[32mtie\x1b[0m" in painted
    assert "\x1b[1;7;31mVOID\x1b[0m" in painted
    assert "history  \x1b[34mP\x1b[0m \x1b[31mB\x1b[0m \x1b[32mT\x1b[0m \x1b[1;7;31mV\x1b[0m 2/3" in painted
    assert paint("player_pair lose") == "player_pair lose"  # a bet key is not a side

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert colour_wanted(Tty()) and not colour_wanted(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour_wanted(Tty())


def test_event_lines_name_the_clause():
    assert event_line({"event": "irregularity", "round": 3, "kind": "misread", "clause": "local ruling L5",
                       "consequence": "hold", "detail": "card 3 (player) left the shoe unread"}) == \
        "round 3: misread (local ruling L5): hold: card 3 (player) left the shoe unread"
    assert event_line({"event": "held", "round": 3, "kind": "misread", "clause": "local ruling L5", "need": "card"}) == \
        "round 3: held for the supervisor (misread, local ruling L5): needs card"
    assert event_line({"event": "void", "round": 4, "clause": "fortune6 §5.4", "by": "supervisor",
                       "reason": "the supervisor voided"}) == "round 4: VOID (fortune6 §5.4) by the supervisor: the supervisor voided"
    assert event_line({"event": "shoe", "what": "cut_card", "shoe": 2}) == "shoe 2: the cut card is out"
    assert event_line({"event": "card", "round": 1, "card": "9h"}) is None


def test_a_path_in_a_detail_shows_its_last_part_only():
    path = "/home/ann/.local/state/tablectl/demo/shoe"
    detail = f"the shoe's link dropped mid-round: cannot open {path}: [Errno 2] No such file or directory: '{path}'"
    line = event_line({"event": "irregularity", "round": 4, "kind": "device_lost", "clause": "local ruling L4",
                       "consequence": "hold", "detail": detail})
    assert line == ("round 4: device_lost (local ruling L4): hold: the shoe's link dropped mid-round: cannot open …/shoe: "
                    "[Errno 2] No such file or directory: '…/shoe'")
    assert short_paths("spots 2/3 won · pays 5:1 · ~/x · a/b") == "spots 2/3 won · pays 5:1 · ~/x · a/b"  # not paths
    view = ViewState("fortune6", 8, 1)
    view.note(f"round 4: supervisor: reconstruct (device_lost, local ruling L4): {path} is back")
    assert view.log[-1][0] == "round 4: supervisor: reconstruct (device_lost, local ruling L4): …/shoe is back"


def test_the_summary_is_behind_while_the_daemon_has_ended_a_round_the_demo_has_no_line_for():
    view = _fortune6_view()  # the last line: round 11
    for state, number, behind in (("drawing", 12, False), ("result", 12, True), ("settled", 12, True),
                                  ("void", 12, True), ("settled", 11, False)):
        view.status = {"state": state, "round": {"number": number}}
        assert view.summary_behind() is behind, (state, number)
    assert not ViewState("fortune6", 8, 1).summary_behind()  # the daemon's first status: no round yet


def test_lamp_groups():
    groups = lamp_groups({"player_dealer_3": "on", "spot4": "on", "spot4_ante": "slow", "key": "on", "bet_tie": "off"})
    assert groups == {"result": ["spot4_ante(slow)"], "status": ["key"], "spots": ["player_dealer_3", "spot4"]}


def test_the_demo_directory_is_cleared_of_the_last_demo_locked_and_else_temporary(tmp_path):
    wanted = tmp_path / "demo"
    wanted.mkdir()
    for name in ("journal.sqlite", "journal.sqlite-wal", "journal.sqlite.anchor", "tablectl.toml", "daemon.err", "sim-shoe.out",
                 "notes.txt"):
        (wanted / name).write_text("the last demo's")
    with demo_directory(wanted) as (directory, why_not):
        assert (directory, why_not) == (wanted, "")
        assert [entry.name for entry in wanted.iterdir()] == ["notes.txt"]  # not the demo's: left alone
        with demo_directory(wanted) as (second, why_not):  # a second demo meanwhile
            assert second is None and why_not == f"another demo is running in {wanted}"
    with demo_directory(wanted) as (directory, _):  # the first one ended: free again
        assert directory == wanted
    deep = tmp_path / ("d" * 100)
    with demo_directory(deep) as (directory, why_not):
        assert directory is None and why_not == f"{deep} is too long a path for the demo's sockets"
