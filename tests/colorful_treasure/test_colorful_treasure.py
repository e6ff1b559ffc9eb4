"""Colorful Treasure: rules data, whole games, invariants, seeding, memory, named rules.

Sections of ``docs/games/colorful_treasure.md`` are named in each test. Exact
small cases are in ``test_colorful_treasure_exact.py``, golden replays in
``test_colorful_treasure_golden.py``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analyzer.colorful_treasure import engine
from analyzer.colorful_treasure.codes import Kind
from analyzer.colorful_treasure.game import (
    check_results,
    make_job,
    play_raw,
    recompute_scores,
    simulate,
)
from analyzer.colorful_treasure.replay import CHOICE_ROWS, render_trace
from analyzer.colorful_treasure.rules import assumed_values, default_rules, load_rules
from analyzer.colorful_treasure.state import S_TRACE_N, new_state
from analyzer.colorful_treasure.turn import remember
from analyzer.core.errors import InputError
from analyzer.games import check_games_table, load_game
from analyzer.kernels.kernel_view import make_view

# ------------------------------------------------------------------ rules as data


def test_components_match_the_rulebook():
    t = default_rules().tables
    assert t.n_cards == 50 and t.n_wonders == 10 and t.rows == 5
    kinds = np.bincount(t.card_kind, minlength=4)
    assert kinds[Kind.GEM] == 30 and kinds[Kind.DIAMOND] == 10
    assert kinds[Kind.KEY] == 5 and kinds[Kind.CHEST] == 5
    gems = t.card_colour[t.card_kind == Kind.GEM]
    assert np.bincount(gems).tolist() == [6, 6, 6, 6, 6]
    for w in range(10):  # three different colours per wonder, no two wonders alike
        assert len(set(t.card_colour[w * 5 : w * 5 + 3])) == 3
    sets = {tuple(sorted(t.card_colour[w * 5 : w * 5 + 3])) for w in range(10)}
    assert len(sets) == 10
    assert t.gem_points[:4].tolist() == [0, 1, 3, 6]
    assert (t.diamond_card, t.plastic_diamond) == (1, 2)
    assert (t.gem_goal[4], t.gem_reward[4], t.gem_goal[2], t.gem_reward[3]) == (4, 6, 5, 9)
    assert (t.explorer_goal, t.explorer_points, t.treasure_points) == (8, 5, 7)


def test_young_variant_and_advanced_scoring_switch_the_data():
    young = load_rules({"variant": "young"}).tables
    assert young.n_cards == 40 and young.rows == 4 and young.rewards == 0
    assert young.extra_reveals == 0 and young.finish_round == 0
    assert not np.isin(young.card_kind, [Kind.KEY, Kind.CHEST]).any()
    assert load_rules({"scoring": "advanced"}).tables.plastic_diamond == 3


def test_every_assumed_value_is_listed_with_its_value():
    rows = assumed_values(default_rules())
    keys = {r["key"] for r in rows}
    assert {"scoring.basic.gems", "wonders.*.colours", "wonders.*.treasure"} <= keys
    assert all(r["note"] for r in rows)
    gems = next(r for r in rows if r["key"] == "scoring.basic.gems")
    assert gems["value"] == [0, 1, 3, 6, 10, 15, 21]
    changed = load_rules(overrides={"scoring.basic.gems": [0, 1, 3, 6, 9, 12, 15]})
    gems = next(r for r in assumed_values(changed) if r["key"] == "scoring.basic.gems")
    assert gems["value"] == [0, 1, 3, 6, 9, 12, 15]
    young = {r["key"] for r in assumed_values(load_rules({"variant": "young"}))}
    assert "wonders.*.treasure" not in young and "rewards.treasure.min_cards" not in young


def test_overrides_reach_the_tables():
    r = load_rules(
        overrides={
            "rewards.explorer.points": 8,
            "wonders.petra.treasure": "key",
            "scoring.basic.plastic_diamond": 4,
            "players.greedy.recall": 0.5,
        }
    )
    t = r.tables
    assert t.explorer_points == 8 and t.plastic_diamond == 4
    petra = r.wonder_ids.index("petra")
    assert t.card_kind[petra * 5 + 4] == Kind.KEY
    assert r.player_params()["greedy"]["recall"] == 0.5
    glob = load_rules(overrides={"wonders.*.treasure": "chest"}).tables
    assert (glob.card_kind == Kind.KEY).sum() == 0


@pytest.mark.parametrize(
    ("rulings", "overrides", "message"),
    [
        (
            {"variant": "adult"},
            {},
            "f.toml: rules.variant: bad value 'adult' (allowed: standard, young)",
        ),
        ({"colour": 1}, {}, "f.toml: unknown ruling 'colour' (allowed: variant, scoring, take"),
        (
            {"stolen_cards": "keep"},
            {},
            "f.toml: rules.stolen_cards: bad value 'keep' (allowed: count, ignore)",
        ),
        (
            {"last_cards": 2},
            {},
            "f.toml: rules.last_cards: bad value 2 (allowed: reveal, end)",
        ),
        ({}, {"scoring.basic.gems": "many"}, "f.toml: override 'scoring.basic.gems': bad value"),
        ({}, {"wonders.atlantis.colours": ["red"]}, "bad value 'atlantis' (allowed: a wonder id"),
        ({}, {"wonders.petra.colours": ["red", "red", "blue"]}, "wonders.petra.colours: bad value"),
        ({}, {"players.greedy.recall": 1.5}, "f.toml: players.greedy.recall: bad value 1.5"),
        ({}, {"rewards.gem.by_players.4.colours": 9}, "rewards.gem.by_players.4.colours"),
        ({}, {"board.size": 3}, "f.toml: override 'board.size': bad value 'board'"),
    ],
)
def test_bad_values_give_one_line_errors(rulings, overrides, message):
    with pytest.raises(InputError) as err:
        load_rules(rulings, overrides, where="f.toml")
    text = str(err.value)
    assert message in text and "\n" not in text


def test_the_game_is_registered_and_describes_itself():
    game = load_game("colorful_treasure")
    assert game.title == "Colorful Treasure"
    assert game.strategy_names() == ("random", "greedy", "perfect", "hunter", "baseline", "search")
    rules = game.load_rules({"take": "optional"}, {"rewards.treasure.points": 8}, "s.toml")
    assert game.rules_settings(rules) == (
        {
            "variant": "standard",
            "scoring": "basic",
            "take": "optional",
            "tied_game": "share",
            "stolen_cards": "count",
            "last_cards": "reveal",
            "tiles": "none",
            "tile_timing": "before_rewards",
            "tile_offers": "per_colour",
            "steal_pairs": "markers",
        },
        {"rewards.treasure.points": 8},
    )
    assert game.override_example("players.hunter.recall") == 0.8
    assert game.override_example("wonders.petra.colours") == ["red", "blue", "purple"]
    assert game.override_example("wonders.nowhere.colours") is None
    assert game.assumed_values(rules)


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_keep_every_invariant(players):
    # the wrapper raises on any broken invariant or a score that does not recompute
    lineup = ["random", "greedy", "perfect", "hunter"][:players]
    df = simulate(players, lineup, 300, seed=players)
    check_games_table(df, load_game("colorful_treasure").columns(default_rules()), "test")
    assert len(df) == 300 * players
    per_game = df.groupby("game")
    # 50 cards: the grid keeps cards_left, the seats the rest
    assert (per_game["cards_held"].sum() + per_game["cards_left"].first() == 50).all()
    # game end: the last round was finished, 10 or fewer cards were left
    assert (df["cards_left"] <= 10).all()
    assert (df["game_turns"] % players == 0).all()
    assert (df["turns"] == df["game_turns"] // players).all()
    # the score is the sum of its parts; wins share one game
    parts = df[[c for c in df if c.startswith("pts_")]].sum(axis=1)
    assert np.allclose(parts, df["score"])
    assert np.allclose(per_game["win"].sum(), 1.0)
    assert (per_game["gem_reward"].sum() <= 1).all()
    assert (per_game["explorer_reward"].sum() <= 1).all()
    # every steal has a victim: steals made = steals suffered
    assert (per_game["steals"].sum() == per_game["robbed"].sum()).all()


def test_young_variant_empties_the_grid_without_rewards():
    df = simulate(3, "greedy", 200, seed=5, rules=load_rules({"variant": "young"}))
    assert (df["cards_left"] == 0).all()
    assert (df["pts_gem_reward"] + df["pts_explorer"] + df["pts_treasure"] == 0).all()
    assert (df["treasure_cards"] == 0).all() and (df["steals"] == 0).all()
    assert (df["extra_reveals"] == 0).all()
    assert (df.groupby("game")["cards_held"].sum() == 40).all()


def test_optional_take_and_advanced_scoring_play_whole_games():
    rules = load_rules({"take": "optional", "scoring": "advanced"})
    df = simulate(4, "random", 300, seed=6, rules=rules)
    assert df["took_nothing"].sum() > 0  # random players sometimes take nothing
    assert np.allclose(df["pts_plastic"], 3 * df["plastic_diamonds"])


def test_tied_treasure_reward_is_shared_exactly():
    df = simulate(4, "random", 400, seed=7)
    share = df["pts_treasure"][df["pts_treasure"] > 0]
    assert set(np.round(share * 12).astype(int)) <= {84, 42, 28, 21}  # 7, 7/2, 7/3, 7/4
    assert (np.round(share * 12) != 84).any()  # ties happen


def test_a_broken_result_is_caught_by_the_recomputed_score():
    job = make_job(3, "greedy", seed=1)
    results, _, _, _ = play_raw(job, 0, 20)
    check_results(job, 0, results)  # a real batch passes
    again = recompute_scores(job.rules, 3, results)
    assert (again == results[:, engine.R_SCORE]).all()
    bad = results.copy()
    bad[4, engine.R_GEMS] += 1  # one gem card more than the kernel scored
    with pytest.raises(RuntimeError, match="does not recompute"):
        check_results(job, 0, bad)
    bad = results.copy()
    bad[2, engine.R_BAD] = engine.BAD_PLASTIC
    with pytest.raises(RuntimeError, match="invariant failed"):
        check_results(job, 0, bad)
    # the treasure cards counted for the reward: all of them under stolen_cards = count
    seat = int(np.flatnonzero(results[:, engine.R_TREASURE] > 0)[0])
    bad = results.copy()
    bad[seat, engine.R_TREASURE_COUNTED] -= 1
    with pytest.raises(RuntimeError, match="treasure cards counted"):
        check_results(job, 0, bad)
    # ... and never more than the seat holds under stolen_cards = ignore
    job = make_job(3, "greedy", seed=1, rules=load_rules(rulings={"stolen_cards": "ignore"}))
    results, _, _, _ = play_raw(job, 0, 20)
    check_results(job, 0, results)
    bad = results.copy()
    bad[seat, engine.R_TREASURE_COUNTED] = bad[seat, engine.R_TREASURE] + 1
    with pytest.raises(RuntimeError, match="treasure cards counted"):
        check_results(job, 0, bad)


def _sweep_batch(players, strategies, rulings, seed, start, count):
    """``(job, results, wins)`` of games ``start ..`` of a line-up under ``rulings``."""
    job = make_job(players, strategies, seed=seed, rules=load_rules(rulings=rulings))
    results, wins, _, _ = play_raw(job, start, count)
    return job, results, wins


#: line-ups and rulings the one-sweep games table is compared with its twins under
SWEEP_CASES = [
    (4, "random", {}),
    (3, "greedy,random,perfect", {"tiles": "a"}),
    (2, "hunter", {"tiles": "b", "stolen_cards": "ignore"}),
    (3, "random", {"variant": "young"}),
]


@pytest.mark.parametrize("players, strategies, rulings", SWEEP_CASES)
def test_games_frame_is_its_numpy_twin(players, strategies, rulings, monkeypatch):
    """The games table made in one sweep over the results (``split_rows``) is
    the one made column by column with numpy (``games_frame_numpy``): the same
    columns, order, dtypes and values, to the bit, with and without the action
    tiles' columns; a broken result is still caught by the checks."""
    from analyzer.colorful_treasure.game import games_frame, games_frame_numpy

    job, results, wins = _sweep_batch(players, strategies, rulings, 3, 10, 60)
    fast = games_frame(job, 10, 60, results, wins)
    pd.testing.assert_frame_equal(
        fast, games_frame_numpy(job, 10, 60, results, wins), check_exact=True
    )
    bad = results.copy()
    bad[4, engine.R_GEMS] += 1
    with pytest.raises(RuntimeError, match="does not recompute"):
        games_frame(job, 10, 60, bad, wins)
    # the comparison can fail: a planted plan that reads "steals" from the wrong column
    from analyzer.colorful_treasure import game

    real = game.column_plan

    def planted(rules):
        return [(n, k, engine.R_TURNS if n == "steals" else c) for n, k, c in real(rules)]

    monkeypatch.setattr(game, "column_plan", planted)
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(
            games_frame(job, 10, 60, results, wins), games_frame_numpy(job, 10, 60, results, wins)
        )


def _corrupt(results, players):
    """Broken copies of ``results``, one per check ``check_results`` makes (and
    the rows it must name), each a row the kernel could never write."""
    R = engine
    out = {}
    b = results.copy()
    b[7, R.R_BAD] = R.BAD_ABORTED
    out["capped"] = b
    b = results.copy()
    b[5, R.R_BAD] = R.BAD_PLASTIC
    b[9, R.R_BAD] = R.BAD_PLASTIC | 1
    out["invariant"] = b
    b = results.copy()
    b[6, R.R_TREASURE_COUNTED] = -1
    out["counted"] = b
    b = results.copy()
    b[4, R.R_GEMS + 1] += 1
    out["gems"] = b
    b = results.copy()
    b[8, R.R_DIAMOND] += 1
    out["diamond"] = b
    b = results.copy()
    b[3, R.R_PLASTIC] += 1
    out["plastic"] = b
    b = results.copy()
    b[players * 2 + 1, R.R_TILES_HELD] ^= 1
    out["tiles"] = b
    b = results.copy()  # the treasure reward's holder changed: the tie shares move
    g = players * 3
    b[g : g + players, R.R_TREASURE] = 0
    b[g : g + players, R.R_TREASURE_COUNTED] = 0
    out["treasure"] = b
    b = results.copy()  # the gem reward held twice in one game (the first seat's -1)
    b[players * 4 : players * 4 + 2, R.R_PARTS + 3] = 1
    out["gem reward"] = b
    b = results.copy()  # the explorer reward at a wrong value in another seat
    b[players * 5 + 2, R.R_PARTS + 4] += 1
    out["explorer"] = b
    return out


@pytest.mark.parametrize("players, strategies, rulings", SWEEP_CASES)
def test_games_frame_checks_are_the_numpy_checks(players, strategies, rulings):
    """The checks made in ``games_frame``'s one sweep (``columns.split_rows``)
    find what ``check_results`` (numpy, column by column) finds: the same error,
    the same message (the same first game), for each kind of broken row."""
    from analyzer.colorful_treasure.game import games_frame

    job, results, wins = _sweep_batch(players, strategies, rulings, 5, 30, 40)
    caught = 0
    for name, bad in _corrupt(results, players).items():
        try:
            check_results(job, 30, bad)
            want = None
        except (RuntimeError, InputError) as e:
            want = (type(e), str(e))
            caught += 1
        try:
            games_frame(job, 30, 40, bad, wins)
            got = None
        except (RuntimeError, InputError) as e:
            got = (type(e), str(e))
        assert got == want, name
    assert caught >= 6  # the corruptions do break the checks (not a vacuous match)


def test_tables_do_not_depend_on_the_batch_split():
    job = make_job(4, "random,greedy,perfect,hunter", seed=11)
    whole = job(0, 30)
    parts = [job(0, 7), job(7, 13), job(20, 10)]
    for name in ("games", "steals"):
        joined = pd.concat([p[name] for p in parts], ignore_index=True)
        pd.testing.assert_frame_equal(whole[name], joined)
    assert len(whole["steals"]) == whole["games"]["steals"].sum()


# ------------------------------------------------------------------ memory


@pytest.mark.parametrize("recall", [0.0, 0.5, 0.9, 1.0])
def test_memory_lasts_k_turns_with_probability_recall_to_the_k(recall):
    t = default_rules().tables
    s = new_state(t, 2)
    s.rng[0] = 12345
    s.rng[1] = 678
    s.prm[:, 0] = recall
    view = make_view(s, "CTState")
    draws = 20000
    kept = np.zeros(draws, np.int64)
    for i in range(draws):
        remember(view, 2, 7)
        kept[i] = s.mem[0, 7]
    if recall == 1.0:
        assert (kept > 10**9).all()
        return
    for k in (1, 2, 3):
        p = recall**k
        freq = (kept >= k).mean()
        assert abs(freq - p) <= 4 * math.sqrt(p * (1 - p) / draws) + 1e-12


def test_memory_is_worth_points():
    # same seats, same games: perfect memory against none
    forget = {"greedy": {"recall": 0.0}}
    df = simulate(2, "perfect,greedy", 600, seed=21, strategy_params=forget)
    by = df.groupby("seat")["score"].mean()
    assert by[0] > by[1] + 1.0


def test_strategy_params_are_validated():
    with pytest.raises(InputError, match="recall: bad value 2"):
        make_job(2, "greedy", seed=1, strategy_params={"greedy": {"recall": 2}})
    with pytest.raises(InputError, match="bad value 'patience'"):
        make_job(2, "greedy", seed=1, strategy_params={"greedy": {"patience": 1}})


def test_tuned_rows_by_player_count_and_overrides_win(monkeypatch):
    """A strategy plays its tuned row of the player count (data/strategies.toml; the
    nearest smaller count with one, players.toml below them all), recall from
    players.toml; a ``players.<s>.<p>`` override wins at every count."""
    from analyzer.colorful_treasure import rules as R
    from analyzer.colorful_treasure.game import strategy_arrays

    rows = {"hunter": {3: {"treasure": 3.25, "reward": 0.5}}, "greedy": {2: {"third": -0.5}}}
    monkeypatch.setattr(R, "tuned_rows", lambda: rows)
    r = load_rules()
    base = r.player_params()
    assert r.player_params(2)["hunter"] == base["hunter"]  # no row at 2 or below
    assert r.player_params(3)["hunter"] == {**base["hunter"], "treasure": 3.25, "reward": 0.5}
    assert r.player_params(4)["hunter"]["treasure"] == 3.25  # the nearest smaller count
    assert r.player_params(4)["greedy"] == {**base["greedy"], "third": -0.5}
    _, prm = strategy_arrays(r, ["hunter"] * 3)
    assert prm[0].tolist() == list(r.player_params(3)["hunter"].values())
    _, prm = strategy_arrays(r, ["hunter"] * 2)
    assert prm[0].tolist() == list(base["hunter"].values())
    over = load_rules(overrides={"players.hunter.treasure": 0.25, "players.hunter.reward": 2.0})
    assert over.player_params(3)["hunter"]["treasure"] == 0.25
    assert over.player_params(3)["hunter"]["reward"] == 2.0
    assert over.player_params(4)["greedy"]["third"] == -0.5


def test_a_checkpoint_never_resumes_with_other_tuned_rows(monkeypatch):
    """The tuned rows are part of a job's fingerprint (Rules.describe): a run
    checkpointed before they changed does not resume with the new players."""
    from analyzer.colorful_treasure import rules as R

    before = repr(make_job(2, "hunter", seed=3))
    rows = {s: dict(by) for s, by in R.tuned_rows().items()}
    rows["hunter"] = {2: {"treasure": 0.5}}
    monkeypatch.setattr(R, "tuned_rows", lambda: rows)
    assert repr(make_job(2, "hunter", seed=3)) != before


def test_shipped_tuned_rows_are_within_the_declared_bounds():
    """Every shipped tuned row is a full row of searched parameters, in the ranges of
    data/tuning.toml, never recall (the player's memory is not tuned), each a
    multiple of 1/64 (so the players' sums of values are exact and equal choices
    stay equal: the first is taken, as their rules say)."""
    from analyzer.colorful_treasure.codes import PARAM_NAMES
    from analyzer.colorful_treasure.rules import tuned_rows
    from analyzer.games.data import read_bounds

    bounds = {p: (lo, hi) for p, lo, hi in read_bounds("analyzer.colorful_treasure", PARAM_NAMES)}
    rows = tuned_rows()
    for name, by_count in rows.items():
        for n, row in by_count.items():
            assert "recall" not in row
            for p, v in row.items():
                assert bounds[p][0] <= v <= bounds[p][1], (name, n, p, v)
                assert v * 64 == int(v * 64), (name, n, p, v)  # exact sums, exact ties


# ------------------------------------------------------------------ named rules, forced choices

#: card c lies at position c: column w holds (gem, gem, gem, diamond, treasure) from row 0
IDENTITY = np.arange(50)
PYRAMIDS_RED, PYRAMIDS_DIAMOND, PYRAMIDS_KEY = 0, 3, 4
GREAT_WALL_DIAMOND, GREAT_WALL_CHEST = 8, 9


def _turns(forced, players=2, turns=2):
    """Trace lines of the first ``turns`` turns of a random game with the identity
    layout and the given forced choices."""
    job = make_job(players, "random", seed=3)
    _, _, _, s = play_raw(job, 0, 1, trace_rows=4000, deal=IDENTITY, forced=forced)
    lines = render_trace(job.rules, s.trace, int(s.sc[S_TRACE_N]), skip=CHOICE_ROWS)
    return [ln for ln in lines if int(ln.split(" ")[0][1:]) < turns], s


def test_a_revealed_key_must_be_taken_and_the_rest_goes_back():
    # "A turn": seat 0 reveals the Pyramids key (place 4) and red gem (place 0), stops
    lines, _ = _turns([PYRAMIDS_KEY, 0, 0], turns=1)
    assert lines == [
        "t0 seat 0: reveals Pyramids row 4: Pyramids key (card 1 of the turn)",
        "t0 seat 0: reveals Pyramids row 0: Pyramids red (card 2 of the turn)",
        "t0 seat 0: takes Pyramids key",
        "t0 seat 0: turns Pyramids red face down again at Pyramids row 0",
    ]


def test_a_key_and_a_chest_pair_at_once_and_steal():
    # turn 0: seat 0 takes the red gem; turn 1: seat 1 reveals a key and a chest,
    # discards the pair and steals seat 0's only card
    forced = [0, 0, 0, 0]  # places 0 and 1, stop, the first kind (red)
    forced += [3, 7, 0, 0]  # places 4 and 9 (of the face-down ones), stop, the only item
    lines, s = _turns(forced, turns=2)
    assert lines[4:] == [
        "t1 seat 1: reveals Pyramids row 4: Pyramids key (card 1 of the turn)",
        "t1 seat 1: reveals Great Wall row 4: Great Wall chest (card 2 of the turn)",
        "t1 seat 1: takes Pyramids key",
        "t1 seat 1: takes Great Wall chest",
        "t1 seat 1: discards a key marker and a chest marker",
        "t1 seat 1: steals Pyramids red from seat 0",
    ]
    assert lines[2] == "t0 seat 0: takes Pyramids red"


def test_a_diamond_card_brings_its_plastic_diamond():
    lines, _ = _turns([PYRAMIDS_DIAMOND, GREAT_WALL_DIAMOND - 1, 0, 0], turns=1)
    assert lines[2:] == [
        "t0 seat 0: takes Pyramids diamond",
        "t0 seat 0: takes the plastic diamond above Pyramids",
        "t0 seat 0: takes Great Wall diamond",
        "t0 seat 0: takes the plastic diamond above Great Wall",
    ]


def test_a_third_card_is_chosen_after_seeing_two():
    # places 0 and 5 (red gems of Pyramids and Great Wall), then a third: place 10
    lines, _ = _turns([0, 4, 1, 8, 0], turns=1)
    assert lines[2] == "t0 seat 0: reveals Taj Mahal row 0: Taj Mahal red (card 3 of the turn)"
    assert lines[3:6] == [
        "t0 seat 0: takes Pyramids red",
        "t0 seat 0: takes Great Wall red",
        "t0 seat 0: takes Taj Mahal red",
    ]


def _gem_reward_after_a_steal(stolen_cards):
    """Trace of 4 forced turns (2 seats, gem reward for 2 colours): seat 1 steals
    seat 0's red gem at t1 and takes a green gem at t3, so it holds two colours, one
    of them stolen."""
    rules = load_rules({"stolen_cards": stolen_cards}, {"rewards.gem.by_players.2.colours": 2})
    job = make_job(2, "random", seed=3, rules=rules)
    forced = [0, 0, 0, 0]  # t0 seat 0: places 0 and 1, stop, takes Pyramids red
    forced += [3, 7, 0, 0]  # t1 seat 1: Pyramids key and Great Wall chest, steals the red
    forced += [0, 0, 0, 0]  # t2 seat 0: places 1 and 2, stop, takes Pyramids yellow
    forced += [0, 0, 0, 0]  # t3 seat 1: places 2 and 3, stop, takes Pyramids green
    _, _, _, s = play_raw(job, 0, 1, trace_rows=4000, deal=IDENTITY, forced=forced)
    lines = render_trace(job.rules, s.trace, int(s.sc[S_TRACE_N]), skip=CHOICE_ROWS)
    return [ln for ln in lines if int(ln.split(" ")[0][1:]) < 4]


def test_a_stolen_card_counts_for_the_thiefs_rewards_unless_the_ruling_ignores_it():
    # "A turn", ruling stolen_cards
    count = _gem_reward_after_a_steal("count")
    assert "t1 seat 1: steals Pyramids red from seat 0" in count
    assert "t3 seat 1: takes Pyramids green" in count
    assert count[-1] == "t3 seat 1: takes the gem reward (9 points)"
    ignore = _gem_reward_after_a_steal("ignore")
    assert ignore[: len(count) - 1] == count[:-1]  # the same turns, no reward
    assert not any("reward" in ln for ln in ignore)


def test_stolen_cards_ignored_leave_the_treasure_majority_to_the_others():
    """Random seats play the same games under both rulings (they read no reward). With
    ``ignore`` each seat's key and chest cards that count are those it holds less the
    stolen ones whose last thief it is; the treasure reward follows those counts."""
    games = 400
    count = make_job(4, "random", seed=31)
    ignore = make_job(4, "random", seed=31, rules=load_rules({"stolen_cards": "ignore"}))
    a = count(0, games)
    b = ignore(0, games)
    cols = ["treasure_cards", "steals", "cards_held", "game_turns"]
    pd.testing.assert_frame_equal(a["games"][cols], b["games"][cols])
    t = ignore.rules.tables
    last_thief = {}
    for row in b["steals"].itertuples():
        if row.card >= 0:
            last_thief[(row.game, row.card)] = row.thief
    counted = b["games"]["treasure_cards"].to_numpy().reshape(games, 4).copy()
    for (game, card), thief in last_thief.items():
        if t.card_kind[card] in (Kind.KEY, Kind.CHEST):
            counted[game, thief] -= 1
    best = counted.max(axis=1, keepdims=True)
    top = (counted == best) & (best >= 1)
    expected = top * 7 / np.maximum(top.sum(axis=1, keepdims=True), 1)
    got = b["games"]["pts_treasure"].to_numpy().reshape(games, 4)
    assert np.allclose(got, expected)
    assert (got != a["games"]["pts_treasure"].to_numpy().reshape(games, 4)).any()


def test_last_cards_end_stops_the_game_when_a_turn_cannot_reveal_two():
    # "Game end", ruling last_cards; the young variant plays until the grid is empty
    young = load_rules({"variant": "young"})
    reveal = simulate(3, "greedy", 200, seed=5, rules=young)
    end = simulate(
        3, "greedy", 200, seed=5, rules=load_rules({"variant": "young", "last_cards": "end"})
    )
    assert (reveal["cards_left"] == 0).all()
    assert set(end["cards_left"]) == {0, 1}  # one card left: the game ends at once
    last = end["cards_left"] == 1
    assert (end.loc[last, "game_turns"] < reveal.loc[last, "game_turns"]).all()


def test_last_cards_end_on_the_turn_cap_ends_the_game_and_is_no_abort():
    """A game that the ruling last_cards = "end" ends on the very turn the cap is
    reached has ended: it is not reported as hitting the cap (which fails the run)."""
    rulings = {"variant": "young", "last_cards": "end"}
    df = simulate(3, "greedy", 20, seed=5, rules=load_rules(rulings))
    row = df[(df["cards_left"] == 1) & (df["seat"] == 0)].iloc[0]
    game, turns = int(row["game"]), int(row["game_turns"])
    rules = load_rules(rulings, {"components.max_turns": turns})
    results, _, _, _ = play_raw(make_job(3, "greedy", seed=5, rules=rules), game, 1)
    assert (results[:, engine.R_BAD] == 0).all()
    assert results[0, engine.R_LEFT] == 1 and results[0, engine.R_GAME_TURNS] == turns
    short = load_rules(rulings, {"components.max_turns": turns - 1})  # the cap still bites
    results, _, _, _ = play_raw(make_job(3, "greedy", seed=5, rules=short), game, 1)
    assert (results[:, engine.R_BAD] & engine.BAD_ABORTED).all()


def test_two_keys_do_not_pair():
    # Pyramids key (4) and Taj Mahal key (14): two keys, no steal, both markers kept
    lines, _ = _turns([4, 13, 0], turns=1)
    assert not any("discards" in ln or "steals" in ln for ln in lines)
    assert sum("takes" in ln for ln in lines) == 2


# ------------------------------------------------------------------ a seat never peeks


def test_a_seat_that_never_saw_a_card_finds_it_only_by_chance():
    """Plant Petra's diamond at row 2 in every game (same layout each time). Seats
    with no memory (recall 0) can know it only while it is face up; every time one
    reveals a place of Petra's column while the diamond lies face down there, the
    chance of hitting it is 1 / (face-down places of the column). The hits must
    match that chance within 4 standard errors."""
    rules = default_rules()
    petra = rules.wonder_ids.index("petra")
    rng = np.random.default_rng(0)
    deal = np.concatenate([rng.permutation(np.arange(w * 5, w * 5 + 5)) for w in range(10)])
    planted = petra * 5 + 3
    col = deal[petra * 5 : petra * 5 + 5].tolist()
    col.remove(planted)
    col.insert(2, planted)
    deal[petra * 5 : petra * 5 + 5] = col
    job = make_job(
        4,
        "greedy,hunter,greedy,hunter",
        seed=9,
        strategy_params={"greedy": {"recall": 0.0}, "hunter": {"recall": 0.0}},
    )
    games = 400
    _, _, _, s = play_raw(job, 0, games, trace_rows=games * 300, deal=deal)
    n_events = int(s.sc[S_TRACE_N])
    assert n_events < games * 300
    tr = s.trace[:n_events]
    expected = var = 0.0
    hits = 0
    target = petra * 5 + 2  # the planted place
    column = range(petra * 5, petra * 5 + 5)
    where = {int(c): p for p, c in enumerate(deal)}
    grid: set[int] = set()
    up: list[int] = []
    last_turn = -1
    for ev, turn, _seat, a, _b, *_ in tr.tolist():
        if turn != last_turn:  # a new turn: nothing is face up
            up = []
            last_turn = turn
        if ev == 1:  # reveal of place a
            if turn == 0 and not up and len(grid) < 50 and not grid:
                grid = set(range(50))
            if a in column and target in grid and target not in up:
                m = sum(1 for p in column if p in grid and p not in up)
                expected += 1 / m
                var += (1 / m) * (1 - 1 / m)
                hits += a == target
            up.append(a)
        elif ev == 2:  # take of card a: its place empties
            grid.discard(where[a])
        elif ev == 9:  # game over: the next game starts with a full grid
            grid = set()
            last_turn = -1
    assert expected > 100  # enough chances to judge
    assert abs(hits - expected) <= 4 * math.sqrt(var)


# ------------------------------------------------------------------ a twin of the players' values


def twin_take_value(s, t, seat, n, prm, cards, sv):
    """Plain-Python twin of ``strategies.take_value`` ("Players and memory"): the value
    to ``seat`` of the take the rules force or allow with ``cards`` face up."""
    from analyzer.colorful_treasure.state import (
        H_CHESTS,
        H_COLOURS,
        H_KEYS,
        H_TREASURE,
        H_WONDERS,
        S_EXPLORER_OWNER,
        S_GEM_OWNER,
    )

    recall, w_treasure, w_reward, _deny, _third = prm[seat]
    gem_open = t.rewards == 1 and s.sc[S_GEM_OWNER] < 0
    explorer_open = t.rewards == 1 and s.sc[S_EXPLORER_OWNER] < 0

    def explorer(taken):
        new = {int(t.card_wonder[c]) for c in taken if s.wcards[seat, t.card_wonder[c]] == 0}
        if not new or not explorer_open:
            return 0.0
        v = 0.5 * w_reward * len(new)
        if s.held[seat, H_WONDERS] + len(new) >= t.explorer_goal:
            v += t.explorer_points
        return v

    treasure = [c for c in cards if t.card_kind[c] in (Kind.KEY, Kind.CHEST)]
    if treasure:
        keys = sum(t.card_kind[c] == Kind.KEY for c in treasure)
        chests = len(treasure) - keys
        hk, hc = s.held[seat, H_KEYS], s.held[seat, H_CHESTS]
        pairs = min(hk + keys, hc + chests) - min(hk, hc)
        # the majority's chance: a logistic of the lead over the best other seat
        rival = max(int(s.held[q, H_TREASURE]) for q in range(n) if q != seat)
        d = int(s.held[seat, H_TREASURE]) - rival
        left = sum(1 for c in range(t.n_cards) if s.owner[c] < 0 and t.card_kind[c] >= 2)
        scale = 0.5 + 0.15 * left
        k = len(treasure)
        gain = 1 / (1 + math.exp(-(d + k) / scale)) - 1 / (1 + math.exp(-d / scale))
        majority = math.floor(t.treasure_points * gain * 64 + 0.5) / 64 if t.rewards else 0.0
        return w_treasure * len(treasure) + majority + sv * pairs + explorer(treasure)
    table = list(t.gem_points)
    best = -math.inf
    for kind, colour in {(int(t.card_kind[c]), int(t.card_colour[c])) for c in cards}:
        taken = [c for c in cards if (t.card_kind[c], t.card_colour[c]) == (kind, colour)]
        if kind == Kind.GEM:
            have = int(s.gems[seat, colour])
            top = len(table) - 1
            v = float(table[min(have + len(taken), top)] - table[min(have, top)])
            if have == 0 and gem_open:
                v += w_reward
                if s.held[seat, H_COLOURS] + 1 >= t.gem_goal[n]:
                    v += t.gem_reward[n]
        else:
            v = float(len(taken) * (t.diamond_card + t.plastic_diamond))
        best = max(best, v + explorer(taken))
    if t.take_optional == 1 and best <= 0:
        return 0.0
    return best


@pytest.mark.parametrize("optional", [False, True])
def test_take_value_matches_its_plain_twin(optional):
    from analyzer.colorful_treasure.state import S_EXPLORER_OWNER, S_GEM_OWNER
    from analyzer.colorful_treasure.strategies import take_value

    rules = load_rules({"take": "optional"} if optional else {})
    t = rules.tables
    rng = np.random.default_rng(4)
    prm = np.array([[0.8, 1.5, 1.0, 1.0, 0.0]] * 3)
    checked = 0
    for g in range(12):
        job = make_job(3, "hunter,greedy,random", seed=g, rules=rules)
        _, _, _, s = play_raw(job, g, 1)  # a game's final holdings
        for _ in range(60):
            s.sc[S_GEM_OWNER] = -1 if rng.random() < 0.5 else 1
            s.sc[S_EXPLORER_OWNER] = -1 if rng.random() < 0.5 else 2
            seat = int(rng.integers(3))
            m = int(rng.integers(1, 4))
            cards = rng.choice(t.n_cards, m, replace=False)
            s.hyp[:m] = cards
            s.prm[:] = prm
            sv = float(rng.integers(0, 6))
            got, _ = take_value(make_view(s, "CTState"), make_view(t, "CTTables"), seat, 3, m, sv)
            want = twin_take_value(s, t, seat, 3, prm, [int(c) for c in cards], sv)
            assert got == pytest.approx(want), (g, seat, cards.tolist())
            checked += 1
    assert checked == 720


def test_checkpoint_fingerprint_of_default_rules_is_as_before_the_newer_rulings():
    """A checkpoint written before ``stolen_cards``, ``last_cards``, ``tiles`` and the
    rulings after them (``tile_timing``, ``tile_offers``, ``steal_pairs``)
    existed still resumes: at their defaults they are not in a job's fingerprint;
    set otherwise, they are (so a changed ruling never resumes an old run)."""
    from analyzer.colorful_treasure.game import make_job
    from analyzer.colorful_treasure.rules import load_rules

    text = repr(make_job(2, "greedy", seed=3))
    assert text.startswith(
        "ColorfulTreasureJob(players=2, strategies=('greedy', 'greedy'), seed=3, "
        "rules={'rules_version': 'colorful-treasure-rules-1', 'rulings': {'variant': "
        "'standard', 'scoring': 'basic', 'take': 'always', 'tied_game': 'share'}, "
        "'overrides': {}, 'players': {"
    )
    for key, value in (
        ("stolen_cards", "ignore"),
        ("last_cards", "end"),
        ("tiles", "a"),
        ("tile_timing", "after_rewards"),
        ("tile_offers", "per_turn"),
        ("steal_pairs", "cards"),
    ):
        job = make_job(2, "greedy", seed=3, rules=load_rules(rulings={key: value}))
        assert f"'{key}': '{value}'" in repr(job)
