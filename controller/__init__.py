"""The table daemon: table/ (the round and shoe state machine), daemon/ (the reactor loop),
journal/, control/ (the local socket), config/; what it needs and nothing beside it."""
