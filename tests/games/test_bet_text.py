"""A settled wager in words: the pay line only for a win, so a push reads "push" once."""
from games.bet_text import bet_text, bets_text


def test_a_push_and_a_loss_name_no_pay_line():
    assert bet_text("player", {"result": "push", "pays": "push"}) == "player push"
    assert bet_text("tie", {"result": "lose", "pays": None}) == "tie lose"
    assert bet_text("banker", {"result": "win", "pays": "1:1"}) == "banker win 1:1"


def test_bets_in_order():
    bets = {"standard": {"result": "push", "pays": "push"}, "fortune_bonus": {"result": "win", "pays": "4:1"}}
    assert bets_text(bets) == "standard push · fortune_bonus win 4:1"
    assert bets_text(bets, ", ") == "standard push, fortune_bonus win 4:1"
