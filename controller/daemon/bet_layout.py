"""Does the bet sensor's layout fit the game dealt at this table? Every space must be a wager
the game has (its key, as `tablectl play --json` shows under `bets`), at a seat the game has
(baccarat: 1-7, local ruling L9; Fu Bacc and Pai Gow: their spots), each seat's wager once; at
a player-dealer game (Fortune 7) each seat also has its `bank` space (the player-dealer's stake).
A layout that does not fit is not used: the sensor's readings stay in the journal only."""
from __future__ import annotations

from collections.abc import Sequence

from games.baccarat.california.stakes import BANK
from games.money.settle import BACCARAT_SEATS
from games.registry import get_game, get_table_profile

MAX_SHOWN = 3  # problems named in the reason; the rest are counted


def layout_problems(game_key: str, spaces: Sequence[tuple[int, int, str]]) -> list[str]:
    """What is wrong with `spaces` ((space id, seat, wager key) each) for the game; [] when it fits."""
    game = get_game(game_key)
    seats = tuple(range(1, game.max_spots + 1)) if game.uses_spots else BACCARAT_SEATS
    seat_word = "spot" if game.uses_spots else "seat"
    names = (*game.wagers, BANK) if get_table_profile(game_key).player_dealer is not None else tuple(game.wagers)
    if not spaces:
        return ["the layout has no spaces"]
    problems: list[str] = []
    first: dict[tuple[int, str], int] = {}
    for space, seat, name in spaces:
        if name not in names:
            problems.append(f"space {space} ({seat_word} {seat}) is {name!r}, not a wager of {game_key} "
                            f"({', '.join(names)})")
        if seat not in seats:
            problems.append(f"space {space} is at {seat_word} {seat}: {game_key} has {seat_word}s {seats[0]}-{seats[-1]}")
        if (seat, name) in first:
            problems.append(f"spaces {first[(seat, name)]} and {space} are both {seat_word} {seat} {name}")
        else:
            first[(seat, name)] = space
    return problems


def layout_reason(game_key: str, problems: list[str]) -> str:
    shown = "; ".join(problems[:MAX_SHOWN])
    more = f" (and {len(problems) - MAX_SHOWN} more)" if len(problems) > MAX_SHOWN else ""
    return f"layout does not fit {game_key}: {shown}{more}"
