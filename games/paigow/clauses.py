"""Fortune Pai Gow Poker: the clauses tablectl cites, one sentence each for what the rules text says and
what tablectl does (games.clauses gathers every game's BOOK; docs/clauses.md prints it)."""
from __future__ import annotations

from games.clause_book import HOLD, VOID_AND_STAND, ClauseBook, clause

BOOK = ClauseBook(
    cited_as="paigow",
    clauses={
        "paigow §1.1.4": clause("a foul hand: the two-card hand set higher than the five-card hand", "detects fouls (equal is not one)"),
        "paigow §1.1.7": clause("the joker is wild for straights and flushes, otherwise an ace", "ranks hands so (ruling 20)"),
        "paigow §3.2": clause("bets close when the dealer announces \"No more bets\"", "the no_more_bets button or command closes them"),
        "paigow §3.4": clause("a player must place a Standard wager to play", "`tablectl play --wager` needs one at every dealt spot"),
        "paigow §3.5": clause("a Fortune Bonus may be placed only after a Standard wager", "refuses a Fortune Bonus without one"),
        "paigow §3.6": clause("seven cards to each spot with a wager from the dealer's left, then the dealer",
                              "deals 7-card packets in seat order, then the dealer's (ruling 17a)"),
        "paigow §3.7.1": clause("the player sets a five-card high hand and a two-card low hand",
                                "takes `house` or the low hand (e.g. Ks+Qs); refuses a setting not from the spot's cards"),
        "paigow §3.7.2": clause("a low hand above the high hand is a foul: the dealer re-sets it by the House Way",
                                "re-sets a foul by the House Way and notes it"),
        "paigow §3.9": clause("the order of five-card (high) hands, Five Aces at the top", "ranks high hands so"),
        "paigow §3.10": clause("the order of two-card (low) hands: pairs, then high cards", "ranks low hands so"),
        "paigow §3.12": clause("the player wins both hands: the player wins", "pays 1:1 less 5%"),
        "paigow §3.13": clause("the player loses both hands: the player loses", "collects the wager"),
        "paigow §3.14": clause("one hand won, one lost: a standoff", "the wager pushes"),
        "paigow §3.15": clause("a copy hand (equal rank) goes to the dealer", "the dealer wins copies"),
        "paigow §3.16": clause("a hand with none of the §4.1.2 lines loses the Fortune Bonus", "settles it as lost"),
        "paigow §3.18": clause("every seated Fortune Bonus bettor gets an Envy Bonus when another player has a "
                               "7-card straight flush (no joker) or a Royal Match", "reports the Envy owed each spot"),
        "paigow §3.18.1": clause("who is not eligible for an Envy Bonus (the three cases below)", "applies all three"),
        "paigow §3.18.1.1": clause("no Envy when the dealer has a 7-card straight flush (no joker) or a Royal Match",
                                   "pays no Envy then"),
        "paigow §3.18.1.2": clause("no Envy for a player whose own hand is a 7-card straight flush (no joker)", "pays that spot no Envy"),
        "paigow §3.18.1.3": clause("no Envy for a player with a Royal Match unless another has a 7-card straight flush",
                                   "pays that spot no Envy unless so"),
        "paigow §4.1.1": clause("the Standard wager pays 1:1 less 5% commission", "pays 19:20, rounded as local ruling L9 says"),
        "paigow §4.1.2": clause("the Fortune Bonus pay table, 2,500:1 down to 2:1, with Envy $250 / $50",
                                "pays this table on the best use of all seven cards (ruling 19)"),
        "paigow §5": clause("Irregularities: foreign cards, misdeals, exposed cards, a short or long deck, late bets",
                            "applies each clause"),
        "paigow §5.1": clause("a foreign card found: the round is void, earlier results stand", VOID_AND_STAND),
        "paigow §5.2": clause("cards dealt incorrectly: void unless whole hands can be moved to where they belong", HOLD),
        "paigow §5.3": clause("the dealer's hand dealt the wrong number of cards: void unless reconstructed", HOLD),
        "paigow §5.4": clause("two or more cards exposed during the initial deal: void", VOID_AND_STAND),
        "paigow §5.5": clause("a shortage or excess of cards in the deck: void", VOID_AND_STAND),
        "paigow §5.6": clause("after \"No more bets\" no wager may be placed or increased", "refuses the betting commands"),
        "paigow §5.7": clause("after \"No more bets\" a withdrawn wager is still won or lost", "settles every wager of the round"),
        "paigow Appendix A": clause("the House Way: how the dealer (and a fouled hand) is set",
                                    "implements it (tablectl paigow house-way)"),
    },
    appendices=("A",), bare_sections="paigow",
)
