"""The config's [shoe], [timeouts], [table], [fortune7] and [integrity] reach controller/table's
TableSettings, which the table checks again."""
from fractions import Fraction

import pytest

from controller.config import load_config
from controller.config.table_settings import table_settings
from controller.table.settings import TableSettings
from games.registry import get_game


def write(tmp_path, text):
    path = tmp_path / "t.toml"
    path.write_text(text)
    return load_config(path)


@pytest.mark.parametrize("game", ["fafa4", "fortune7", "fortune6", "fubacc"])
def test_the_defaults_are_the_tables_own_defaults(tmp_path, game):
    settings = table_settings(write(tmp_path, f'game = "{game}"\n'))
    # the daemon's Fortune 7 table always has a collection schedule: option 1 unless configured
    schedule = {"collection_schedule": 1} if game == "fortune7" else {}
    assert settings == TableSettings.for_game(get_game(game), **schedule)


def test_the_collection_schedule_reaches_a_fortune7_table_only(tmp_path):
    assert table_settings(write(tmp_path, 'game = "fortune7"\n[fortune7]\ncollection_schedule = 24\n')
                          ).collection_schedule == 24
    assert table_settings(write(tmp_path, 'game = "fortune6"\n[fortune7]\ncollection_schedule = 24\n')
                          ).collection_schedule is None


def test_every_setting_is_carried(tmp_path):
    config = write(tmp_path, 'game = "fortune7"\n[shoe]\nburn = false\nburn_picture_value = 5\ncut_card_rounds = 2\n'
                             '[timeouts]\ncard_timeout_s = 12.5\n[fortune7]\nplayer_dealer_seats = [3, 5]\n'
                             'player_dealer_seat = 5\n')
    settings = table_settings(config)
    assert (settings.burn, settings.burn_picture_value, settings.cut_card_rounds, settings.card_timeout_s) == (False, 5, 2, 12.5)
    assert (settings.player_dealer_seats, settings.player_dealer_seat, settings.spots) == ((3, 5), 5, ())
    integrity = table_settings(write(tmp_path, '[integrity]\nfalse_alarm_rate = "1/5000"\nhistory_shoes = 12\n'))
    assert (integrity.false_alarm_rate, integrity.history_shoes) == (Fraction(1, 5000), 12)


def test_spot_games_take_the_configured_spots(tmp_path):
    settings = table_settings(write(tmp_path, 'game = "fubacc"\n[table]\nspots = [2, 6]\n'))
    assert (settings.spots, settings.deck_per_round, settings.burn) == ((2, 6), True, False)
