"""Journals on real SQLite files in tmp_path."""
import pytest

from controller.journal import Journal


@pytest.fixture
def journal_path(tmp_path):
    return tmp_path / "journal.sqlite"


@pytest.fixture
def journal(journal_path):
    with Journal(journal_path) as writer:
        yield writer
