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

from analyzer.core import stats
from analyzer.games import load_game
from analyzer.runs import runner
from analyzer.runs.driver import ScenarioJob
from analyzer.tables import aggregate as A
from tests import pandas_twins as twins


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
    fast, slow = A.group_rows(summed, group), twins.group_rows_pandas(summed, group)
    pd.testing.assert_frame_equal(fast, slow, check_exact=True)
    assert (len(fast) > 0) == (group != "none")


@pytest.mark.parametrize("group", GROUPS)
def test_group_lists_are_the_group_rows(summed, group):
    """``group_lists`` (a group's rows as plain lists) holds the rows of
    ``group_rows_pandas``, value for value and type for type."""
    fast = A.group_lists(summed, group)
    slow = twins.group_rows_pandas(summed, group)
    for name in ["cell", "key", "metric", "n", "sum", "sumsq"]:
        want = slow[name].tolist()
        assert fast[name] == want
        assert [type(x) for x in fast[name]] == [type(x) for x in want]


def test_group_rows_twin_fails_on_a_planted_bug(summed, monkeypatch):
    """The twin test can fail: rows of the group one off (the codes' first row
    dropped) differ from pandas'."""
    real = np.flatnonzero
    monkeypatch.setattr(np, "flatnonzero", lambda a: real(a)[1:])
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(
            A.group_rows(summed, "seat"), twins.group_rows_pandas(summed, "seat"), check_exact=True
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
        block = twins.group_rows_pandas(aggregate, by)
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
    from analyzer.runs.simulate import summary_table

    fast, slow = summary_table(summed, cell=cell), summary_pandas(summed, cell=cell)
    pd.testing.assert_frame_equal(fast, slow, check_exact=True)
    assert len(fast) == (0 if cell == 5 else 5)


def test_summary_twin_fails_on_a_planted_bug(summed, monkeypatch):
    """The summary's twin test can fail: a summary that reads the wrong cell."""
    from analyzer.runs import simulate as summary

    real = A.group_lists

    def planted(agg, group):
        rows = real(agg, group)
        return {**rows, "cell": [1 - c for c in rows["cell"]]}

    monkeypatch.setattr(A, "group_lists", planted)
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(summary.summary_table(summed), summary_pandas(summed))


def test_widest_seat_headline_reads_every_seat(summed):
    """The runner's headline is the seat of cell 0 with the widest Wilson interval,
    computed here seat by seat with pandas."""
    rows = twins.group_rows_pandas(summed, "seat")
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


# --------------------------------------------------------------------------- kept tables


def _batches(sizes, change_at=None):
    """Batch tables of a toy run: ``games`` (3 rows a game, a categorical column)
    and ``events`` (a varying number of rows a game); from batch ``change_at`` on,
    the categorical has other categories."""
    rng = np.random.default_rng(5)
    out, start = [], 0
    for b, count in enumerate(sizes):
        cats = ["a", "b"] if change_at is None or b < change_at else ["a", "b", "c"]
        games = pd.DataFrame(
            {
                "game": np.repeat(np.arange(start, start + count), 3),
                "seat": np.tile(np.arange(3, dtype=np.int8), count),
                "strategy": pd.Categorical.from_codes(
                    rng.integers(0, 2, 3 * count).astype(np.int8), dtype=pd.CategoricalDtype(cats)
                ),
                "score": rng.standard_normal(3 * count),
            }
        )
        k = int(rng.integers(0, 4 * count + 1))
        events = pd.DataFrame(
            {"game": rng.integers(start, start + count, k), "turn": rng.integers(0, 9, k)}
        )
        out.append({"games": games, "events": events})
        start += count
    return out


@pytest.mark.parametrize(
    "sizes, change_at, precision",
    [
        ([40, 40, 40, 25], None, False),  # the sizes the run plans: joined as they come
        ([40], None, False),  # one batch: pandas' concat as before
        ([40, 40, 40, 25], 2, False),  # categories change: back to keeping the batches
        ([40, 40, 40, 25], 1, False),
        ([40, 40, 40, 25], None, True),  # a precision run (games not known)
    ],
)
def test_joined_tables_are_the_concat_of_the_batches(sizes, change_at, precision):
    """The runner's kept tables, joined batch by batch into arrays sized for the
    run (``_Joined``), are ``concat_tables`` of the batches: the same frame, dtypes,
    categories and index, whatever the table's rows per game."""
    batches = _batches(sizes, change_at)
    for name in ("games", "events"):
        joined = runner._Joined(None if precision else sum(sizes))
        for batch, count in zip(batches, sizes, strict=True):
            joined.add(batch[name], count)
        want = runner.concat_tables([b[name] for b in batches])
        got = joined.table()
        pd.testing.assert_frame_equal(got, want, check_exact=True)
        assert got.index.equals(want.index) and got.columns.equals(want.columns)


def test_joined_tables_twin_fails_on_a_planted_bug(monkeypatch):
    """The comparison above can fail: a join that writes a batch one row off."""
    batches = _batches([40, 40, 40])
    real = runner._Joined._write

    def planted(self, arrays, n):
        self.rows = max(0, self.rows - 1)
        real(self, arrays, n)

    monkeypatch.setattr(runner._Joined, "_write", planted)
    joined = runner._Joined(120)
    for batch in batches:
        joined.add(batch["games"], 40)
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(
            joined.table(), runner.concat_tables([b["games"] for b in batches])
        )


def test_run_keeps_the_same_tables_as_before():
    """``simulate``'s per-game table (joined as the batches come) is the concat of
    the batch tables the driver's job returns (less its ``cell`` and ``order``
    columns), to the bit."""
    import analyzer

    g = load_game("colorful_treasure")
    df = analyzer.simulate(3, "random", 50, 11, game="colorful_treasure", batch_size=20)
    job = g.make_job(3, ["random"] * 3, 11, g.load_rules({}, {}, "rules"))
    sj = ScenarioJob(jobs=((job,),), per_order=50)
    frames = [sj(s, min(20, 50 - s))["games"] for s in (0, 20, 40)]
    want = pd.concat(frames, ignore_index=True).drop(columns=["cell", "order"])
    pd.testing.assert_frame_equal(df, want, check_exact=True)


# --------------------------------------------------------------------------- scratch arrays


def test_scratch_arrays_are_reused_only_when_nothing_holds_them():
    """A scratch array comes back once nothing refers to it, never while it, or a
    view of it, is held elsewhere."""
    from analyzer.core.frames import scratch

    a = scratch((3, 1000), np.float64)
    b = scratch((3, 1000), np.float64)
    assert a is not b  # ``a`` is held here
    view = b[1]
    del b
    c = scratch((3, 1000), np.float64)
    assert c is not view.base and c is not a  # ``b`` is held through its view
    del view, c
    assert scratch((3, 1000), np.float64) is not a  # (one of the two free ones)
    first_id = id(a)
    del a
    again = [scratch((3, 1000), np.float64) for _ in range(2)]
    assert first_id in {id(x) for x in again}  # the arrays freed are handed out again
    assert scratch((2, 1000), np.int64).dtype == np.int64


# --------------------------------------------------------------------------- the driver's columns


@pytest.mark.parametrize("treated", [None, (0, 2)])
def test_cell_columns_are_the_pandas_inserts(treated):
    """The driver's ``cell``/``order`` (and ``treated``) columns put in front by one
    new frame over the batch's arrays are the frame pandas' ``insert``\\ s make:
    values, dtypes, column order and index; a batch already holding such a column
    goes to pandas (which refuses it)."""
    from analyzer.runs.driver import _with_cell, _with_cell_pandas

    g = load_game("colorful_treasure")
    job = g.make_job(3, ["random"] * 3, 5, g.load_rules({}, {}, "rules"))
    df = job(0, 30)["games"]
    fast, slow = _with_cell(df, 2, 1, treated), _with_cell_pandas(df, 2, 1, treated)
    pd.testing.assert_frame_equal(fast, slow, check_exact=True)
    assert fast.columns.equals(slow.columns) and fast.columns.dtype == slow.columns.dtype
    assert list(fast.columns[:3]) == ["cell", "order", "treated" if treated else "game"]
    with pytest.raises(ValueError):
        _with_cell(df.assign(order=0), 0, 0)
    with pytest.raises(AssertionError):  # the comparison sees a cell one off
        pd.testing.assert_frame_equal(_with_cell(df, 3, 1, treated), slow, check_exact=True)


# --------------------------------------------------------------------------- the reducer's floats


def _mixed_table(rows: int = 400) -> pd.DataFrame:
    """A batch table with every kind of numeric column a game may declare."""
    rng = np.random.default_rng(8)
    nullable = pd.array(rng.integers(0, 5, rows), dtype="Int64")
    nullable[::7] = pd.NA
    return pd.DataFrame(
        {
            "cell": np.repeat(np.arange(2, dtype=np.int16), rows // 2),
            "seat": np.tile(np.arange(4, dtype=np.int8), rows // 4),
            "strategy": pd.Categorical(rng.choice(["a", "b"], rows)),
            "flag": rng.integers(0, 2, rows).astype(bool),
            "small": rng.integers(-9, 9, rows).astype(np.int8),
            "mid": rng.integers(0, 3000, rows).astype(np.int16),
            "big": rng.integers(0, 1 << 40, rows),
            "share": rng.random(rows).astype(np.float32),
            "score": rng.standard_normal(rows),
            "maybe": nullable,
        }
    )


METRICS = ["flag", "small", "mid", "big", "share", "score", "maybe"]


def test_table_floats_without_the_matrix_are_the_matrix_rows():
    """A table's float rows made column by column (``values``, ``floats``) and its
    integer columns as they are (``ints``) hold the numbers of the full matrix's
    rows, bit for bit; the statistics read from them are the same."""
    df = _mixed_table()
    full, some = A.Table(df), A.Table(df)
    matrix = full.matrix()
    values, cols = some.values(METRICS)
    assert some._matrix is None  # (no full matrix was built for these)
    np.testing.assert_array_equal(values[cols], matrix[full.index(METRICS)])
    for m in METRICS:
        np.testing.assert_array_equal(A.Table(df).floats(m), matrix[full.index([m])[0]])
    assert some.exact(METRICS).tolist() == full.exact(METRICS).tolist()
    assert some.has_nan(["maybe"]) and not some.has_nan(METRICS[:-1])
    ints = ["flag", "small", "mid", "big"]
    for block, where in some.ints(ints):
        for k, j in enumerate(where):
            np.testing.assert_array_equal(
                block[k].astype(np.float64), matrix[full.index([ints[j]])[0]]
            )
    with pytest.raises(TypeError):
        some.ints(["score"])


@pytest.mark.parametrize("keys", [[], ["seat"], ["strategy"], ["seat", "strategy"]])
def test_family_on_native_integers_is_pandas(keys):
    """The grouped sums of a family (integer columns summed as they are, floats
    from the columns asked for) are pandas' groupby sums, bit for bit."""
    df = _mixed_table()
    metrics = METRICS[:-1]  # (a column with missing values goes to pandas anyway)
    fam = A.Family(A.Table(df), ["seat", "strategy"], metrics)
    got = fam.part("g", keys, metrics).frame()
    want = twins.moments_pandas(df, "g", keys, metrics)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    with_nan = A.grouped(A.Table(df), "g", keys, METRICS).frame()
    pd.testing.assert_frame_equal(
        with_nan, twins.moments_pandas(df, "g", keys, METRICS), check_exact=True
    )


def test_family_twin_fails_on_a_planted_bug(monkeypatch):
    """The comparison above can fail: integer columns handed to the sums with
    their rows in the wrong order."""
    real = A.Table.ints
    monkeypatch.setattr(
        A.Table, "ints", lambda self, m: [(b[:, ::-1], w) for b, w in real(self, m)]
    )
    df = _mixed_table()
    metrics = METRICS[:-1]
    fam = A.Family(A.Table(df), ["seat", "strategy"], metrics)
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(
            fam.part("g", ["seat"], metrics).frame(),
            twins.moments_pandas(df, "g", ["seat"], metrics),
        )
