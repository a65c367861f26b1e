"""Fortune 7 Baccarat: `game` (GAME, TABLE, odds; registry entry), `clauses` (BOOK); the
player-dealer, its coverage and the collection fees are in games.baccarat.california."""
