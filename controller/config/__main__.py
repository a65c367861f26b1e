"""`python3 -m controller.config [FILE]`: check a config file; print every key as loaded."""
from __future__ import annotations

import json
import sys

from controller.config import DEFAULT_CONFIG_PATH, ConfigError, load_config


def main(argv: list[str]) -> int:
    path = argv[0] if argv else DEFAULT_CONFIG_PATH
    try:
        config = load_config(path)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 1
    print(json.dumps(config.to_toml_dict(), indent=2))
    print(f"{path}: ok", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
