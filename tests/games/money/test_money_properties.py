"""Property (hypothesis): for random rounds of every game and random wagers, the money is
conserved and every amount is a whole minor unit, settled as the pay table and rounding say."""
from fractions import Fraction

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.money import MoneyRules, Rounding, Stake, returned, settle
from games.money.settle import BACCARAT_SEATS
from games.registry import GAME_KEYS, get_game
from games.round import AwaitDecision, Complete, Deal, Irregular, Result

MINOR_UNITS = (Fraction(1), Fraction(1, 4), Fraction(1, 100), Fraction(5))


@st.composite
def rounds(draw, key):
    """A complete round of `key`: cards drawn from a shuffled deck (one deck suffices for a
    round of any game), decisions among those the game offers."""
    game = get_game(key)
    spots = ()
    if game.uses_spots:
        spots = tuple(sorted(draw(st.sets(st.integers(1, game.max_spots), min_size=1, max_size=3))))
    deck = draw(st.permutations(game.deck_kind.cards))
    state, used = game.start(spots=spots), 0
    while not isinstance(step := game.next_step(state), Complete):
        try:
            if isinstance(step, Deal):
                state, used = game.with_card(state, deck[used]), used + 1
            elif isinstance(step, AwaitDecision):
                state = game.with_decision(state, step.spot, draw(st.sampled_from(step.options)))
        except Irregular:
            assume(False)  # a decision offered but not allowed for these cards: not a money question
    return game, game.result(state)


@st.composite
def stakes_for(draw, game, result, unit):
    """Wagers a bettor could place on this round: random spaces and amounts, with every line
    wager a bonus needs and every wager the decisions presuppose, the derived Play left out."""
    seats = tuple(result.spots) if game.uses_spots else BACCARAT_SEATS
    amounts = st.integers(1, 400).map(lambda n: n * unit)
    chosen: dict[tuple[int, str], Fraction] = {}
    for seat in draw(st.lists(st.sampled_from(seats), min_size=1, max_size=3, unique=True)):
        for bet in draw(st.lists(st.sampled_from(list(game.wagers)), max_size=4, unique=True)):
            chosen[seat, bet] = draw(amounts)
    for seat in (result.spots if game.uses_spots else ()):
        for bet, wager in game.wagers.items():
            if wager.presupposed_by and bet in result.spots[seat]["bets"]:
                chosen.setdefault((seat, bet), draw(amounts))
    for (seat, bet) in list(chosen):
        needs = game.wagers[bet].needs
        if needs and not any((seat, line) in chosen for line in needs.any_of):
            chosen[seat, needs.any_of[0]] = draw(amounts)
    in_action = {(seat, bet) for seat, bet in chosen
                 if game.wagers[bet].stake_of is None
                 and bet in (result.spots[seat]["bets"] if game.uses_spots else result.bets)}
    return [Stake(seat, bet, amount) for (seat, bet), amount in chosen.items() if (seat, bet) in in_action]


def _bets_at(game, result, seat):
    return result.spots[seat]["bets"] if game.uses_spots else result.bets


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data(), st.sampled_from(GAME_KEYS), st.sampled_from(MINOR_UNITS), st.sampled_from(list(Rounding)))
def test_money_is_conserved_and_every_pay_is_exact(data, key, unit, rounding):
    game, result = data.draw(rounds(key))
    rules = MoneyRules(unit, rounding)
    stakes = data.draw(stakes_for(game, result, unit))
    money = settle(game, result, stakes, rules)

    assert sum(w.net for w in money.wagers) + money.house_net == 0
    given_spaces = {(s.seat, s.bet) for s in stakes}
    assert given_spaces <= {(w.seat, w.bet) for w in money.wagers}
    for wager in money.wagers:
        assert wager.to_json()  # every amount shows as a terminating decimal
        for amount in (wager.net, wager.back, wager.commission):
            assert (amount / unit).denominator == 1
        assert wager.back >= 0 and wager.commission >= 0
        if wager.bet == "envy":
            assert wager.stake == 0 and wager.net == wager.back > 0
            continue
        bet = _bets_at(game, result, wager.seat)[wager.bet]
        exact = bet.net(wager.stake)
        if bet.result is Result.LOSE:
            assert (wager.net, wager.back) == (-wager.stake, 0)
            continue
        assert wager.back == wager.stake + wager.net
        assert abs(exact - wager.net) < unit  # rounded once, to a neighbouring minor unit
        if rounding is Rounding.DOWN:
            assert wager.net <= exact
        if bet.result is Result.WIN and bet.line.pays.commission:
            gross = wager.stake * (bet.line.pays.ratio + bet.line.pays.commission)
            assert wager.net + wager.commission == rules.pay(gross)
        else:
            assert wager.commission == 0
    for wager in money.wagers:
        derived = game.wagers[wager.bet].stake_of if wager.bet in game.wagers else None
        if derived:
            assert wager.stake == derived.multiple * money.space(wager.seat, derived.wager).stake


@settings(max_examples=25, deadline=None)
@given(st.data(), st.sampled_from(GAME_KEYS))
def test_a_void_round_returns_every_stake(data, key):
    game, result = data.draw(rounds(key))
    stakes = data.draw(stakes_for(game, result, Fraction(1)))
    money = returned(game, stakes, tuple(result.spots), MoneyRules())
    assert money.house_net == 0 and all(w.back == w.stake and w.net == 0 for w in money.wagers)
