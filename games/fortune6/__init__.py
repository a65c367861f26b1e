"""Fortune Six Baccarat Tournament: `game` (GAME, TABLE, odds; registry entry), `clauses` (BOOK)."""
