"""Fu Bacc: baccarat-scored hands, an Ante/Play raise against the dealer, Lucky Monkey and Tie.

Modules: `hands` (points, dealer's draw, naturals, monkeys), `wagers` (pay tables as data and
the settlement of one spot), `irregularities` (what voids, holds or refuses, and why),
`game` (the Game the controller drives; registry entry), `strategy` (exact optimal play of
the Ante), `odds` (the `tablectl odds fubacc` report).
"""
