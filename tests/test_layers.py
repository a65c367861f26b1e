"""The layers import downward only:
games <- firmware_bridge <- drivers <- controller <- services <- simulation <- cli <- docgen."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
ORDER = ["games", "firmware_bridge", "drivers", "controller", "services", "simulation", "cli", "docgen"]


def _imports(path: pathlib.Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module.split(".")[0]


@pytest.mark.parametrize("layer", ORDER)
def test_layer_imports_only_layers_below(layer):
    forbidden = set(ORDER[ORDER.index(layer) + 1:])
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted((ROOT / layer).rglob("*.py"))
        for line, name in _imports(path)
        if name in forbidden
    ]
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_games_does_no_io():
    banned = {"os", "socket", "serial", "usb", "threading", "time", "sqlite3", "subprocess", "random"}
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted((ROOT / "games").rglob("*.py"))
        for line, name in _imports(path)
        if name in banned
    ]
    assert not bad, "games/ must stay pure:\n" + "\n".join(bad)
