"""A game's clauses and how they are cited: the part of a game's folder (its clauses.py, BOOK)
that games.clauses, `tablectl recall`/`watch`/`status` and docs/clauses.md read.

A citation is the game's name as the rules text is cited ("fafa", "fortune6") and a clause of
it: a section ("§5.2"), a named section ("fortune7 Tie Bet"), a numbered part the game alone
has ("procedure 2", "way 1"), or an appendix ("Appendix A").
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Clause:
    says: str  # what the rules text (or ruling) says, in our words
    does: str  # what tablectl does about it

    @property
    def line(self) -> str:
        return f"{self.says}; tablectl: {self.does}"


@dataclass(frozen=True)
class ClauseBook:
    cited_as: str  # the rules text's name in a citation: "fafa" for fafa4's "fafa §5.2"
    clauses: Mapping[str, Clause]  # citation ("fafa §5.2") -> what it says and what tablectl does
    named: tuple[str, ...] = ()  # sections with names, not numbers, cited after the game's name
    numbered: tuple[str, ...] = ()  # numbered parts only this game has, cited without its name ("procedure 2")
    appendices: tuple[str, ...] = ()  # lettered appendices, cited without the game's name ("A")
    # whose sections a bare "§3.14" in this game's folder cites: the game's own key, another's
    # (Fu Bacc's code borrows Fa Fa's §5, local ruling L2), or None (the game numbers no sections)
    bare_sections: str | None = None

    def __post_init__(self) -> None:
        stray = [key for key in self.clauses if not key.startswith(f"{self.cited_as} ")]
        if stray:
            raise ValueError(f"clauses {stray} do not start with the game's citation name {self.cited_as!r}")


def clause(says: str, does: str) -> Clause:
    return Clause(says, does)


VOID_AND_STAND = "voids the round (a durable journal record, the void lamp); earlier results stand"
HOLD = "holds the round for the supervisor to reconstruct it (key in, confirm), else void it"
