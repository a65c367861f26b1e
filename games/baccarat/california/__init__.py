"""Fortune 7's California parts: the player-dealer and the house's collection fees.

  seats       seat numbering, clockwise order, "the player to the left of"
  rotation    who holds the player-dealer position, offered clockwise every two hands
  stakes      a player's wager on one betting space, and the checks at placement
  settlement  the player-dealer's bank pays and collects in the rules' order (ruling 26)
  fees        collection fee schedules 1-26 as data and the fees of one hand (ruling 25)
  round_money a round's fees and settlement together, and a void returning both

Readings where the rule text leaves room are stated in each module and in docs/baccarat.md.
Money is exact: Fractions of a dollar, whole numbers of the table's minor unit (games.money).
"""
