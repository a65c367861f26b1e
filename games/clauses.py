"""Every clause and ruling tablectl cites, in one sentence each: what it says and what tablectl
does. The rules texts and the rulings on them are not part of a checkout, so this table is
what a supervisor, a test lab or a developer reads beside a clause in `tablectl recall`,
`tablectl watch`, `tablectl status`, the demo's view and docs/clauses.md (generated from here
by `python3 -m docgen.clauses`, whose --check also fails when the code cites a clause this
table lacks).

Citations are written as the code writes them: "fafa §5.2", "fortune6 §4.1", "paigow §3.18.1.1",
"fubacc procedure 2", "fubacc way 1", "fortune7 Tie Bet", "ruling 17a" (the rulings on the
rules texts), "local ruling L4" (tablectl's own, docs/local-rulings.md). A compound citation
("local ruling L1 (fortune6 §5.2)", "fafa §3.11, §4.1, ruling 5") is split by `citations()`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

GAME_PREFIX = {"fafa4": "fafa", "fortune7": "fortune7", "fortune6": "fortune6", "fubacc": "fubacc", "paigow": "paigow"}
FORTUNE7_SECTIONS = ("Dealing Procedures and Round of Play", "How Winners are Determined and Paid", "Tie Bet",
                     "One Up Bonus Bet", "Fortune 7 Bonus Bet")


@dataclass(frozen=True)
class Clause:
    says: str  # what the rules text (or ruling) says, in our words
    does: str  # what tablectl does about it

    @property
    def line(self) -> str:
        return f"{self.says}; tablectl: {self.does}"


def _c(says: str, does: str) -> Clause:
    return Clause(says, does)


_VOID_AND_STAND = "voids the round (a durable journal record, the void lamp); earlier results stand"
_HOLD = "holds the round for the supervisor to reconstruct it (key in, confirm), else void it"

CLAUSES: dict[str, Clause] = {
    # ------------------------------------------------------------ Fa Fa Fabulous 4 Baccarat
    "fafa §1.1.5": _c("a natural is a two-card 8 or 9 in the initial deal", "no third card to either hand"),
    "fafa §1.1.7": _c("Precious Pair: the first two cards of a hand form a Gold 4s, 4s, Gold or other pair",
                      "judges the pair by rank (ruling 2)"),
    "fafa §2.1": _c("played with 4 to 10 decks of 65 cards", "accepts decks = 4-10 (default 8)"),
    "fafa §3.2": _c("bets close when the dealer announces \"No more bets\"", "the no_more_bets button or command closes them"),
    "fafa §3.4": _c("a hand's point total is the right digit of its card values' sum", "counts totals so"),
    "fafa §3.7": _c("four cards: 1st and 3rd to the Player, 2nd and 4th to the Banker", "assigns cards in that order"),
    "fafa §3.8": _c("the Table of Play: when each hand draws a third card", "calls for a third card exactly as the table says"),
    "fafa §3.11": _c("Banker wins with 4: Banker Fabulous 4 wins, Banker wagers push, Player wagers lose",
                     "settles so (lamp bet_banker slow-blinks for the push)"),
    "fafa §3.12": _c("Player wins with 4: Player Fabulous 4 wins, Player paid per §4.1 (1:2), Banker loses",
                     "settles so"),
    "fafa §4.1": _c("the pay table: Player/Banker 1:1 (2:1 on 1; on 4 Player 1:2, Banker push), Tie 8:1 "
                    "(800:1 on Element Eights), Fabulous 4 50:1 / 25:1", "pays exactly this table"),
    "fafa §4.2": _c("Precious Pair pays 30/15/12/9 to 1, once, the highest line", "pays the highest line only"),
    "fafa §5": _c("Irregularities: what voids a round, what may be reconstructed, no late or withdrawn bets",
                  "applies each clause; Fu Bacc borrows them (local ruling L2)"),
    "fafa §5.1": _c("extra or missing cards in the decks' composition, or foreign cards: the round is void, "
                    "earlier results stand (ruling 23)", _VOID_AND_STAND),
    "fafa §5.2": _c("a hand dealt the wrong number of cards (an extra card, or one the shoe dealt unread: "
                    "ruling 23): void unless the cards can be reconstructed", _HOLD),
    "fafa §5.3": _c("two cards drawn at once in the initial deal, order unknown: void", _VOID_AND_STAND),
    "fafa §5.4": _c("the order of cards in the shoe altered and not reconstructable: void", _VOID_AND_STAND),
    "fafa §5.5": _c("not enough cards in the shoe to finish the round: void", _VOID_AND_STAND),
    "fafa §5.6": _c("after \"No more bets\" no wager may be placed or increased", "refuses the betting commands"),
    "fafa §5.7": _c("after \"No more bets\" a withdrawn wager is still won or lost", "settles every wager of the round"),
    # ------------------------------------------------------------ Fortune Six Baccarat Tournament
    "fortune6 §1.1.4": _c("a natural is a two-card 8 or 9 in the initial deal", "no third card to either hand"),
    "fortune6 §2.1": _c("played with 4 to 10 decks of 52 cards", "accepts decks = 4-10 (default 8)"),
    "fortune6 §3.2": _c("bets close when the dealer announces \"No more bets\"", "the no_more_bets button or command closes them"),
    "fortune6 §3.4": _c("a hand's point total is the right digit of its card values' sum", "counts totals so"),
    "fortune6 §3.7": _c("four cards: 1st and 3rd to the Player, 2nd and 4th to the Banker", "assigns cards in that order"),
    "fortune6 §3.8": _c("Player/Banker Pair: the hand's first two cards are a pair", "judges pairs by rank (ruling 11)"),
    "fortune6 §3.9": _c("the Table of Play: when each hand draws a third card", "calls for a third card exactly as the table says"),
    "fortune6 §3.11": _c("Fortune Six wins when the Banker wins with 6, on two or three cards", "settles it 12:1 or 20:1"),
    "fortune6 §4.1": _c("the pay table: Banker and Player 1:1 (no commission), Tie 8:1, Pairs 11:1, "
                        "Fortune Six 12:1 two-card / 20:1 three-card", "pays exactly this table"),
    "fortune6 §5": _c("Irregularities: what voids a round, what may be reconstructed, no late or withdrawn bets",
                      "applies each clause; Fortune 7 borrows them (local ruling L1)"),
    "fortune6 §5.1": _c("a foreign card found: the round is void, earlier results stand", _VOID_AND_STAND),
    "fortune6 §5.2": _c("a hand dealt the wrong number of cards (an extra card, or one the shoe dealt unread: "
                        "ruling 23): void unless the cards can be reconstructed", _HOLD),
    "fortune6 §5.3": _c("two cards drawn at once in the initial deal, order unknown: void", _VOID_AND_STAND),
    "fortune6 §5.4": _c("the order of cards in the shoe altered and not reconstructable: void", _VOID_AND_STAND),
    "fortune6 §5.5": _c("not enough cards in the shoe to finish the round: void", _VOID_AND_STAND),
    "fortune6 §5.6": _c("after \"No more bets\" no wager may be placed or increased", "refuses the betting commands"),
    "fortune6 §5.7": _c("after \"No more bets\" a withdrawn wager is still won or lost", "settles every wager of the round"),
    # ------------------------------------------------------------ Fortune 7 Baccarat (California)
    "fortune7 Dealing Procedures and Round of Play": _c(
        "the deal, the Table of Play and the player-dealer position rotating every two hands",
        "deals and draws by the baccarat Table of Play; rotates the player-dealer seat"),
    "fortune7 How Winners are Determined and Paid": _c(
        "settlement from the player-dealer's left, line bets first, up to the player-dealer's stake",
        "settlement order and coverage are computed in games/baccarat/california"),
    "fortune7 Tie Bet": _c("a tie of the two hands pays 8:1; the Tie may be bet alone", "pays 8:1"),
    "fortune7 One Up Bonus Bet": _c("the Player wins by exactly one point", "pays 30:1 on 1-0, 9:1 otherwise (ruling 7)"),
    "fortune7 Fortune 7 Bonus Bet": _c("the Banker wins with a three-card 7", "pays 40:1 (ruling 6)"),
    # ------------------------------------------------------------ Fu Bacc
    "fubacc way 1": _c("against the dealer: Ante, then fold or Play (2x Ante) with one optional hit card",
                       "takes fold / play,hit / play,stay / bonus / no_ante per spot"),
    "fubacc way 2": _c("Lucky Monkey: two monkeys (10-K) against the dealer's up card pay 30/20/15/10/5 to 1",
                       "settles it on the first two cards and the up card (ruling 13)"),
    "fubacc way 3": _c("the Tie: player and dealer tie, pays 7:1", "settles it on the final hand (ruling 14)"),
    "fubacc procedure 1": _c("each player bets Ante, Lucky Monkey and/or Tie; a Tie-only hand plays its two cards",
                             "a spot without an Ante is declared no_ante and gets no hit card"),
    "fubacc procedure 2": _c("\"No more bets\" before any card is dispensed",
                             "refuses bets after it; a card before it voids (local ruling L3)"),
    "fubacc procedure 3": _c("three cards to each live spot and three to the dealer, one deck", "deals 3-card packets (ruling 17)"),
    "fubacc procedure 6": _c("after looking at two cards the player plays or folds", "waits for each spot's decision"),
    "fubacc procedure 7": _c("a fold loses the Ante; a Tie wager stays on the original two cards", "settles so"),
    "fubacc procedure 8": _c("a Play of 2x Ante, then stay on two cards or take the hit card", "takes play,stay or play,hit"),
    "fubacc procedure 9": _c("the dealer draws the hit card on 0-5, stands on 6-9", "draws for the dealer so (ruling 16)"),
    "fubacc procedure 10": _c("settlement starts with the player on the dealer's right", "settles spots from the highest seat down"),
    "fubacc procedure 11": _c("on a tie the Ante loses, the Play pushes, the Tie pays 7:1", "settles so (ruling 15)"),
    "fubacc procedure 12": _c("a two-card 8 or 9 is a natural, eligible for an Ante bonus", "offers bonus on a natural"),
    "fubacc procedure 13": _c("natural 9: take 2:1 on the Ante and end the hand, or play on", "offers bonus (2:1) or play"),
    "fubacc procedure 14": _c("natural 8: take 3:2 on the Ante and end the hand, or play on", "offers bonus (3:2) or play"),
    "fubacc procedure 15": _c("two monkeys against a dealer 9: take 1:1 on the Ante and end the hand, or play on",
                              "offers bonus (1:1) or play"),
    # ------------------------------------------------------------ Fortune Pai Gow Poker
    "paigow §1.1.4": _c("a foul hand: the two-card hand set higher than the five-card hand", "detects fouls (equal is not one)"),
    "paigow §1.1.7": _c("the joker is wild for straights and flushes, otherwise an ace", "ranks hands so (ruling 20)"),
    "paigow §3.2": _c("bets close when the dealer announces \"No more bets\"", "the no_more_bets button or command closes them"),
    "paigow §3.4": _c("a player must place a Standard wager to play", "`tablectl play --wager` needs one at every dealt spot"),
    "paigow §3.5": _c("a Fortune Bonus may be placed only after a Standard wager", "refuses a Fortune Bonus without one"),
    "paigow §3.6": _c("seven cards to each spot with a wager from the dealer's left, then the dealer",
                      "deals 7-card packets in seat order, then the dealer's (ruling 17a)"),
    "paigow §3.7.1": _c("the player sets a five-card high hand and a two-card low hand",
                        "takes `house` or the low hand (e.g. Ks+Qs); refuses a setting not from the spot's cards"),
    "paigow §3.7.2": _c("a low hand above the high hand is a foul: the dealer re-sets it by the House Way",
                        "re-sets a foul by the House Way and notes it"),
    "paigow §3.9": _c("the order of five-card (high) hands, Five Aces at the top", "ranks high hands so"),
    "paigow §3.10": _c("the order of two-card (low) hands: pairs, then high cards", "ranks low hands so"),
    "paigow §3.12": _c("the player wins both hands: the player wins", "pays 1:1 less 5%"),
    "paigow §3.13": _c("the player loses both hands: the player loses", "collects the wager"),
    "paigow §3.14": _c("one hand won, one lost: a standoff", "the wager pushes"),
    "paigow §3.15": _c("a copy hand (equal rank) goes to the dealer", "the dealer wins copies"),
    "paigow §3.16": _c("a hand with none of the §4.1.2 lines loses the Fortune Bonus", "settles it as lost"),
    "paigow §3.18": _c("every seated Fortune Bonus bettor gets an Envy Bonus when another player has a "
                       "7-card straight flush (no joker) or a Royal Match", "reports the Envy owed each spot"),
    "paigow §3.18.1": _c("who is not eligible for an Envy Bonus (the three cases below)", "applies all three"),
    "paigow §3.18.1.1": _c("no Envy when the dealer has a 7-card straight flush (no joker) or a Royal Match",
                           "pays no Envy then"),
    "paigow §3.18.1.2": _c("no Envy for a player whose own hand is a 7-card straight flush (no joker)", "pays that spot no Envy"),
    "paigow §3.18.1.3": _c("no Envy for a player with a Royal Match unless another has a 7-card straight flush",
                           "pays that spot no Envy unless so"),
    "paigow §4.1.1": _c("the Standard wager pays 1:1 less 5% commission", "pays 19:20, rounded as local ruling L8 says"),
    "paigow §4.1.2": _c("the Fortune Bonus pay table, 2,500:1 down to 2:1, with Envy $250 / $50",
                        "pays this table on the best use of all seven cards (ruling 19)"),
    "paigow §5": _c("Irregularities: foreign cards, misdeals, exposed cards, a short or long deck, late bets",
                    "applies each clause"),
    "paigow §5.1": _c("a foreign card found: the round is void, earlier results stand", _VOID_AND_STAND),
    "paigow §5.2": _c("cards dealt incorrectly: void unless whole hands can be moved to where they belong", _HOLD),
    "paigow §5.3": _c("the dealer's hand dealt the wrong number of cards: void unless reconstructed", _HOLD),
    "paigow §5.4": _c("two or more cards exposed during the initial deal: void", _VOID_AND_STAND),
    "paigow §5.5": _c("a shortage or excess of cards in the deck: void", _VOID_AND_STAND),
    "paigow §5.6": _c("after \"No more bets\" no wager may be placed or increased", "refuses the betting commands"),
    "paigow Appendix A": _c("the House Way: how the dealer (and a fouled hand) is set", "implements it (tablectl paigow house-way)"),
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
    # ------------------------------------------------------------ tablectl's own (docs/local-rulings.md)
    "local ruling L1": _c("Fortune 7's rules name no irregularities: Fortune Six's §5 applies clause for clause",
                          "cites fortune6 §5.N through L1"),
    "local ruling L2": _c("Fu Bacc's rules name none beyond procedure 2: Fa Fa's §5 applies by analogy",
                          "cites fafa §5.N through L2"),
    "local ruling L3": _c("a card drawn before \"No more bets\": the deal began while bets were open", _VOID_AND_STAND),
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
    "local ruling L8": _c("a win short of a whole minor unit (default 1) is paid to the unit below; baccarat seats are 1-7",
                          "rounds every pay so (a commission rounds up); stakes are whole minor units"),
}

_GAME = r"\b(?P<game>fafa4?|fortune6|fortune7|fubacc|paigow)\b[\s\"]*"
_ATOM = (r"(?P<section>§\d+(?:\.\d+)*)"
         r"|(?P<procedures>procedures?\s+\d+(?:\s*-\s*\d+)?(?:\s*(?:,|and)\s*\d+(?:\s*-\s*\d+)?)*)"
         r"|(?P<way>way\s+\d+)|(?P<appendix>Appendix\s+\"?A\b)"
         r"|(?P<local>local\s+rulings?\s+L\d+)"
         r"|(?P<rulings>rulings?\s+\d+[a-z]?(?:\s*-\s*\d+)?)"
         r"|(?P<f7>" + "|".join(FORTUNE7_SECTIONS) + ")")
_TOKEN = re.compile(rf"(?:{_GAME})?(?:{_ATOM})")
_JOINER = re.compile(r"[\s,;/()&]*(?:and|or)?[\s,;/()&]*")  # what may stand between atoms of one citation


def _numbers(text: str) -> list[str]:
    out: list[str] = []
    for part in re.split(r"\s*(?:,|and)\s*", text):
        low, _, high = part.partition("-")
        out += [str(n) for n in range(int(low), int(high) + 1)] if high else [low.strip()]
    return out


def citations(text: str, game: str | None = None) -> list[str]:
    """The citations in `text` as keys of CLAUSES, in order, each once. A bare "§5.2" belongs to
    the game named before it in the same citation, else to `game` (a games key), else it is
    left out (it cannot be told apart)."""
    found: list[str] = []
    context, end = (GAME_PREFIX.get(game) if game else None), 0
    default = context
    for match in _TOKEN.finditer(text):
        if match["game"]:
            context = "fafa" if match["game"].startswith("fafa") else match["game"]
        elif not _JOINER.fullmatch(text[end:match.start()]):
            context = default
        end = match.end()
        keys: list[str] = []
        if match["section"] and context:
            keys = [f"{context} {match['section']}"]
        elif match["procedures"]:
            keys = [f"fubacc procedure {n}" for n in _numbers(match["procedures"].split(None, 1)[1])]
        elif match["way"]:
            keys = [f"fubacc {' '.join(match['way'].split())}"]
        elif match["appendix"]:
            keys = ["paigow Appendix A"]
        elif match["local"]:
            keys = [f"local ruling {match['local'].split()[-1]}"]
        elif match["rulings"]:
            number = match["rulings"].split(None, 1)[1]
            keys = [f"ruling {n}" for n in (_numbers(number) if "-" in number else [number])]
        elif match["f7"] and context == "fortune7":
            keys = [f"fortune7 {match['f7']}"]
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
