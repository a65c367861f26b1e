"""The round and shoe state machines, as data built per game, run by `transitions`.

States and transitions come from the game's own declarations in games/: a game that takes
decisions (it implements `with_decision`) gets `awaiting_decisions`; a game whose rounds can
take more cards than its initial deal (baccarat's third cards) gets `drawing`. The table
fires one trigger per step the game names next (Deal initial -> `deal`, Deal after the
initial deal -> `draw`, AwaitDecision -> `ask`, Complete -> `complete`).

Transitions pitfalls (ARCHITECTURE.md): no callbacks at all here, so nothing can raise halfway
through a transition and leave a half-changed state; guards (`conditions`) only read; the
table does its work in plain methods and fires a trigger once it is decided. An invalid
trigger raises MachineError, which the table turns into a refusal or an irregularity.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from transitions import Machine

from games.registry import get_game
from games.round import AwaitDecision, Deal, Game, Irregular

# round states
IDLE, BETTING, BETS_CLOSED, DEALING, DRAWING = "idle", "betting", "bets_closed", "dealing", "drawing"
AWAITING, RESULT, SETTLED, VOID, HELD = "awaiting_decisions", "result", "settled", "void", "held"
# shoe states
NO_SHOE, BURNING, IN_PLAY, CUT_CARD, FINISHED = "no_shoe", "burning", "in_play", "cut_card", "finished"

ROUND_CLOSED = (IDLE, SETTLED, VOID)  # no round in progress: a new one may open


@dataclass(frozen=True)
class GameShape:
    """What the machine needs to know about a game's round."""

    key: str
    has_decisions: bool
    draws_after_deal: bool
    uses_spots: bool


@cache
def game_shape(game_key: str) -> GameShape:
    game = get_game(game_key)
    has_decisions = type(game).with_decision is not Game.with_decision
    spots = (1,) if game.uses_spots else ()
    return GameShape(game.key, has_decisions, game.max_cards(spots) > _initial_deal_size(game, spots),
                     game.uses_spots)


def _initial_deal_size(game: Game, spots: tuple[int, ...]) -> int:
    """How many cards the initial deal takes: step the game with distinct cards of its deck
    until it asks for something other than an initial-deal card."""
    state = game.start(spots=spots)
    deck = iter(game.deck_kind.cards)
    count = 0
    try:
        while isinstance(step := game.next_step(state), Deal) and step.initial:
            state = game.with_card(state, next(deck))
            count += 1
    except (Irregular, StopIteration):
        pass
    return count


def card_states(shape: GameShape) -> list[str]:
    """The states in which the round takes cards or decisions."""
    states = [DEALING]
    if shape.draws_after_deal:
        states.append(DRAWING)
    if shape.has_decisions:
        states.append(AWAITING)
    return states


def round_spec(shape: GameShape) -> tuple[list[str], list[dict]]:
    """(states, transitions) of the round machine for one game."""
    playing = card_states(shape)
    states = [IDLE, BETTING, BETS_CLOSED, *playing, RESULT, SETTLED, VOID, HELD]
    holdable = [BETS_CLOSED, *playing, RESULT]
    after_deal = playing  # the initial deal comes first (Deal.initial); then draws and decisions in any order
    transitions: list[dict] = [
        dict(trigger="open_round", source=list(ROUND_CLOSED), dest=BETTING, conditions="shoe_ready"),
        dict(trigger="close_bets", source=BETTING, dest=BETS_CLOSED, conditions="shoe_link_up"),
        dict(trigger="deal", source=[BETS_CLOSED, DEALING], dest=DEALING),
    ]
    if shape.draws_after_deal:
        transitions.append(dict(trigger="draw", source=after_deal, dest=DRAWING))
    if shape.has_decisions:
        transitions.append(dict(trigger="ask", source=after_deal, dest=AWAITING))
    transitions += [
        dict(trigger="complete", source=playing, dest=RESULT),
        dict(trigger="settle", source=RESULT, dest=SETTLED),
        dict(trigger="hold", source=holdable, dest=HELD),
        *[dict(trigger=resume_trigger(state), source=HELD, dest=state, conditions="hold_resolved")
          for state in holdable],
        dict(trigger="void", source=[BETTING, *holdable, HELD], dest=VOID),
        dict(trigger="supervisor_void", source=[BETTING, *holdable, HELD], dest=VOID,
             conditions="supervisor_key"),
    ]
    return states, transitions


def resume_trigger(state: str) -> str:
    """The trigger that resumes a held round to `state` (one for each state a round is held in)."""
    return f"resume_{state}"


def shoe_spec(burn: bool, deck_per_round: bool) -> tuple[list[str], list[dict]]:
    """(states, transitions) of the shoe machine. A deck-per-round table never sees a cut card
    or an empty shoe between rounds: its deck is checked whole every round."""
    states = [NO_SHOE]
    if burn:
        states.append(BURNING)
    states.append(IN_PLAY)
    if not deck_per_round:
        states += [CUT_CARD, FINISHED]
    loaded = states[1:]
    transitions = [dict(trigger="load", source=states, dest=BURNING if burn else IN_PLAY)]
    if burn:
        transitions.append(dict(trigger="burned", source=BURNING, dest=IN_PLAY))
    if not deck_per_round:
        transitions += [
            dict(trigger="cut", source=IN_PLAY, dest=CUT_CARD),
            dict(trigger="finish", source=[IN_PLAY, CUT_CARD], dest=FINISHED),
        ]
    transitions.append(dict(trigger="remove", source=loaded, dest=NO_SHOE))
    return states, transitions


def moves(transitions: list[dict]) -> dict[tuple[str, str], str]:
    """(trigger, source state) -> destination, for every transition without a guard. Firing
    one only sets the state (this machine has no callbacks), so the table sets it itself:
    transitions' machinery costs a card about as much as the rest of its handling (~50 us
    when the caches are cold, at a dealer's pace). A guarded trigger, or one the state does
    not allow (MachineError), is still fired through the machine."""
    found: dict[tuple[str, str], str] = {}
    guarded: set[tuple[str, str]] = set()
    for t in transitions:
        for source in t["source"] if isinstance(t["source"], list) else [t["source"]]:
            if t.get("conditions") or t.get("unless"):
                guarded.add((t["trigger"], source))
            else:
                found.setdefault((t["trigger"], source), t["dest"])  # the machine takes the first that applies
    return {pair: dest for pair, dest in found.items() if pair not in guarded}


def step_trigger(step) -> str:
    """The round trigger for the game's next step."""
    if isinstance(step, Deal):
        return "deal" if step.initial else "draw"
    if isinstance(step, AwaitDecision):
        return "ask"
    return "complete"


def build(model, states: list[str], transitions: list[dict], initial: str, machine_class=Machine, **kwargs):
    """A machine over `model`: no automatic to_<state> triggers (only the declared ones can
    change state), invalid triggers raise (the table catches them), no queued events."""
    return machine_class(model=model, states=states, transitions=transitions, initial=initial,
                         auto_transitions=False, ignore_invalid_triggers=False, **kwargs)

