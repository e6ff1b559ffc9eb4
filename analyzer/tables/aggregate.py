"""Aggregation: per-game tables -> additive partials -> report tables (pandas).

This is the one place that builds pandas tables for reports, for every game. It
works in two steps, so that aggregate-only runs (bounded memory) and runs that
keep every game give the same report:

1. :class:`Reducer` turns one batch's tables (``games`` and the game's own,
   plus the ``cell`` and ``order`` columns added by
   :class:`analyzer.runs.driver.ScenarioJob`) into a *partial*: a DataFrame indexed
   by ``(cell, group, key, metric)`` with float64 columns ``n``, ``sum``,
   ``sumsq``. Partials are additive, so batches are combined with
   :func:`combine` (or the runner's own summation).
2. :func:`build_tables` turns the summed partials into the report tables, every
   estimate with a 95% interval (Wilson for rates, normal for means; see
   :mod:`analyzer.core.stats`).

Only the core columns (:data:`analyzer.games.CORE_COLUMNS`) are known here by
name; every other column is used as the game declares it
(:class:`analyzer.games.Column`), and the game adds its own partial rows and
tables through :meth:`analyzer.games.Game.reduce` and
:meth:`~analyzer.games.Game.report_tables`. Display names come from the
``labels`` mapping the scenario supplies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.core.frames import column_arrays, scratch
from analyzer.core.stats import wilson, z_value
from analyzer.games import DEFAULT_GAME, Column, check_games_table, load_game

INDEX = ["cell", "group", "key", "metric"]
MOMENTS = ["n", "sum", "sumsq"]
#: core columns that are per-seat metrics
CORE_METRICS = ("score", "win", "game_turns")
CORE = ("score", "win")


#: luck-adjusted outcomes (``analyzer.kernels.luck``): ``win - luck_win``, ``score - luck_score``,
#: kept by seat under group ``luck`` when the games table has the luck columns
ADJUSTED = ("win_adj", "score_adj")


def with_adjusted(games: pd.DataFrame) -> pd.DataFrame:
    """``games`` with the luck-adjusted outcomes if it has the luck columns."""
    if "luck_win" not in games or "luck_score" not in games:
        return games
    return games.assign(
        win_adj=games["win"].astype(np.float64) - games["luck_win"],
        score_adj=games["score"].astype(np.float64) - games["luck_score"],
    )


def empty_partial() -> pd.DataFrame:
    """A partial with no rows (the right index and columns)."""
    idx = pd.MultiIndex.from_arrays([[], [], [], []], names=INDEX)
    return pd.DataFrame({c: pd.Series(dtype="float64") for c in MOMENTS}, index=idx)


def combine(partials) -> pd.DataFrame:
    """Sum partials (any iterable of partial DataFrames) into one, sorted by index."""
    parts = [p for p in partials if p is not None and len(p)]
    if not parts:
        return empty_partial()
    out = pd.concat(parts).groupby(level=INDEX, sort=True).sum()
    return out[MOMENTS].astype("float64")


def metric_columns(games: pd.DataFrame, columns: tuple[Column, ...]) -> list[str]:
    """Per-seat metrics of a games table: the core ones and the declared metrics present."""
    declared = [c.name for c in columns if c.kind == "metric"]
    present = set(games.columns)  # a set: asking a text Index is slow
    return [c for c in (*CORE_METRICS, *declared) if c in present]


def moments(df: pd.DataFrame, group: str, keys: list[str], metrics: list[str]) -> pd.DataFrame:
    """Partial rows of ``group``: moments of ``metrics`` by cell and ``keys``.

    Rows are sorted by cell and keys (numbers in numeric order, categories as
    text), then in the order of ``metrics``; ``key`` joins the keys' values as text
    with ``|`` (empty without keys). The sums are those pandas' groupby gives, bit
    for bit (:func:`grouped`; the pandas twin is :func:`moments_pandas`)."""
    if df.empty or not metrics:
        return empty_partial()
    part = grouped(Table(df), group, keys, metrics)
    return part.frame() if len(part) else empty_partial()


def moments_pandas(
    df: pd.DataFrame, group: str, keys: list[str], metrics: list[str]
) -> pd.DataFrame:
    """:func:`moments` with pandas' groupby: the slow, plain twin of :func:`grouped`
    (the tests compare them), and its fallback for key columns it does not take."""
    if df.empty or not metrics:
        return empty_partial()
    vals = df[metrics].astype("float64")
    by = [df["cell"].astype("int64")] + [
        df[k].astype(str) if isinstance(df[k].dtype, pd.CategoricalDtype) else df[k] for k in keys
    ]
    grouped = vals.groupby(by, sort=True)
    s = grouped.sum()
    ss = (vals * vals).groupby(by, sort=True).sum()
    n = grouped.count()
    s.columns.name = ss.columns.name = n.columns.name = "metric"
    out = pd.DataFrame({"n": n.stack(), "sum": s.stack(), "sumsq": ss.stack()})
    keys_frame = out.index.to_frame(index=False)
    if keys:
        key = keys_frame[keys].astype(str).agg("|".join, axis=1)
    else:
        key = pd.Series("", index=keys_frame.index)
    idx = pd.MultiIndex.from_arrays(
        [
            keys_frame["cell"].to_numpy(),
            np.full(len(keys_frame), group, object),
            key.to_numpy(),
            keys_frame["metric"].to_numpy(),
        ],
        names=INDEX,
    )
    out.index = idx
    return out.astype("float64")


def counts(df: pd.DataFrame, group: str, keys: list[str]) -> pd.DataFrame:
    """Histogram rows: ``n = sum = sumsq = count`` for each value of ``keys``."""
    if df.empty:
        return empty_partial()
    part = grouped(Table(df), group, keys, None)
    return part.frame() if len(part) else empty_partial()


def counts_pandas(df: pd.DataFrame, group: str, keys: list[str]) -> pd.DataFrame:
    """:func:`counts` with pandas' groupby (the twin the tests compare with)."""
    if df.empty:
        return empty_partial()
    one = df[["cell", *keys]].assign(count=1.0)
    return moments_pandas(one, group, keys, ["count"])


def _game_level(games: pd.DataFrame, columns: tuple[Column, ...]) -> pd.DataFrame:
    """One row per (cell, game): length, whether the win was shared, means over seats."""
    shared = ((games["win"] > 0) & (games["win"] < 1)).astype("float64")
    by = games.assign(shared_win=shared).groupby(["cell", "game"], sort=True)
    out = pd.DataFrame(
        {
            "game_turns": by["game_turns"].first().astype("float64"),
            "shared_win": by["shared_win"].max(),
            "mean_score": by["score"].mean(),
        }
    )
    for c in columns:
        if c.game_mean and c.name in games:
            out[c.game_mean] = by[c.name].mean()
    return out.reset_index()


# --------------------------------------------------------------------------- fast rows


@dataclass(frozen=True, eq=False)
class Part:
    """Partial rows as arrays, not yet a DataFrame: ``cell`` (int64), ``group``,
    ``key``, ``metric`` (str objects) and the moments ``n``, ``sum``, ``sumsq``
    (float64). A batch's parts become one partial DataFrame at the end
    (:func:`assemble`), instead of a DataFrame per group and a groupby over them."""

    cell: np.ndarray
    group: np.ndarray
    key: np.ndarray
    metric: np.ndarray
    n: np.ndarray
    sum: np.ndarray
    sumsq: np.ndarray

    def __len__(self) -> int:
        return len(self.n)

    def frame(self) -> pd.DataFrame:
        """These rows as a partial DataFrame (in their order; see :func:`moments`)."""
        idx = pd.MultiIndex.from_arrays([self.cell, self.group, self.key, self.metric], names=INDEX)
        return pd.DataFrame({"n": self.n, "sum": self.sum, "sumsq": self.sumsq}, index=idx)

    @classmethod
    def from_frame(cls, df: pd.DataFrame) -> Part:
        """The rows of a partial DataFrame (a game's reducer may still return those)."""
        level = df.index.get_level_values
        return cls(
            level("cell").to_numpy(np.int64),
            level("group").to_numpy(object),
            level("key").to_numpy(object),
            level("metric").to_numpy(object),
            *(df[c].to_numpy(np.float64) for c in MOMENTS),
        )


def _texts(values: np.ndarray) -> np.ndarray:
    """``values`` as the text pandas' ``astype(str)`` gives (object array): ``str``
    of each integer or bool, pandas' own for anything else."""
    if values.dtype.kind in "iub":
        return np.array([str(v) for v in values.tolist()], dtype=object)
    if values.dtype == np.float64:  # pandas' text of each value, asked once per value
        bits = np.ascontiguousarray(values).view(np.int64).tolist()
        text = {b: _FLOAT_TEXTS.get(b) for b in bits}  # this call's own (threads)
        new = [b for b, t in text.items() if t is None]
        if new:
            made = _texts_pandas(np.array(new, np.int64).view(np.float64)).tolist()
            if len(_FLOAT_TEXTS) > 1 << 16:  # a bound on the memory it keeps
                _FLOAT_TEXTS.clear()
            for b, t in zip(new, made, strict=True):
                text[b] = _FLOAT_TEXTS[b] = t
        return np.array([text[b] for b in bits], dtype=object)
    return _texts_pandas(values)


#: the text pandas gives each float64 value seen (by its bits: 0.0 and -0.0 differ)
_FLOAT_TEXTS: dict[int, str] = {}


def _texts_pandas(values: np.ndarray) -> np.ndarray:
    """``values`` as pandas' ``astype(str)`` gives them (object array)."""
    return np.asarray(pd.Series(values).astype(str).to_numpy(object), dtype=object)


def key_codes(values) -> tuple[np.ndarray, np.ndarray] | None:
    """``(codes int64[N], texts)``: a key column as group codes (-1: a missing
    number, which pandas leaves out of every group) and each code's text, codes
    in the order pandas sorts the groups (numbers by value, categories by their
    text). None for a column this does not take (text, objects, a categorical
    with missing values): :func:`grouped` then asks pandas."""
    if isinstance(values, pd.Series):
        values = values.array if isinstance(values.dtype, pd.CategoricalDtype) else values
    if isinstance(values, pd.Categorical):
        codes = np.asarray(values.codes, np.int64)
        if len(codes) and codes.min() < 0:
            return None
        texts = np.array([str(c) for c in values.categories], dtype=object)
        order = np.argsort(texts, kind="stable")
        rank = np.empty(len(texts), np.int64)
        rank[order] = np.arange(len(texts))
        return rank[codes], texts[order]
    arr = values.to_numpy() if isinstance(values, pd.Series) else np.asarray(values)
    found = _number_codes(arr)
    return None if found is None else (found[0], _texts(found[1]))


def _number_codes(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`key_codes` of a numpy array without the texts: ``(codes, values)``,
    ``values`` the distinct numbers in sorted order (NaN left out, code -1). None
    for an array that is not numbers or bools."""
    kind = arr.dtype.kind
    if kind in "iu" and len(arr) and arr.dtype != np.uint64 and arr.ndim == 1:
        from analyzer.kernels.groupsum import int_codes  # one kernel: two sweeps, not seven

        ok, codes, values = int_codes(arr, max(1 << 16, 4 * len(arr)))
        if ok:
            return codes, values.astype(arr.dtype)
    if kind in "iu" and len(arr):  # (the same, with numpy: the kernel's twin)
        lo, hi = int(arr.min()), int(arr.max())
        if hi - lo < max(1 << 16, 4 * len(arr)):
            shifted = arr.astype(np.int64) - lo
            present = np.bincount(shifted, minlength=hi - lo + 1) > 0
            codes = (np.cumsum(present) - 1)[shifted]
            return codes, (np.flatnonzero(present) + lo).astype(arr.dtype)
    if kind in "iub":
        uniq, codes = np.unique(arr, return_inverse=True)
        return codes.astype(np.int64).reshape(-1), uniq
    if kind == "f":  # the few values by hashing (NaN: -1), then their sorted order
        codes, uniq = pd.factorize(arr)
        order = np.argsort(uniq, kind="stable")
        rank = np.empty(len(uniq), np.int64)
        rank[order] = np.arange(len(uniq))
        return np.where(codes >= 0, rank[codes], -1).astype(np.int64), uniq[order]
    return None


class Table:
    """A batch table read as numpy: every numeric column converted to float64 once,
    into one matrix (``float64[columns, rows]``) the sums index by row, and each
    key column coded once."""

    def __init__(self, df: pd.DataFrame) -> None:
        self.df = df
        self.rows = len(df)
        self.cols = column_arrays(df)  #: each column's array by name
        self.names = set(self.cols)  #: the column names (a set: quick to ask)
        self._keys: dict[str, tuple | None] = {}
        self._stat: dict[str, tuple[bool, float]] = {}
        self._pos: dict[str, int] | None = None
        self._matrix: np.ndarray | None = None
        self._floats: dict[str, np.ndarray] = {}  #: columns as float64, made one by one
        self._some: dict[tuple, np.ndarray] = {}  #: :meth:`values` of some columns

    def _numeric(self) -> list:
        """``(name, array)`` of every numeric column (what the matrix holds)."""
        return [(n, c) for n, c in self.cols.items() if c.dtype.kind in "iufb"]

    def _build(self) -> None:
        """The matrix of every numeric column (missing values NaN)."""
        cols = self._numeric()
        self._pos = {n: j for j, (n, _) in enumerate(cols)}
        # every row is written below; a scratch array: the previous table's once
        # nothing refers to it (no new memory to map each batch)
        self._matrix = scratch((len(cols), self.rows), np.float64)
        for j, (_, col) in enumerate(cols):
            _to_floats(col, self._matrix[j])

    def matrix(self) -> np.ndarray:
        """``float64[numeric columns, rows]``: every numeric column, one row each."""
        if self._matrix is None:
            self._build()
        return self._matrix

    def index(self, metrics) -> np.ndarray:
        """The matrix rows (``int64``) of ``metrics``."""
        if self._pos is None:
            self._build()
        return np.array([self._pos[m] for m in metrics], np.int64)

    def values(self, metrics) -> tuple[np.ndarray, np.ndarray]:
        """``(values, rows)``: the float64 values of ``metrics`` are the rows ``rows``
        of ``values``, as the sums' kernels take them: the matrix's rows once it is
        built, else a matrix of these columns alone (the same numbers; a batch
        summing a few float columns does not convert every column)."""
        if self._matrix is not None:
            return self._matrix, self.index(metrics)
        key = tuple(metrics)
        some = self._some.get(key)
        if some is None:
            numeric = dict(self._numeric())
            some = np.empty((len(key), self.rows))
            for j, m in enumerate(key):
                if m in self._floats:
                    some[j] = self._floats[m]
                else:
                    _to_floats(numeric[m], some[j])
            self._some[key] = some
        return some, np.arange(len(key), dtype=np.int64)

    def floats(self, name: str) -> np.ndarray:
        """Column ``name`` as float64 (missing values NaN)."""
        if self._matrix is not None:
            return self._matrix[self.index([name])[0]]
        out = self._floats.get(name)
        if out is None:
            col = dict(self._numeric())[name]
            out = self._floats[name] = _to_floats(col, np.empty(self.rows))
        return out

    def ints(self, metrics) -> list[tuple[np.ndarray, list[int]]]:
        """The integer columns ``metrics`` (numpy's own, no missing values) as they
        are, stacked by dtype: ``[(int[k, rows], positions in metrics), ...]`` (bools
        as uint8), for sums that need no float (:meth:`exact` columns)."""
        by_type: dict[np.dtype, list[int]] = {}
        for j, m in enumerate(metrics):
            col = self.cols[m]
            if not isinstance(col, np.ndarray) or col.dtype.kind not in "iub":
                raise TypeError(f"column {m!r} is not a numpy integer column")
            by_type.setdefault(col.dtype, []).append(j)
        out = []
        for dtype, where in by_type.items():
            cols = [self.cols[metrics[j]] for j in where]
            if dtype.kind == "b":
                cols = [c.view(np.uint8) for c in cols]
            out.append((np.stack(cols) if cols else np.empty((0, self.rows)), where))
        return out

    def key(self, name: str):
        """:func:`key_codes` of column ``name``."""
        if name not in self._keys:
            self._keys[name] = key_codes(self.cols[name])
        return self._keys[name]

    def codes(self, name: str):
        """``(codes, distinct values)`` of column ``name``: :meth:`key` without
        the texts (a numpy integer column's, the texts never built), for keys
        whose groups are only counted."""
        col = self.cols[name]
        if name not in self._keys and isinstance(col, np.ndarray) and col.dtype.kind in "iu":
            return _number_codes(col)
        return self.key(name)

    def has_nan(self, metrics) -> bool:
        """Does any of the metrics' values miss (NaN)?"""
        return any(self._stats(m)[0] for m in metrics)

    def exact(self, metrics, rows: int | None = None) -> np.ndarray:
        """bool per metric: integers whose sums, and sums of squares, over ``rows``
        rows (default: the table's) are exact in float64 in any order."""
        rows = self.rows if rows is None else rows
        return np.array([self._stats(m)[1] * rows < 2.0**53 for m in metrics], np.bool_)

    def _stats(self, name: str) -> tuple[bool, float]:
        """``(has NaN, largest square)`` of a column (the square ``inf`` unless the
        column holds integers)."""
        out = self._stat.get(name)
        if out is None:
            raw = self.cols[name]
            if not isinstance(raw, np.ndarray) or raw.dtype.kind not in "iufb":
                raw = self.floats(name)  # (a nullable column; not a number: KeyError)
            if raw.dtype.kind in "iub":
                square = float(1 << (16 * raw.dtype.itemsize))  # the type's bound, squared
                if raw.dtype.itemsize > 2 or self.rows * square >= 2.0**53:  # the values' own
                    square = float(
                        max(abs(int(raw.min())), abs(int(raw.max()))) ** 2 if len(raw) else 0
                    )
                out = (False, square)
            else:
                out = (bool(np.isnan(self.floats(name)).any()), np.inf)
            self._stat[name] = out
        return out


def _to_floats(col, out: np.ndarray) -> np.ndarray:
    """``col`` (a numeric column) written into ``out`` as float64: numpy's own cast
    (NaN stays NaN), a nullable column's missing values NaN."""
    if isinstance(col, np.ndarray):
        out[:] = col
    else:
        out[:] = col.to_numpy(np.float64, na_value=np.nan)
    return out


def _labels(codes: list[np.ndarray], sizes: list[int]) -> tuple[np.ndarray, list[np.ndarray]]:
    """Group labels (0.. in the order of the codes, -1: left out) of rows with the
    given key codes, and each group's code of every key."""
    total = int(np.prod(sizes, dtype=np.float64)) if sizes else 1
    if total <= max(1 << 20, 4 * len(codes[0])):
        from analyzer.kernels.groupsum import compress_labels

        stacked_codes = np.stack([np.asarray(c, np.int64) for c in codes])
        out, present = compress_labels(stacked_codes, np.asarray(sizes, np.int64), total)
    else:
        label = codes[0].copy()
        bad = codes[0] < 0
        for c, size in zip(codes[1:], sizes[1:], strict=True):
            label = label * size + c
            bad |= c < 0
        present, inv = np.unique(label[~bad], return_inverse=True)
        out = np.full(len(label), -1, np.int64)
        out[~bad] = inv.reshape(-1)
    each = []
    rest = present.astype(np.int64)
    for size in reversed(sizes[1:]):
        each.append(rest % size)
        rest = rest // size
    each.append(rest)
    return out, each[::-1]


def grouped(t: Table, group: str, keys: list[str], metrics: list[str] | None, rows=None) -> Part:
    """The rows :func:`moments` gives (``metrics``; None: those of :func:`counts`)
    as a :class:`Part`, summed without pandas but to the same bits
    (:func:`analyzer.kernels.groupsum.group_moments`). ``rows``: a mask of the rows to use
    (as if the table held only those)."""
    if metrics is not None and not metrics:
        return Part.from_frame(empty_partial())
    found = [t.key("cell"), *(t.key(k) for k in keys)]
    if any(f is None or (len(f[0]) and f[0].min() < 0) for f in found):
        return _grouped_pandas(t, group, keys, metrics, rows)
    codes = [f[0] for f in found]
    if rows is not None:
        codes[0] = np.where(rows, codes[0], -1)
    source = None
    if metrics is not None:
        values, cols = t.values(metrics)
        if t.has_nan(metrics) and np.isnan(values[cols][:, codes[0] >= 0]).any():
            return _grouped_pandas(t, group, keys, metrics, rows)
        source = (values, cols, t.exact(metrics))
    return _summed(group, found, codes, metrics, source)


def stacked(t: Table, group: str, blocks: list, metrics: list[str]) -> Part:
    """The rows :func:`moments` gives for a table stacking blocks of ``t``'s rows,
    each with its own key: block ``(key, rows, sub)`` holds the rows ``rows``
    (indices, in order) with the key text ``key``, or ``key|<sub>`` with ``sub``
    (integers, one per row of the block; None in every block or in none). So a
    game sums "the seats that built wonder w" for every w without building
    that table (pandas' twin: :func:`stacked_pandas`)."""
    if not blocks:
        return Part.from_frame(empty_partial())
    idx = np.concatenate([np.asarray(rows, np.int64) for _, rows, _ in blocks])
    cell = t.key("cell")
    texts, block = np.unique(np.array([key for key, _, _ in blocks], object), return_inverse=True)
    sizes = [len(rows) for _, rows, _ in blocks]
    found = [cell, (np.repeat(block.reshape(-1), sizes), texts)]
    if blocks[0][2] is not None:
        found.append(key_codes(np.concatenate([np.asarray(sub) for _, _, sub in blocks])))
    if cell is None or found[-1] is None or (len(idx) and cell[0].min() < 0):
        return Part.from_frame(stacked_pandas(t.df, group, blocks, metrics))
    some, cols = t.values(metrics)
    values = some[cols][:, idx]
    if np.isnan(values).any():
        return Part.from_frame(stacked_pandas(t.df, group, blocks, metrics))
    codes = [cell[0][idx], *(f[0] for f in found[1:])]
    source = (values, np.arange(len(metrics)), t.exact(metrics, len(idx)))
    return _summed(group, found, codes, metrics, source)


def flag_blocks(t: Table, group: str, flags: list[str], metrics: list[str]) -> Part:
    """``stacked(t, group, [(f, every row, t's column f) for f in flags], metrics)``
    (every block holds all the rows, in order, keyed ``<flag>|<value>``) summed in
    one pass over the table's own columns (:func:`analyzer.kernels.groupsum.block_moments`),
    without the stacked table or the float matrix: so a game sums "the seats that
    took reward r, and the others" for every r (Colorful Treasure's rewards). The
    same rows as :func:`stacked`, to the bit; :func:`stacked` is asked where this
    one does not apply (float metrics only, integer flags and cells, no NaN,
    stacked rows not in group order)."""
    from analyzer.kernels.groupsum import block_moments

    def fallback() -> Part:
        every = np.arange(t.rows)
        return stacked(t, group, [(f, every, t.floats(f).astype(np.int64)) for f in flags], metrics)

    if not flags or not t.rows:
        return fallback()
    cols = [t.cols[m] for m in metrics]
    raw = [t.cols[f] for f in flags]
    if any(not isinstance(c, np.ndarray) or c.dtype.kind != "f" for c in cols) or any(
        not isinstance(r, np.ndarray) or r.dtype.kind not in "iu" for r in raw
    ):
        return fallback()
    cell = t.key("cell")
    sub = _number_codes(np.concatenate(raw))
    if cell is None or sub is None or cell[0].min() < 0:
        return fallback()
    values = np.empty((len(cols), t.rows))
    for j, c in enumerate(cols):
        values[j] = c
    if np.isnan(values).any():
        return fallback()
    texts, rank = np.unique(np.array(flags, object), return_inverse=True)
    subs = sub[0].reshape(len(flags), t.rows)
    sizes = [len(cell[1]), len(texts), len(sub[1])]
    exact = np.zeros(len(metrics), np.bool_)
    n, s, ss, in_order = block_moments(
        cell[0], sizes[0], subs, sizes[2], rank.reshape(-1).astype(np.int64), values, exact
    )
    if in_order:  # pandas would sum with reduceat: stacked() does
        return fallback()
    present = np.flatnonzero(n[:, 0] > 0)
    each = [present // (sizes[1] * sizes[2]), present // sizes[2] % sizes[1], present % sizes[2]]
    found = [cell, (None, texts), (None, _texts(sub[1]))]
    return _part(group, found, each, metrics, n[present], s[present], ss[present])


def blockwise(t: Table, group: str, blocks: list, metrics: list[str]) -> list:
    """``[stacked(t, group, [block], metrics) for block in blocks]`` (blocks without
    ``sub``), with the work they share done once: each block's own moments, as
    when every block is a table of its own (Uruk's inventions)."""
    from analyzer.kernels.groupsum import group_moments

    cell = t.key("cell")
    if cell is None or (t.rows and cell[0].min() < 0) or t.has_nan(metrics):
        return [stacked(t, group, [block], metrics) for block in blocks]
    matrix, cols = t.values(metrics)
    parts = []
    for key, rows, _ in blocks:
        rows = np.asarray(rows, np.int64)
        codes = cell[0][rows]
        present = np.flatnonzero(np.bincount(codes, minlength=len(cell[1])))
        remap = np.full(len(cell[1]), -1, np.int64)
        remap[present] = np.arange(len(present))
        values = matrix[cols][:, rows]
        exact = t.exact(metrics, len(rows))
        n, s, ss = group_moments(remap[codes], values, np.arange(len(cols)), exact, len(present))
        found = [cell, (None, np.array([key], object))]
        each = [present, np.zeros(len(present), np.int64)]
        parts.append(_part(group, found, each, metrics, n, s, ss))
    return parts


def stacked_pandas(df: pd.DataFrame, group: str, blocks: list, metrics: list[str]):
    """:func:`stacked` with pandas: the blocks concatenated, then :func:`moments_pandas`."""
    frames = []
    for key, rows, sub in blocks:
        part = df.iloc[np.asarray(rows, np.int64)][["cell", *metrics]].assign(key=key)
        frames.append(part if sub is None else part.assign(sub=np.asarray(sub, np.int64)))
    keys = ["key"] if blocks[0][2] is None else ["key", "sub"]
    return moments_pandas(pd.concat(frames, ignore_index=True), group, keys, metrics)


def _summed(group: str, found: list, codes: list, metrics, source) -> Part:
    """The :class:`Part` of rows with key codes ``codes`` (the cell's first; -1: a
    row not used), ``found`` each key's ``(codes, texts)``: moments of the
    ``metrics`` whose values are the rows ``cols`` of ``values`` in ``source =
    (values, cols, exact)`` (no NaN among the rows used; ``exact``: see
    :meth:`Table.exact`) or, ``source`` None, counts."""
    from analyzer.kernels.groupsum import group_moments

    label, each = _labels(codes, [len(f[1]) for f in found])
    n_groups = len(each[0])
    names = ["count"] if source is None else list(metrics)
    if source is None:
        n = np.bincount(label[label >= 0], minlength=n_groups).astype(np.float64).reshape(-1, 1)
        s = ss = n
    else:
        n, s, ss = group_moments(label, *source, n_groups)
    return _part(group, found, each, names, n, s, ss)


def _part(group: str, found: list, each: list, names: list[str], n, s, ss) -> Part:
    """The :class:`Part` of groups whose key codes are ``each`` (one array per key,
    ``found`` each key's ``(codes, texts)``, the cell's first) and moments ``n``,
    ``s``, ``ss`` (``[groups, len(names)]``)."""
    n_groups, k = len(each[0]), len(names)
    cells = found[0][1].astype(np.int64)[each[0]]  # (each distinct text read once)
    if len(found) > 1:
        texts = [f[1][e] for f, e in zip(found[1:], each[1:], strict=True)]
        key = np.array(["|".join(parts) for parts in zip(*texts, strict=True)], object)
    else:
        key = np.full(n_groups, "", object)
    return Part(
        np.repeat(cells, k),
        np.full(n_groups * k, group, object),
        np.repeat(key, k),
        np.tile(np.array(names, object), n_groups),
        np.asarray(n).reshape(-1),
        np.asarray(s).reshape(-1),
        np.asarray(ss).reshape(-1),
    )


class Family:
    """Several groupings of one table's rows by subsets of the same keys (``cell``
    and ``keys``), summed together: the columns whose sums are exact in any order
    (:meth:`Table.exact`) once, by the finest grouping, and each coarser group's
    sum from those of its finer groups (exact too); the other columns grouping
    by grouping, as pandas would (:func:`analyzer.kernels.groupsum.group_moments`). The
    rows :meth:`part` gives are those of :func:`grouped`, to the bit."""

    def __init__(self, t: Table, keys: list[str], metrics: list[str]) -> None:
        self.t, self.keys, self.metrics = t, ["cell", *keys], list(metrics)
        self.found = [t.key(k) for k in self.keys]
        self.ok = not any(f is None or (len(f[0]) and f[0].min() < 0) for f in self.found)
        self.ok = self.ok and not t.has_nan(self.metrics)
        if not self.ok:
            return
        from analyzer.kernels.groupsum import plain_moments

        self.label, self.each = _labels([f[0] for f in self.found], self._sizes(self.keys))
        exact = t.exact(self.metrics)
        self.tight = [m for m, e in zip(self.metrics, exact, strict=True) if e]
        self.tight_at = {m: k for k, m in enumerate(self.tight)}
        self._loose: dict[bytes, dict] = {}  #: partition -> metric -> (sum, sumsq)
        # integer columns summed as they are (int8, int16, ...): no float copy of them
        n_groups = len(self.each[0])
        self.s = np.zeros((n_groups, len(self.tight)))
        self.ss = np.zeros((n_groups, len(self.tight)))
        for block, where in t.ints(self.tight):
            cols = np.arange(len(where), dtype=np.int64)
            self.s[:, where], self.ss[:, where] = plain_moments(self.label, block, cols, n_groups)
        self.size = np.bincount(self.label, minlength=len(self.each[0])).astype(np.float64)

    def _sizes(self, keys: list[str]) -> list[int]:
        return [len(self.found[self.keys.index(k)][1]) for k in keys]

    def part(self, group: str, keys: list[str], metrics: list[str], only=None) -> Part:
        """The rows of ``grouped(t, group, keys, metrics)``; ``only = (key, text)``:
        of the rows whose ``key`` reads ``text`` (a key of this family)."""
        from analyzer.kernels.groupsum import group_moments

        if not self.ok or not metrics:
            rows = None if only is None else self.t.df[only[0]].astype(str).to_numpy() == only[1]
            return grouped(self.t, group, keys, metrics, rows)
        coarse = ["cell", *keys]
        fine = [self.each[self.keys.index(k)] for k in coarse]
        keep = np.ones(len(self.each[0]), bool)
        if only is not None:
            j = self.keys.index(only[0])
            keep = self.found[j][1][self.each[j]] == only[1]
        codes = [np.where(keep, c, -1) for c in fine]
        to_coarse, each = _labels(codes, self._sizes(coarse))
        n_groups = len(each[0])
        n = np.zeros((n_groups, len(metrics)))
        s, ss = np.zeros_like(n), np.zeros_like(n)
        kept = to_coarse >= 0
        sizes = np.bincount(to_coarse[kept], weights=self.size[kept], minlength=n_groups)
        n[:] = sizes.reshape(-1, 1)
        tight = [j for j, m in enumerate(metrics) if m in self.tight_at]
        if tight:  # integer sums: exact whatever the order, so a 0/1 matrix product
            which = np.zeros((n_groups, len(to_coarse)))
            which[to_coarse[kept], np.flatnonzero(kept)] = 1.0
            at = [self.tight_at[metrics[j]] for j in tight]
            s[:, tight], ss[:, tight] = which @ self.s[:, at], which @ self.ss[:, at]
        # the other columns as pandas sums them, once per partition of the rows:
        # groupings that split the rows alike (seat and seat x strategy when each
        # seat plays one strategy) have the same sums, to the bit
        done = self._loose.setdefault(to_coarse.tobytes(), {})
        todo = [m for m in metrics if m not in self.tight_at and m not in done]
        if todo:
            rows = to_coarse[self.label]  # each row's group (-1: left out)
            values, cols = self.t.values(todo)
            _, s_new, ss_new = group_moments(
                rows, values, cols, np.zeros(len(todo), bool), n_groups
            )
            done.update((m, (s_new[:, j], ss_new[:, j])) for j, m in enumerate(todo))
        for j, m in enumerate(metrics):
            if m not in self.tight_at:
                s[:, j], ss[:, j] = done[m]
        found = [self.found[self.keys.index(k)] for k in coarse]
        return _part(group, found, each, metrics, n, s, ss)


def _grouped_pandas(t: Table, group, keys, metrics, rows) -> Part:
    """:func:`grouped` through :func:`moments_pandas` (keys it cannot code itself,
    missing values)."""
    df = t.df if rows is None else t.df[rows]
    if metrics is None:
        return Part.from_frame(counts_pandas(df, group, keys))
    return Part.from_frame(moments_pandas(df, group, keys, list(metrics)))


def _game_level_part(t: Table, columns: tuple[Column, ...]) -> Part | None:
    """The ``game`` group's rows (moments over cells of :func:`_game_level`'s
    columns) without building that table; None if a column misses values
    (a column some cells do not have: :func:`_game_level` handles that)."""
    from analyzer.kernels.groupsum import group_moments

    found = [t.key("cell"), t.codes("game")]  # the games only counted: no texts
    own = [c for c in columns if c.game_mean and c.name in t.names]
    means = ["score", *(c.name for c in own)]
    if any(f is None for f in found) or t.has_nan(["game_turns", "win", *means]):
        return None
    label, (cell_code, _) = _labels([f[0] for f in found], [len(f[1]) for f in found])
    n_games = len(cell_code)
    if n_games and np.all(label[1:] >= label[:-1]):  # rows in game order: each game's first
        first = np.flatnonzero(np.r_[True, label[1:] != label[:-1]])
    else:
        first = np.full(n_games, t.rows, np.int64)
        np.minimum.at(first, label, np.arange(t.rows))
    win = t.floats("win")
    shared = ((win > 0) & (win < 1)).astype(np.float64)
    values, cols = t.values(means)
    n, s, _ = group_moments(label, values, cols, np.zeros(len(means), bool), n_games)
    level = {
        "cell": found[0][1].astype(np.int64)[cell_code],  # (each distinct text read once)
        "game_turns": t.floats("game_turns")[first],
        "shared_win": (np.bincount(label, weights=shared, minlength=n_games) > 0).astype(float),
    }
    names = ["mean_score", *(c.game_mean for c in own)]
    with np.errstate(invalid="ignore", divide="ignore"):
        level.update(zip(names, (s / n).T, strict=True))
    metrics = list(level)[1:]
    values = np.empty((len(metrics), n_games))
    for j, m in enumerate(metrics):
        values[j] = level[m]
    cell = key_codes(level["cell"])
    if np.isnan(values).any():  # grouped() of that table (pandas' path for NaN)
        return grouped(Table(pd.DataFrame(level)), "game", [], metrics)
    # grouped(Table(pd.DataFrame(level)), "game", [], metrics) without the table:
    # every column is float64 (no sum exact in any order), none misses a value
    source = (values, np.arange(len(metrics)), np.zeros(len(metrics), np.bool_))
    return _summed("game", [cell], [cell[0]], metrics, source)


def _game_columns(game: str) -> tuple[Column, ...]:
    """The columns of ``game`` under its default rules (for runs that did not say)."""
    g = load_game(game)
    return tuple(g.columns(g.load_rules({}, {}, "rules")))


@dataclass(frozen=True, repr=False)
class Reducer:
    """Batch tables -> partial (picklable; used by the runner in every worker).

    ``game`` names the registered game whose tables these are and ``columns``
    the columns it declared for the run (None: those of its default rules).
    ``pairs`` lists comparisons as ``(cell_a, cell_b)``: their games are paired by
    game index (and seat) and the moments of ``b - a`` are kept under group
    ``paired`` of cell ``b``. A table without a ``cell`` column is cell 0.
    With a ``treated`` column (a scenario's intervention) the treated seats get
    their own rows: group ``treated`` (their moments per cell) and, in each pair,
    the keys ``treated seats`` and ``other seats`` of group ``paired``; with
    ``uptake``, also ``uptake`` (1 when a treated seat used what the other variant
    forbids) and the products ``win_x_uptake``, ``score_x_uptake`` for the
    per-use ratio (:func:`per_use`). Draws no random numbers.
    """

    pairs: tuple[tuple[int, int], ...] = ()
    game: str = DEFAULT_GAME
    columns: tuple[Column, ...] | None = None
    #: with an intervention (a ``treated`` column): the columns saying a treated seat
    #: used what is forbidden (:meth:`analyzer.games.Game.uptake_columns`), read in
    #: the variant ``uptake_arm`` ("a" or the other variant's key) where it is allowed
    uptake: tuple[str, ...] = ()
    uptake_arm: str = "a"
    #: more per-seat metrics whose paired differences are kept, over all seats and
    #: seat by seat (those a scenario's ``variant_effect`` questions ask for;
    #: :func:`paired_metrics`)
    paired_metrics: tuple[str, ...] = ()

    def __repr__(self) -> str:  # the checkpoint fingerprint: as before unless used
        from analyzer.core.fingerprint import repr_without_defaults

        return repr_without_defaults(self, ("uptake", "uptake_arm", "paired_metrics"))

    def __call__(self, tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
        game, columns, tables = self._prepared(tables)
        parts = []
        games = tables.get("games")
        if games is not None and len(games):
            parts.extend(self._games(games, columns))
        parts.extend(game.reduce({k: v for k, v in tables.items() if len(v)}))
        return assemble(parts)

    def reduce_pandas(self, tables: dict[str, pd.DataFrame], game_reduce=None) -> pd.DataFrame:
        """The same partial with pandas' groupby throughout (this reducer as it was
        written first): the slow, plain twin the tests compare :meth:`__call__`
        with. ``game_reduce``: the game's own reducer to use (default
        :meth:`analyzer.games.Game.reduce`)."""
        game, columns, tables = self._prepared(tables)
        parts = []
        games = tables.get("games")
        if games is not None and len(games):
            parts.extend(self._games_pandas(games, columns))
        reduce = game_reduce or game.reduce
        parts.extend(reduce({k: v for k, v in tables.items() if len(v)}))
        return combine(p.frame() if isinstance(p, Part) else p for p in parts)

    def _prepared(self, tables: dict[str, pd.DataFrame]):
        """``(game, columns, tables)``: every table with a ``cell`` column, the games
        table checked and with the game's derived columns."""
        game = load_game(self.game)
        columns = self.columns if self.columns is not None else _game_columns(self.game)
        tables = {
            name: (df if "cell" in df else df.assign(cell=np.int16(0)))
            for name, df in tables.items()
            if df is not None
        }
        games = tables.get("games")
        if games is not None and len(games):
            check_games_table(games, columns, f"game {self.game!r}")
            tables["games"] = with_adjusted(game.derive(games))
        return game, columns, tables

    def _games(self, g: pd.DataFrame, columns: tuple[Column, ...]) -> list:
        """The generic rows of a games table as :class:`Part` objects, column by column."""
        t = Table(g)
        metrics = metric_columns(g, columns)
        by_strategy = [c.name for c in columns if c.kind == "metric" and (c.part or c.by_strategy)]
        core = [m for m in metrics if m in CORE or m in by_strategy]
        treated = ["treated"] if "treated" in g else []
        fam = Family(t, ["seat", "strategy", *treated], metrics)
        parts = [
            fam.part("all", [], metrics),
            fam.part("seat", ["seat"], metrics),
            fam.part("strategy", ["strategy"], core),
            fam.part("seat_strategy", ["seat", "strategy"], list(CORE)),
            grouped(t, "score_hist", ["score"], None),
            grouped(t, "turns_hist", ["game_turns"], None, rows=t.floats("seat") == 0),
        ]
        if treated:
            parts.append(fam.part("treated", [], metrics, only=("treated", "1")))
            parts.append(fam.part("untreated", [], metrics, only=("treated", "0")))
        if ADJUSTED[0] in g:
            parts.append(grouped(t, "luck", ["seat"], list(ADJUSTED)))
        level = _game_level_part(t, columns)
        game_level = _game_level(g, columns) if level is None or self.pairs else None
        if level is None:
            level = moments(game_level, "game", [], _level_metrics(game_level))
        parts.append(level)
        parts.extend(self._pairs(g, game_level, columns))
        return parts

    def _games_pandas(self, g: pd.DataFrame, columns: tuple[Column, ...]) -> list[pd.DataFrame]:
        """:meth:`_games` with pandas' groupby (the twin)."""
        metrics = metric_columns(g, columns)
        by_strategy = [c.name for c in columns if c.kind == "metric" and (c.part or c.by_strategy)]
        core = [m for m in metrics if m in CORE or m in by_strategy]
        first = g[g["seat"] == 0]
        parts = [
            moments_pandas(g, "all", [], metrics),
            moments_pandas(g, "seat", ["seat"], metrics),
            moments_pandas(g, "strategy", ["strategy"], core),
            moments_pandas(g, "seat_strategy", ["seat", "strategy"], list(CORE)),
            counts_pandas(g, "score_hist", ["score"]),
            counts_pandas(first, "turns_hist", ["game_turns"]),
        ]
        if "treated" in g:
            parts.append(moments_pandas(g[g["treated"] == 1], "treated", [], metrics))
            parts.append(moments_pandas(g[g["treated"] == 0], "untreated", [], metrics))
        if ADJUSTED[0] in g:
            parts.append(moments_pandas(g, "luck", ["seat"], list(ADJUSTED)))
        game_level = _game_level(g, columns)
        parts.append(moments_pandas(game_level, "game", [], _level_metrics(game_level)))
        parts.extend(self._pairs(g, game_level, columns))
        return parts

    def _pairs(self, g: pd.DataFrame, game_level, columns: tuple[Column, ...]) -> list:
        """The ``paired`` rows of every comparison (none without pairs)."""
        parts = []
        parts_cols = [c.name for c in columns if c.part and c.name in g]
        uptake = [c for c in self.uptake if c in g]
        extra = [c for c in self.paired_metrics if c in g and c not in ("win", "score")]
        for a, b in self.pairs:
            parts.extend(_paired(g, game_level, a, b, parts_cols, extra))
            if "treated" in g:
                arm = a if self.uptake_arm == "a" else b
                parts.extend(_paired_treated(g, a, b, parts_cols, uptake, arm))
        return parts


def _level_metrics(game_level: pd.DataFrame) -> list[str]:
    """The metrics of :func:`_game_level`'s table (every column but its keys)."""
    return [c for c in game_level if c not in ("cell", "game")]


def assemble(parts) -> pd.DataFrame:
    """One batch's partial from its parts (:class:`Part` objects or partial
    DataFrames): the partial :func:`combine` gives, sorted by index, but built once
    from arrays. Parts whose rows repeat a key are summed by :func:`combine`."""
    parts = [p if isinstance(p, Part) else Part.from_frame(p) for p in parts if p is not None]
    parts = [p for p in parts if len(p)]
    if not parts:
        return empty_partial()
    cols = {f: np.concatenate([getattr(p, f) for p in parts]) for f in ("cell", *_TEXT, *MOMENTS)}
    levels, codes = [], []
    for name in ("cell", *_TEXT):
        uniq, inv = _unique(cols[name])
        levels.append(_level(uniq))
        codes.append(inv)
    order = np.lexsort(codes[::-1])
    codes = [c[order] for c in codes]
    same = np.ones(len(order) - 1, bool)
    for c in codes:
        same &= c[1:] == c[:-1]
    if same.any():
        return combine(p.frame() for p in parts)
    idx = pd.MultiIndex(levels=levels, codes=codes, names=INDEX, verify_integrity=False)
    # as groupby's sum: a NaN sum (inf - inf) is 0, and a sum is never -0.0
    values = {
        m: np.nan_to_num(cols[m][order], nan=0.0, posinf=np.inf, neginf=-np.inf) + 0.0
        for m in MOMENTS
    }
    return pd.DataFrame(values, index=idx)


def _unique(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` (the inverse flat), texts through a
    dict: numpy sorts every row of an object array with Python's comparisons,
    this only the distinct texts (a batch's partial has a few hundred rows, a few
    dozen distinct texts)."""
    items = values.tolist() if values.dtype == object else None
    if items is None or not set(map(type, items)) <= {str}:
        uniq, inv = np.unique(values, return_inverse=True)
        return uniq, inv.reshape(-1)
    distinct = sorted(set(items))
    at = {v: i for i, v in enumerate(distinct)}
    return np.array(distinct, dtype=object), np.array([at[v] for v in items], np.int64)


_TEXT = ("group", "key", "metric")
#: the index levels made so far, by their values (an Index is immutable: batches
#: share it, instead of converting the same texts to pandas' strings again)
_LEVELS: dict[tuple, pd.Index] = {}


def _level(values: np.ndarray) -> pd.Index:
    """``pd.Index(values)`` (sorted distinct values of a partial's index level)."""
    items = values.tolist()
    if values.dtype == object and not set(map(type, items)) <= {str}:
        return pd.Index(values)  # (1, 1.0 and True are one dict key)
    key = (values.dtype.str, *items)
    level = _LEVELS.get(key)
    if level is None:
        if len(_LEVELS) > 256:  # a bound on the memory it keeps
            _LEVELS.clear()
        level = _LEVELS[key] = pd.Index(values)
    return level


def _paired(
    g: pd.DataFrame,
    game_level: pd.DataFrame,
    a: int,
    b: int,
    parts: list[str],
    extra: list[str] = (),
) -> list[pd.DataFrame]:
    """Moments of the paired differences ``b - a`` (same game index, same seat):
    win and score seat by seat and over all seats, the score ``parts`` over all
    seats, the ``extra`` metrics both ways, and the game-level columns per game."""
    by_seat = ["win", "score", *extra]
    seat_cols = [*dict.fromkeys(["win", "score", *parts, *extra])]
    ga = g[g["cell"] == a].set_index(["game", "seat"])[seat_cols]
    gb = g[g["cell"] == b].set_index(["game", "seat"])[seat_cols]
    da = ga.add_suffix("_a").join(gb.add_suffix("_b"), how="inner")
    out = []
    if len(da):
        diff = pd.DataFrame(
            {c: da[f"{c}_b"].astype("float64") - da[f"{c}_a"].astype("float64") for c in seat_cols}
        )
        diff["cell"] = b
        diff["key"] = "seat=" + diff.index.get_level_values("seat").astype(str)
        out.append(moments(diff.reset_index(drop=True), "paired", ["key"], by_seat))
        diff["key"] = "all seats"
        out.append(moments(diff.reset_index(drop=True), "paired", ["key"], seat_cols))
    la = game_level[game_level["cell"] == a].set_index("game").drop(columns="cell")
    lb = game_level[game_level["cell"] == b].set_index("game").drop(columns="cell")
    both = la.add_suffix("_a").join(lb.add_suffix("_b"), how="inner")
    if len(both):
        cols = list(la.columns)
        diff = pd.DataFrame({c: both[f"{c}_b"] - both[f"{c}_a"] for c in cols})
        diff["cell"] = b
        diff["key"] = "game"
        out.append(moments(diff.reset_index(drop=True), "paired", ["key"], cols))
    return out


#: per-game metrics every game has (:func:`_game_level`), besides its ``game_mean`` columns
GAME_METRICS = ("game_turns", "mean_score", "shared_win")


def metric_scopes(columns) -> dict[str, str]:
    """Every metric a comparison can report, with its scope: ``"seat"`` (one value
    per seat of a game: ``win``, ``score`` and the game's declared metrics) or
    ``"game"`` (one value per game: length, mean score, shared wins and the
    game's ``game_mean`` columns). ``columns``: the run's declared columns
    (:class:`~analyzer.games.Column` or their manifest dicts)."""
    out = {"win": "seat", "score": "seat"}
    out.update(dict.fromkeys(GAME_METRICS, "game"))
    for c in columns or ():
        d = c if isinstance(c, dict) else c.as_dict()
        if d.get("kind", "metric") == "metric":
            out.setdefault(d["name"], "seat")
        if d.get("game_mean"):
            out[d["game_mean"]] = "game"
    return out


def paired_metrics(info: dict) -> tuple[str, ...]:
    """The per-seat metrics a run's ``variant_effect`` questions ask for besides win
    and score (:attr:`Reducer.paired_metrics`): read from its manifest."""
    scopes = metric_scopes(run_columns(info))
    asked = []
    for q in (info.get("scenario") or {}).get("questions") or []:
        m = (q.get("params") or {}).get("metric")
        if q.get("id") == "variant_effect" and m not in (None, "win", "score"):
            if scopes.get(m) == "seat" and m not in asked:
                asked.append(m)
    return tuple(asked)


def _paired_treated(
    g: pd.DataFrame, a: int, b: int, parts: list[str], uptake: list[str], arm: int
) -> list[pd.DataFrame]:
    """Moments of ``b - a`` over the seats an intervention applies to (``treated``)
    and over the others, with the treated seats' uptake in cell ``arm``."""
    seat_cols = ["win", "score", *parts]
    cols = [*seat_cols, "treated", *uptake]
    ga = g[g["cell"] == a].set_index(["game", "seat"])[cols]
    gb = g[g["cell"] == b].set_index(["game", "seat"])[cols]
    both = ga.add_suffix("_a").join(gb.add_suffix("_b"), how="inner")
    if not len(both):
        return []
    diff = pd.DataFrame(
        {c: both[f"{c}_b"].astype("float64") - both[f"{c}_a"].astype("float64") for c in seat_cols}
    )
    diff["cell"] = b
    treated = both["treated_b"].to_numpy() == 1
    out = []
    for key, mask in (("treated seats", treated), ("other seats", ~treated)):
        sub = diff[mask].reset_index(drop=True)
        if not len(sub):
            continue
        metrics = list(seat_cols)
        if key == "treated seats" and uptake:
            suffix = "_a" if arm == a else "_b"
            used = both.loc[mask, [f"{c}{suffix}" for c in uptake]].sum(axis=1).clip(upper=1)
            sub["uptake"] = used.to_numpy(np.float64)
            sub["win_x_uptake"] = sub["win"] * sub["uptake"]
            sub["score_x_uptake"] = sub["score"] * sub["uptake"]
            metrics += ["uptake", "win_x_uptake", "score_x_uptake"]
        sub["key"] = key
        out.append(moments(sub, "paired", ["key"], metrics))
    return out


def per_use(n: float, sum_d: float, sumsq_d: float, sum_u: float, sumsq_u: float, sum_du: float):
    """``(ratio, low, high)``: the paired difference per use, ``sum d / sum u`` (the
    effect on the seats that used what the intervention forbids, if the effect
    comes only through that use), with a 95% delta-method interval from the
    moments of ``d`` (the paired difference), ``u`` (uptake, 0/1) and ``d*u``."""
    if n < 2 or sum_u <= 0:
        return np.nan, np.nan, np.nan
    mean_d, mean_u = sum_d / n, sum_u / n
    r = sum_d / sum_u
    var_d = max((sumsq_d - n * mean_d**2) / (n - 1), 0.0)
    var_u = max((sumsq_u - n * mean_u**2) / (n - 1), 0.0)
    cov = (sum_du - n * mean_d * mean_u) / (n - 1)
    var_r = max(var_d - 2 * r * cov + r * r * var_u, 0.0) / (n * mean_u**2)
    half = z_value(0.95) * np.sqrt(var_r)
    return r, r - half, r + half


# --------------------------------------------------------------------------- estimates


def _plain_partial(agg: pd.DataFrame) -> bool:
    """Whether ``agg`` is a partial as this module builds it (a MultiIndex of
    :data:`INDEX`, the columns :data:`MOMENTS` as numpy arrays), whose rows
    :func:`group_rows` and :func:`group_lists` read from the index's codes; any
    other frame goes through pandas (:func:`group_rows_pandas`)."""
    return not (
        agg.empty
        or not isinstance(agg.index, pd.MultiIndex)
        or list(agg.index.names) != INDEX
        or list(agg.columns) != MOMENTS
        or not all(isinstance(t, np.dtype) for t in agg.dtypes)
    )


def _group_at(agg: pd.DataFrame, group: str) -> np.ndarray | None:
    """The positions of ``group``'s rows in ``agg`` read from its index's codes (an
    empty array: no such group), or None where pandas must answer (not a
    :func:`_plain_partial`, a level value no row uses, a missing key)."""
    if not _plain_partial(agg):
        return None
    idx = agg.index
    try:
        at = idx.levels[1].get_loc(group)
    except KeyError:  # no such group (pandas' xs raises it too)
        return np.empty(0, np.intp)
    except TypeError:
        return None
    if not isinstance(at, int | np.integer):
        return None
    rows = np.flatnonzero(idx.codes[1] == at)
    if not len(rows) or any(idx.codes[j][rows].min() < 0 for j in (0, 2, 3)):
        return None  # (a level value no row uses, a missing key: pandas' own way)
    return rows


def group_rows(agg: pd.DataFrame, group: str) -> pd.DataFrame:
    """Rows of one group as columns ``cell, key, metric, n, sum, sumsq``: those of
    :func:`group_rows_pandas`, read from the index's codes (a report, a summary and
    the runner's headline ask for a group a dozen times: pandas' ``xs`` and
    ``reset_index`` cost about 0.3 ms each time)."""
    rows = _group_at(agg, group)
    if rows is None:
        return group_rows_pandas(agg, group)
    if not len(rows):
        return pd.DataFrame(columns=["cell", "key", "metric", *MOMENTS])
    idx = agg.index
    cols = {
        name: idx.levels[j].take(idx.codes[j][rows])
        for j, name in ((0, "cell"), (2, "key"), (3, "metric"))
    }
    arrays = column_arrays(agg)
    cols.update((m, arrays[m][rows]) for m in MOMENTS)
    return pd.DataFrame(cols, copy=False)


def group_lists(agg: pd.DataFrame, group: str) -> dict[str, list]:
    """:func:`group_rows` as plain lists by column (``cell, key, metric, n, sum,
    sumsq``), for callers that read a few values (the summary, the runner's
    headline): the same rows, without building a frame of pandas strings."""
    rows = _group_at(agg, group)
    if rows is None:
        frame = group_rows_pandas(agg, group)
        return {c: frame[c].tolist() for c in ["cell", "key", "metric", *MOMENTS]}
    idx = agg.index
    out = {
        name: np.asarray(idx.levels[j].tolist(), dtype=object)[idx.codes[j][rows]].tolist()
        for j, name in ((0, "cell"), (2, "key"), (3, "metric"))
    }
    arrays = column_arrays(agg)
    out.update((m, arrays[m][rows].tolist()) for m in MOMENTS)
    return out


def group_rows_pandas(agg: pd.DataFrame, group: str) -> pd.DataFrame:
    """:func:`group_rows` with pandas' ``xs`` (the twin the tests compare it with)."""
    if agg.empty:
        return pd.DataFrame(columns=["cell", "key", "metric", *MOMENTS])
    try:
        sub = agg.xs(group, level="group")
    except KeyError:
        return pd.DataFrame(columns=["cell", "key", "metric", *MOMENTS])
    return sub.reset_index()


def mean_ci_arrays(n, s, ss, level: float = 0.95):
    """Vectorised :func:`analyzer.core.stats.mean_ci_from_moments`: ``(mean, low, high)`` arrays."""
    n = np.asarray(n, float)
    s = np.asarray(s, float)
    ss = np.asarray(ss, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.where(n > 0, s / n, np.nan)
        var = np.where(n > 1, np.maximum((ss - n * m * m) / (n - 1), 0.0), np.nan)
        half = z_value(level) * np.sqrt(var / n)
    return m, m - half, m + half


def pivot(sub: pd.DataFrame, metric: str) -> pd.DataFrame:
    return sub[sub["metric"] == metric].set_index(["cell", "key"])[MOMENTS]


def rate(prefix: str, succ, n) -> dict:
    lo, hi = wilson(np.asarray(succ, float), np.asarray(n, float))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(
            np.asarray(n, float) > 0, np.asarray(succ, float) / np.asarray(n, float), np.nan
        )
    return {prefix: p, f"{prefix}_low": np.atleast_1d(lo), f"{prefix}_high": np.atleast_1d(hi)}


def mean_ci(prefix: str, mom: pd.DataFrame) -> dict:
    m, lo, hi = mean_ci_arrays(mom["n"], mom["sum"], mom["sumsq"])
    return {prefix: m, f"{prefix}_low": lo, f"{prefix}_high": hi}


def frame(index: pd.Index, cols: dict, names=("cell", "key")) -> pd.DataFrame:
    df = pd.DataFrame(cols, index=index).reset_index()
    df.columns = [*names, *cols.keys()]
    return df


def _numeric_key(df: pd.DataFrame, col: str = "key") -> pd.DataFrame:
    df[col] = pd.to_numeric(df[col])
    return df


def _add_labels(df: pd.DataFrame, info: dict) -> pd.DataFrame:
    cells = info.get("cells", [])
    labels = {c["index"]: c["label"] for c in cells}
    players = {c["index"]: c["players"] for c in cells}
    df.insert(1, "label", df["cell"].map(labels).fillna(df["cell"].astype(str)))
    if "players" not in df:
        df.insert(2, "players", df["cell"].map(players))
    return df


def _adjusted_seat0(luck: pd.DataFrame, win: pd.DataFrame) -> pd.DataFrame:
    """The first seat's luck-adjusted win rate per cell: mean of ``win - luck_win``
    with a normal 95% interval (adjusted wins leave [0, 1]) and ``var_ratio``, its
    variance over the plain win's (the games needed for the same interval)."""
    adj = pivot(luck, "win_adj")
    adj = adj[adj.index.get_level_values("key") == "0"]
    plain = win[win.index.get_level_values("key") == "0"].reindex(adj.index)
    m, lo, hi = mean_ci_arrays(adj["n"], adj["sum"], adj["sumsq"])

    def var(mom):
        n, s, ss = (mom[c].to_numpy(float) for c in MOMENTS)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (ss - s * s / n) / (n - 1)

    return pd.DataFrame(
        {
            "cell": adj.index.get_level_values("cell").astype(int),
            "seat0_win_adj": m,
            "seat0_win_adj_low": lo,
            "seat0_win_adj_high": hi,
            "var_ratio": var(adj) / var(plain),
        }
    )


def run_columns(info: dict) -> tuple[Column, ...]:
    """The declared columns of a run: ``info["columns"]`` (as written by
    :func:`analyzer.scenario.run_scenario`), else the game's default ones."""
    cols = info.get("columns")
    if cols is None:
        return _game_columns(info.get("game", DEFAULT_GAME))
    return tuple(Column.from_dict(c) for c in cols if c.get("kind") != "core")


def build_tables(agg: pd.DataFrame, info: dict) -> dict[str, pd.DataFrame]:
    """All report tables from summed partials: the generic ones, then the game's.

    ``info`` describes the run: ``game`` (registry name), ``columns`` (declared
    columns, see :func:`run_columns`), ``cells`` (list of ``{"index", "label",
    "params", "players"}``), ``pairs`` (list of ``[a, b]``), ``labels`` (id ->
    display name) and whatever the game's :meth:`~analyzer.games.Game.info`
    added. Returns ``{table name: DataFrame}``; tables with no data are left out.
    Every rate has ``_low``/``_high`` (Wilson 95%), every mean likewise (normal 95%).
    """
    out: dict[str, pd.DataFrame] = {}
    allg = group_rows(agg, "all")
    if len(allg):
        out.update(_balance_tables(agg, info))
    out.update(load_game(info.get("game", DEFAULT_GAME)).report_tables(agg, info))
    if info.get("sweep") and "seats" in out:
        out["sweep"] = _sweep_table(agg, info)
    if info.get("pairs"):
        comp = _comparison_table(agg, info)
        if len(comp):
            out["comparison"] = comp
    for name, df in list(out.items()):
        out[name] = _add_labels(df, info).reset_index(drop=True)
    return out


def _balance_tables(agg: pd.DataFrame, info: dict) -> dict[str, pd.DataFrame]:
    out = {}
    part_names = {c.name for c in run_columns(info) if c.part}
    players = {c["index"]: c["players"] for c in info.get("cells", [])}
    seat = group_rows(agg, "seat")
    win, score = pivot(seat, "win"), pivot(seat, "score")
    t = frame(
        win.index,
        {
            "n": win["n"].to_numpy(),
            **rate("win_rate", win["sum"], win["n"]),
            **mean_ci("score", score),
        },
        names=("cell", "seat"),
    )
    t = _numeric_key(t, "seat").sort_values(["cell", "seat"])
    t.insert(2, "players", t["cell"].map(players))
    t["fair"] = 1.0 / t["players"]
    out["seats"] = t

    fp = t[t["seat"] == 0].copy()
    fp = fp.rename(
        columns={
            "n": "games",
            "win_rate": "seat0_win",
            "win_rate_low": "seat0_win_low",
            "win_rate_high": "seat0_win_high",
        }
    )
    fp = fp[["cell", "players", "games", "seat0_win", "seat0_win_low", "seat0_win_high", "fair"]]
    fp["advantage"] = fp["seat0_win"] - fp["fair"]
    fp["significant"] = (fp["fair"] < fp["seat0_win_low"]) | (fp["fair"] > fp["seat0_win_high"])
    luck = group_rows(agg, "luck")
    if len(luck):
        fp = fp.merge(_adjusted_seat0(luck, pivot(seat, "win")), on="cell", how="left")
    out["first_player"] = fp

    strat = group_rows(agg, "strategy")
    win, score = pivot(strat, "win"), pivot(strat, "score")
    out["strategies"] = frame(
        win.index,
        {
            "n": win["n"].to_numpy(),
            **rate("win_rate", win["sum"], win["n"]),
            **mean_ci("score", score),
        },
        names=("cell", "strategy"),
    )
    ss = group_rows(agg, "seat_strategy")
    win, score = pivot(ss, "win"), pivot(ss, "score")
    t = frame(
        win.index,
        {
            "n": win["n"].to_numpy(),
            **rate("win_rate", win["sum"], win["n"]),
            **mean_ci("score", score),
        },
    )
    parts = t["key"].str.split("|", n=1, expand=True)
    t.insert(1, "seat", pd.to_numeric(parts[0]))
    t.insert(2, "strategy", parts[1])
    out["seat_strategy"] = t.drop(columns="key").sort_values(["cell", "seat", "strategy"])

    allg = group_rows(agg, "all").set_index(["cell", "metric"])[MOMENTS]
    rows = []
    for (cell, metric), mom in allg.iterrows():
        if mom["n"] == 0:  # a column some cells do not have (a rule's own part)
            continue
        if metric == "score" or metric in part_names:
            m, lo, hi = mean_ci_arrays([mom["n"]], [mom["sum"]], [mom["sumsq"]])
            rows.append((cell, metric, mom["n"], m[0], lo[0], hi[0]))
    out["score_parts"] = pd.DataFrame(
        rows, columns=["cell", "part", "n", "mean", "mean_low", "mean_high"]
    )

    hist = group_rows(agg, "score_hist")
    h = _numeric_key(hist[["cell", "key", "n"]].rename(columns={"n": "count"}).copy())
    h = h.rename(columns={"key": "score"}).sort_values(["cell", "score"])
    h["share"] = h["count"] / h.groupby("cell")["count"].transform("sum")
    out["score_distribution"] = h

    hist = group_rows(agg, "turns_hist")
    h = _numeric_key(hist[["cell", "key", "n"]].rename(columns={"n": "games"}).copy())
    h = h.rename(columns={"key": "game_turns"}).sort_values(["cell", "game_turns"])
    h["share"] = h["games"] / h.groupby("cell")["games"].transform("sum")
    out["game_length"] = h

    game = group_rows(agg, "game")
    if len(game):
        gm = game.set_index(["cell", "metric"])[MOMENTS]
        rows = []
        for (cell, metric), mom in gm.iterrows():
            if metric == "shared_win":
                lo, hi = wilson(mom["sum"], mom["n"])
                est = mom["sum"] / mom["n"]
            else:
                m, lo_, hi_ = mean_ci_arrays([mom["n"]], [mom["sum"]], [mom["sumsq"]])
                est, lo, hi = m[0], lo_[0], hi_[0]
            rows.append((cell, metric, mom["n"], est, lo, hi))
        out["games_summary"] = pd.DataFrame(
            rows, columns=["cell", "metric", "games", "estimate", "low", "high"]
        )

    return out


def _sweep_table(agg: pd.DataFrame, info: dict) -> pd.DataFrame:
    """Long table: each cell's parameter values and headline metrics with intervals."""
    rows = []
    swept = {c.name for c in run_columns(info) if c.kind == "metric" and (c.part or c.sweep)}
    cells = {c["index"]: c for c in info.get("cells", [])}
    seat = group_rows(agg, "seat")
    allg = group_rows(agg, "all").set_index(["cell", "metric"])
    game = (
        group_rows(agg, "game").set_index(["cell", "metric"])
        if len(group_rows(agg, "game"))
        else None
    )
    for idx, cell in cells.items():
        base = {f"param:{k}": _fmt(v) for k, v in cell["params"].items()}
        sub = seat[(seat["cell"] == idx) & (seat["metric"] == "win")]
        for _, r in sub.iterrows():
            lo, hi = wilson(r["sum"], r["n"])
            rows.append(
                {
                    "cell": idx,
                    **base,
                    "metric": f"win rate seat {r['key']}",
                    "estimate": r["sum"] / r["n"],
                    "low": lo,
                    "high": hi,
                    "n": r["n"],
                }
            )
        for metric in [
            "score",
            *sorted(m for m in allg.index.get_level_values(1).unique() if m in swept),
        ]:
            if (idx, metric) in allg.index:
                r = allg.loc[(idx, metric)]
                m, lo, hi = mean_ci_arrays([r["n"]], [r["sum"]], [r["sumsq"]])
                rows.append(
                    {
                        "cell": idx,
                        **base,
                        "metric": f"mean {metric}",
                        "estimate": m[0],
                        "low": lo[0],
                        "high": hi[0],
                        "n": r["n"],
                    }
                )
        if game is not None:
            for metric in ("game_turns", "shared_win"):
                if (idx, metric) in game.index:
                    r = game.loc[(idx, metric)]
                    if metric == "shared_win":
                        lo, hi = wilson(r["sum"], r["n"])
                        est = r["sum"] / r["n"]
                        name = "shared-win rate"
                    else:
                        m, lo_, hi_ = mean_ci_arrays([r["n"]], [r["sum"]], [r["sumsq"]])
                        est, lo, hi = m[0], lo_[0], hi_[0]
                        name = "mean game_turns"
                    rows.append(
                        {
                            "cell": idx,
                            **base,
                            "metric": name,
                            "estimate": est,
                            "low": lo,
                            "high": hi,
                            "n": r["n"],
                        }
                    )
    return pd.DataFrame(rows)


def _comparison_table(agg: pd.DataFrame, info: dict) -> pd.DataFrame:
    """Paired differences ``b - a`` with 95% intervals; ``significant`` when 0 is outside."""
    paired = group_rows(agg, "paired")
    rows = []
    seat = group_rows(agg, "seat")
    allg = group_rows(agg, "all")
    game = group_rows(agg, "game")
    treated = group_rows(agg, "treated")
    untreated = group_rows(agg, "untreated")
    for a, b in info.get("pairs", []):
        sub = paired[paired["cell"] == b]
        for _, r in sub.iterrows():
            key, metric = r["key"], r["metric"]
            if metric in PER_USE_PARTS or r["n"] == 0:  # n 0: a column one cell lacks
                continue
            m, lo, hi = mean_ci_arrays([r["n"]], [r["sum"]], [r["sumsq"]])
            if key.startswith("seat="):
                src, k = seat, key[len("seat=") :]
            elif key == "game":
                src, k = game, ""
            elif key == "treated seats":
                src, k = treated, ""
            elif key == "other seats":
                src, k = untreated, ""
            else:
                src, k = allg, ""

            def mean_of(cell, src=src, k=k, metric=metric):
                if src is None:
                    return np.nan
                x = src[(src["cell"] == cell) & (src["key"] == k) & (src["metric"] == metric)]
                return float(x["sum"].iloc[0] / x["n"].iloc[0]) if len(x) else np.nan

            rows.append(
                {
                    "cell": b,
                    "cell_a": a,
                    "scope": key,
                    "metric": metric,
                    "pairs": r["n"],
                    "mean_a": mean_of(a),
                    "mean_b": mean_of(b),
                    "diff": m[0],
                    "diff_low": lo[0],
                    "diff_high": hi[0],
                    "significant": bool(lo[0] > 0 or hi[0] < 0),
                }
            )
        rows += _per_use_rows(sub, a, b)
    return pd.DataFrame(rows)


#: paired-moment metrics kept only to work out the per-use ratio
PER_USE_PARTS = ("uptake", "win_x_uptake", "score_x_uptake")


def _per_use_rows(sub: pd.DataFrame, a: int, b: int) -> list[dict]:
    """Rows ``win per use`` and ``score per use`` of the treated seats (see
    :func:`per_use`), and ``uptake``, the share of treated seat-games that used
    what is forbidden where it is allowed (its mean in the ``mean_a``/``mean_b``
    column of that variant)."""
    t = sub[sub["key"] == "treated seats"].set_index("metric")
    if "uptake" not in t.index:
        return []
    u = t.loc["uptake"]
    n = float(u["n"])
    rows = []
    for metric in ("win", "score"):
        d, du = t.loc[metric], t.loc[f"{metric}_x_uptake"]
        r, lo, hi = per_use(n, d["sum"], d["sumsq"], u["sum"], u["sumsq"], du["sum"])
        rows.append(
            {
                "cell": b,
                "cell_a": a,
                "scope": "treated seats",
                "metric": f"{metric} per use",
                "pairs": n,
                "mean_a": np.nan,
                "mean_b": np.nan,
                "diff": r,
                "diff_low": lo,
                "diff_high": hi,
                "significant": bool(lo > 0 or hi < 0),
                "uptake": float(u["sum"]) / n if n else np.nan,
            }
        )
    return rows


def _fmt(v) -> str:
    if isinstance(v, list | tuple):
        return "[" + ",".join(str(x) for x in v) + "]"
    return str(v)


def _seat_wins(agg: pd.DataFrame) -> list[tuple[str, float, float]]:
    """``(seat, wins, n)`` of each seat row of cell 0's win rate, in the
    aggregate's order (:func:`_seat_win` without a frame)."""
    rows = group_lists(agg, "seat")
    return [
        (key, s, n)
        for cell, key, metric, n, s in zip(
            rows["cell"], rows["key"], rows["metric"], rows["n"], rows["sum"], strict=True
        )
        if cell == 0 and metric == "win"
    ]


def _seat_win(agg: pd.DataFrame, seat: str | None):
    """``(label, successes, n)`` of each seat of cell 0 (or only ``seat``)."""
    rows = group_rows(agg, "seat")
    rows = rows[(rows["cell"] == 0) & (rows["metric"] == "win")]
    if seat is not None:
        rows = rows[rows["key"] == seat]
    return rows


def _headline(label: str, s: float, n: float):
    from analyzer.core.stats import Headline

    lo, hi = wilson(s, n)
    return Headline(
        label=label,
        value=s / n if n else float("nan"),
        low=float(lo),
        high=float(hi),
        half_width=float((hi - lo) / 2),
    )


def _adjusted_headline(agg: pd.DataFrame, seat: str, label: str, rows=None):
    """Seat ``seat``'s luck-adjusted win rate in cell 0 (normal 95% interval), or
    None without luck columns in the run. ``rows``: ``group_rows(agg, "luck")``
    if the caller has it."""
    from analyzer.core.stats import Headline

    rows = group_rows(agg, "luck") if rows is None else rows
    if rows.empty:
        return None
    r = rows[(rows["cell"] == 0) & (rows["metric"] == "win_adj") & (rows["key"] == seat)]
    if r.empty or float(r["n"].sum()) < 2:
        return None
    m, lo, hi = mean_ci_arrays(r["n"].sum(), r["sum"].sum(), r["sumsq"].sum())
    return Headline(
        label=f"{label} (luck-adjusted)",
        value=float(m),
        low=float(lo),
        high=float(hi),
        half_width=float((hi - lo) / 2),
    )


def first_player_headline(agg: pd.DataFrame):
    """The runner's precision headline: seat 0's win rate in cell 0, luck-adjusted
    with a normal 95% interval when the run has luck terms, else 95% Wilson."""
    adj = _adjusted_headline(agg, "0", "first-player win rate")
    if adj is not None:
        return adj
    r = _seat_win(agg, "0")
    return _headline("first-player win rate", float(r["sum"].sum()), float(r["n"].sum()))


def widest_seat_headline(agg: pd.DataFrame):
    """The seat win rate of cell 0 with the widest 95% interval (ties: lowest
    seat; luck-adjusted as :func:`first_player_headline`): when it is precise
    enough, every seat's win rate is."""
    rows = _seat_wins(agg)
    if not rows:
        return _headline("win rate", 0.0, 0.0)
    luck = group_rows(agg, "luck")  # once, not once per seat
    best = None
    for key, wins, n in sorted(rows, key=lambda r: int(r[0])):
        label = f"seat {key} win rate"
        h = _adjusted_headline(agg, str(key), label, luck)
        if h is None:
            h = _headline(label, float(wins), float(n))
        if best is None or h.half_width > best.half_width:
            best = h
    return best


def headline(info: dict):
    """Headline function for a scenario run (kept for callers of earlier versions):
    :func:`first_player_headline`."""
    return first_player_headline
