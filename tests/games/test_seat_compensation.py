"""Each game's seat-compensation knobs (issue 42): data, off by default, checked, played.

A knob is a value of the game's ``seat_compensation`` data file (a balancing knob,
not a rule: 0 is the printed game, and it is no assumed value). With it at 0 every
game plays as before (the pinned hashes, goldens and replays say so); here: it is
checked like any override, it reaches the engine (the independent trace checkers
replay games played with it on), it moves the compensated seat's win rate the
expected way (paired: the same seed, so the same random numbers, with and
without it), and ``analyzer simulate --override`` and a scenario's ``[overrides]``
play it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import analyzer
from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.games import load_game
from tests import replays

#: game -> (the scalar knob, the per-seat list, the seat it favours at 2 players,
#: the value that gives that seat a clear edge in a few hundred games)
KNOBS = {
    "unearth": ("delver_cards_per_seat", "delver_cards_by_seat", 1, 4),
    "uruk": ("resources_per_seat", "resources_by_seat", 1, 6),
    "colorful_treasure": ("points_per_earlier_seat", "points_by_seat", 0, 8.0),
}
GAMES = tuple(KNOBS)


def path(game: str, which: int = 0) -> str:
    return f"seat_compensation.{KNOBS[game][which]}"


def rules(game: str, overrides: dict | None = None):
    return load_game(game).load_rules({}, dict(overrides or {}), "test")


@pytest.mark.parametrize("game", GAMES)
def test_knobs_are_off_and_no_assumption(game):
    """Every knob is 0 as shipped (the printed game) and no assumed value of it."""
    data = rules(game).data["seat_compensation"]
    assert data and all(v == 0 or v == [0] * len(v) for v in data.values()), data
    assumed = {row["key"] for row in load_game(game).assumed_values(rules(game))}
    assert not any(k.startswith("seat_compensation") for k in assumed), assumed


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "which, value, says",
    [
        (0, -1, "-1"),  # no negative count
        (0, "two", "two"),
        (1, [0, 0, 0, 0, 0, 0, 0], "a list of at most"),  # one entry per seat at most
        (1, [0, -2], "a list of at most"),
    ],
)
def test_a_bad_knob_value_is_one_line_naming_the_path(game, which, value, says):
    with pytest.raises(InputError) as err:
        rules(game, {path(game, which): value})
    line = str(err.value)
    assert "\n" not in line and says in line and "seat_compensation" in line, line


@pytest.mark.parametrize("game", ["unearth", "uruk"])
def test_cards_and_resources_come_whole_points_may_not(game):
    """A delver card or a resource is a whole thing; a head start in points may be
    a fraction (scores are kept in 60ths of a point)."""
    with pytest.raises(InputError, match="1.5"):
        rules(game, {path(game): 1.5})
    t = rules("colorful_treasure", {"seat_compensation.points_per_earlier_seat": 0.5}).tables
    assert t.head_start[3, :3].tolist() == [60, 30, 0]


def test_the_knobs_add_up_seat_by_seat():
    """Per seat, last seat (first seat) and the list add up, at each player count."""
    t = rules("unearth", {
        "seat_compensation.delver_cards_per_seat": 1,
        "seat_compensation.delver_cards_last_seat": 2,
        "seat_compensation.delver_cards_by_seat": [0, 0, 1],
    }).tables  # fmt: skip
    assert t.extra_delvers[2, :2].tolist() == [0, 3]
    assert t.extra_delvers[4, :4].tolist() == [0, 1, 3, 5]
    u = rules("uruk", {"seat_compensation.resources_per_seat": 2}).tables
    assert u.extra_resources[3, :3].tolist() == [0, 2, 4]
    c = rules("colorful_treasure", {
        "seat_compensation.points_per_earlier_seat": 2,
        "seat_compensation.points_first_seat": 1,
    }).tables  # fmt: skip
    assert c.head_start[4, :4].tolist() == [7 * 60, 4 * 60, 2 * 60, 0]  # 60ths of a point
    assert c.head_start[2, :2].tolist() == [3 * 60, 0]
    for t, name in ((rules("unearth").tables, "extra_delvers"),
                    (rules("uruk").tables, "extra_resources"),
                    (rules("colorful_treasure").tables, "head_start")):  # fmt: skip
        assert not getattr(t, name).any()  # printed: nothing extra anywhere


def test_a_knob_the_deck_cannot_deal_is_refused():
    """Refused if the smallest game cannot deal it; a larger one deals what is left
    (so the values a search tries at 2 players stay legal at 5)."""
    with pytest.raises(InputError, match="the delver deck holds 38 cards"):
        rules("unearth", {"seat_compensation.delver_cards_by_seat": [20, 20]})
    assert (
        rules("unearth", {"seat_compensation.delver_cards_per_seat": 8}).tables.extra_delvers[5, 4]
        == 32
    )
    with pytest.raises(InputError, match="seat_compensation"):
        rules("uruk", {"seat_compensation.resources_last_seat": 10})


# ------------------------------------------------------------------ played


def seat_wins(game: str, overrides: dict, games: int, seed: int = 5) -> np.ndarray:
    """Wins by game (rows) and seat (columns) of 2-player games of the default strategy."""
    df = analyzer.simulate(2, games=games, seed=seed, game=game, overrides=overrides)
    return df.pivot(index="game", columns="seat", values="win").to_numpy(float)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_knob_moves_the_compensated_seat_up(game):
    """Paired on the same seed (common random numbers): the seat the knob favours
    wins clearly more often with it, its paired difference's 95% interval above 0
    (and so the other seat less: two seats share every win)."""
    _, _, seat, value = KNOBS[game]
    base = seat_wins(game, {}, 400)
    knob = seat_wins(game, {path(game): value}, 400)
    diff = knob[:, seat] - base[:, seat]
    low = diff.mean() - 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    assert low > 0, (diff.mean(), low)
    assert knob[:, 1 - seat].mean() < base[:, 1 - seat].mean()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_simulate_override_and_a_scenario_play_the_knob(game, capsys, tmp_path):
    """``analyzer simulate --override PATH=VALUE`` plays the same games as
    ``analyzer.simulate(overrides=...)``, and a scenario's ``[overrides]`` the same
    seat results; all differ from the printed game."""
    _, _, _, value = KNOBS[game]
    ov = {path(game): value}
    out = tmp_path / "t.parquet"
    args = ["simulate", "--game", game, "--players", "2", "--games", "60", "--seed", "9"]
    code = run_cli([*args, "--override", f"{path(game)}={value}", "--out", str(out),
                    "--workers", "1", "--quiet"])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    cli = pd.read_parquet(out)
    lib = analyzer.simulate(2, games=60, seed=9, game=game, overrides=ov)
    pd.testing.assert_frame_equal(cli.reset_index(drop=True), lib.reset_index(drop=True))
    printed = analyzer.simulate(2, games=60, seed=9, game=game)
    assert not np.array_equal(printed["score"].to_numpy(), lib["score"].to_numpy())

    strategy = load_game(game).default_strategy
    run = analyzer.run({"game": game, "players": 2, "games": 60, "seed": 9, "overrides": ov,
                        "strategies": strategy}, workers=1)  # fmt: skip
    by = ["game", "seat"]
    got = run.games.sort_values(by)[[*by, "score", "win"]].reset_index(drop=True)
    want = lib.sort_values(by)[[*by, "score", "win"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
    assert run.info["rules"]["overrides"] == ov  # the manifest says what was played


def test_a_bad_override_option_is_one_line(capsys):
    code = run_cli(["simulate", "--override", "seat_compensation.delver_cards_per_seat"])
    err = capsys.readouterr().err
    assert code == 2 and "--override" in err and "PATH=VALUE" in err and len(err.splitlines()) == 1
    code = run_cli(["simulate", "--override", "seat_compensation.delver_cards_per_seat=1.5"])
    err = capsys.readouterr().err
    assert code == 2 and "--override" in err and "seat_compensation.delver_cards_per_seat" in err
    assert len(err.splitlines()) == 1


# ------------------------------------------------------------------ the twins


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_the_trace_checkers_replay_games_with_the_knobs_on(game, players):
    """Each game's independent checker (a plain Python twin of its rules) applies
    the knobs itself and replays games played with every knob on: the extra
    delver cards dealt, resources taken, points scored are what it counts."""
    knob, by_seat, _, _ = KNOBS[game]
    last = {"unearth": "delver_cards_last_seat", "uruk": "resources_last_seat",
            "colorful_treasure": "points_first_seat"}[game]  # fmt: skip
    ov = {f"seat_compensation.{knob}": 1, f"seat_compensation.{last}": 2,
          f"seat_compensation.{by_seat}": [0, 1]}  # fmt: skip
    check = replays.trace_checker(game)  # it reads the knobs from the trace's overrides
    strategy = load_game(game).default_strategy
    for index in range(3):
        trace = replays.trace_of(game, players, strategy, 31, index, overrides=ov)
        assert trace["overrides"] == ov
        check(trace)
