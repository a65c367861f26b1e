"""Drive a real Table with inputs and look at its effects (no mocks: the table is pure)."""
from __future__ import annotations

from controller.table import inputs as i
from controller.table.effects import CancelTimer, FollowUp, Journal, Lamps, Publish, Reply, StartTimer
from controller.table.settings import TableSettings
from controller.table.table import Table
from games.cards import parse_card
from games.registry import get_game

GAMES = ("fortune6", "fafa4", "fortune7", "fubacc", "paigow")
BACCARAT = ("fortune6", "fafa4", "fortune7")


class Run:
    def __init__(self, game: str = "fortune6", decks: int | None = None, **settings):
        self.game = get_game(game)
        self.table = Table(game, decks, TableSettings.for_game(self.game, **settings))
        self.counter = 0
        self.effects: list = []
        self.last: list = []

    # ---------------------------------------------------------------- inputs

    def send(self, inp) -> list:
        """`inp`, then each input its effects hand back (FollowUp), as the daemon does."""
        self.last = self.table.handle(inp)
        for effect in self.last:  # grows as it goes: a follow-up's own follow-ups are taken too
            if isinstance(effect, FollowUp):
                self.last += self.table.handle(effect.input)
        self.effects += self.last
        return self.last

    def cmd(self, name: str, source: str = "socket", **args) -> Reply:
        self.send(i.Command(name, args, source))
        replies = [e for e in self.last if isinstance(e, Reply)]
        assert len(replies) == 1, f"{name}: {len(replies)} replies"
        return replies[0]

    def card(self, token: str, counter: int | None = None, **flags) -> list:
        self.counter = self.counter + 1 if counter is None else counter
        code = 0 if token == "??" else parse_card(token).code
        return self.send(i.Card(code, self.counter, **flags))

    def cards(self, *tokens: str) -> None:
        for token in tokens:
            self.card(token)

    def key(self, on: bool = True) -> None:
        self.send(i.SupervisorKey(on))

    # ---------------------------------------------------------------- setups

    def new_shoe(self, burn: tuple[str, ...] = ()) -> None:
        assert self.cmd("new_shoe").ok
        self.cards(*burn)
        assert not self.table.shoe.burning, self.table.shoe.snapshot()

    def baccarat_shoe(self) -> None:
        """A new shoe whose burn card is a 2 (two more burned)."""
        self.new_shoe(("2s", "Kd", "Qc") if self.game.deck_kind.value == "standard52" else ("2-fire", "S-gold", "L-wood"))

    def open_round(self, spots=None) -> None:
        assert self.cmd("place_bets").ok, self.table.snapshot()
        if spots is not None:
            assert self.cmd("spots", spots=list(spots)).ok
        reply = self.cmd("no_more_bets")
        assert reply.ok, reply.message

    # ---------------------------------------------------------------- looking

    @property
    def state(self) -> str:
        return self.table.state

    def journal(self, kind: str | None = None, last: bool = False) -> list[dict]:
        source = self.last if last else self.effects
        return [dict(e.payload) for e in source if isinstance(e, Journal) and (kind is None or e.kind == kind)]

    def events(self, name: str, last: bool = False) -> list[dict]:
        source = self.last if last else self.effects
        return [dict(e.event) for e in source if isinstance(e, Publish) and e.event["event"] == name]

    def lamps(self) -> dict:
        pictures = [e.states for e in self.effects if isinstance(e, Lamps)]
        assert pictures, "no lamp picture yet"
        assert pictures[-1] == self.table.snapshot()["lamps"]
        return dict(pictures[-1])

    def timers(self, last: bool = True) -> list:
        source = self.last if last else self.effects
        return [e for e in source if isinstance(e, (StartTimer, CancelTimer))]

    def irregularity(self) -> dict:
        found = self.journal("irregularity")
        assert found, "no irregularity journaled"
        return found[-1]

    def void(self) -> dict:
        found = self.journal("void")
        assert found, "no void journaled"
        return found[-1]


def fortune6_dealing() -> Run:
    """Fortune 6 mid-deal: burn at counters 1-3, player 2h (4) and banker 3c (5) dealt."""
    run = Run("fortune6")
    run.baccarat_shoe()
    run.open_round()
    run.cards("2h", "3c")
    return run
