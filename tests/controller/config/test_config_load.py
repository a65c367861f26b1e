"""controller.config: the default file, game-dependent defaults, and errors that name the
file, the dotted key and what was expected."""
import dataclasses
import json
import pathlib
import subprocess
import sys

import pytest

from controller.config import ConfigError, config_from_dict, default_config, load_config
from drivers.url import parse_device_url
from games.registry import get_game
from simulation.rig.config_file import toml_text as toml_of

ROOT = pathlib.Path(__file__).resolve().parents[3]
DEFAULT_FILE = ROOT / "systemd" / "tablectl.toml"


def write(tmp_path, text: str) -> pathlib.Path:
    path = tmp_path / "tablectl.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_installed_default_file_holds_exactly_the_built_in_defaults():
    loaded = load_config(DEFAULT_FILE)
    assert loaded.source == str(DEFAULT_FILE)
    assert dataclasses.replace(loaded, source=None) == default_config()


def test_defaults_point_at_the_udev_names_and_the_state_and_runtime_dirs():
    config = default_config()
    assert (config.game, config.decks) == ("fortune6", 8)
    assert config.devices.shoe == "serial:///dev/tablectl/shoe"
    assert parse_device_url(config.devices.panel).path == "/dev/tablectl/panel"
    assert parse_device_url(config.devices.lights).path == "/dev/tablectl/lights"
    assert config.devices.bets == "" and config.keys.bets == ""  # no bet sensor unless one is named
    assert config.journal.path == "/var/lib/tablectl/journal.sqlite"
    assert config.control.socket == "/run/tablectl/control.sock"
    assert config.control.mode == 0o660
    assert (config.log.format, config.log.level) == ("json", "info")


@pytest.mark.parametrize("game, shoe_game", [("fafa4", True), ("fortune7", True), ("fortune6", True), ("fubacc", False)])
def test_a_game_brings_its_own_deck_count_burn_and_deck_per_round(tmp_path, game, shoe_game):
    config = load_config(write(tmp_path, f'game = "{game}"\n'))
    assert config.decks == get_game(game).default_decks
    assert (config.shoe.burn, config.shoe.deck_per_round) == (shoe_game, not shoe_game)


def test_values_given_override_the_defaults(tmp_path):
    config = load_config(write(tmp_path, """
game = "fafa4"
decks = 6
[timeouts]
card_timeout_s = 12
[control]
mode = "0640"
[shoe]
burn = false
cut_card_rounds = 0
[log]
format = "console"
level = "debug"
"""))
    assert (config.game, config.decks) == ("fafa4", 6)
    assert config.timeouts.card_timeout_s == 12.0 and isinstance(config.timeouts.card_timeout_s, float)
    assert config.control.mode == 0o640
    assert (config.shoe.burn, config.shoe.cut_card_rounds) == (False, 0)
    assert (config.log.format, config.log.level) == ("console", "debug")


def test_a_toml_octal_mode_and_relative_paths_from_the_files_directory(tmp_path):
    config = load_config(write(tmp_path, '[control]\nmode = 0o600\nsocket = "run/c.sock"\n[journal]\npath = "j.sqlite"\n'))
    assert config.control.mode == 0o600
    assert config.control.socket == str(tmp_path / "run" / "c.sock")
    assert config.journal.path == str(tmp_path / "j.sqlite")


def test_spot_games_take_spots_and_fortune7_its_player_dealer_seats(tmp_path):
    config = load_config(write(tmp_path, 'game = "fubacc"\n[table]\nspots = [1, 3, 5]\n'
                                         '[fortune7]\nplayer_dealer_seats = [2, 4]\nplayer_dealer_seat = 4\n'))
    assert config.table.spots == (1, 3, 5)
    assert (config.fortune7.player_dealer_seats, config.fortune7.player_dealer_seat) == ((2, 4), 4)


def test_the_config_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        default_config().log.level = "debug"


BAD = [
    ("decks = 12", "decks: 12 is not a deck count fortune6 is played with (4-10)"),
    ('game = "fortune7"\ndecks = 6', "decks: 6 is not a deck count fortune7 is played with (8)"),
    ('decks = "8"', "decks: expected an integer, got '8' (a string)"),
    ('game = "blackjack"', "game: 'blackjack' is not a game tablectl knows (one of fafa4, fortune7, fortune6, fubacc, paigow)"),
    ("game = 6", "game: expected a string (one of fafa4, fortune7, fortune6, fubacc, paigow), got 6 (an integer)"),
    ("gmae = 'fafa4'", "gmae: unknown key (expected one of control, decks, devices, edge, feed, fortune7, game, "
                         "integrity, journal, keys, limits, log, meters, money, scoreboard, shoe, table, timeouts)"),
    ('[devices]\nshoee = "/dev/ttyS0"', "devices.shoee: unknown key (expected one of shoe, panel, lights, bets)"),
    ('devices = "/dev/ttyS0"', "devices: expected a table ([devices]), got '/dev/ttyS0' (a string)"),
    ('[devices]\nshoe = "ftp://host/shoe"', "devices.shoe: device URL 'ftp://host/shoe': unknown scheme 'ftp'; "
     "use serial://, usb:// or a path"),
    ('[devices]\nbets = "ftp://host/bets"', "devices.bets: device URL 'ftp://host/bets': unknown scheme 'ftp'; "
     "use serial://, usb:// or a path"),
    ('[keys]\nbets = "bets.key"', "keys.bets: expected an absolute path to a key file, or \"\" for none, got 'bets.key' (a string)"),
    ("[timeouts]\ncard_timeout_s = -1", "timeouts.card_timeout_s: expected a number of seconds from 1 to 600, got -1 (an integer)"),
    ('[timeouts]\nack_timeout_s = "fast"', "timeouts.ack_timeout_s: expected a number, got 'fast' (a string)"),
    ("[timeouts]\nreconnect_min_s = 2\nreconnect_max_s = 1",
     "timeouts.reconnect_max_s: expected at least reconnect_min_s (2.0), got 1.0"),
    ('[journal]\nsync = "never"', "journal.sync: expected one of 'results', 'always', got 'never' (a string)"),
    ("[control]\nmode = 0o1777", "control.mode: expected a file mode such as 0o660, got 1023 (an integer)"),
    ('[control]\nmode = "rw-rw----"',
     'control.mode: expected an octal file mode such as "0660" (digits 0-7), got \'rw-rw----\' (a string)'),
    ("[control]\nclient_buffer_bytes = 10", "control.client_buffer_bytes: expected an integer of at least 4096, got 10 (an integer)"),
    ("[control]\nmax_clients_per_uid = 0", "control.max_clients_per_uid: expected an integer from 1 to 4096, got 0 (an integer)"),
    ("[control]\nowner_slots = 65", "control.owner_slots: expected an integer from 1 to 64, got 65 (an integer)"),
    ("[control]\nmax_clients = 4\nowner_slots = 5", "control.owner_slots: expected at most max_clients (4), got 5"),
    ('[control]\nidle_timeout_s = "a while"', "control.idle_timeout_s: expected a number, got 'a while' (a string)"),
    (f'[control]\nsocket = "/{"x" * 120}"', "control.socket: expected a Unix socket path of 1-107 bytes (this one is 121), got '/xxx"),
    ('[shoe]\nburn = "yes"', "shoe.burn: expected true or false, got 'yes' (a string)"),
    ("[shoe]\ncut_card_rounds = -1", "shoe.cut_card_rounds: expected an integer of at least 0, got -1 (an integer)"),
    ("[fortune7]\ncollection_schedule = 27", "fortune7.collection_schedule: expected an integer from 1 to 26, got 27 (an integer)"),
    ("[fortune7]\nplayer_dealer_seats = [0, 8]", "fortune7.player_dealer_seats: expected seats from 1 to 7, got [0, 8]"),
    ("[fortune7]\nplayer_dealer_seats = []", "fortune7.player_dealer_seats: expected distinct seat numbers, at least one, got []"),
    ("[fortune7]\nplayer_dealer_seats = [1, 2]\nplayer_dealer_seat = 5",
     "fortune7.player_dealer_seat: expected one of player_dealer_seats [1, 2], got 5"),
    ('game = "fubacc"\n[table]\nspots = [8]', "table.spots: expected seats from 1 to 7 (fubacc), got [8]"),
    ("[table]\nspots = [1, 1]", "table.spots: expected distinct seat numbers, at least one, got [1, 1]"),
    ('[table]\nspots = ["1"]', "table.spots: expected a list of integers, got ['1'] (a list)"),
    ("[shoe]\nburn_picture_value = 0", "shoe.burn_picture_value: expected an integer from 1 to 13, got 0 (an integer)"),
    ('[shoe]\ndeck_per_round = 1', "shoe.deck_per_round: expected true or false, got 1 (an integer)"),
    ('[log]\nformat = "xml"', "log.format: expected one of 'json', 'console', got 'xml' (a string)"),
    ('[scoreboard]\nlisten = "localhost:8080"', "scoreboard.listen: expected an IP address and a port, e.g. "),
    ('[scoreboard]\nlisten = "127.0.0.1:80800"', "scoreboard.listen: expected an IP address and a port, e.g. "),
    ('[scoreboard]\nlisten = "127.0.0.1"', "scoreboard.listen: expected an IP address and a port, e.g. "),
    ('[scoreboard]\nlang = "fr"', "scoreboard.lang: expected one of 'en', 'zh-Hant', got 'fr' (a string)"),
    ("[scoreboard]\ntable_name = 7", "scoreboard.table_name: expected a string, got 7 (an integer)"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[m.split(":")[0] + str(i) for i, (_, m) in enumerate(BAD)])
def test_each_mistake_is_named_with_file_key_and_what_was_expected(tmp_path, text, message):
    path = write(tmp_path, text + "\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}: {message}")
    assert len(caught.value.problems) == 1


def test_every_problem_in_a_file_is_reported_at_once(tmp_path):
    path = write(tmp_path, 'decks = 12\n[log]\nlevel = "loud"\nformat = "xml"\n[devices]\npanell = "/dev/x"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    keys = [key for key, _ in caught.value.problems]
    assert keys == ["decks", "devices.panell", "log.level", "log.format"]  # in file order
    assert all(line.startswith(f"{path}: ") for line in str(caught.value).splitlines())


def test_not_toml_and_no_file_are_named(tmp_path):
    path = write(tmp_path, "game = \n")
    with pytest.raises(ConfigError, match=rf"^{path}: not valid TOML: .*line 1"):
        load_config(path)
    with pytest.raises(ConfigError, match=rf"^{tmp_path}/absent.toml: no such file$"):
        load_config(tmp_path / "absent.toml")


def test_a_dict_without_a_file_names_the_built_in_defaults():
    with pytest.raises(ConfigError, match=r"^<built-in defaults>: decks: expected an integer"):
        config_from_dict({"decks": 1.5})


def test_python_m_controller_config_checks_a_file(tmp_path):
    good = subprocess.run([sys.executable, "-m", "controller.config", str(DEFAULT_FILE)], capture_output=True, text=True)
    assert good.returncode == 0 and good.stderr.strip() == f"{DEFAULT_FILE}: ok"
    assert '"game": "fortune6"' in good.stdout
    bad = subprocess.run([sys.executable, "-m", "controller.config", str(write(tmp_path, "decks = 3\n"))],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "decks: 3 is not a deck count fortune6 is played with (4-10)" in bad.stderr


def test_a_mode_that_is_not_octal_is_named_as_such(tmp_path):
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, '[control]\nmode = "0999"\n'))
    assert caught.value.problems == [("control.mode", 'expected an octal file mode such as "0660" (digits 0-7), got \'0999\' (a string)')]


def test_the_printed_config_shows_the_mode_as_written(tmp_path, capsys):
    from controller.config.__main__ import main

    assert main([str(write(tmp_path, '[control]\nmode = "0640"\n'))]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["control"]["mode"] == "0640"
    assert load_config(write(tmp_path, toml_of(printed))).control.mode == 0o640  # and it reads back
