"""Every clause and ruling tablectl cites, in one sentence each: what it says and what tablectl
does. The rules texts and the rulings on them are not part of a checkout, so this table is
what a supervisor, a test lab or a developer reads beside a clause in `tablectl recall`,
`tablectl watch`, `tablectl status`, the demo's view and docs/clauses.md (generated from here
by `python3 -m docgen.clauses`, whose --check also fails when the code cites a clause this
table lacks).

Each game's clauses, and how its rules text is cited, are in its folder (clauses.py, BOOK:
games.clause_book); the rulings on the rules texts and tablectl's local rulings are here.

Citations are written as the code writes them: "fafa §5.2", "fortune6 §4.1", "paigow §3.18.1.1",
"fubacc procedure 2", "fubacc way 1", "fortune7 Tie Bet", "ruling 17a" (the rulings on the
rules texts), "local ruling L4" (tablectl's own, docs/local-rulings.md). A compound citation
("local ruling L1 (fortune6 §5.2)", "fafa §3.11, §4.1, ruling 5") is split by `citations()`.
"""
from __future__ import annotations

import re

from games.clause_book import VOID_AND_STAND, Clause, ClauseBook
from games.clause_book import clause as _c
from games.registry import GAME_KEYS, get_clause_book

BOOKS: dict[str, ClauseBook] = {key: get_clause_book(key) for key in GAME_KEYS}
GAME_PREFIX = {key: book.cited_as for key, book in BOOKS.items()}  # games key -> its name in a citation

RULINGS: dict[str, Clause] = {
    # ------------------------------------------------------------ the rulings on the rules texts
    "ruling 1": _c("Fa Fa's deck: 13 ranks x 5 elements = 65 cards; 10, S, L, F count 0; 4-10 decks",
                   "uses that deck (wire codes 0x02ER)"),
    "ruling 2": _c("Precious Pair compares rank, not point value", "10 and S are not a pair"),
    "ruling 3": _c("Precious Pair lines: Gold 4s, other 4s, Gold pair, other pair; one payout, the highest",
                   "pays the highest line only"),
    "ruling 4": _c("Tie on Element Eights (two 4s each side) pays 800:1 instead of 8:1", "pays 800:1 instead"),
    "ruling 5": _c("Player win on 4 pays 1:2; Banker win on 4 pushes the Banker wager", "settles so"),
    "ruling 6": _c("Fortune 7 Bonus wins exactly when the Banker wins with a three-card 7", "settles so"),
    "ruling 7": _c("One Up: the Player wins by one point; 1-0 pays 30:1, otherwise 9:1", "settles so"),
    "ruling 8": _c("the Tie may be bet alone; One Up and Fortune 7 need a Player or Banker line wager",
                   "California settlement rejects a bonus stake without one"),
    "ruling 9": _c("house edges exclude collection fees; the fee schedule (1-26) is configured",
                   "validates fortune7.collection_schedule; odds exclude fees"),
    "ruling 10": _c("Fortune Six's Banker pays 1:1 with no commission", "pays 1:1, no commission"),
    "ruling 11": _c("Fortune Six pairs are by rank; Fortune Six is the Banker winning with 6", "settles so"),
    "ruling 12": _c("a monkey is any 10, J, Q or K", "counts those as monkeys"),
    "ruling 13": _c("Lucky Monkey is decided on the first two cards and the dealer's up card, even after a fold",
                    "settles it so"),
    "ruling 14": _c("the Fu Bacc Tie is settled on the player's final hand", "the original two after a fold, bonus or Tie-only"),
    "ruling 15": _c("Fu Bacc tie: Ante loses, Play pushes; taking a bonus ends the hand", "settles so"),
    "ruling 16": _c("the Fu Bacc dealer stands on a two-card 6-9, draws the hit card on 0-5", "draws so"),
    "ruling 17": _c("Fu Bacc's deal as the shoe sees it: 3-card packets by seat from seat 1, then the dealer's",
                    "assigns cards so; an unused hit card is burned"),
    "ruling 17a": _c("Pai Gow's deal as the shoe sees it: 7-card packets by seat from seat 1, then the dealer's; "
                     "one 53-card deck a round", "assigns cards so and checks the deck for shortage, excess, duplicates"),
    "ruling 18": _c("A-2-3-4-5 is the lowest straight; A-7 suited is a seven-card straight flush", "ranks hands so"),
    "ruling 19": _c("the Fortune Bonus is judged on the best use of all seven cards, whatever the setting", "judges it so"),
    "ruling 20": _c("the joker is wild only for straights and flushes, else an ace; four aces + joker = Five Aces",
                    "ranks hands so"),
    "ruling 21": _c("Envy amounts are fixed money ($250 / $50), eligibility per §3.18.1", "reports Envy as money"),
    "ruling 23": _c("Fa Fa §5.1 is the decks' composition; a card beyond what the rules call for, or one that "
                    "left the shoe unread, is §5.2",
                    "voids too many copies or another deck's card (§5.1); holds an extra or missing card under "
                    "§5.2, Fu Bacc too (local ruling L2)"),
    "ruling 24": _c("a card missed while the shoe was unheard (link lost, reboot) is a card missed while heard",
                    "holds the round under §5.2 of the game for the supervisor to key the card in, else voids; "
                    "cites \"<the game's clause> (ruling 24)\""),
    "ruling 25": _c("Fortune 7 fees: 1-20 per bettor per space and the player-dealer's per hand; 21-26 by table "
                    "action; returned on a void", "takes them before the deal, one line per bettor and space"),
    "ruling 26": _c("the player-dealer's bank: rules' order, losers up to 2S, last winner paid partly, all after "
                    "exhaustion returned", "settles so; tablectl play --player-dealer shows it"),
    # ------------------------------------------------------------ tablectl's own (docs/local-rulings.md)
    "local ruling L1": _c("Fortune 7's rules name no irregularities: Fortune Six's §5 applies clause for clause",
                          "cites fortune6 §5.N through L1"),
    "local ruling L2": _c("Fu Bacc's rules name none beyond procedure 2: Fa Fa's §5 applies by analogy",
                          "cites fafa §5.N through L2"),
    "local ruling L3": _c("a card drawn before \"No more bets\": the deal began while bets were open", VOID_AND_STAND),
    "local ruling L4": _c("the shoe unheard mid-round (link lost, reboot, daemon down)",
                          "holds until its draw counter speaks: resumes when it proves no card was missed; "
                          "cards it shows unheard are judged as if heard (ruling 24); a counter that went "
                          "back or none voids (order altered)"),
    "local ruling L5": _c("a misread: the shoe saw a card leave but could not read it",
                          "holds for the supervisor to key the card in, else voids (order altered)"),
    "local ruling L6": _c("two cards drawn at once after the initial deal",
                          "holds for the supervisor to confirm their order, else voids (order altered)"),
    "local ruling L7": _c("a shoe fails an integrity check (unshuffled, replayed, a slug), beyond the "
                          "false-alarm rate of a fair shuffle",
                          "journals the alarm with its cards, draw counters and probability; the round in progress "
                          "completes; no round opens until the supervisor, with the key, accepts the shoe "
                          "(accept_shoe) or a new shoe is called; error lamp slow blink, supervisor lamp between rounds"),
    "local ruling L8": _c("two frames for one card on the shoe's line with different contents (one forged)",
                          "journals both frames as tamper and alerts surveillance; holds the round for the "
                          "supervisor to confirm the hands against the cards on the table, else voids "
                          "(order altered); noted when no round is in play"),
    "local ruling L9": _c("a win short of a whole minor unit (default 1) is paid to the unit below; baccarat seats are 1-7",
                          "rounds every pay so (a commission rounds up); stakes are whole minor units"),
    "local ruling L10": _c("chips read by the bet sensor: foreign chips, chips added or taken after \"No more bets\", "
                           "payouts checked at confirm",
                           "freezes the wagers at \"No more bets\"; refuses foreign and late chips; settles the frozen "
                           "wager; refuses confirm on a mispay until corrected or accepted with the key"),
    "local ruling L11": _c("table limits where the rules text names none: a wager below the minimum or above the "
                           "maximum is refused", "refuses it at \"No more bets\": it does not play"),
}


def _game_clauses() -> dict[str, Clause]:
    both: dict[str, Clause] = {}
    for key, book in BOOKS.items():
        clash = sorted(set(both) & set(book.clauses))
        if clash:
            raise ValueError(f"game {key!r} cites {clash} as another game does: its cited_as must be its own")
        both.update(book.clauses)
    return both


CLAUSES: dict[str, Clause] = {**_game_clauses(), **RULINGS}


def _either(words: list[str]) -> str:
    return "|".join(re.escape(word) for word in sorted(set(words), key=len, reverse=True)) or "(?!)"


# A game is named by its rules text's name or its key ("fafa", "fafa4"); the citation is the
# rules text's name (GAME_PREFIX).
_NAMED_AS = {**{book.cited_as: book.cited_as for book in BOOKS.values()}, **GAME_PREFIX}
_NUMBERED = {word: book.cited_as for book in BOOKS.values() for word in book.numbered}
_APPENDICES = {letter: book.cited_as for book in BOOKS.values() for letter in book.appendices}
_NAMED_SECTIONS = [name for book in BOOKS.values() for name in book.named]
_LIST = r"\d+(?:\s*-\s*\d+)?(?:\s*(?:,|and)\s*\d+(?:\s*-\s*\d+)?)*"
_GAME = rf"\b(?P<game>{_either(list(_NAMED_AS))})\b[\s\"]*"
_ATOM = (r"(?P<section>§\d+(?:\.\d+)*)"
         rf"|(?P<numbered>(?P<part>{_either(list(_NUMBERED))})s?\s+{_LIST})"
         rf"|(?P<appendix>Appendix\s+\"?(?P<letter>{_either(list(_APPENDICES))})\b)"
         r"|(?P<local>local\s+rulings?\s+L\d+)"
         r"|(?P<rulings>rulings?\s+\d+[a-z]?(?:\s*-\s*\d+)?)"
         rf"|(?P<named>{_either(_NAMED_SECTIONS)})")
_TOKEN = re.compile(rf"(?:{_GAME})?(?:{_ATOM})")
_JOINER = re.compile(r"[\s,;/()&]*(?:and|or)?[\s,;/()&]*")  # what may stand between atoms of one citation


def _numbers(text: str) -> list[str]:
    out: list[str] = []
    for part in re.split(r"\s*(?:,|and)\s*", text):
        low, _, high = part.partition("-")
        out += [str(n) for n in range(int(low), int(high) + 1)] if high else [low.strip()]
    return out


def _book_of(cited_as: str) -> ClauseBook:
    return next(book for book in BOOKS.values() if book.cited_as == cited_as)


def citations(text: str, game: str | None = None) -> list[str]:
    """The citations in `text` as keys of CLAUSES, in order, each once. A bare "§5.2" belongs to
    the game named before it in the same citation, else to `game` (a games key), else it is
    left out (it cannot be told apart)."""
    found: list[str] = []
    context, end = (GAME_PREFIX.get(game) if game else None), 0
    default = context
    for match in _TOKEN.finditer(text):
        if match["game"]:
            context = _NAMED_AS[match["game"]]
        elif not _JOINER.fullmatch(text[end:match.start()]):
            context = default
        end = match.end()
        keys: list[str] = []
        if match["section"] and context:
            keys = [f"{context} {match['section']}"]
        elif match["numbered"]:
            part = match["part"]
            keys = [f"{_NUMBERED[part]} {part} {n}" for n in _numbers(match["numbered"].split(None, 1)[1])]
        elif match["appendix"]:
            keys = [f"{_APPENDICES[match['letter']]} Appendix {match['letter']}"]
        elif match["local"]:
            keys = [f"local ruling {match['local'].split()[-1]}"]
        elif match["rulings"]:
            number = match["rulings"].split(None, 1)[1]
            keys = [f"ruling {n}" for n in (_numbers(number) if "-" in number else [number])]
        elif match["named"] and context is not None and match["named"] in _book_of(context).named:
            keys = [f"{context} {match['named']}"]
        found += [key for key in keys if key not in found]
    return found


def lookup(key: str) -> tuple[str, Clause] | None:
    """The entry for a citation key, or for its nearest parent section ("fortune6 §3.9.3" is
    told by "fortune6 §3.9"); None if the table has neither."""
    while True:
        if key in CLAUSES:
            return key, CLAUSES[key]
        if "§" not in key or "." not in key.rsplit("§", 1)[1]:
            return None
        key = key.rsplit(".", 1)[0]


# rulings that only lend another game's clause: the clause lent says what matters
BORROWING = ("local ruling L1", "local ruling L2")


def summary(clause: str | None, game: str | None = None) -> str:
    """One line for a clause as the code cites it: each citation's `says`, in order (a borrowing
    ruling is left out when the clause it lends follows). Empty for no clause or one the table
    does not know."""
    keys = citations(clause or "", game)
    if len(keys) > 1:
        keys = [key for key in keys if key not in BORROWING]
    return "; ".join(entry[1].says for key in keys if (entry := lookup(key)) is not None)


def explained(clause: str | None, game: str | None = None) -> list[tuple[str, Clause]]:
    """(citation, entry) for each citation of a clause, for the fuller forms (recall, docs)."""
    return [entry for key in citations(clause or "", game) if (entry := lookup(key)) is not None]
