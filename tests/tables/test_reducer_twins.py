"""The reducer's numpy paths against their pandas twins, to the bit.

:mod:`analyzer.tables.aggregate` sums a batch without pandas' groupby (one float64
matrix per table, labels from a numba kernel, exact integer columns summed
once, pandas' own summation rule for the others: ``np.add.reduceat`` for rows
in group order, Kahan otherwise, :mod:`analyzer.kernels.groupsum`). Its pandas twins are
the code as first written (``tests/pandas_twins.py``: ``moments_pandas``,
``counts_pandas``, ``stacked_pandas``, ``reduce_pandas`` and each game's
``*_reduce_pandas``). Every partial must be the same DataFrame: the same
index (with the same level dtypes), the same bits in every moment.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analyzer.games import load_game, strategy_column
from analyzer.kernels.groupsum import compress_labels, kahan_moments
from analyzer.runs.driver import ScenarioJob, intervention_info, reducer_uptake, scenario_job
from analyzer.runs.scenario_file import comparison_pairs, expand, load_scenario, with_overrides
from analyzer.tables import aggregate as A
from tests import pandas_twins as twins


def assert_same(new: pd.DataFrame, old: pd.DataFrame) -> None:
    """The same partial: index values and level dtypes, and every moment's bits."""
    pd.testing.assert_frame_equal(new, old, check_exact=True)
    assert [lv.dtype for lv in new.index.levels] == [lv.dtype for lv in old.index.levels]
    a, b = new.to_numpy(), old.to_numpy()
    assert a.tobytes() == b.tobytes()  # also -0.0 against 0.0, and NaN payloads


def random_table(rng: np.random.Generator, rows: int, *, sort: bool, nan: bool) -> pd.DataFrame:
    """Cells, keys of every kind the reducer codes, metrics whose float sums
    depend on the order and algorithm of summation."""
    cells = rng.integers(0, 3, rows)
    df = pd.DataFrame(
        {
            "cell": cells.astype(np.int16),
            "seat": rng.integers(0, 4, rows).astype(np.int8),
            "big": rng.integers(-(10**9), 10**9, rows),  # a key with a wide range
            "flag": rng.random(rows) < 0.3,
            "fkey": rng.choice([0.5, 1 / 3, 2.0, 7.25], rows),
            "cat": pd.Categorical(
                rng.choice(["zeta", "alpha", "Mid"], rows),
                categories=["zeta", "Mid", "alpha", "none"],
            ),
            "small": rng.integers(-50, 50, rows).astype(np.int16),
            "win": rng.choice(np.float32([1, 0, 0.5, 1 / 3, 0.25]), rows),
            "wide": rng.normal(size=rows) * 10.0 ** rng.integers(-6, 6, rows),
            "sixty": rng.integers(0, 400, rows) / 60,
            "huge": rng.integers(-(2**40), 2**40, rows),  # integers whose squares are not exact
        }
    )
    if nan:
        df.loc[rng.random(rows) < 0.1, "wide"] = np.nan
    if sort:
        df = df.sort_values(["cell", "seat"], kind="stable").reset_index(drop=True)
    return df


METRICS = ["small", "win", "wide", "sixty", "huge"]
KEYS = [[], ["seat"], ["cat"], ["seat", "cat"], ["big"], ["flag"], ["fkey"], ["cat", "fkey"]]


@pytest.mark.slow
@pytest.mark.parametrize("sort", [True, False], ids=["group-order", "shuffled"])
@pytest.mark.parametrize("nan", [False, True], ids=["no-nan", "nan"])
def test_moments_and_counts_equal_pandas_groupby(sort, nan):
    rng = np.random.default_rng(20 + 2 * sort + nan)
    df = random_table(rng, 4000, sort=sort, nan=nan)
    for keys in KEYS:
        assert_same(A.moments(df, "g", keys, METRICS), twins.moments_pandas(df, "g", keys, METRICS))
        assert_same(A.counts(df, "h", keys), twins.counts_pandas(df, "h", keys))
    part = A.moments(df[df["seat"] == 2], "g", ["cat"], METRICS)
    assert_same(part, twins.moments_pandas(df[df["seat"] == 2], "g", ["cat"], METRICS))


def test_the_random_tables_tell_summation_orders_apart():
    """The twins' test is only as good as its data: plain row-order sums of these
    columns differ from pandas' in the last bits (else any summation would pass)."""
    df = random_table(np.random.default_rng(3), 4000, sort=False, nan=False)
    by = df.groupby("seat")
    for col in ("wide", "sixty"):
        plain = [math.fsum([]) + sum(v.tolist()) for _, v in by[col]]
        assert plain != by[col].sum().tolist()


def test_masked_rows_are_the_rows_of_a_filtered_table():
    df = random_table(np.random.default_rng(5), 3000, sort=True, nan=False)
    t = A.Table(df)
    mask = df["flag"].to_numpy()
    part = A.grouped(t, "g", ["seat"], METRICS, mask)
    assert_same(
        A.assemble([part]), twins.moments_pandas(df[mask], "g", ["seat"], METRICS).sort_index()
    )
    fam = A.Family(t, ["seat", "cat", "flag"], METRICS)
    for keys in ([], ["seat"], ["cat"], ["seat", "cat"]):
        want = twins.moments_pandas(df, "g", keys, METRICS)
        assert_same(fam.part("g", keys, METRICS).frame(), want)
    only = fam.part("g", ["seat"], METRICS, only=("flag", "True")).frame()
    assert_same(only, twins.moments_pandas(df[mask], "g", ["seat"], METRICS))


@pytest.mark.parametrize("sub", [False, True])
def test_stacked_equals_concatenated_blocks(sub):
    rng = np.random.default_rng(7 + sub)
    df = random_table(rng, 3000, sort=True, nan=False)
    t = A.Table(df)
    blocks = []
    for key in ("wonder_b", "wonder_a", "card_c"):  # not in key order: Kahan, as pandas
        rows = np.flatnonzero(rng.random(len(df)) < 0.4)
        blocks.append((key, rows, rng.integers(0, 2, len(rows)) if sub else None))
    metrics = ["win", "small", "sixty"]
    new = A.stacked(t, "s", blocks, metrics).frame()
    assert_same(new, twins.stacked_pandas(df, "s", blocks, metrics))
    ordered = sorted(blocks, key=lambda b: b[0])  # key order: reduceat, as pandas
    assert_same(
        A.stacked(t, "s", ordered, metrics).frame(), twins.stacked_pandas(df, "s", ordered, metrics)
    )


def test_kahan_kernel_is_pandas_group_sum_with_infinities_and_nan():
    rng = np.random.default_rng(11)
    values = rng.normal(size=(3, 500)) * 1e8
    values[0, 17] = np.inf
    values[1, 40:60] = np.nan
    labels = rng.integers(-1, 4, 500)
    n, s, ss = kahan_moments(labels, values, np.arange(3), np.zeros(3, np.bool_), 4)
    frame = pd.DataFrame(values.T)
    keep = labels >= 0
    by = frame[keep].groupby(labels[keep])
    shuffled = by.sum()  # labels are not in order: pandas' Kahan
    assert np.array_equal(s, shuffled.to_numpy())
    assert np.array_equal(ss, (frame * frame)[keep].groupby(labels[keep]).sum().to_numpy())
    assert np.array_equal(n, by.count().to_numpy())


def test_compress_labels_numbers_groups_in_key_order():
    codes = np.array([[1, 0, 1, -1, 0], [2, 0, 0, 1, 2]], np.int64)
    label, present = compress_labels(codes, np.array([2, 3], np.int64), 6)
    assert present.tolist() == [0, 2, 3, 5]
    assert label.tolist() == [3, 0, 2, -1, 1]


def test_strategy_column_equals_the_categorical_of_names():
    names = ("claimer", "random", "claimer")
    cats = ("random", "claimer", "collector", "balanced")
    new = strategy_column(names, 7, cats)
    old = pd.Categorical(np.tile(np.array(names), 7), categories=cats)
    assert new.dtype == old.dtype and new.codes.dtype == old.codes.dtype
    assert np.array_equal(new.codes, old.codes)


def _batch(game: str, strategies: list[str], tables: bool) -> dict[str, pd.DataFrame]:
    g = load_game(game)
    job = g.make_job(len(strategies), strategies, 5, g.load_rules({}, {}, "rules"), claims=tables)
    return ScenarioJob(jobs=((job,),), per_order=10**9)(0, 400)


@pytest.mark.parametrize(
    ("game", "strategies"),
    [
        ("unearth", ["random", "claimer", "random", "balanced"]),
        ("unearth", ["random"] * 3),
        ("colorful_treasure", ["greedy", "random", "greedy"]),
        ("uruk", ["balanced", "random", "balanced", "balanced"]),
    ],
)
def test_reducer_equals_its_pandas_twin_on_game_batches(game, strategies):
    tables = _batch(game, strategies, tables=True)
    reducer = A.Reducer(game=game)
    own = twins.GAME_REDUCE_PANDAS[game]
    assert_same(reducer(tables), twins.reduce_pandas(reducer, tables, own))


@pytest.mark.slow
@pytest.mark.parametrize(
    "scenario",
    [
        "colorful_treasure_tiles.toml",  # tile columns missing in one cell
        "eternal_flame.toml",  # an intervention: treated seats, pairs
    ],
)
def test_reducer_equals_its_pandas_twin_on_scenario_batches(scenario):
    from pathlib import Path

    from analyzer.games import merge_columns
    from analyzer.tables.aggregate import Reducer

    sc = with_overrides(load_scenario(Path("scenarios") / scenario), games=240, seed=3)
    cells = expand(sc)
    job = scenario_job(sc, cells, 3)
    game = sc.game_def
    columns = merge_columns([game.columns(c.rules) for c in cells])
    reducer = Reducer(
        comparison_pairs(sc, cells),
        game=game.name,
        columns=columns,
        **reducer_uptake(intervention_info(sc, game)),
    )
    tables = job(0, 240)
    own = twins.GAME_REDUCE_PANDAS[game.name]
    assert_same(reducer(tables), twins.reduce_pandas(reducer, tables, own))


def test_unearth_wonders_total_is_pandas_row_sum():
    games = _batch("unearth", ["random", "balanced"], tables=False)["games"]
    kinds = [f"wonders_{k}" for k in ("lesser", "greater", "named")]
    derived = load_game("unearth").derive(games)["wonders_total"]
    pd.testing.assert_series_equal(derived, games[kinds].sum(axis=1), check_names=False)
    assert derived.sum() > 0


def test_blockwise_is_one_stacked_block_at_a_time():
    df = random_table(np.random.default_rng(13), 3000, sort=True, nan=False)
    t = A.Table(df)
    rng = np.random.default_rng(14)
    blocks = [(k, np.flatnonzero(rng.random(len(df)) < 0.5), None) for k in ("b", "a", "c")]
    blocks.append(("none", np.zeros(0, np.int64), None))
    for got, block in zip(A.blockwise(t, "u", blocks, METRICS), blocks, strict=True):
        assert_same(A.assemble([got]), A.assemble([A.stacked(t, "u", [block], METRICS)]))
        if len(block[1]):
            assert_same(got.frame(), twins.stacked_pandas(df, "u", [block], METRICS))


def _flag_table(rng: np.random.Generator, rows: int) -> pd.DataFrame:
    """Cells in order (as a scenario's batch has them), flags 0/1/2 and float metrics
    whose sums depend on the order and algorithm of summation."""
    return pd.DataFrame(
        {
            "cell": np.sort(rng.integers(0, 3, rows)).astype(np.int16),
            "seat": np.tile(np.arange(4, dtype=np.int8), rows // 4),
            "win": rng.choice(np.float32([1, 0, 0.5, 1 / 3, 0.25]), rows),
            "score": rng.integers(0, 4000, rows) / 60,
            "gem": (rng.random(rows) < 0.3).astype(np.int8),
            "alpha": rng.integers(0, 3, rows).astype(np.int16),
            "zed": (rng.random(rows) < 0.6).astype(np.int8),
        }
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_flag_blocks_equal_stacked_blocks_and_pandas(seed):
    df = _flag_table(np.random.default_rng(seed), 2000)
    flags, metrics = ["gem", "zed", "alpha"], ["win", "score"]
    every = np.arange(len(df))
    blocks = [(f, every, df[f].to_numpy(np.int64)) for f in flags]
    new = A.flag_blocks(A.Table(df), "reward", flags, metrics).frame()
    assert_same(new, A.stacked(A.Table(df), "reward", blocks, metrics).frame())
    assert_same(new, twins.stacked_pandas(df, "reward", blocks, metrics))


def test_flag_blocks_catch_a_planted_summation_bug(monkeypatch):
    """The comparison above fails when the kernel adds plainly instead of Kahan's way
    (the tables tell the two apart), and when it keys a row by the wrong block."""
    import analyzer.kernels.groupsum as gs

    df = _flag_table(np.random.default_rng(4), 2000)
    flags, metrics = ["gem", "zed"], ["win", "score"]
    every = np.arange(len(df))
    blocks = [(f, every, df[f].to_numpy(np.int64)) for f in flags]
    old = twins.stacked_pandas(df, "reward", blocks, metrics)
    kernel = gs.block_moments

    def plain(cell, n_cells, subs, n_subs, rank, values, exact):
        return kernel(cell, n_cells, subs, n_subs, rank, values, np.ones_like(exact))

    def swapped(cell, n_cells, subs, n_subs, rank, values, exact):
        return kernel(cell, n_cells, subs[::-1].copy(), n_subs, rank, values, exact)

    for bug in (plain, swapped):
        monkeypatch.setattr(gs, "block_moments", bug)
        with pytest.raises(AssertionError):
            assert_same(A.flag_blocks(A.Table(df), "reward", flags, metrics).frame(), old)
    monkeypatch.setattr(gs, "block_moments", kernel)
    assert_same(A.flag_blocks(A.Table(df), "reward", flags, metrics).frame(), old)


def test_flag_blocks_in_group_order_are_summed_as_pandas_does():
    """One block whose flags come sorted: pandas sums with reduceat, and so do we."""
    df = _flag_table(np.random.default_rng(5), 400).sort_values(["cell", "gem"], kind="stable")
    df = df.reset_index(drop=True)
    blocks = [("gem", np.arange(len(df)), df["gem"].to_numpy(np.int64))]
    new = A.flag_blocks(A.Table(df), "reward", ["gem"], ["win", "score"]).frame()
    assert_same(new, twins.stacked_pandas(df, "reward", blocks, ["win", "score"]))


def test_column_arrays_are_the_columns_arrays():
    df = _batch("colorful_treasure", ["greedy", "random"], tables=False)["games"]
    df["nullable"] = pd.array(np.arange(len(df)) % 3, dtype="Int64")
    got = A.column_arrays(df)
    assert list(got) == list(df.columns)
    for name, col in df.items():
        want = col.to_numpy() if isinstance(col.dtype, np.dtype) else col.array
        assert type(got[name]) is type(want)
        assert got[name].dtype == want.dtype
        assert np.array_equal(np.asarray(got[name]), np.asarray(want))


def test_float_key_texts_are_pandas_texts_whatever_was_seen_before():
    """Key texts of float columns are pandas' ``astype(str)``, also when remembered
    from an earlier batch (-0.0 and 0.0 apart, NaN, infinities, tiny and huge)."""
    values = np.array(
        [0.0, -0.0, 1 / 3, 17.5, 1e-300, 1e300, np.inf, -np.inf, np.nan, 0.1 + 0.2, 2.0**60]
    )
    rng = np.random.default_rng(7)
    for _ in range(3):
        sample = rng.choice(values, 40)
        want = pd.Series(sample).astype(str).to_numpy(object)
        got = A._texts(sample)
        assert got.dtype == object and got.tolist() == want.tolist()


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
)
def test_integer_key_codes_are_numpys_unique(dtype):
    """Integer key codes (the numba kernel, and numpy where it declines: a wide range,
    values near int64's bounds, uint64) against ``np.unique``: ranks and values."""
    from analyzer.kernels.groupsum import int_codes

    rng = np.random.default_rng(11)
    info = np.iinfo(dtype)
    samples = [
        rng.integers(max(info.min, -40), min(info.max, 90), 3000, endpoint=True),
        np.full(7, min(info.max, 5)),
        np.array([info.min, info.max, 0, info.max], dtype),  # the whole range: numpy's path
    ]
    for values in samples:
        arr = np.asarray(values).astype(dtype)
        codes, uniq = A._number_codes(arr)
        want_uniq, want_codes = np.unique(arr, return_inverse=True)
        assert uniq.dtype == arr.dtype and np.array_equal(uniq, want_uniq)
        assert codes.dtype == np.int64 and np.array_equal(codes, want_codes.reshape(-1))
    ok, codes, uniq = int_codes(np.array([3, -2, 3, 9], np.int16), 100)
    assert ok and codes.tolist() == [1, 0, 1, 2] and uniq.tolist() == [-2, 3, 9]
    assert not int_codes(np.array([0, 100], np.int16), 100)[0]  # a range of 101 values
