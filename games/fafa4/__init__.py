"""Fa Fa Fabulous 4 Baccarat: `game` (GAME, TABLE, odds; registry entry), `clauses` (BOOK)."""
