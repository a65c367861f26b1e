"""Fu Bacc: baccarat-scored hands, an Ante/Play raise against the dealer, Lucky Monkey and Tie.

Modules: `hands` (points, dealer's draw, naturals, monkeys), `wagers` (pay tables as data and
the settlement of one spot), `irregularities` (what voids, holds or refuses, and why),
`game` (the Game the controller drives, its TABLE; registry entry), `clauses` (BOOK: its
clauses), `strategy` (exact optimal play of the Ante), `demo` (the demo's players deciding by
it), `odds` (the `tablectl odds fubacc` report).
"""
