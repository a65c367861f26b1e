"""The table: the round and shoe state machine, irregularities, lamp and button maps.

A pure core (no I/O, threads or clock): `Table(game_key, decks, settings).handle(input)`
returns effects; docs/table.md describes the whole contract, controller/table/table.py its parts.
"""
from controller.table.buttons import UnknownButton, button_list, button_map, command_for_button
from controller.table.effects import CancelTimer, Effect, FollowUp, Journal, Lamps, Pattern, Publish, Reply, StartTimer
from controller.table.lamps import Lamp, lamp_ids, lamp_list
from controller.table.recovery import RecoveredRound, RecoveredShoe, TableRecovery
from controller.table.settings import SettingsError, TableSettings
from controller.table.table import Table
from games.table_profile import Button

__all__ = [
    "Button", "CancelTimer", "Effect", "FollowUp", "Journal", "Lamp", "Lamps", "Pattern", "Publish", "RecoveredRound",
    "RecoveredShoe", "Reply", "SettingsError", "StartTimer", "Table", "TableRecovery", "TableSettings",
    "UnknownButton", "button_list", "button_map", "command_for_button", "lamp_ids", "lamp_list",
]
