"""Generators of the reference pages in docs/ from the code (each has --check for the tests)."""
