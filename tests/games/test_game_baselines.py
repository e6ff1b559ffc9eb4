"""``baseline`` of Colorful Treasure and Uruk: the default strategy of strategies
version 1, frozen.

Each is the yardstick of its game's ratings and tuning (``Game.yardstick``), so
it plays exactly as the strategy it copied (Colorful Treasure ``greedy``, Uruk
``balanced``) played in version 1, with that row (the games are pinned in
``tests/games/test_pinned.py``), and nothing may move it: not ``strategy_params``, not
an override or a change of the copied strategy's defaults. Also here: the declared
tuning ranges (``data/tuning.toml``) and ``analyzer tune`` with its defaults.
"""

from __future__ import annotations

import pandas as pd
import pytest

import analyzer
from analyzer.colorful_treasure import codes as ct_codes
from analyzer.colorful_treasure.rules import default_rules as ct_rules
from analyzer.core.errors import InputError
from analyzer.games import load_game
from analyzer.scenario import parse_scenario
from analyzer.studies import tuning
from analyzer.uruk import defaults as uruk_defaults
from analyzer.uruk import game as uruk_game
from analyzer.uruk import strategies as uruk_strategies

#: the rows frozen, as shipped in strategies version 1: literals, never derived
CT_ROW = (0.8, 0.0, 0.0, 0.0, 0.0)  # greedy: recall, treasure, reward, deny, third
CT_TILE_WORTH = (1.0, 1.5, 2.0, 4.0, 1.0, 1.0, 1.5, 1.5, 2.0)  # players.tile_worth
URUK_ROW = (0.0, 1.0, 0.4, 0.3, 0.4, 1.0, 0.5)  # balanced
#: game -> the strategy baseline was a copy of in strategies version 1. Both moved on
#: in version 2 (issue 27's players): the games of each baseline are held by the
#: frozen hashes of tests/games/test_pinned.py, taken when the two played the same games
COPIES = {"colorful_treasure": "greedy", "uruk": "balanced"}


def _play(game: str, lineup: str, **kw) -> pd.DataFrame:
    players = len(lineup.split(","))
    return analyzer.simulate(players, lineup, kw.pop("games", 30), seed=5, game=game, **kw)


def _same_games(a: pd.DataFrame, b: pd.DataFrame) -> None:
    cols = [c for c in a.columns if c != "strategy"]
    assert list(a.columns) == list(b.columns)
    pd.testing.assert_frame_equal(a[cols], b[cols])


def test_rows_are_the_frozen_literals():
    assert ct_codes.BASELINE_PARAMS == CT_ROW
    assert ct_codes.BASELINE_TILE_WORTH == CT_TILE_WORTH
    shipped = ct_rules().data["players"]
    worth = shipped["tile_worth"]
    assert tuple(worth[e] for e in ct_codes.EFFECT_NAMES) == CT_TILE_WORTH
    assert uruk_strategies.BASELINE_PARAMS == URUK_ROW
    assert uruk_defaults.BASELINE_ROW == URUK_ROW
    for game, row in (("colorful_treasure", CT_ROW), ("uruk", URUK_ROW)):
        g = load_game(game)
        by_name = {s.name: s for s in g.strategies}
        assert by_name["baseline"].frozen and g.yardstick == "baseline"
        assert tuple(v for _, v in by_name["baseline"].params) == row


def test_ct_baseline_never_moves_with_greedy_defaults():
    """A new default row or tile worth for greedy (an override of the data, as a
    tuning would ship) changes greedy's games and leaves baseline's as they were."""
    lineup = "baseline,greedy,baseline"
    kw = {"rulings": {"tiles": "b"}, "games": 40}
    moved = {"players.greedy.treasure": 3.0, "players.greedy.third": 1.5}
    moved |= {f"players.tile_worth.{e}": 0.5 for e in ct_codes.EFFECT_NAMES}
    before = _play("colorful_treasure", lineup, **kw)
    after = _play("colorful_treasure", lineup, overrides=moved, **kw)
    assert not before.equals(after)  # greedy's seat plays differently
    all_greedy = _play("colorful_treasure", "greedy,greedy,greedy", overrides=moved, **kw)
    frozen = _play("colorful_treasure", "baseline,baseline,baseline", overrides=moved, **kw)
    _same_games(frozen, _play("colorful_treasure", "baseline,baseline,baseline", **kw))
    assert not frozen.drop(columns="strategy").equals(all_greedy.drop(columns="strategy"))


def test_uruk_baseline_never_moves_with_balanced_defaults(monkeypatch):
    before = _play("uruk", "baseline,baseline", games=40)
    changed = (0.0, 0.3, 1.2, 0.9, 0.1, 0.2, 1.4)
    monkeypatch.setattr(uruk_game, "default_row", lambda name, players: changed)
    prm = uruk_game.param_rows(["baseline", "balanced"])
    assert tuple(prm[0]) == URUK_ROW and tuple(prm[1]) == changed
    _same_games(_play("uruk", "baseline,baseline", games=40), before)
    moved = _play("uruk", "balanced,balanced", games=40)
    assert not moved.drop(columns="strategy").equals(before.drop(columns="strategy"))


def test_uruk_seats_carry_their_strategy_code():
    """The kernels can tell baseline from balanced (the code in the row's last
    column: baseline keeps version 1's choice rules and evaluation)."""
    job = uruk_game.make_job(2, ("baseline", "balanced"), 1)
    _, _, s = uruk_game.play_raw(job, 0, 1)
    code = s.prm[:2, uruk_strategies.P_STRATEGY]
    assert list(code) == [uruk_strategies.BASELINE, uruk_strategies.BALANCED]
    assert uruk_strategies.P_STRATEGY >= uruk_strategies.N_PARAMS


@pytest.mark.parametrize("game,param", [("colorful_treasure", "third"), ("uruk", "secret")])
def test_baseline_takes_no_strategy_params(game, param):
    with pytest.raises(InputError, match="baseline is frozen"):
        analyzer.simulate(
            2, "baseline", 1, seed=1, game=game, strategy_params={"baseline": {param: 1.0}}
        )
    raw = {"game": game, "players": 2, "games": 1, "strategies": "baseline"}
    raw["strategy_params"] = {"baseline": {param: 1}}
    with pytest.raises(InputError, match="strategy_params: bad value 'baseline'.*frozen"):
        parse_scenario(raw, "x.toml")


def test_ct_baseline_has_no_override_path():
    with pytest.raises(InputError, match="players.baseline"):
        analyzer.simulate(
            2, "baseline", 1, seed=1, game="colorful_treasure",
            overrides={"players.baseline.recall": 0.5},
        )  # fmt: skip


@pytest.mark.parametrize("game", ["colorful_treasure", "uruk"])
def test_strategy_column_keeps_its_categories(game):
    copy = COPIES[game]  # any strategy but baseline
    a = _play(game, f"{copy},random", games=2)
    assert list(a["strategy"].cat.categories) == list(
        load_game(game).strategy_names()[:4]
    )  # as before baseline
    b = _play(game, "baseline,random", games=2)
    assert list(b["strategy"].cat.categories)[-1] == "baseline"
    raw = {"game": game, "players": 2, "games": 4, "seed": 1, "strategies": [copy, "random"]}
    raw["compare"] = {"a": {}, "b": {"strategies": ["baseline", "random"]}}
    run = analyzer.run(raw, workers=1)
    assert isinstance(run.games["strategy"].dtype, pd.CategoricalDtype)


# --------------------------------------------------------------------------- tuning


@pytest.mark.parametrize("game,untuned", [("colorful_treasure", "recall"), ("uruk", "uniform")])
def test_declared_bounds(game, untuned):
    """Every parameter but the person's memory (Uruk: the random switch) has a
    range for every tuned strategy, holding the shipped row; random, baseline and
    a slow strategy (a search player: never tuned) declare none."""
    g = load_game(game)
    for s in g.strategies:
        if s.name in ("random", "baseline") or s.slow:
            assert s.bounds == ()
            continue
        ranged = {p: (lo, hi) for p, lo, hi in s.bounds}
        assert set(ranged) == {p for p, _ in s.params} - {untuned}
        for p, v in s.params:
            if p in ranged:
                assert ranged[p][0] <= v <= ranged[p][1], (s.name, p)
        names, _, _, _ = tuning._search_space(s, None, {}, 2)
        assert untuned not in names and len(names) == len(ranged)


def test_untuned_parameter_needs_a_named_range():
    strat = {s.name: s for s in load_game("colorful_treasure").strategies}["greedy"]
    with pytest.raises(InputError, match="--params: bad value 'recall'.*--bound recall="):
        tuning._search_space(strat, "recall,deny", {}, 2)
    names, _, lows, highs = tuning._search_space(strat, "recall", {"recall": (0.5, 1.0)}, 2)
    assert names == ("recall",) and (lows[0], highs[0]) == (0.5, 1.0)


@pytest.mark.parametrize("game", ["unearth", "colorful_treasure", "uruk"])
def test_tune_defaults_play_the_yardstick(game):
    """The default field of tune is the game's yardstick, a frozen strategy that is
    not the default (tuned) strategy: tune runs with its defaults for every game."""
    g = load_game(game)
    assert g.yardstick_name() != g.default_strategy
    assert tuning._field(g, g.default_strategy, None, 3) == ("baseline", "baseline")


def test_tune_runs_with_its_defaults():
    result = tuning.tune("uruk", 2, trials=2, games=4, confirm_games=0, seed=1)
    assert result.settings["strategy"] == "balanced"  # the row the default (trained) plays
    assert result.settings["field"] == ["baseline"]
    assert set(result.best.params) == {p for p, _, _ in load_game("uruk").strategies[3].bounds}


def test_ladder_zero_is_the_yardstick():
    from analyzer.studies.ratings import ladder

    lad = ladder("colorful_treasure", 2, ["greedy", "baseline"], games=4, seed=1, bootstrap=0)
    assert lad.info["anchor"] == "baseline"


def test_scenario_tune_defaults_and_untuned_parameters():
    raw = {"game": "colorful_treasure", "players": 2, "tune": {}}
    sc = parse_scenario(raw, "x.toml")
    assert sc.tune.strategy == "greedy" and sc.tune.field == ("baseline",)
    assert set(sc.tune.params) == {"treasure", "reward", "deny", "third"}
    raw["tune"] = {"params": ["recall", "deny"]}
    with pytest.raises(InputError, match=r"tune.params: bad value 'recall'.*tune.bounds"):
        parse_scenario(raw, "x.toml")
    raw["tune"] = {"params": ["recall"], "bounds": {"recall": [0.5, 1.0]}}
    assert parse_scenario(raw, "x.toml").tune.params == ("recall",)
    raw = {"game": "uruk", "players": 3, "ladder": {"strategies": ["balanced", "baseline"]}}
    assert parse_scenario(raw, "x.toml").ladder.anchor == "baseline"
