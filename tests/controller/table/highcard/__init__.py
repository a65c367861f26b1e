"""High Card: a sixth game as a folder of its own, registered by tests/controller/table/test_table_sixth_game.py."""
