"""[keys]: a device's key file makes its link authenticated (protocol 1.1)."""
from __future__ import annotations

import pytest

from controller.config import ConfigError, load_config


def config_with(tmp_path, keys: str):
    path = tmp_path / "tablectl.toml"
    path.write_text(f'game = "fortune6"\n[keys]\n{keys}\n')
    return load_config(path)


def test_no_key_by_default(tmp_path):
    config = config_with(tmp_path, "")
    assert (config.keys.shoe, config.keys.panel, config.keys.lights) == ("", "", "")


def test_a_relative_key_path_is_refused_by_name(tmp_path):
    with pytest.raises(ConfigError, match=r'keys\.panel: expected an absolute path to a key file, or "" for none'):
        config_with(tmp_path, 'panel = "keys/panel.key"')
