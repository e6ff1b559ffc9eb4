"""The hand-written groupby: a batch table's group moments, to the bits pandas gives.

pandas' ``groupby(...).sum()`` over a batch of games costs more than the games
of a fast player (``benchmarks/bench_reducer.py``): it sorts the keys as
objects, builds a frame per group and sums each column on its own. Here a
table is read once as numpy (:class:`Table`: every numeric column as float64
in one matrix, each key column coded once, :func:`key_codes`), and the group
sums come from the kernels of :mod:`analyzer.kernels.groupsum`, which sum in
the order and with the compensation pandas uses, so every partial row is the
one pandas would give, bit for bit (:func:`grouped`, :func:`stacked`,
:func:`flag_blocks`, :func:`blockwise`, :class:`Family`). Inputs the codes do
not take (text keys, missing keys or values) go to pandas itself
(:func:`moments_by_pandas`). The plain pandas twins the tests compare all of
this with are in ``tests/pandas_twins.py``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.core.frames import column_arrays, scratch
from analyzer.tables.partial import INDEX, Part, empty_partial


def moments(df: pd.DataFrame, group: str, keys: list[str], metrics: list[str]) -> pd.DataFrame:
    """Partial rows of ``group``: moments of ``metrics`` by cell and ``keys``.

    Rows are sorted by cell and keys (numbers in numeric order, categories as
    text), then in the order of ``metrics``; ``key`` joins the keys' values as text
    with ``|`` (empty without keys). The sums are those pandas' groupby gives, bit
    for bit (:func:`grouped`; the plain twin the tests compare it with is
    ``tests/pandas_twins.py``'s ``moments_pandas``)."""
    if df.empty or not metrics:
        return empty_partial()
    part = grouped(Table(df), group, keys, metrics)
    return part.frame() if len(part) else empty_partial()


def counts(df: pd.DataFrame, group: str, keys: list[str]) -> pd.DataFrame:
    """Histogram rows: ``n = sum = sumsq = count`` for each value of ``keys``."""
    if df.empty:
        return empty_partial()
    part = grouped(Table(df), group, keys, None)
    return part.frame() if len(part) else empty_partial()


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
            made = _texts_by_pandas(np.array(new, np.int64).view(np.float64)).tolist()
            if len(_FLOAT_TEXTS) > 1 << 16:  # a bound on the memory it keeps
                _FLOAT_TEXTS.clear()
            for b, t in zip(new, made, strict=True):
                text[b] = _FLOAT_TEXTS[b] = t
        return np.array([text[b] for b in bits], dtype=object)
    return _texts_by_pandas(values)


#: the text pandas gives each float64 value seen (by its bits: 0.0 and -0.0 differ)
_FLOAT_TEXTS: dict[int, str] = {}


def _texts_by_pandas(values: np.ndarray) -> np.ndarray:
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
        return _grouped_by_pandas(t, group, keys, metrics, rows)
    codes = [f[0] for f in found]
    if rows is not None:
        codes[0] = np.where(rows, codes[0], -1)
    source = None
    if metrics is not None:
        values, cols = t.values(metrics)
        if t.has_nan(metrics) and np.isnan(values[cols][:, codes[0] >= 0]).any():
            return _grouped_by_pandas(t, group, keys, metrics, rows)
        source = (values, cols, t.exact(metrics))
    return _summed(group, found, codes, metrics, source)


def stacked(t: Table, group: str, blocks: list, metrics: list[str]) -> Part:
    """The rows :func:`moments` gives for a table stacking blocks of ``t``'s rows,
    each with its own key: block ``(key, rows, sub)`` holds the rows ``rows``
    (indices, in order) with the key text ``key``, or ``key|<sub>`` with ``sub``
    (integers, one per row of the block; None in every block or in none). So a
    game sums "the seats that built wonder w" for every w without building
    that table (pandas' path: :func:`stacked_by_pandas`)."""
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
        return Part.from_frame(stacked_by_pandas(t.df, group, blocks, metrics))
    some, cols = t.values(metrics)
    values = some[cols][:, idx]
    if np.isnan(values).any():
        return Part.from_frame(stacked_by_pandas(t.df, group, blocks, metrics))
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


# --------------------------------------------------------------------------- pandas' own path
#
# What the codes above do not take (text keys, missing keys or values) pandas sums
# itself: its rules for missing values are the ones every partial follows.


def _grouped_by_pandas(t: Table, group, keys, metrics, rows) -> Part:
    """:func:`grouped` through :func:`moments_by_pandas` (keys it cannot code itself,
    missing values)."""
    df = t.df if rows is None else t.df[rows]
    if metrics is None:
        return Part.from_frame(counts_by_pandas(df, group, keys))
    return Part.from_frame(moments_by_pandas(df, group, keys, list(metrics)))


def moments_by_pandas(
    df: pd.DataFrame, group: str, keys: list[str], metrics: list[str]
) -> pd.DataFrame:
    """:func:`moments` with pandas' groupby: what :func:`grouped` does for key
    columns it does not code (text, objects, a categorical with missing values)
    and for missing values, where pandas' own rules (a missing key left out of
    every group, a missing value out of its sums) decide."""
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


def counts_by_pandas(df: pd.DataFrame, group: str, keys: list[str]) -> pd.DataFrame:
    """:func:`counts` with pandas' groupby (:func:`moments_by_pandas` of a column of ones)."""
    if df.empty:
        return empty_partial()
    one = df[["cell", *keys]].assign(count=1.0)
    return moments_by_pandas(one, group, keys, ["count"])


def stacked_by_pandas(df: pd.DataFrame, group: str, blocks: list, metrics: list[str]):
    """:func:`stacked` with pandas, for the blocks :func:`stacked` does not take:
    the blocks concatenated, then :func:`moments_by_pandas`."""
    frames = []
    for key, rows, sub in blocks:
        part = df.iloc[np.asarray(rows, np.int64)][["cell", *metrics]].assign(key=key)
        frames.append(part if sub is None else part.assign(sub=np.asarray(sub, np.int64)))
    keys = ["key"] if blocks[0][2] is None else ["key", "sub"]
    return moments_by_pandas(pd.concat(frames, ignore_index=True), group, keys, metrics)
