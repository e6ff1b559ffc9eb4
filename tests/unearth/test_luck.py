"""Luck terms (issue 28, ``docs/statistics.md``): they only observe, their
outcome distributions are the engine's, their mean is zero, and the checks
catch a planted bias."""

from __future__ import annotations

import math
import os
import stat
import tomllib

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chisquare

import analyzer
from analyzer.core.seeding import root_key
from analyzer.kernels.luck import ACC_SHARE, LUCK_COLUMNS, adjusted
from analyzer.kernels.rng import rng_die, rng_seed, rng_shuffle
from analyzer.unearth import engine
from analyzer.unearth.game import make_job, play_raw, simulate
from analyzer.unearth.luck import (
    KIND_NAMES,
    N_KINDS,
    current_score,
    final_shares,
    load_value_params,
)
from analyzer.unearth.memo import new_memo
from analyzer.unearth.rules import load_rules
from analyzer.unearth.state import new_state
from analyzer.unearth.strategies import DEFAULT_PARAMS, Strategy
from analyzer.unearth.structs import pack_memo, pack_state, pack_tables

RULES = load_rules()


def test_terms_only_observe_and_do_not_depend_on_the_split():
    on = analyzer.simulate(3, "balanced", 40, 5, luck=True)
    off = simulate(3, "balanced", 40, 5)  # off by default
    assert set(LUCK_COLUMNS) <= set(on.columns) and not set(LUCK_COLUMNS) & set(off.columns)
    assert on.drop(columns=list(LUCK_COLUMNS)).equals(off)
    a = simulate(3, "balanced", 20, 5, luck=True)
    b = simulate(3, "balanced", 20, 5, first_game=20, luck=True)
    both = np.concatenate([a[list(LUCK_COLUMNS)].to_numpy(), b[list(LUCK_COLUMNS)].to_numpy()])
    np.testing.assert_array_equal(both, on[list(LUCK_COLUMNS)].to_numpy())
    # the seats' win terms of a game sum to 0 (the win values of every state sum to 1)
    sums = on.groupby("game")["luck_win"].sum().to_numpy()
    np.testing.assert_allclose(sums, 0.0, atol=1e-9)


def test_value_of_a_finished_game_is_its_outcome():
    job = make_job(4, "balanced", 3, luck=True)
    for game in range(5):
        res, wins, _, s = play_raw(job, game, 1)
        S, T = pack_state(s), pack_tables(RULES.tables)
        for p in range(4):
            assert current_score(S, T, p) == res[p, engine.R_SCORE]
        s.luck_vs[:] = res[:, engine.R_SCORE]
        final_shares(S, T, 4)
        np.testing.assert_allclose(s.luck_acc[ACC_SHARE], wins)


def _chi2_ok(observed, probs):
    observed = np.asarray(observed, float)
    expected = np.asarray(probs, float) * observed.sum()
    return chisquare(observed, expected).pvalue


def test_dice_faces_enumerated_as_the_engine_rolls_them():
    state = np.zeros(4, np.uint64)
    rng_seed(state, 1, 2, 3)
    for faces in (4, 6, 8):
        draws = np.array([rng_die(state, faces) for _ in range(20_000)])
        counts = np.bincount(draws, minlength=faces + 1)[1:]
        assert _chi2_ok(counts, np.full(faces, 1 / faces)) > 1e-4
        # a wrong enumeration (one face twice as likely) is rejected
        wrong = np.full(faces, 1.0)
        wrong[0] = 2.0
        assert _chi2_ok(counts, wrong / wrong.sum()) < 1e-6


def test_tokens_enumerated_as_the_engine_shuffles_them():
    values = np.array(RULES.tables.lesser_values, np.int64)
    state = np.zeros(4, np.uint64)
    rng_seed(state, 4, 5, 6)
    first = []
    pile = values.copy()
    for _ in range(20_000):
        pile[:] = values
        rng_shuffle(state, pile, len(pile))
        first.append(pile[0])
    kinds = sorted(set(values.tolist()))
    counts = [first.count(v) for v in kinds]
    probs = [np.mean(values == v) for v in kinds]
    assert _chi2_ok(counts, probs) > 1e-4


def test_reveals_enumerated_as_the_engine_deals_them():
    """The first ruin revealed is uniform over the ruins left in the deck once
    the face-down ruins and the removed pile are dealt (the term's enumeration)."""
    t = RULES.tables
    n = 3
    s = new_state(t, n)
    S, T = pack_state(s), pack_tables(t)
    codes = np.full(n, int(Strategy.BALANCED), np.int64)
    M = pack_memo(new_memo(t, n, codes, DEFAULT_PARAMS[codes]))
    key0, key1 = root_key(99)
    ranks = []
    for game in range(3000):
        engine.setup(S, M, T, n, key0, key1, game)
        last = s.sc[1] - 1  # S_DECK_LEN - 1: the end-of-age card
        deck = np.sort(s.ruin_deck[:last])
        ranks.append(int(np.searchsorted(deck, s.ruin_deck[0])))
    m = last
    counts = np.bincount(ranks, minlength=m)
    assert _chi2_ok(counts, np.full(m, 1 / m)) > 1e-4


def _luck(players, games, seed, plant=0):
    par = load_value_params(players)  # the shipped V of this player count
    if plant:
        par = np.append(par, float(plant))
    job = make_job(players, "balanced", seed, luck=True)
    res, wins, _, s = play_raw(job, 0, games, luck_par=par)
    return res, wins, s.luck_out.copy()


def _z(x):
    x = np.asarray(x, float)
    return x.mean() / (x.std(ddof=1) / math.sqrt(len(x)))


@pytest.fixture(scope="module")
def fair():
    return _luck(2, 4000, 2828)


@pytest.mark.slow
def test_luck_terms_have_mean_zero(fair):
    _, _, luck = fair
    for k in range(N_KINDS):
        for col in (0, 1):
            x = luck[:, k, col]
            if x.std() > 0:
                assert abs(_z(x)) < 4, (KIND_NAMES[k], col)
    assert abs(_z(luck[:, :, 1].sum(axis=1))) < 4


@pytest.mark.slow
@pytest.mark.parametrize("plant", [1, 2], ids=["expectation-after-outcome", "reads-deck-order"])
def test_a_planted_bias_is_caught(fair, plant):
    _, _, luck = _luck(2, 4000, 2828, plant)
    kind = 0 if plant == 1 else 1
    assert abs(_z(luck[:, kind, 1])) > 6
    # the fair terms of the same games pass the same check
    assert abs(_z(fair[2][:, kind, 1])) < 4


@pytest.mark.slow
def test_plain_and_adjusted_estimates_agree(fair):
    res, wins, luck = fair
    seat0 = slice(0, None, 2)
    total = luck.sum(axis=1)
    for values, col in ((wins[seat0], 0), (res[seat0, engine.R_SCORE], 1)):
        est = adjusted(values, total[seat0, col])
        gap = abs(est["mean"] - est["adj"])
        assert gap < 1.96 * math.hypot(est["half"], est["adj_half"])
        assert est["ratio"] < 1.0  # the terms do remove variance


@pytest.mark.slow
def test_reports_give_the_adjusted_first_seat_beside_the_plain_one():
    from analyzer.tables.aggregate import Reducer, build_tables, first_player_headline
    from analyzer.tables.findings import FIRST_PLAYER

    games = simulate(2, "balanced", 300, 17, luck=True).assign(cell=np.int16(0))
    info = {"cells": [{"index": 0, "label": "c0", "params": {}, "players": 2}], "pairs": []}
    agg = Reducer()({"games": games})
    fp = build_tables(agg, info)["first_player"].iloc[0]
    seat0 = games[games.seat == 0]
    adj = seat0["win"].astype(float) - seat0["luck_win"]
    assert fp["seat0_win_adj"] == pytest.approx(adj.mean())
    est = adjusted(seat0["win"], seat0["luck_win"])
    assert fp["seat0_win_adj_high"] == pytest.approx(est["adj_high"])
    assert fp["var_ratio"] == pytest.approx(est["ratio"] ** 2)
    head = first_player_headline(agg)
    assert "luck-adjusted" in head.label and head.value == pytest.approx(adj.mean())
    found = FIRST_PLAYER.answer(build_tables(agg, info), info, {})
    assert "with the dice's luck taken out:" in found[0].text
    # without the luck columns: the report as before
    plain = Reducer()({"games": games.drop(columns=list(LUCK_COLUMNS))})
    fp = build_tables(plain, info)["first_player"]
    assert "seat0_win_adj" not in fp and "luck" not in first_player_headline(plain).label
    assert "luck taken out" not in FIRST_PLAYER.answer(build_tables(plain, info), info, {})[0].text


def test_one_switch_turns_the_terms_on_and_off():
    """Off by default; ``analyzer.simulate(luck=True)`` plays the same games with the
    two columns, ``luck=False`` and a scenario's ``[output] luck = false`` without
    them; a bad value is one line naming the key."""
    import analyzer
    from analyzer.core.errors import InputError
    from analyzer.runs.scenario_file import parse_scenario

    kw = dict(players=3, strategies="random", games=40, seed=11)
    on = analyzer.simulate(luck=True, **kw)
    off = analyzer.simulate(luck=False, **kw)
    assert {"luck_win", "luck_score"} <= set(on.columns)
    pd.testing.assert_frame_equal(analyzer.simulate(**kw), off)  # off by default
    assert not {"luck_win", "luck_score"} & set(off.columns)
    pd.testing.assert_frame_equal(on.drop(columns=["luck_win", "luck_score"]), off)
    uruk = analyzer.simulate(game="uruk", luck=False, **kw)
    assert "luck_win" not in uruk
    raw = {"players": 2, "games": 10, "seed": 1, "strategies": "random"}
    raw["output"] = {"luck": False}
    assert parse_scenario(raw, "x.toml").luck is False
    with pytest.raises(InputError, match="output.luck"):
        parse_scenario({**raw, "output": {"luck": "no"}}, "x.toml")


def test_ladders_rate_adjusted_outcomes_with_luck_and_plain_ones_by_default():
    """A ladder with ``luck=True`` rates ``win - luck_win`` of the very games the
    default (and ``--no-luck``) rates plainly (the line-up's games, played by ``simulate``, give the
    difference); adjusted shares of a game still sum to 1. (A game without terms,
    the coin of ``tests/studies/test_ratings.py``, is rated on plain wins as before.)"""
    from analyzer.studies.ratings import format_ladder, ladder

    kw = dict(game="unearth", players=2, strategies=["balanced", "baseline"], games=30, seed=5)
    on = ladder(**kw, bootstrap=20, luck=True)
    off = ladder(**kw, bootstrap=20, luck=False)
    assert on.info.get("luck_adjusted") is True and "luck_adjusted" not in off.info
    assert "luck_adjusted" not in ladder(**kw, bootstrap=20).info  # off by default
    assert "normal interval" in format_ladder(on) and "Wilson" in format_ladder(off)
    g = analyzer.simulate(players=2, strategies=list(on.lineups[0]), games=30, seed=5, luck=True)
    g = g.sort_values(["game", "seat"])
    luck_win = g["luck_win"].to_numpy().reshape(-1, 2)
    np.testing.assert_array_equal(off.wins[0], g["win"].to_numpy().reshape(-1, 2))
    np.testing.assert_allclose(on.wins[0], off.wins[0] - luck_win, atol=1e-12)
    assert np.abs(luck_win).max() > 0.01  # the terms are on and the ratings see them
    np.testing.assert_allclose(on.wins[0].sum(axis=1), 1.0, atol=1e-9)
    assert set(np.unique(off.wins[0])) <= {0.0, 0.5, 1.0}


@pytest.mark.parametrize("game", ["colorful_treasure", "uruk"])
def test_ladders_and_tuning_keep_a_games_terms_off_where_it_ships_them_off(game):
    """Every game's terms are off by default (they cost more than they gain): a
    ladder or a tuning run rates plain wins and does not turn the terms on."""
    from analyzer.studies.ratings import ladder
    from analyzer.studies.tuning import tune

    strategies = ["random", "baseline"]
    r = ladder(game=game, players=2, strategies=strategies, games=6, seed=5, bootstrap=5)
    assert "luck_adjusted" not in r.info
    assert set(np.unique(r.wins[0])) <= {0.0, 0.5, 1.0}
    kw = dict(game=game, players=2, trials=1, games=4, confirm_games=4, seed=3)
    t = tune(strategy="balanced" if game == "uruk" else "greedy", **kw)
    assert "luck_adjusted" not in t.settings


def test_rating_fit_accepts_adjusted_outcomes_outside_0_1():
    """Adjusted win shares leave [0, 1]: the MM fixed point still solves the moment
    equations (each strategy's expected wins equal its observed ones), and a total
    at or below 0 gives a tiny, finite strength instead of a failure."""
    from analyzer.studies.ratings import fit_bradley_terry

    counts = np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [1.0, 0.0, 1.0]])
    wins = np.array([[61.3, 38.7], [52.4, 47.6], [71.1, 28.9]])  # adjusted, not whole
    w = np.zeros((3, 3))
    w[0, [0, 1]] = wins[0]
    w[1, [1, 2]] = wins[1]
    w[2, [0, 2]] = wins[2]
    pi = fit_bradley_terry(counts, w, prior=0.0)
    games = w.sum(axis=1)
    expected = ((games / (counts @ pi))[:, None] * counts * pi).sum(axis=0)
    np.testing.assert_allclose(expected, w.sum(axis=0), rtol=1e-6)
    w[1, 2], w[2, 2] = -1.5, -0.5  # a strategy whose adjusted wins total below 0
    w[1, 1], w[2, 0] = 101.5, 100.5
    pi = fit_bradley_terry(counts, w, prior=0.0)
    assert np.all(np.isfinite(pi)) and pi[2] < 1e-6 * pi[0]


def test_tuning_compares_adjusted_outcomes_with_luck_and_plain_ones_without():
    """``tune(luck=True)`` ranks candidates on adjusted wins and says so (the plain
    confirmation beside it); ``luck=False``, the default, writes the plain keys."""
    from analyzer.studies.tuning import format_result, tune

    kw = dict(
        game="unearth",
        players=2,
        strategy="balanced",
        trials=2,
        games=16,
        confirm_games=16,
        seed=3,
    )
    on = tune(**kw, luck=True)
    off = tune(**kw, luck=False)
    assert on.settings["luck_adjusted"] is True and "luck_adjusted" not in off.settings
    assert on.settings["objective"].startswith("luck-adjusted")
    assert "plain_gain" in on.confirm and "plain_gain" not in off.confirm
    # the same games: the plain confirmation of the adjusted run is the --no-luck one
    assert on.confirm["plain_win_share"] == pytest.approx(off.confirm["win_share"])
    assert on.trials[0].win_share != off.trials[0].win_share
    assert "luck-adjusted wins; plain:" in format_result(on)
    assert "plain:" not in format_result(off)


def test_adjusted_results_round_trip_and_the_cli_switch(tmp_path, capsys):
    """An adjusted tuning result is written and read back whole; ``--no-luck`` of
    ``analyzer tune`` and ``analyzer ladder`` gives the plain figures."""
    import json

    from analyzer.cli import run_cli
    from analyzer.studies.tuning import read_result, tune, write_result

    r = tune("unearth", 2, "balanced", trials=1, games=8, confirm_games=8, seed=2, luck=True)
    doc = read_result(write_result(r, tmp_path / "t.toml"))
    assert doc == json.loads(json.dumps(r.as_dict())) and doc["tune"]["luck_adjusted"] is True
    args = ["--players", "2", "--games", "8", "--seed", "2", "--quiet"]
    for cmd in (["tune", "--trials", "1", "--confirm-games", "8"], ["ladder", "--bootstrap", "0"]):
        for flag in ("--luck", "--no-luck"):
            code = run_cli(
                [
                    *cmd,
                    *args,
                    "--strategies" if cmd[0] == "ladder" else "--strategy",
                    "balanced,baseline" if cmd[0] == "ladder" else "balanced",
                    flag,
                ]
            )
            out = capsys.readouterr().out
            assert code == 0
            assert ("luck-adjusted" in out) == (flag == "--luck"), (cmd[0], flag)


def test_the_shared_fit_search_finds_a_minimum_and_residual_is_one_without_terms():
    """Each game's ``luck_fit`` searches its V's row with
    :func:`analyzer.kernels.luck.coordinate_search`
    on :func:`analyzer.kernels.luck.residual`: the search walks to the minimum of a separable
    bowl (multiplicative steps, and a game's own additive move), and terms that are
    all zero leave a residual of exactly 2 (two ratios of 1)."""
    from analyzer.kernels.luck import coordinate_search, residual

    target = np.array([3.0, 0.25])

    def bowl(p):
        return float(((np.log(p) - np.log(target)) ** 2).sum())

    got = coordinate_search(bowl, [1.0, 1.0], ("a", "b"), rounds=8, log=lambda line: None)
    np.testing.assert_allclose(got, target, rtol=0.1)
    lines = []
    add = coordinate_search(
        lambda p: float(((p - [-2.0, 5.0]) ** 2).sum()),
        [0.0, 0.0],
        ("a", "b"),
        rounds=8,
        move=lambda name, v, step, sign: v + sign * (step - 1.0),
        log=lines.append,
    )
    np.testing.assert_allclose(add, [-2.0, 5.0], atol=0.2)
    assert lines[0].startswith("start ") and len(lines) > 2
    rng = np.random.default_rng(1)
    score, win = rng.normal(size=50), rng.integers(0, 2, 50).astype(float)
    assert residual([lambda par: (score, win, np.zeros((50, 2)))], None) == 2.0
    perfect = np.column_stack([win - win.mean(), score - score.mean()])
    assert residual([lambda par: (score, win, perfect)], None) < 1e-12


def _shipped_luck_file(game: str) -> dict:
    from importlib import resources

    return tomllib.loads(
        resources.files(f"analyzer.{game}").joinpath("data/luck_value.toml").read_text()
    )


@pytest.mark.parametrize("mask", [0o022, 0o077])
@pytest.mark.parametrize("game", ["unearth", "colorful_treasure", "uruk"])
def test_each_games_luck_fit_writes_its_shipped_file_back_atomically(game, mask, tmp_path):
    """Each game's ``luck_fit.write`` (one writer, ``outputs.write_luck_values``):
    the shipped parameters written again read back to the same tables, the file
    has the umask's mode, and nothing else is left in the folder."""
    import importlib

    fit = importlib.import_module(f"analyzer.{game}.luck_fit")
    names = importlib.import_module(f"analyzer.{game}.luck").PAR_NAMES
    data = _shipped_luck_file(game)
    par = [data["value"][name] for name in names]
    extra = {}
    if game == "unearth":
        extra["by_players"] = {
            int(n): ([row[name] for name in names], 1.5) for n, row in data["players"].items()
        }
    if game == "uruk":
        extra["deal"] = {int(n): (d["win"], d["score"]) for n, d in data["deal"].items()}
    path = tmp_path / "luck_value.toml"
    path.write_text("old")
    old = os.umask(mask)
    try:
        fit.write(par, "python -m fit --games 3", 1.25, path=path, **extra)
    finally:
        os.umask(old)
    text = path.read_text()
    assert tomllib.loads(text) == data
    assert "#     python -m fit --games 3\n" in text and ": 1.2500\n" in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_the_luck_writer_refuses_a_folder_and_leaves_nothing(tmp_path):
    from analyzer.colorful_treasure import luck_fit
    from analyzer.core.errors import EnvironmentFailure

    (tmp_path / "luck_value.toml").mkdir()
    with pytest.raises(EnvironmentFailure, match="is a directory"):
        luck_fit.write([1.0] * 5, "cmd", path=tmp_path / "luck_value.toml")
    assert [p.name for p in tmp_path.iterdir()] == ["luck_value.toml"]


def test_the_shared_luck_fit_plays_and_writes_what_a_game_declares(tmp_path):
    """:class:`analyzer.games.luck_fit.LuckFit`: one training run per player count
    (seed: the training seed plus the count), the search from the shipped row to
    the residual's minimum, the command's defaults and line, the file read back."""
    from analyzer.games.luck_fit import LuckFit

    played = []
    rng = np.random.default_rng(3)

    def play(players, games, seed):
        played.append((players, games, seed))
        score = rng.normal(size=games * players)
        win = (score > 0).astype(float)

        def run(par):  # the score terms explain the score exactly at par = [2]
            return score, win, np.column_stack([np.zeros_like(win), score * par[0] / 2])

        return run

    fit = LuckFit("analyzer.uruk", ("a",), lambda: np.array([1.0]), play, games=7, seed=100)
    lines = []
    par = fit.fit(7, 100, players=(2, 3), rounds=8, log=lines.append)
    assert played == [(2, 7, 102), (3, 7, 103)] and lines[0].startswith("start ")
    np.testing.assert_allclose(par, [2.0], rtol=0.05)
    a = fit.arguments([])
    assert (a.games, a.seed, a.rounds) == (7, 100, 3)
    assert fit.command(a) == ".venv/bin/python -m analyzer.uruk.luck_fit --games 7 --seed 100"
    assert fit.command(fit.arguments(["--rounds", "4"])).endswith(" --seed 100 --rounds 4")
    path = tmp_path / "luck_value.toml"
    fit.write(par, "python -m x", 0.5, path=path, tables=[["[extra]", "b = 1"]])
    data = tomllib.loads(path.read_text())
    assert data["value"] == {"a": pytest.approx(float(par[0]), abs=1e-3)} and data["extra"] == {
        "b": 1
    }


def test_every_game_with_luck_terms_declares_how_its_value_estimate_is_fitted():
    """``Game.luck_fit``: the declaration the game's ``luck_fit`` command runs, naming
    the game's own V (its parameters, its shipped row and file)."""
    import importlib

    from analyzer.games import available_games, load_game

    declared = []
    for name in available_games():
        fit = load_game(name).luck_fit()
        if fit is None:
            continue
        declared.append(name)
        luck = importlib.import_module(f"analyzer.{name}.luck")
        assert fit is importlib.import_module(f"analyzer.{name}.luck_fit").FIT
        assert fit.package == f"analyzer.{name}" and fit.names == luck.PAR_NAMES
        shipped = _shipped_luck_file(name)["value"]  # read here, not through value_row
        assert list(fit.shipped()) == [float(shipped[k]) for k in fit.names]
        assert list(fit.shipped()) == list(luck.load_value_params())
        assert len(fit.shipped()) == len(fit.names) == luck.N_LUCK_PAR == len(shipped)
        assert fit.out.is_file() and fit.games > 0
    assert {"unearth", "colorful_treasure", "uruk"} <= set(declared)
