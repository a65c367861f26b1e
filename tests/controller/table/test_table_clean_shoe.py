"""A clean shoe for every game: burn, rounds, the cut card, one more round, shoe finished;
the table's results equal the games' own replay of the same cards."""
import random

import pytest
from table_helpers import BACCARAT, Run

from controller.table import machine as m
from controller.table.effects import Journal
from controller.table.inputs import CutCard, ShoeEmpty
from controller.table.table import Table
from games.cards import parse_card
from games.registry import get_game
from games.replay import play_json
from simulation.table_dealer import deal_shoe


@pytest.mark.parametrize("game", BACCARAT)
def test_burn_rounds_cut_card_one_more_round_then_finished(game):
    run = Run(game)
    refused = run.cmd("place_bets")
    assert not refused.ok and "no shoe" in refused.message
    assert run.lamps()["new_shoe"] == "slow"
    assert run.cmd("new_shoe").ok
    assert run.table.shoe.state == m.BURNING and run.lamps()["new_shoe"] == "on"
    refused = run.cmd("place_bets")
    assert not refused.ok and "burn" in refused.message
    run.cards(*(("2s", "Kd", "Qc") if game != "fafa4" else ("2-fire", "S-gold", "L-wood")))
    assert run.table.shoe.state == m.IN_PLAY and run.table.shoe.burned == 3
    assert [s["event"] for s in run.journal("shoe")] == ["new", "burn_done"]
    nine, eight = ("9h", "8d") if game != "fafa4" else ("9-fire", "8-gold")
    zero = "Kh" if game != "fafa4" else "F-wood"
    for _ in range(2):  # naturals: no third cards
        run.open_round()
        run.cards(nine, zero, zero, eight)
        assert run.state == m.RESULT
        assert run.cmd("confirm").ok and run.state == m.SETTLED
    run.open_round()
    run.card(nine)
    run.send(CutCard())
    assert run.table.shoe.state == m.CUT_CARD and run.table.shoe.rounds_left == 2
    run.cards(zero, zero, eight)
    run.cmd("confirm")
    assert run.lamps()["last_round"] == "on"  # the next round is the last
    run.open_round()
    run.cards(nine, zero, zero, eight)
    assert run.cmd("confirm").ok
    assert run.table.shoe.state == m.FINISHED
    assert run.journal("shoe")[-1]["event"] == "finished"
    refused = run.cmd("place_bets")
    assert not refused.ok and "shoe 1 is finished" in refused.message
    assert run.lamps()["new_shoe"] == "slow"
    assert [r["round"] for r in run.journal("settled")] == [1, 2, 3, 4]
    assert run.cmd("new_shoe").ok and run.table.shoe.number == 2


@pytest.mark.parametrize("first, burned", [("As", 1), ("7h", 7), ("Td", 10), ("Qc", 10)])
def test_the_first_burn_card_sets_the_count(first, burned):
    run = Run("fortune6")
    run.cmd("new_shoe")
    run.card(first)
    for n in range(burned):
        assert run.table.shoe.burning
        run.card("2c" if n % 2 else "3c")
    assert not run.table.shoe.burning and run.table.shoe.burned == burned + 1


def test_burn_pictures_value_is_a_setting_and_burn_can_be_off():
    run = Run("fortune6", burn_picture_value=5)
    run.cmd("new_shoe")
    run.cards("Kd", "2c", "3c", "4c", "5c")
    assert run.table.shoe.burning
    run.card("6c")
    assert not run.table.shoe.burning
    plain = Run("fortune6", burn=False)
    assert plain.cmd("new_shoe").ok and plain.table.shoe.state == m.IN_PLAY
    assert plain.cmd("place_bets").ok


def test_cut_card_rounds_is_a_setting():
    run = Run("fortune6", cut_card_rounds=0)
    run.baccarat_shoe()
    run.open_round()
    run.card("9h")
    run.send(CutCard())
    run.cards("Kh", "Kd", "8d")
    run.cmd("confirm")
    assert run.table.shoe.state == m.FINISHED


def _shuffled(game, decks, seed):
    cards = list(game.deck_kind.shoe(decks).elements())
    random.Random(seed).shuffle(cards)
    return cards


@pytest.mark.parametrize("game_key", BACCARAT)
def test_a_whole_shuffled_shoe_matches_the_games_own_replay(game_key):
    game = get_game(game_key)
    cards = _shuffled(game, 8, seed=7)
    table = Table(game_key, 8)
    dealt = deal_shoe(table, cards, cut_at=len(cards) - 14)
    assert not dealt.voids and table.shoe.state == m.FINISHED
    assert len(dealt.results) > 60
    for result in dealt.results:
        expected = play_json(game, [parse_card(c) for c in result["cards"]])
        assert result["winner"] == expected["winner"] and result["bets"] == expected["bets"], result["round"]
    # cards leave in shoe order: burn, then each round's cards
    dealt_cards = [c for r in dealt.results for c in r["cards"]]
    burned = table.shoe.burned
    assert dealt_cards == [str(c) for c in cards[burned:burned + len(dealt_cards)]]


def test_the_result_is_durable_before_its_lamps_light():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.cards("9h", "2c", "Kh")
    effects = run.card("5d")
    kinds = [type(e).__name__ + (":" + e.kind if isinstance(e, Journal) else "") for e in effects]
    result_at = kinds.index("Journal:result")
    lamps_at = kinds.index("Lamps")
    assert effects[result_at].durable and result_at < lamps_at
    assert all(k.startswith("Journal") for k in kinds[:lamps_at])
    picture = effects[lamps_at].states
    assert picture["bet_player"] == "on" and picture["bet_banker"] == "off" and picture["result"] == "on"
    assert effects[result_at].payload["lamps"]["bet_player"] == "on"


def test_a_push_blinks_slowly():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.cards("9h", "9c", "Kh", "Kd")  # tie on natural nines
    lamps = run.lamps()
    assert lamps["bet_tie"] == "on" and lamps["bet_player"] == "slow" and lamps["bet_banker"] == "slow"
    run.cmd("confirm")
    assert run.lamps()["bet_tie"] == "on"  # shown until the next "Place your bets"
    run.cmd("place_bets")
    assert run.lamps()["bet_tie"] == "off" and run.lamps()["bets_open"] == "on"


def test_third_cards_go_through_drawing():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.cards("2h", "3c", "Kh", "Kd")  # player 2, banker 3: player draws
    assert run.state == m.DRAWING
    run.card("8s")  # player's third card 8: banker on 3 stands
    assert run.state == m.RESULT
    result = run.journal("result")[-1]
    assert result["hands"]["player"]["cards"] == ["2h", "Kh", "8s"]
    assert result["dealt_to"][-1] == ["player", 2]


def test_fubacc_round_with_spots_and_decisions():
    run = Run("fubacc")
    run.new_shoe()
    assert run.cmd("place_bets").ok
    assert run.cmd("spots", spots=[1, 3]).ok
    assert run.cmd("no_more_bets").ok
    # spot 1: 6h Kd | hit 2c;  spot 3: 9s Kc | hit 4d;  dealer: up 8s hole 7h hit Qd
    run.cards("6h", "Kd", "2c", "9s", "Kc", "4d", "8s", "7h", "Qd")
    assert run.state == m.AWAITING
    assert run.lamps()["spot1"] == "fast" and run.lamps()["spot3"] == "on"
    assert run.table.snapshot()["pending_decision"]["spot"] == 1
    refused = run.cmd("decide", spot=3, decision="play")
    assert not refused.ok and "spot 1 is" in refused.message and "fubacc procedures" in refused.message
    assert run.cmd("decide", spot=1, decision="play").ok
    assert run.cmd("decide", spot=1, decision="stay").ok
    assert run.cmd("decide", spot=3, decision="bonus").ok
    assert run.state == m.RESULT
    result = run.journal("result")[-1]
    assert result["spots"]["1"]["bets"]["ante"]["result"] == "win"  # 6 beats the dealer's 5
    lamps = run.lamps()
    assert lamps["spot1_ante"] == "on" and lamps["spot1_play"] == "on" and lamps["spot3_ante"] == "on"
    assert [d["decision"] for d in run.journal("decision")] == ["play", "stay", "bonus"]


def test_panel_buttons_drive_fubacc_spots_and_decisions():
    from controller.table.buttons import command_for_button
    run = Run("fubacc")
    run.new_shoe()
    press = lambda button: run.send(command_for_button("fubacc", button))  # noqa: E731
    press(1)  # place bets
    press(12)  # toggle spot 2 live (spot 1 is live by default)
    assert run.table.play.spots == (1, 2)
    press(2)
    run.cards("2h", "3d", "4c", "5h", "6d", "7c", "Ks", "3s", "9d")
    press(11)  # select spot 1
    press(23)  # hit without play: refused
    assert not [e for e in run.last if hasattr(e, "ok")][0].ok
    press(22)  # play
    press(24)  # stay
    press(12)
    press(21)  # fold spot 2
    assert run.state == m.RESULT


def test_paigow_deck_per_round_and_house_way_default():
    run = Run("paigow")
    run.new_shoe()
    # a fresh deck each round, each shuffled its own way (a deck in factory order, or one dealt
    # again, would be an integrity alarm: local ruling L7); spot 2 gets As-7s, the dealer the rest
    orders = ("4s As 6s 2s 7s 3s 5s Qs 9s Ks 8s Js Ah Ts", "7s 2s 5s As 3s 6s 4s Js Ah 9s Ts Ks 8s Qs")
    for order in orders:
        run.open_round(spots=[2])
        run.cards(*order.split())
        assert run.state == m.AWAITING
        assert run.cmd("decide", spot=2).ok  # no decision: the House Way
        assert run.state == m.RESULT
        lamps = run.lamps()  # As-7s suited: a seven-card straight flush wins the Fortune Bonus
        assert lamps["spot2"] == "on" and lamps["spot2_fortune_bonus"] == "on" and lamps["spot1"] == "off"
        assert run.journal("result")[-1]["spots"]["2"]["bets"]["fortune_bonus"]["result"] == "win"
        run.cmd("confirm")
    assert [s["event"] for s in run.journal("shoe")].count("new_deck") == 2
    assert not run.journal("irregularity")


def test_fortune7_player_dealer_rotates_every_two_hands():
    run = Run("fortune7", player_dealer_seats=(2, 5, 6))
    run.baccarat_shoe()
    assert run.lamps()["player_dealer_2"] == "on"
    seats = []
    for _ in range(5):
        run.open_round()
        run.cards("9h", "Kh", "Kd", "8d")
        run.cmd("confirm")
        seats.append(run.table.bank.holder)
    assert seats == [2, 5, 5, 6, 6]
    assert run.lamps()["player_dealer_6"] == "on" and run.lamps()["player_dealer_2"] == "off"
    assert run.cmd("player_dealer", seat=3).ok and run.table.bank.holder == 3
    run.open_round()
    refused = run.cmd("player_dealer", seat=4)
    assert not refused.ok and "between hands" in refused.message
    assert run.journal("round_opened")[-1]["player_dealer"] == 3


def test_fortune7_nobody_holding_the_position_deals_no_hand():
    run = Run("fortune7")
    run.baccarat_shoe()
    assert run.cmd("player_dealer", seat="none").ok
    refused = run.cmd("place_bets")
    assert not refused.ok and "player-dealer" in refused.message
    run.cmd("select_spot", spot=4)
    assert run.cmd("player_dealer").ok and run.table.bank.holder == 4


def test_shoe_events_between_rounds():
    run = Run("fortune6")
    run.baccarat_shoe()
    run.send(ShoeEmpty())
    assert run.table.shoe.state == m.FINISHED and not run.journal("irregularity")
    assert "new shoe is needed" in run.cmd("place_bets").message
    paigow = Run("paigow")
    paigow.new_shoe()
    paigow.send(CutCard())
    assert paigow.journal("shoe")[-1]["ignored"] == "a fresh deck every round"
    assert paigow.table.shoe.state == m.IN_PLAY
