"""``baseline``: today's ``balanced`` with its shipped parameters, frozen.

It is the yardstick of ratings across versions, so it must play exactly as
``balanced`` with the same parameter row, and nothing may move its row: not a
scenario's or the Python API's ``strategy_params``, not a change of
``balanced``'s defaults.
"""

from __future__ import annotations

import pandas as pd
import pytest

import analyzer
from analyzer.core.errors import InputError
from analyzer.games import load_game
from analyzer.scenario import parse_scenario
from analyzer.unearth import game as unearth_game
from analyzer.unearth import strategies

#: balanced's default row as shipped before tuning (issue 12): w_ruin, w_stone,
#: risk, lead, w_card, card_min, place, named. A literal, never derived.
#: the frozen row; its last four columns (added in issue 12) are 0: the evaluation it shipped with
FROZEN_ROW = (1.0, 1.3, 1.0, 0.4, 0.6, 1.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0)


def _play(lineup: str, params: dict | None = None) -> pd.DataFrame:
    return analyzer.simulate(4, lineup.split(","), 40, seed=5, strategy_params=params)


def test_baseline_row_is_the_frozen_literal():
    assert tuple(strategies.BASELINE_PARAMS) == FROZEN_ROW
    row = strategies.DEFAULT_PARAMS[strategies.Strategy.BASELINE]
    assert tuple(row) == FROZEN_ROW
    shipped = {s.name: s for s in load_game("unearth").strategies}["baseline"]
    assert tuple(v for _, v in shipped.params) == FROZEN_ROW
    assert shipped.frozen


@pytest.mark.slow
def test_baseline_plays_as_balanced_with_the_same_row():
    """Same seed, same seats: baseline in seats 0 and 2 plays the games that
    balanced with the frozen row plays there (every column but the name)."""
    row = dict(zip(unearth_game.PARAM_NAMES, FROZEN_ROW, strict=True))
    a = _play("baseline,claimer,baseline,random")
    b = _play("balanced,claimer,balanced,random", {"balanced": row})
    assert (
        a["strategy"].astype(str).iloc[:4] == ["baseline", "claimer", "baseline", "random"]
    ).all()
    cols = [c for c in a.columns if c != "strategy"]
    pd.testing.assert_frame_equal(a[cols], b[cols])
    # and the games are not trivially equal: another row for balanced changes them
    c = _play("balanced,claimer,balanced,random", {"balanced": {**row, "w_stone": 3.0}})
    assert not a[cols].equals(c[cols])


def test_baseline_ignores_a_change_of_balanced_defaults(monkeypatch):
    real = unearth_game.default_row

    def changed(name, players):
        return (9.0,) * strategies.N_PARAMS if name == "balanced" else real(name, players)

    monkeypatch.setattr(unearth_game, "default_row", changed)
    codes, prm = unearth_game.strategy_arrays(["baseline", "balanced"])
    assert tuple(prm[0]) == FROZEN_ROW
    assert (prm[1] == 9.0).all()
    assert list(codes) == [strategies.Strategy.BASELINE, strategies.Strategy.BALANCED]


def test_baseline_takes_no_strategy_params():
    with pytest.raises(InputError, match="baseline is frozen"):
        unearth_game.strategy_arrays(["baseline"], {"baseline": {"w_ruin": 4.0}})
    with pytest.raises(InputError, match="baseline is frozen"):
        analyzer.simulate(2, ["baseline"], 1, seed=1, strategy_params={"baseline": {"w_ruin": 4}})
    raw = {"players": 2, "games": 1, "strategies": "baseline"}
    raw["strategy_params"] = {"baseline": {"lead": 1}}
    with pytest.raises(InputError, match="strategy_params: bad value 'baseline'.*frozen"):
        parse_scenario(raw, "x.toml")
    # balanced's parameters change balanced seats only
    _, prm = unearth_game.strategy_arrays(["balanced", "baseline"], {"balanced": {"w_ruin": 4}})
    assert prm[0, 0] == 4.0 and tuple(prm[1]) == FROZEN_ROW


def test_strategy_column_keeps_its_categories():
    """Without a baseline seat the column has the four classic categories (the
    pinned hashes); with one, all five; a scenario mixing both stays categorical."""
    a = analyzer.simulate(2, ["balanced", "random"], 2, seed=1)
    assert list(a["strategy"].cat.categories) == ["random", "claimer", "collector", "balanced"]
    b = analyzer.simulate(2, ["baseline", "random"], 2, seed=1)
    assert list(b["strategy"].cat.categories)[-1] == "baseline"
    raw = {"players": 2, "games": 4, "seed": 1, "strategies": ["balanced", "random"]}
    raw["compare"] = {"a": {}, "b": {"strategies": ["baseline", "random"]}}
    run = analyzer.run(raw, workers=1)
    assert isinstance(run.games["strategy"].dtype, pd.CategoricalDtype)
    names = run.games.groupby("cell")["strategy"].agg(lambda s: set(s.astype(str)))
    assert names.tolist() == [{"balanced", "random"}, {"baseline", "random"}]
