"""The three Punto Banco games: Fa Fa Fabulous 4, Fortune 7 (California), Fortune Six.

They share one core and differ only in deck, pay tables and irregularity clauses:

  table_of_play   point totals, naturals and the Table of Play (who draws a third card)
  coup            `Coup`: the shape of a finished round that settles the main wagers
  engine          `BaccaratGame`: the deal order P,B,P,B then P3 then B3, card checks, result
  irregularities  each game's §5 (or, for Fortune 7, local ruling L1) as data
  counting        exact counts of every coup off a full shoe (for `tablectl odds`)
  odds            the OddsReport built from a game's own pay tables
  california      Fortune 7's player-dealer: rotation, settlement with coverage, fee schedules
  round_marks     what a scoreboard notes of a decided round (its counts from the game's TABLE)

The games themselves are folders of their own: games/fafa4, games/fortune7, games/fortune6.
"""
