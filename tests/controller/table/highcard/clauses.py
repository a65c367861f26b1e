"""High Card's clauses: §3 and §4 its pay table, §5.N its irregularities (one per kind)."""
from __future__ import annotations

from games.clause_book import Clause, ClauseBook
from games.round import IrregularityKind

BOOK = ClauseBook(
    cited_as="highcard",
    clauses={"highcard §3": Clause("the player's card above the dealer's pays 1:1", "pays 1:1, pushes a tie"),
             "highcard §4": Clause("a tie pays 10:1", "pays 10:1"),
             **{f"highcard §5.{n}": Clause(kind.value.replace("_", " "), "voids, holds or refuses as the rule says")
                for n, kind in enumerate(IrregularityKind, start=1)}},
    bare_sections="highcard",
)
