"""Fortune 7's California parts: the player-dealer and the house's collection fees.

  seats       seat numbering, clockwise order, "the player to the left of"
  rotation    who holds the player-dealer position, offered clockwise every two hands
  stakes      a player's wager on one betting space, and the checks at placement
  settlement  the player-dealer pays and collects in the rules' order while its stake covers
  fees        collection fee schedules 1-26 as data and the fees of one hand

Readings where the rule text leaves room are stated in each module and in docs/baccarat.md.
Money is exact: Fractions of a dollar.
"""
