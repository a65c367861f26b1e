"""What the HIL matrix (tests/hil/test_hil_matrix_*.py) shares: the five games, the clause each
game's own rules give, one rig per game per module (RigPool), scripted rounds, and the four
checks every scenario makes: (1) the event on the stream with its clause, (2) the lamps on the
lights simulator, (3) the journal (record with clause and evidence; the chain verifies),
(4) the daemon goes on: the next round plays normally and earlier records stand unchanged."""
from __future__ import annotations

import re

import pytest

from controller.table import lamp_ids
from games.cards import parse_card
from games.registry import GAME_KEYS, get_game
from games.replay import play_json
from games.round import IrregularityKind
from simulation.rig import Rig, RigError
from simulation.rig.dealer import plain_decision

GAMES = GAME_KEYS
BACCARAT = tuple(g for g in GAMES if not get_game(g).uses_spots)  # shoe games: burn, cut card, third cards
SPOT_GAMES = tuple(g for g in GAMES if get_game(g).uses_spots)  # a fresh deck every round
ROUND_CLOSED = ("idle", "settled", "void")
CARD_STATES = ("bets_closed", "dealing", "drawing")
SEEDS = {game: 101 + n for n, game in enumerate(GAMES)}
STATUS_LAMPS = ("bets_open", "no_more_bets", "void", "error", "last_round", "supervisor", "new_shoe", "key", "result")
FRESH_SHOE_BELOW = 80  # a shoe game's simulator holding fewer cards gets a new shoe before a test


def for_games(games) -> pytest.MarkDecorator:
    """Parametrize `game` with module scope: one rig per game serves the module's tests."""
    return pytest.mark.parametrize("game", list(games), scope="module")


every_game = for_games(GAMES)
baccarat = for_games(BACCARAT)
spot_games = for_games(SPOT_GAMES)
# fortune6's cells that the daemon author's test_hil_shoe_faults.py / test_hil_restart.py cover
beyond_fortune6 = for_games(g for g in GAMES if g != "fortune6")


# ------------------------------------------------------------------ the rules' answers
def rule(game: str, kind: str):
    return get_game(game).rule(IrregularityKind(kind))


def clause(game: str, kind: str) -> str:
    return rule(game, kind).clause


def consequence(game: str, kind: str) -> str:
    return rule(game, kind).consequence.value


def via(ruling: str, game: str, kind: str) -> str:
    """`kind`'s clause cited through a local ruling, as the table cites it: "local ruling L4, fafa §5.4"."""
    text = clause(game, kind)
    return text if text.startswith(ruling) else f"{ruling}, {text}"


def unheard(game: str, kind: str = "missing_card") -> str:
    """What a card that left the shoe while it was unheard cites (ruling 24): "fafa §5.2 (ruling 24)"."""
    return get_game(game).unheard_rule(IrregularityKind(kind)).clause


def the_rules_decide(game: str, end: dict) -> None:
    """The `result` event `end` is what the game's rules give for its cards and decisions
    (games.replay, as `tablectl play` decides a round)."""
    decisions: dict[int, list[str]] = {}
    for spot, decision in end["decisions"]:
        decisions.setdefault(int(spot), []).append(decision)
    spots = tuple(sorted(int(spot) for spot in end.get("spots", {})))
    ruled = play_json(get_game(game), [parse_card(card) for card in end["cards"]], spots=spots, decisions=decisions)
    assert not ruled["void"], ruled
    assert (ruled["winner"], ruled["bets"], ruled.get("spots")) == (end["winner"], end["bets"], end.get("spots"))
    assert {name: ruled[name] for name in end["hands"]} == end["hands"]


# ------------------------------------------------------------------ lamps
def result_lamp_names(game: str) -> list[str]:
    return [name for name in lamp_ids(game) if re.match(r"bet_|spot\d+_", name)]


def lit(board: dict[str, str]) -> dict[str, str]:
    return {name: pattern for name, pattern in board.items() if pattern != "off"}


# ------------------------------------------------------------------ one rig per game per module
class RigPool:
    """A module's rigs: one per game, started when first asked for, reused while each test
    leaves its table with no round in progress. Only one runs at a time (the matrix is
    parametrized with scope="module", so pytest runs one game's tests together). A rig found
    dead or mid-round (a failed test) is replaced, so one failure does not spread."""

    def __init__(self, **options) -> None:
        self.options = options
        self.rig: Rig | None = None
        self.stopped: list[Rig] = []

    def ready(self, game: str) -> Rig:
        rig = self.rig
        if rig is not None and (rig.game != game or not self._healthy(rig)):
            self._stop()
            rig = None
        if rig is None:
            rig = self.rig = Rig(game, seed=SEEDS[game], **self.options)
            rig.start()
        if not rig.deck_per_round:
            shoe = rig.status()["shoe"]
            if shoe["state"] not in ("no_shoe", "finished") and rig.shoe.state()["remaining"] < FRESH_SHOE_BELOW:
                rig.new_shoe(seed=rig.rng.randrange(1 << 31))
        return rig

    @staticmethod
    def _healthy(rig: Rig) -> bool:
        if rig.daemon is None or not rig.daemon.child.running:
            return False
        try:
            status = rig.status()
        except RigError:
            return False
        shoe = rig.shoe.state()
        return (status["state"] in ROUND_CLOSED and not status["supervisor_key"] and not status["door_open"]
                and status["link_up"] and shoe["plugged"] and shoe["present"] and not shoe["next_draw_faults"])

    def _stop(self) -> None:
        if self.rig is not None:
            self.rig.stop()
            self.stopped.append(self.rig)
            self.rig = None

    def close(self) -> list[str]:
        """Stop the rig; returns what is still running (must be nothing)."""
        self._stop()
        alive = []
        for rig in self.stopped:
            children = [sim.child for sim in rig.sims.values()] + ([rig.daemon.child] if rig.daemon else [])
            alive += [f"{child.name} (pid {child.pid})" for child in children if child.running]
        return alive


# ------------------------------------------------------------------ scripted rounds
def deck_cards(game: str) -> list[str]:
    return [str(card) for card in get_game(game).deck_kind.cards]


def ace(game: str) -> str:
    """The first card of the deck kind: an ace (a burn card of value 1)."""
    return deck_cards(game)[0]


def script_next_round(rig: Rig, cards: list[str]) -> None:
    """The next round's cards leave the shoe in this order. A shoe game gets a new shoe: a nine
    and the nine cards it burns, `cards`, then a shuffled deck; a deck-per-round game's next deck
    is `cards` then the rest of that deck (one copy of each card), shuffled. The shuffles and the
    burned cards (none of `cards`) come from the rig's own seeded random source, so no two
    scripted shoes open alike or repeat a run of the last one: the daemon's integrity checks
    (local ruling L7) would call such a shoe, and the round after it would not open."""
    shuffled = deck_cards(rig.game)
    rig.rng.shuffle(shuffled)
    if rig.deck_per_round:
        rest = list(shuffled)
        for card in cards:
            if card in rest:
                rest.remove(card)
        rig.load_shoe(cards=list(cards) + rest)
    else:
        nine = next(str(c) for c in get_game(rig.game).deck_kind.cards if c.rank == 9)
        burn = [nine] + [card for card in shuffled if card not in cards and card != nine][:9]
        rig.new_shoe(cards=burn + list(cards) + shuffled)


THIRD_CARDS = {  # baccarat: player 5 and banker 4 both draw; the two third cards' order decides
    "standard52": (["2s", "2h", "3s", "2d"], ["4c", "5c"]),  # 4c then 5c: tie; 5c then 4c: banker
    "element65": (["2-fire", "2-gold", "3-fire", "2-wood"], ["4-fire", "5-fire"]),
}


def third_card_script(game: str) -> tuple[list[str], list[str]]:
    return THIRD_CARDS[get_game(game).deck_kind.value]


# ------------------------------------------------------------------ dealing to a point of the round
def deal_until(rig: Rig, *states: str, limit: int = 60) -> dict:
    """Draw cards (and take the plain decision when one is awaited) until the table is in one
    of `states`; returns the status."""
    for _ in range(limit):
        status = rig.status()
        if status["state"] in states:
            return status
        if status["state"] == "awaiting_decisions":
            pending = status["pending_decision"]
            choice = plain_decision(pending["spot"], pending["options"])
            answer = rig.send("decide", spot=pending["spot"], **({"decision": choice} if choice else {}))
            assert answer["ok"], answer
        elif status["state"] in CARD_STATES:
            rig.draw(1)
        else:
            raise RigError(f"the table is {status['state']}, not dealing towards {states}")
    raise RigError(f"no {states} within {limit} steps")


def complete(rig: Rig, mark: int, number: int) -> dict:
    """Deal round `number` to its end after a hold was resolved; returns its `result` (confirmed)
    or `void` event. Resolving a hold can itself complete the round (the cards that waited are
    dealt), so a result already on the stream after `mark` counts."""
    if rig.status()["state"] == "result":
        end = rig.events.wait_for("result", after=mark, round=number)
        assert rig.press("confirm")["ok"]
        return end
    return rig.finish_round()


def deal_some(rig: Rig, cards: int) -> tuple[int, list[dict], int]:
    """Open a round and deal its first `cards` cards; returns (round number, the cards drawn,
    an event mark after them)."""
    number = rig.open_round()
    drawn = rig.draw(cards)
    return number, drawn, rig.events.mark()


def supervisor(rig: Rig, command: str, **args) -> dict:
    """Key on, the supervisor's command (the panel button when it takes no arguments, else the
    socket), key off; returns the answer {"ok", "message"} (a refusal's reason as the message)."""
    rig.key(True)
    try:
        answer = rig.send(command, **args) if args else rig.press(command)
    finally:
        rig.key(False)
    return {**answer, "message": answer.get("message") or answer.get("error")}


# ------------------------------------------------------------------ the four checks
def journaled(rig: Rig, kind: str, number: int | None = None) -> list:
    return [r for r in rig.records() if r.kind == kind and (number is None or r.round == number)]


def expect_void(rig: Rig, mark: int | None, number: int, kind: str, clause_text: str, by: str = "table") -> dict:
    """(1) a `void` event citing `clause_text` (mark None: a void made while the daemon started,
    before anyone could follow its events: the journal's record stands for it); (2) the void
    lamp on, no result lamp, no hold; (3) the durable void record with the clause and evidence
    (a table void also has its irregularity record), the chain verifies."""
    if mark is None:
        rig.wait_until(lambda: journaled(rig, "void", number), 20.0, f"round {number}'s void")
        void = dict(journaled(rig, "void", number)[0].payload)
    else:
        void = rig.events.wait_for("void", after=mark, round=number)
    assert (void["kind"], void["clause"], void["by"]) == (kind, clause_text, by), void
    off = {name: "off" for name in result_lamp_names(rig.game) + ["result", "supervisor", "no_more_bets", "bets_open"]}
    rig.wait_lamps({**off, "void": "on"})
    (record,) = journaled(rig, "void", number)
    assert (record.payload["kind"], record.payload["clause"], record.payload["by"]) == (kind, clause_text, by)
    assert record.payload["evidence"] and record.payload["reason"]
    if by == "table":
        assert any(r.payload["clause"] == clause_text and r.payload["consequence"] == "void" and r.payload["evidence"]
                   for r in journaled(rig, "irregularity", number)), journaled(rig, "irregularity", number)
    assert not journaled(rig, "result", number)
    assert rig.verify().ok
    return void


def expect_held(rig: Rig, mark: int, number: int, kind: str, clause_text: str, need: str) -> dict:
    """(1) a `held` event with the clause and what resolves it; (2) the supervisor lamp blinks
    fast, "no more bets" slowly, no void or result lamp; (3) the irregularity record."""
    held = rig.events.wait_for("held", after=mark, round=number, kind=kind)
    assert (held["kind"], held["clause"], held["need"]) == (kind, clause_text, need), held
    rig.wait_lamps({"supervisor": "fast", "no_more_bets": "slow", "void": "off", "result": "off"})
    assert rig.status()["state"] == "held"
    assert any(r.payload["kind"] == kind and r.payload["clause"] == clause_text and r.payload["consequence"] == "hold"
               for r in journaled(rig, "irregularity", number))
    return held


def expect_result_on_the_board(rig: Rig, result: dict, number: int | None = None) -> None:
    """`result` is round `number`'s result event; the board shows the daemon's whole picture,
    and in it exactly the lamps the result lit (status lamps such as the supervisor key's may
    have changed since)."""
    assert result["event"] == "result" and result["round"] == (number or result["round"]), result
    board = rig.wait_lamps()
    assert game_lamps(lit(board)) == game_lamps(result["lamps"]), (lit(board), result["lamps"])
    assert board["result"] == "on" and board["void"] == "off" and board["supervisor"] == "off"
    holder = rig.status()["player_dealer"]  # Fortune 7: the seat lamp follows the position (it rotates on settling)
    seats = {name: pattern for name, pattern in lit(board).items() if name.startswith("player_dealer_")}
    assert seats == ({f"player_dealer_{holder['seat']}": "on"} if holder and holder["seat"] else {}), seats


def game_lamps(lamps: dict[str, str]) -> dict[str, str]:
    """The result, bet and spot lamps: not the status lamps nor Fortune 7's seat lamps, which
    follow the table after the result (the key, the next holder of the player-dealer position)."""
    return {name: pattern for name, pattern in lamps.items()
            if (name == "result" or name not in STATUS_LAMPS) and not name.startswith("player_dealer_")}


def brief(event: dict) -> str:
    """An event in one line, without its bulky fields."""
    bulky = ("lamps", "shoe_state", "hands", "bets", "evidence", "dealt_to")
    return str({k: v for k, v in event.items() if k not in bulky})


def next_round_is_clean(rig: Rig, before: list) -> dict:
    """(4) The daemon goes on: the next round plays to a result shown on the board; every
    record journaled before the scenario is still there, byte for byte; no round has two
    results; the chain verifies."""
    assert rig.daemon.child.running
    try:
        result = rig.play_round()
    except RigError as error:  # say what the table did: the stream's last events
        raise AssertionError(f"{error}\nlast events:\n" + "\n".join(map(brief, rig.events.since()[-30:]))) from None
    expect_result_on_the_board(rig, result)
    records = rig.records()
    assert records[:len(before)] == before
    rounds = [r.round for r in records if r.kind == "result"]
    assert len(rounds) == len(set(rounds)), f"a result journaled twice: {rounds}"
    assert rig.verify().ok
    return result
