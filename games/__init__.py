"""The rules of the five games: pure functions and data, no I/O, no clock, no threads."""
