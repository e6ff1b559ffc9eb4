"""Values that make no game are refused before anything runs, by each game's loader;
a game that still never ends fails the run loudly instead of being reported."""

from __future__ import annotations

import pytest

from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.games import load_game


@pytest.mark.parametrize(
    "path, value, message",
    [
        ("delvers.ancient_map.copies", -3, "delvers.ancient_map.copies: bad value -3"),
        ("delvers.ancient_map.copies", 10**6, "an integer from 0 to 1000"),
        ("ruins.*17.claim", 200, "ruins.A17.claim: bad value 200 (allowed: 1 to 150"),
        ("end_of_age.city_of_gold.claim", 151, "end_of_age.city_of_gold.claim: bad value 151"),
        ("ruins.A9.stones", -1, "ruins.A9.stones: bad value -1"),
        ("components.stones_per_colour", -2, "components.stones_per_colour: bad value -2"),
        ("components.hidden_ruins_per_player", -1, "hidden_ruins_per_player: bad value -1"),
        ("components.delver_cards_dealt", 20, "to deal at set-up"),
        ("components.stones_per_colour", 2**70, "an integer from -2147483647 to 2147483647"),
        ("end_of_age.day_of_rest.amount", -3, "day_of_rest.amount: bad value -3"),
    ],
)
def test_unearth_refuses_values_that_make_no_game(path, value, message):
    game = load_game("unearth")
    with pytest.raises(InputError) as err:
        game.load_rules({}, {path: value}, "s.toml: rules")
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_game_that_never_ends_fails_the_run(tmp_path, capsys):
    """A claim reachable by five players' dice but not by two: every 2-player game
    runs into the engine's turn cap, and the run says so instead of reporting it."""
    src = tmp_path / "cap.toml"
    src.write_text(
        'players = 2\nstrategies = "balanced"\ngames = 2\nseed = 1\n'
        '[overrides]\n"ruins.*17.claim" = 100\n'
    )
    out = tmp_path / "rep"
    assert run_cli(["run", str(src), "--out", str(out), "--workers", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "hit the engine's turn cap" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()
