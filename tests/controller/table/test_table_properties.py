"""Random input sequences never crash the table, every void and irregularity names its
clause, each command gets exactly one reply, effects keep the contract's order, and every
record is JSON (the journal stores canonical JSON). An input the table asks to have handed
back (FollowUp) comes back at a random later step, as the daemon's may come behind others."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_helpers import GAMES

from controller.table import inputs as i
from controller.table import machine as m
from controller.table.effects import CancelTimer, FollowUp, Journal, Lamps, Publish, Reply, StartTimer
from controller.table.lamps import lamp_ids
from controller.table.table import Table
from games.cards import JOKER, Card
from games.integrity import IRREGULARITY_KIND
from games.registry import get_game
from games.round import IrregularityKind

ORDER = {Journal: 0, Lamps: 1, StartTimer: 2, CancelTimer: 2, Publish: 3, Reply: 4, FollowUp: 5}
ADVANCE = "advance"  # the dealer does the next right thing
FOLLOW = "follow"  # the oldest follow-up still owed is handed back now


def _codes(game_key):
    deck = get_game(game_key).deck_kind.cards
    foreign = Card(4, "gold").code if deck[0].suit in "shdc" else Card(4, "h").code
    return [c.code for c in deck[:20]] + [foreign, JOKER.code, 0, 0x0999]


def actions(game_key):
    spot = st.integers(0, 8)
    arg = st.dictionaries(
        st.sampled_from(["spot", "decision", "card", "cards", "order", "kind", "reason", "spots", "seat", "hand"]),
        st.one_of(spot, st.sampled_from(["fold", "play", "hit", "stay", "bonus", "no_ante", "house", "As", "4-gold",
                                         "Kd,2c", "zz", "misread", "order_altered", "none"]),
                  st.lists(spot, max_size=3)), max_size=3)
    command = st.builds(i.Command, st.sampled_from(list(i.COMMANDS) + ["bogus"]), arg, st.sampled_from(["panel", "socket"]))
    card = st.builds(lambda code, jump, dd, mr: ("card", code, jump, dd, mr), st.sampled_from(_codes(game_key)),
                     st.sampled_from([1, 1, 1, 1, 2, 0, None]), st.sampled_from([False, False, False, True]),
                     st.sampled_from([False, False, False, True]))
    device = st.one_of(
        st.builds(i.ShoeDoor, st.booleans()), st.builds(i.ShoePresence, st.booleans()), st.just(i.CutCard()),
        st.just(i.ShoeEmpty()), st.builds(i.ShoeLinkLost, st.just("test")), st.just("restore"), st.just("reboot"),
        st.builds(i.SupervisorKey, st.booleans()), st.builds(i.Timer, st.sampled_from(["card", "other"])),
        st.just("status"))
    advance = st.just(ADVANCE)  # weighted: most steps move the round on, so deep states are reached
    follow = st.just(FOLLOW)
    return st.lists(st.one_of(advance, advance, advance, advance, advance, advance, follow, card, command, device),
                    min_size=40, max_size=150)


def _advance(table: Table, counter: list, codes) -> object:
    state = table.state
    if table.shoe.state in (m.NO_SHOE, m.FINISHED):
        return i.Command("new_shoe")
    if table.shoe.burning and table.shoe.burned and table.shoe.burn_remaining is None:  # unread first burn card
        return i.SupervisorKey(True) if not table.key_on else i.Command("reconstruct", {"card": "2c"})
    if state in m.ROUND_CLOSED and table.integrity.blocked:  # the shoe failed a check (L7): the supervisor accepts it
        return i.SupervisorKey(True) if not table.key_on else i.Command("accept_shoe")
    if state in m.ROUND_CLOSED and not table.shoe.burning:
        return i.Command("place_bets")
    if state == m.BETTING:
        return i.Command("no_more_bets")
    if state == m.AWAITING:
        awaited = table.play.awaited()
        return i.Command("decide", {"spot": awaited.spot, "decision": awaited.options[-1]})
    if state == m.RESULT:
        return i.Command("confirm")
    if state == m.HELD:
        return i.SupervisorKey(True) if not table.key_on else i.Command("void")
    counter[0] += 1
    return i.Card(codes[counter[0] % 20], counter[0])


def _resolve(action, table, counter, codes, owed):
    if action == FOLLOW and owed:
        return owed.pop(0)
    if action in (ADVANCE, FOLLOW):
        return _advance(table, counter, codes)
    if action == "restore":
        return i.ShoeLinkRestored(counter[0])
    if action == "reboot":
        return i.ShoeRebooted(None)
    if action == "status":  # a status whose counter may show a card that left the shoe unheard
        counter[0] += 1
        return i.ShoeCounter(counter[0])
    if isinstance(action, tuple):
        _, code, jump, double, misread = action
        if jump is None:
            return i.Card(code, None, double, misread)
        counter[0] += jump
        return i.Card(code, counter[0], double, misread)
    return action


def _check(inp, effects, names):
    ranks = [ORDER[type(e)] for e in effects]
    assert ranks == sorted(ranks), effects
    assert sum(isinstance(e, Lamps) for e in effects) <= 1
    assert sum(isinstance(e, Reply) for e in effects) == (1 if isinstance(inp, i.Command) else 0)
    for effect in effects:
        if isinstance(effect, Journal):
            json.dumps(effect.payload, allow_nan=False)
            if effect.kind in ("void", "irregularity"):
                clause = effect.payload["clause"]
                assert clause and ("§" in clause or "ruling" in clause or "procedure" in clause), effect
                assert effect.payload["kind"] == IRREGULARITY_KIND or IrregularityKind(effect.payload["kind"])
        elif isinstance(effect, Publish):
            json.dumps(effect.event, allow_nan=False)
        elif isinstance(effect, Reply):
            json.dumps(effect.fields, allow_nan=False)
            assert effect.message
        elif isinstance(effect, Lamps):
            assert set(effect.states) == names


STATES_SEEN = set()


def _run(game_key, script):
    table = Table(game_key)
    codes = _codes(game_key)
    names = set(lamp_ids(game_key))
    counter = [0]
    owed: list = []  # follow-ups not yet handed back
    for action in script:
        inp = _resolve(action, table, counter, codes, owed)
        effects = table.handle(inp)
        _check(inp, effects, names)
        owed += [e.input for e in effects if isinstance(e, FollowUp)]
        assert table.state in table.machine.states
        STATES_SEEN.add((game_key, table.state))
        json.dumps(table.snapshot(), allow_nan=False)


@pytest.mark.parametrize("game_key", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_inputs(game_key, data):
    _run(game_key, data.draw(actions(game_key), label="script"))
