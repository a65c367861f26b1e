"""Lamp and button maps: wire ids fit a uint8 and are unique, every betting area has its
result lamp, and docs/table.md prints exactly this data."""
import pytest
from table_helpers import GAMES, Run

from controller.table import inputs as i
from controller.table.buttons import button_list
from controller.table.effects import Pattern
from controller.table.lamps import lamp_ids, lamp_list
from docgen import mapdocs
from games.registry import get_game
from games.round import IrregularityKind


@pytest.mark.parametrize("game", GAMES)
def test_lamp_ids_are_unique_uint8(game):
    ids = [lamp.id for lamp in lamp_list(game)]
    assert len(ids) == len(set(ids)) and all(0 < i < 256 for i in ids)
    assert len(lamp_ids(game)) == len(ids)


@pytest.mark.parametrize("game", GAMES)
def test_every_wager_of_the_game_has_a_result_lamp(game):
    names = set(lamp_ids(game))
    g = get_game(game)
    for key in g.wagers:
        if g.uses_spots:
            assert all(f"spot{n}_{key}" in names for n in range(1, g.max_spots + 1)), key
        else:
            assert f"bet_{key}" in names, key


@pytest.mark.parametrize("game", GAMES)
def test_button_ids_are_unique_and_key_buttons_are_marked(game):
    buttons = button_list(game)
    assert len({b.id for b in buttons}) == len(buttons) and all(0 < b.id < 256 for b in buttons)
    assert {b.command for b in buttons if b.key} == {"void", "reconstruct", "accept_shoe", "accept_payouts"}


@pytest.mark.parametrize("game", GAMES)
def test_the_picture_always_names_every_lamp_with_a_pattern(game):
    run = Run(game)
    run.cmd("new_shoe")
    picture = run.lamps()
    assert set(picture) == set(lamp_ids(game))
    assert set(picture.values()) <= {p.value for p in Pattern}


def test_every_input_returns_the_whole_picture_and_the_board_side_diffs_it():
    """The table does not diff: the lights driver does, once (tests/drivers, test_only_changed_lamps_are_written;
    tests/controller/daemon, test_only_changed_lamps_are_sent)."""
    run = Run("fortune6")
    run.cmd("new_shoe")
    run.cmd("status")
    [lamps] = [e for e in run.last if type(e).__name__ == "Lamps"]
    assert lamps.states == run.table.snapshot()["lamps"] and set(lamps.states) == set(lamp_ids("fortune6"))


def test_docs_table_prints_the_maps_and_every_games_irregularity_rules(capsys):
    assert mapdocs.PAGES == (mapdocs.ROOT / "docs" / "table.md",)  # printed once, in docs/
    assert mapdocs.current(mapdocs.PAGE) == mapdocs.render(), "run: python3 -m docgen.mapdocs"
    assert mapdocs.current(mapdocs.PAGE, mapdocs.RULES_BEGIN, mapdocs.RULES_END) == mapdocs.render_rules()
    assert mapdocs.current(mapdocs.RULINGS_PAGE, mapdocs.L4_BEGIN, mapdocs.L4_END) == mapdocs.render_l4()
    assert mapdocs.main(["--check"]) == 0, capsys.readouterr().err


def test_a_card_missed_while_the_shoe_was_unheard_has_one_citation_in_the_docs_and_the_table():
    """Ruling 24: local ruling L4's page and the table's page print the clause the table cites."""
    for game in GAMES:
        cited = get_game(game).unheard_rule(IrregularityKind.MISSING_CARD).clause
        assert cited.endswith(" (ruling 24)") and get_game(game).rule(IrregularityKind.MISSING_CARD).clause in cited
        assert f"| {game} | `{cited}` |" in mapdocs.render_l4()
        assert f"{cited}: hold" in mapdocs.render_rules()
        run = Run(game)
        if get_game(game).uses_spots:
            run.new_shoe()
        else:
            run.baccarat_shoe()
        run.open_round()
        run.card(str(get_game(game).deck_kind.cards[0]))  # an ace: no burn card
        run.send(i.ShoeRebooted(draw_counter=run.counter + 1))
        assert run.irregularity()["clause"] == cited and run.table.hold.void_rule.clause == cited
