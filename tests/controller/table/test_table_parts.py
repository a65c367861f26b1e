"""The table's parts: every input type and every command has its registered handler, and each
component imports only the ones listed before it (controller/table/table.py), so none calls
back into one above it or into the Table."""
import ast
import pathlib

import pytest

from controller.table import inputs as i
from controller.table.table import Table

TABLE_DIR = pathlib.Path(__file__).resolve().parents[3] / "controller" / "table"
# Bottom to top: a module may import only the modules before it.
ORDER = ["effects", "inputs", "output", "machine", "settings", "round_play", "arrival", "verdicts", "recovery", "draw_counter",
         "panel", "holds", "timer", "shoe", "player_dealer", "integrity", "lamps", "chip_registry", "bet_board", "california",
         "money_recovery", "wagers", "round_in_play", "cards", "shoe_events", "shifts", "commands", "money_desk", "buttons",
         "table", "__init__"]


def test_every_input_and_every_command_has_a_handler():
    table = Table("fortune6")
    assert set(table.handlers) == set(i.Input.__args__)
    assert set(table.commands.handlers) == set(i.COMMANDS)


def test_only_table_commands_can_be_registered():
    with pytest.raises(ValueError, match="'shuffle' is not a table command"):
        Table("fortune6").commands.register("shuffle", lambda args, out: None)


def test_the_list_names_every_module():
    assert sorted(ORDER) == sorted(path.stem for path in TABLE_DIR.glob("*.py"))


@pytest.mark.parametrize("module", ORDER)
def test_each_part_imports_only_the_parts_below_it(module):
    tree = ast.parse((TABLE_DIR / f"{module}.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "controller.table":
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("controller.table."):
            imported.add(node.module.rsplit(".", 1)[1])
    above = [name for name in imported if name in ORDER and ORDER.index(name) >= ORDER.index(module)]
    assert not above, f"controller/table/{module}.py imports {above}, which are not below it"
