"""Commands at the wrong time or with bad arguments are refused with a clear message; every
command gets exactly one reply (Run.cmd checks it)."""
import pytest
from table_helpers import GAMES, Run

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.buttons import UnknownButton, command_for_button


def test_unknown_command_and_bad_arguments():
    run = Run()
    reply = run.cmd("shuffle")
    assert not reply.ok and "unknown command 'shuffle'" in reply.message and "place_bets" in reply.message
    run.send(i.Command("status", args=["x"]))
    assert "must be a mapping" in run.last[-1].message


@pytest.mark.parametrize("name, args, expected", [
    ("no_more_bets", {}, "no round is open"),
    ("confirm", {}, "no result to confirm"),
    ("decide", {"decision": "play"}, "no decision is awaited"),
    ("reconstruct", {}, "reconstruct needs the supervisor key"),
    ("misdeal", {}, "no dealt round"),
    ("player_dealer", {"seat": 2}, "fortune6 has no player-dealer position"),
    ("spots", {"spots": [1]}, "fortune6 is not dealt to spots"),
    ("select_spot", {"spot": 1}, "fortune6 is not dealt to spots"),
    ("place_bets", {}, "the burn is not finished: burn the first card"),
])
def test_commands_at_the_wrong_time_are_refused(name, args, expected):
    run = Run("fortune6")
    run.cmd("new_shoe")
    reply = run.cmd(name, **args)
    assert not reply.ok and expected in reply.message, reply.message
    assert reply.message.startswith(f"{name}: ")


def test_a_void_needs_the_key_a_round_and_a_clause():
    run = Run("fortune6")
    run.baccarat_shoe()
    assert "supervisor key" in run.cmd("void").message
    run.key()
    assert "no round in progress" in run.cmd("void").message
    run.open_round()
    run.card("2h")
    reply = run.cmd("void")
    assert not reply.ok and "kind=" in reply.message
    reply = run.cmd("void", kind="bogus")
    assert not reply.ok and "'bogus' is not an irregularity" in reply.message and "order_altered" in reply.message
    reply = run.cmd("void", kind="order_altered", reason="the dealer dropped the shoe")
    assert reply.ok and run.void()["clause"] == "fortune6 §5.4" and run.void()["reason"] == "the dealer dropped the shoe"
    run.key(False)
    assert run.lamps()["key"] == "off" and run.lamps()["void"] == "on"


def test_the_panels_void_button_voids_a_held_round_with_the_key_only():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.card("??", misread=True)
    run.send(command_for_button("fortune6", 4))
    assert not run.last[-1].ok
    run.key()
    run.send(command_for_button("fortune6", 4))
    assert run.last[-1].ok and run.void()["clause"] == "local ruling L5, fortune6 §5.4"


def test_new_shoe_mid_round_is_refused():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    reply = run.cmd("new_shoe")
    assert not reply.ok and "round 1 is in progress (bets_closed)" in reply.message


def test_bad_spots_name_the_bad_value():
    run = Run("fubacc")
    run.new_shoe()
    run.cmd("place_bets")
    assert "spot 9 is not a seat of fubacc (1-7)" in run.cmd("spots", spots=[1, 9]).message
    assert "is not a list of seat numbers" in run.cmd("spots", spots="1,x").message
    assert "names a spot twice" in run.cmd("spots", spots=[2, 2]).message
    assert "missing 'spots'" in run.cmd("spots").message
    assert "at least one live spot" in run.cmd("select_spot", spot=1).message  # would leave none live
    assert run.cmd("spots", spots="2, 4").ok and run.table.play.spots == (2, 4)


def test_a_decision_the_rules_do_not_allow_is_refused_with_its_clause():
    run = Run("fubacc")
    run.new_shoe()
    run.open_round()
    run.cards("2h", "3d", "4c", "Ks", "3s", "9d")
    reply = run.cmd("decide", decision="hit")
    assert not reply.ok and "fubacc procedures 6-8, 12-15" in reply.message
    reply = run.cmd("decide")
    assert not reply.ok and "missing 'decision' for spot 1" in reply.message
    assert run.state == m.AWAITING and run.cmd("decide", decision="fold").ok


def test_select_spot_outside_betting_and_decisions_is_refused():
    run = Run("paigow")
    run.new_shoe()
    run.open_round()
    reply = run.cmd("select_spot", spot=2)
    assert not reply.ok and "toggle live spots while betting" in reply.message
    assert "is not a number" in run.cmd("select_spot", spot="two").message


def test_status_is_a_snapshot():
    run = Run("fubacc")
    run.new_shoe()
    run.open_round()
    run.cards("2h", "3d", "4c", "Ks", "3s", "9d")
    fields = run.cmd("status").fields
    assert fields["state"] == m.AWAITING and fields["pending_decision"] == {
        "spot": 1, "options": list(run.table.play.awaited().options)}
    assert fields["hands"] == {"spot1": ["2h", "3d", "4c"], "dealer": ["Ks", "3s", "9d"]}
    assert fields["shoe"]["drawn"] == 6 and fields["lamps"]["spot1"] == "fast"
    assert set(fields) >= {"round", "spots", "held", "link_up", "supervisor_key", "attention", "player_dealer"}


@pytest.mark.parametrize("game", GAMES)
def test_every_button_of_every_panel_gives_one_reply(game):
    run = Run(game)
    from controller.table.buttons import button_list
    for button in button_list(game):
        effects = run.send(command_for_button(game, button.id))
        assert sum(type(e).__name__ == "Reply" for e in effects) == 1
    with pytest.raises(UnknownButton, match="button 99 is not on the"):
        command_for_button(game, 99)


def test_a_card_argument_that_is_not_a_card_is_refused_by_name():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.card("??", misread=True)
    run.key()
    reply = run.cmd("reconstruct", card=1)
    assert not reply.ok and "card: 1 is not a card" in reply.message
    reply = run.cmd("reconstruct", cards=["Kd", "Qd"])
    assert not reply.ok and "key in 1 card(s)" in reply.message and run.state == m.HELD


def test_a_table_that_cannot_be_built_says_why():
    from controller.table.settings import SettingsError, TableSettings
    from controller.table.table import Table
    from games.registry import UnknownGame
    with pytest.raises(UnknownGame, match="unknown game 'craps'"):
        Table("craps")
    with pytest.raises(ValueError, match=r"fortune7 is played with 8 deck\(s\), not 6"):
        Table("fortune7", decks=6)
    with pytest.raises(SettingsError, match="cut_card_rounds: -1 is not a count"):
        Table("fortune6", settings=TableSettings(cut_card_rounds=-1))
    with pytest.raises(SettingsError, match="spots: spot 7 is not a seat of paigow"):
        Table("paigow", settings=TableSettings(spots=(7,)))
    with pytest.raises(SettingsError, match="player_dealer_seat: 9 is not one of"):
        Table("fortune7", settings=TableSettings(player_dealer_seat=9))
