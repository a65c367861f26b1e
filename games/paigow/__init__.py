"""Fortune Pai Gow Poker: `game` (GAME, TABLE, odds; registry entry), `clauses` (BOOK), the rest its rules."""
