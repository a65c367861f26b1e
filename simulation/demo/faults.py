"""Shoe faults the demo injects through the rig mid-round, and the supervisor's answer to a
round the table holds for them (key on; reconstruct or void; key off).

What the table makes of each fault is the game's rule, not the demo's: a foreign card voids
(§5.1), two cards at once void in the initial deal (§5.3) and hold afterwards (local ruling
L6), a misread holds (L5), the door opened voids (§5.4; Pai Gow holds, §5.2), the shoe
unplugged holds until its draw counter proves no card was missed (L4)."""
from __future__ import annotations

from games.round import Deal, Game
from simulation.demo.choices import Choices, FaultPlan
from simulation.rig import Rig, RigError

CARD_FAULTS = ("foreign", "double_draw", "misread")  # the next card out carries the fault


def initial_deal_size(game: Game, decks: int, spots: list[int] | None) -> int:
    """How many cards the rules' initial deal takes with these live spots."""
    state = game.start(decks, tuple(spots or ()))
    cards = iter(game.deck_kind.cards)
    while isinstance(step := game.next_step(state), Deal) and step.initial:
        state = game.with_card(state, next(cards))
    return len(state.cards)


def strike(rig: Rig, plan: FaultPlan, number: int, mark: int) -> dict:
    """Inject `plan`'s fault now; returns what the demo knows of it: the kind, the card it came
    before, and the cards that left the shoe with it as the simulator really dealt them (a
    misread card too: the supervisor keys that one in)."""
    struck = {"kind": plan.kind, "before_card": plan.before_card}
    if plan.kind in CARD_FAULTS:
        rig.fault(plan.kind)
        struck["cards"] = [drawn["card"] for drawn in rig.draw(1)]
    elif plan.kind == "door_open":
        rig.fault("door_open")
        rig.events.wait_for("shoe", after=mark, what="door_open")
        rig.fault("door_close")
        rig.events.wait_for("shoe", after=mark, what="door_closed")
    elif plan.kind == "unplug":
        rig.fault("unplug")
        rig.events.wait_for("held", after=mark, round=number, kind="device_lost")
        rig.fault("replug")
        rig.events.wait_for(after=mark, round=number, predicate=_after_device_lost)
    else:
        raise ValueError(f"unknown fault {plan.kind!r} (one of {', '.join(CARD_FAULTS + ('door_open', 'unplug'))})")
    return struck


def _after_device_lost(event: dict) -> bool:
    return event.get("event") == "void" or (event.get("event") == "resumed" and event.get("kind") == "device_lost")


class Supervisor:
    """Resolves a held round as a supervisor would: with the key turned, keys in a misread card
    the demo knows, confirms an order or a reconstruction, or voids (sometimes, by the seed;
    always when nothing can be reconstructed)."""

    def __init__(self, rig: Rig, choices: Choices) -> None:
        self.rig, self.choices = rig, choices

    def resolve(self, held: dict, struck: dict | None) -> dict:
        need = held["need"]
        card = _misread_card(struck) if need == "card" and held.get("keyed") == 1 else None
        rebuildable = need in ("order", "confirm") or card is not None
        voids = self.choices.supervisor_voids() or not rebuildable
        action = {"hold": held["kind"], "clause": held["clause"], "action": "void" if voids else "reconstruct"}
        if voids:
            action["void_clause"] = held["void_clause"]
        elif card is not None:
            action["card"] = card
        self.rig.key(True)
        try:
            if voids:
                answer = self.rig.press("void")
            elif card is not None:
                answer = self.rig.send("reconstruct", card=card)
            else:
                answer = self.rig.press("reconstruct")
        finally:
            self.rig.key(False)
        if not answer.get("ok"):
            raise RigError(f"the supervisor's {action['action']} was refused: {answer.get('message')}")
        action["message"] = answer.get("message")
        return action


def _misread_card(struck: dict | None) -> str | None:
    if struck is None or struck["kind"] != "misread" or not struck.get("cards"):
        return None
    return struck["cards"][0]
