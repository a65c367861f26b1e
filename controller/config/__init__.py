"""The daemon's TOML configuration: `load_config(path) -> Config`, `default_config()`.

Every key, its default and its meaning: controller/config/schema.py and
docs/configuration.md. Errors name the file, the dotted key and what was expected.
"""
from controller.config.load import ConfigError, config_from_dict, default_config, load_config
from controller.config.schema import (
    DEFAULT_CONFIG_PATH,
    Config,
    ControlConfig,
    DevicesConfig,
    Fortune7Config,
    JournalConfig,
    LogConfig,
    ShoeConfig,
    TableConfig,
    TimeoutsConfig,
)

__all__ = [
    "Config", "ConfigError", "ControlConfig", "DEFAULT_CONFIG_PATH", "DevicesConfig",
    "Fortune7Config", "JournalConfig", "LogConfig", "ShoeConfig", "TableConfig",
    "TimeoutsConfig", "config_from_dict", "default_config", "load_config",
]
