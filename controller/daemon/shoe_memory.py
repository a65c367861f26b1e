"""At start-up: what the journal tells the table's shoe integrity checks (local ruling L7).

    start = shoe_memory(journal, game_key, decks, shoe_number, keep=config.integrity.history_shoes)
    table.restore(TableRecovery.from_tail(read_tail(journal)), start)

The openings of the `keep` most recent shoes (decks, on a deck-per-round table) before the one
in play, the one before it whole (the slug check), and the shoe in play, whose cards the table
feeds to the checks again (controller.journal.shoes.shoe_history). A shoe in play of another
game or deck count than the table deals now (the config changed) joins the history instead:
the checks then watch from the next new shoe.
"""
from __future__ import annotations

from controller.journal import Journal
from controller.journal.shoes import add_to_history, shoe_history
from controller.table.integrity import IntegrityStart


def shoe_memory(journal: Journal, game_key: str, decks: int, shoe_number: int | None, keep: int) -> IntegrityStart:
    history, current = shoe_history(journal, keep=keep)
    if current is None:
        return IntegrityStart(history)
    if (current.game, current.decks, current.shoe) != (game_key, decks, shoe_number):
        add_to_history(history, current)
        return IntegrityStart(history)
    cards = tuple((card.parsed(), card.draw_counter) for card in current.cards)
    return IntegrityStart(history, current.label, current.deck, cards, current.cards_to_deal())

