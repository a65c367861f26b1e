"""One demo round as a JSON-able dict (the headless JSON line), built from the daemon's own
events for the round and the lamps the lights simulator shows once the round has ended."""
from __future__ import annotations

from controller.table import lamp_ids
from games.registry import get_game


def lamps_lit(game_key: str, board: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """The lit lamps in id order, and the blinking ones among them with their pattern."""
    lit = [name for name in lamp_ids(game_key) if board.get(name, "off") != "off"]
    return lit, {name: board[name] for name in lit if board[name] != "on"}


def shoe_order(events: list[dict], number: int) -> list[str | None]:
    """The cards that left the shoe in round `number`, in draw order (null: not read), each
    once (a card that waited in a hold is reported again when it is dealt)."""
    return [e["card"] for e in events
            if e.get("event") == "card" and e.get("round") == number and not e.get("reconstructed")]


def decisions_by_spot(pairs: list) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for spot, decision in pairs:
        out.setdefault(str(spot), []).append(decision)
    return out


def irregularities(events: list[dict], number: int) -> list[dict]:
    return [{key: e.get(key) for key in ("kind", "clause", "consequence", "detail")}
            for e in events if e.get("event") == "irregularity" and e.get("round") == number]


def money_of_round(events: list[dict], number: int) -> dict:
    """The round's money as the daemon published it: the wagers of record settled (`tablectl
    play --wager`'s rows), the refused ones, the house's net, each mispay and the supervisor's
    accept."""
    def last(name: str) -> dict:
        return next((e for e in reversed(events) if e.get("event") == name and e.get("round") == number), {})

    frozen, settled, accepted = last("wagers"), last("settlement"), last("payouts_accepted")
    return {"wagers": settled.get("wagers", []), "house_net": settled.get("house_net", "0"),
            "refused": frozen.get("refused", []),
            "mispays": [{key: e.get(key) for key in ("seat", "bet", "expected", "found", "direction", "clause")}
                        for e in events if e.get("event") == "irregularity" and e.get("round") == number
                        and e.get("kind") == "mispay"],
            "accepted": accepted.get("differences") if accepted else None,
            # Fortune 7 banked by its player-dealer: the bank's settlement and the fees taken before the deal
            **({"player_dealer": settled["player_dealer"], "fees": frozen.get("fees")}
               if settled.get("player_dealer") else {})}


def round_line(game_key: str, opened: dict, end: dict, events: list[dict], board: dict[str, str],
               fault: dict | None = None, supervisor: list[dict] | None = None) -> dict:
    """The JSON line: round, game, shoe, cards (shoe order), winner or void + clause, bets
    (as `tablectl play`), spots (spot games), lamps lit, irregularities, and the demo's own
    fault and supervisor actions."""
    game = get_game(game_key)
    number = opened["round"]
    line: dict = {"round": number, "game": game_key, "shoe": opened["shoe"]}
    if end["event"] == "result":
        line.update(cards=end["cards"], winner=end["winner"], void=False, clause=None, bets=end["bets"],
                    hands=end["hands"])
    else:
        line.update(cards=shoe_order(events, number), winner=None, void=True, clause=end["clause"], bets={},
                    irregularity=end["kind"], detail=end["reason"], voided_by=end["by"])
    if game.uses_spots:
        line["spots"] = end.get("spots", {})
        line["live_spots"] = opened["spots"]
        made = end["decisions"] if end["event"] == "result" else [
            (e["spot"], e["decision"]) for e in events if e.get("event") == "decision" and e.get("round") == number]
        line["decisions"] = decisions_by_spot(made)
    if "player_dealer" in opened:
        line["player_dealer"] = opened["player_dealer"]
    line["lamps"], line["blinking"] = lamps_lit(game_key, board)
    line["irregularities"] = irregularities(events, number)
    line["fault"] = fault
    line["supervisor"] = list(supervisor or [])
    return line
