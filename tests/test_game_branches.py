"""What differs between games stands in the games' own modules (GAME and its table profile,
TABLE), found through games.registry: no code elsewhere branches on a game's key or keeps a
table of per-game values (lamps, buttons, burn, seats ...). Adding a game is its module and
a registry line; tests/controller/table/test_table_sixth_game.py shows it."""
import ast
import pathlib

from games.registry import GAME_KEYS, GAME_MODULES

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("games", "firmware_bridge", "drivers", "controller", "services", "simulation", "cli", "docgen", "bench")
# The games themselves (rules and table profiles) and the registry that names them.
GAME_HOMES = {ROOT / "games" / "registry.py"} | {
    ROOT.joinpath(*module.split(".")[:2]) for module in GAME_MODULES.values()}
# Not the table: the demo's players choose their play per game (the optimal Fu Bacc strategy);
# the clause catalogue reads citations by the rules texts' own names ("fafa", "fortune7 Tie Bet").
NOT_THE_TABLE = {ROOT / "simulation" / "demo" / "rounds.py", ROOT / "games" / "clauses.py"}


def _game_keys(node: ast.AST | None) -> set[str]:
    """The game keys `node` spells out: a string, or the strings of a tuple, list or set."""
    if isinstance(node, ast.Constant) and node.value in GAME_KEYS:
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*map(_game_keys, node.elts))
    return set()


def _per_game_code(tree: ast.AST):
    """(line, what) for each comparison with a game key, and each collection or dict keyed by
    two games or more (one key alone is a name that happens to match, e.g. the [fortune7] section)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(map(_game_keys, [node.left, *node.comparators])):
            yield node.lineno, "compares with a game key"
        elif isinstance(node, ast.MatchValue) and _game_keys(node.value):
            yield node.lineno, "matches a game key"
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            value = node.value
            keys = set().union(*map(_game_keys, value.keys)) if isinstance(value, ast.Dict) else _game_keys(value)
            if len(keys) >= 2:
                yield node.lineno, "keeps a table by game"


def _sources():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path in NOT_THE_TABLE or any(home == path or home in path.parents for home in GAME_HOMES):
                continue
            yield path


def test_no_code_outside_the_games_branches_on_a_game():
    found = [f"{path.relative_to(ROOT)}:{line} {what}"
             for path in _sources() for line, what in _per_game_code(ast.parse(path.read_text(encoding="utf-8")))]
    assert not found, "per-game code belongs in the game's module (GAME, TABLE):\n" + "\n".join(found)


def test_the_check_finds_what_it_looks_for():
    code = ('if game.key == "fortune7": pass\nSHOE_GAMES = ("fafa4", "fortune6")\nif key in SHOE_GAMES: pass\n'
            'LAMPS = {"fubacc": 7, "paigow": 6}\nmatch key:\n    case "paigow": pass\n')
    assert sorted(line for line, _ in _per_game_code(ast.parse(code))) == [1, 2, 4, 6]
