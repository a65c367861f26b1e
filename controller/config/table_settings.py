"""The table's settings (controller/table's TableSettings) from a loaded Config."""
from __future__ import annotations

from controller.config.schema import Config
from controller.table.settings import TableSettings
from games.money import MoneyRules, Rounding, TableLimits
from games.registry import get_game, get_table_profile


def table_settings(config: Config) -> TableSettings:
    """[shoe], [timeouts].card_timeout_s, [table], [fortune7], [integrity], [money] and [limits] as the table takes them;
    checked by the table too (TableSettings.check raises SettingsError naming the key)."""
    game = get_game(config.game)
    settings = TableSettings.for_game(
        game,
        burn=config.shoe.burn,
        burn_picture_value=config.shoe.burn_picture_value,
        cut_card_rounds=config.shoe.cut_card_rounds,
        deck_per_round=config.shoe.deck_per_round,
        card_timeout_s=config.timeouts.card_timeout_s,
        spots=config.table.spots if game.uses_spots else (),
        player_dealer_seats=config.fortune7.player_dealer_seats,
        player_dealer_seat=config.fortune7.player_dealer_seat,
        collection_schedule=config.fortune7.collection_schedule if get_table_profile(game.key).player_dealer else None,
        false_alarm_rate=config.integrity.false_alarm_rate,
        history_shoes=config.integrity.history_shoes,
        money=MoneyRules(config.money.minor_unit, Rounding(config.money.rounding)),
        chip_unit=config.money.chip_unit,
        limits=TableLimits.from_mapping(game, config.limits),
    )
    return settings.check(game)
