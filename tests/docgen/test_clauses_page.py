"""docs/clauses.md is generated from games/clauses.py, and every clause the code cites has a line."""
from docgen import clauses


def test_the_page_is_up_to_date_and_nothing_cited_lacks_a_line(capsys):
    assert clauses.main(["--check"]) == 0, capsys.readouterr().err


def test_the_check_names_a_citation_the_table_lacks(tmp_path, monkeypatch):
    source = tmp_path / "games" / "paigow"
    source.mkdir(parents=True)
    (source / "extra.py").write_text("# a rule the table has no line for (§9.9), and ruling 99\nX = 'local ruling L4'\n")
    assert clauses.missing(tmp_path) == {"paigow §9.9": "games/paigow/extra.py:1", "ruling 99": "games/paigow/extra.py:1"}
    monkeypatch.setattr(clauses, "ROOT", tmp_path)
    assert clauses.main(["--check"]) == 1


def test_the_page_lists_every_line_once():
    page = clauses.render()
    for key in clauses.CLAUSES:
        assert page.count(f"| `{key}` |") == 1, key
