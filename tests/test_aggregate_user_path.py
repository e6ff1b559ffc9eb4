"""The user path's shortcuts against their plain twins (issue #25): reading a
group of a summed aggregate from its index codes, the distinct texts of a
partial through a dict, the summary and headline read without a frame per
group, the runner's keys of a partial from its levels. Each twin test is shown
to fail on a planted bug."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analyzer import aggregate as A
from analyzer import runner, stats
from analyzer.driver import ScenarioJob
from analyzer.games import load_game


@pytest.fixture(scope="module")
def summed() -> pd.DataFrame:
    """A summed aggregate of two cells (two seat orders) over three batches, as the
    runner sums it (Colorful Treasure, 3 players, two strategies)."""
    g = load_game("colorful_treasure")
    rules = g.load_rules({}, {}, "rules")
    jobs = tuple(
        tuple(g.make_job(3, order, 7, rules) for order in orders)
        for orders in (
            (["random", "greedy", "random"], ["greedy", "random", "random"]),
            (["greedy", "greedy", "random"], ["random", "greedy", "greedy"]),
        )
    )
    sj = ScenarioJob(jobs=jobs, per_order=60)
    reducer = A.Reducer((), game="colorful_treasure", columns=tuple(g.columns(rules)))
    acc = runner._ExactSum()
    for start in (0, 40, 80):
        acc.add(reducer(sj(start, 40)))
    return acc.value()


GROUPS = ["seat", "strategy", "seat_strategy", "score_hist", "game", "reward", "all", "none"]


@pytest.mark.parametrize("group", GROUPS)
def test_group_rows_is_pandas_xs(summed, group):
    """``group_rows`` (rows read from the index's codes) is ``xs`` then
    ``reset_index``: the same frame, dtypes and row order, and the same empty
    frame for a group the aggregate does not have."""
    fast, slow = A.group_rows(summed, group), A.group_rows_pandas(summed, group)
    pd.testing.assert_frame_equal(fast, slow, check_exact=True)
    assert (len(fast) > 0) == (group != "none")


def test_group_rows_twin_fails_on_a_planted_bug(summed, monkeypatch):
    """The twin test can fail: rows of the group one off (the codes' first row
    dropped) differ from pandas'."""
    real = np.flatnonzero
    monkeypatch.setattr(A.np, "flatnonzero", lambda a: real(a)[1:])
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(
            A.group_rows(summed, "seat"), A.group_rows_pandas(summed, "seat"), check_exact=True
        )


@pytest.mark.parametrize(
    "values",
    [
        ["seat", "all", "seat", "b|1", "", "all", "ä", "B"],
        [3, 1, 3, 2],
        [1.5, 0.5, 1.5],  # numbers: numpy's own
        [],
    ],
)
def test_unique_texts_is_numpy_unique(values):
    """``_unique`` (distinct texts through a dict) is ``np.unique`` with the inverse:
    the same sorted values and codes."""
    arr = np.array(values, dtype=object if values and isinstance(values[0], str) else None)
    if not len(values):
        arr = np.array([], dtype=object)
    got, inv = A._unique(arr)
    want, want_inv = np.unique(arr, return_inverse=True)
    assert got.tolist() == want.tolist() and got.dtype == want.dtype
    assert inv.tolist() == want_inv.reshape(-1).tolist()


def summary_pandas(aggregate: pd.DataFrame, level: float = 0.95, cell: int = 0) -> pd.DataFrame:
    """``summary_table`` as first written (a frame per group, pandas' ``loc``): the twin."""
    rows = []
    for by in ("seat", "strategy"):
        block = A.group_rows_pandas(aggregate, by)
        block = block[block["cell"] == cell]
        if block.empty:
            continue
        for group in sorted(set(block["key"]), key=int if by == "seat" else str):
            sub = block[block["key"] == group].set_index("metric")
            n = int(sub.loc["win", "n"])
            wins = float(sub.loc["win", "sum"])
            low, high = stats.wilson(wins, n, level)
            mean, s_low, s_high = stats.mean_ci_from_moments(
                n, float(sub.loc["score", "sum"]), float(sub.loc["score", "sumsq"]), level
            )
            rows.append(
                {
                    "by": by,
                    "group": group,
                    "n": n,
                    "win_rate": wins / n if n else math.nan,
                    "win_low": low,
                    "win_high": high,
                    "mean_score": mean,
                    "score_low": s_low,
                    "score_high": s_high,
                }
            )
    return pd.DataFrame(rows)


@pytest.mark.parametrize("cell", [0, 1, 5])
def test_summary_table_is_its_pandas_twin(summed, cell):
    """The ``simulate`` summary read from plain lists is the one read with pandas,
    to the bit (a cell without rows: an empty table)."""
    from analyzer.summary import summary_table

    fast, slow = summary_table(summed, cell=cell), summary_pandas(summed, cell=cell)
    pd.testing.assert_frame_equal(fast, slow, check_exact=True)
    assert len(fast) == (0 if cell == 5 else 5)


def test_summary_twin_fails_on_a_planted_bug(summed, monkeypatch):
    """The summary's twin test can fail: a summary that reads the wrong cell."""
    from analyzer import summary

    real = A.group_rows

    def planted(agg, group):
        rows = real(agg, group)
        return rows.assign(cell=1 - rows["cell"])

    monkeypatch.setattr(A, "group_rows", planted)
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(summary.summary_table(summed), summary_pandas(summed))


def test_widest_seat_headline_reads_every_seat(summed):
    """The runner's headline is the seat of cell 0 with the widest Wilson interval,
    computed here seat by seat with pandas."""
    rows = A.group_rows_pandas(summed, "seat")
    rows = rows[(rows["cell"] == 0) & (rows["metric"] == "win")]
    widths = {
        int(r["key"]): stats.wilson(float(r["sum"]), float(r["n"])) for _, r in rows.iterrows()
    }
    seat = max(sorted(widths), key=lambda s: widths[s][1] - widths[s][0])
    got = A.widest_seat_headline(summed)
    assert got.label == f"seat {seat} win rate"
    assert (got.low, got.high) == tuple(float(x) for x in widths[seat])


def test_keys_of_a_partial_are_pandas_tolist(summed):
    """The runner's keys of a partial, read from its levels and codes, are
    ``index.tolist()`` (value and type of each field); a plain index: its own."""
    keys = runner._keys(summed.index)
    assert keys == summed.index.tolist()
    assert [type(x) for x in keys[0]] == [type(x) for x in summed.index.tolist()[0]]
    plain = pd.Index(["a", "b"])
    assert runner._keys(plain) == ["a", "b"]
