"""What differs between games stands in the games' own folders (GAME and its table profile,
TABLE, in game.py; the clauses in clauses.py), found through games.registry: no code elsewhere
branches on a game's key, keeps a table of per-game values (lamps, buttons, burn, seats, board
counts ...) or names a game in a string. Adding a game is its folder and a registry line;
tests/controller/table/test_table_sixth_game.py and tests/cli/test_sixth_game.py show it."""
import ast
import pathlib

from games.registry import GAME_FOLDERS, GAME_KEYS

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("games", "firmware_bridge", "drivers", "controller", "services", "simulation", "cli", "docgen", "bench")
# The games' folders and the registry that names them.
GAME_HOMES = {ROOT / "games" / "registry.py"} | {ROOT.joinpath(*folder.split(".")) for folder in GAME_FOLDERS.values()}
# Strings that name a game and are not per-game code, each with why:
NAMING_A_GAME = {
    # `tablectl paigow house-way`: the command is named for the game whose tool it is
    ("cli/__init__.py", "paigow"), ("cli/paigow.py", "paigow"),
    # the Fortune 7 Bonus Bet's wager key, which is also the game's key (Fortune 7's player-dealer
    # settlement, games/baccarat/california)
    ("games/baccarat/california/stakes.py", "fortune7"),
    # the config's [fortune7] section: its name is part of the config format; what it accepts
    # comes from Fortune 7's table profile (its player-dealer seats)
    ("controller/config/schema.py", "fortune7"), ("controller/config/load.py", "fortune7"),
}
# Benchmarks pick a game to measure: naming one there is a workload, not per-game behaviour.
NAMES_ITS_WORKLOAD = ROOT / "bench"


def _game_keys(node: ast.AST | None) -> set[str]:
    """The game keys `node` spells out: a string, or the strings of a tuple, list or set."""
    if isinstance(node, ast.Constant) and node.value in GAME_KEYS:
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*map(_game_keys, node.elts))
    return set()


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes: prose may name a game."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _per_game_code(tree: ast.AST):
    """(line, what) for each comparison with a game key, each collection or dict keyed by two
    games or more or holding games as values, and each string naming a game: a key alone
    ("fubacc"), or one inside a string as a word ("for fortune7 only")."""
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(map(_game_keys, [node.left, *node.comparators])):
            yield node.lineno, "compares with a game key", None
        elif isinstance(node, ast.MatchValue) and _game_keys(node.value):
            yield node.lineno, "matches a game key", None
        elif isinstance(node, ast.Dict) and (values := set().union(*map(_game_keys, node.values))):
            yield node.lineno, "keeps games as dict values", min(values)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            value = node.value
            keys = set().union(*map(_game_keys, value.keys)) if isinstance(value, ast.Dict) else _game_keys(value)
            if len(keys) >= 2:
                yield node.lineno, "keeps a table by game", None
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if node.value in GAME_KEYS:
                yield node.lineno, f"names the game {node.value!r}", node.value


def _sources():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if any(home == path or home in path.parents for home in GAME_HOMES):
                continue
            yield path


def test_no_code_outside_the_games_branches_on_a_game():
    found = []
    for path in _sources():
        relative = path.relative_to(ROOT).as_posix()
        for line, what, key in _per_game_code(ast.parse(path.read_text(encoding="utf-8"))):
            if key is None or not ((relative, key) in NAMING_A_GAME or NAMES_ITS_WORKLOAD in path.parents):
                found.append(f"{relative}:{line} {what}")
    assert not found, "per-game code belongs in the game's folder (GAME, TABLE, BOOK):\n" + "\n".join(found)


def test_the_check_finds_what_it_looks_for():
    code = ('if game.key == "fortune7": pass\nSHOE_GAMES = ("fafa4", "fortune6")\nif key in SHOE_GAMES: pass\n'
            'LAMPS = {"fubacc": 7, "paigow": 6}\nmatch key:\n    case "paigow": pass\n'
            'DEFAULTS = {"demo": "fubacc"}\nplay("fortune7")\n')
    assert sorted({line for line, _, _ in _per_game_code(ast.parse(code))}) == [1, 2, 4, 6, 7, 8]
    assert not list(_per_game_code(ast.parse('"""A fortune7 table."""\nx = "fortunes"\n')))
