"""[keys]: a device's key file makes its link authenticated (protocol 1.1); the daemon reads the
files before it opens anything and names the config key and the file when one cannot be used."""
from __future__ import annotations

import os

import pytest

from controller.config import ConfigError, load_config
from controller.daemon.device_options import driver_options
from firmware_bridge.auth import KeyFileError, key_text

KEY = bytes(range(32))


def config_with(tmp_path, keys: str):
    path = tmp_path / "tablectl.toml"
    path.write_text(f'game = "fortune6"\n[keys]\n{keys}\n')
    return load_config(path)


def test_no_key_by_default_and_none_in_the_link_options(tmp_path):
    config = config_with(tmp_path, "")
    assert (config.keys.shoe, config.keys.panel, config.keys.lights) == ("", "", "")
    assert "key" not in driver_options(config, "shoe")["link_options"]


def test_a_key_file_reaches_the_device_link_and_only_its_own(tmp_path):
    key_path = tmp_path / "shoe.key"
    key_path.write_text(key_text(KEY))
    os.chmod(key_path, 0o640)
    config = config_with(tmp_path, f'shoe = "{key_path}"')
    assert driver_options(config, "shoe")["link_options"]["key"] == KEY
    assert "key" not in driver_options(config, "lights")["link_options"]


def test_a_relative_key_path_is_refused_by_name(tmp_path):
    with pytest.raises(ConfigError, match=r'keys\.panel: expected an absolute path to a key file, or "" for none'):
        config_with(tmp_path, 'panel = "keys/panel.key"')


def test_an_unusable_key_file_names_the_config_key(tmp_path):
    key_path = tmp_path / "lights.key"
    key_path.write_text(key_text(KEY))
    os.chmod(key_path, 0o644)
    config = config_with(tmp_path, f'lights = "{key_path}"')
    with pytest.raises(KeyFileError, match=rf"^keys\.lights: {key_path}: mode 0644"):
        driver_options(config, "lights")
