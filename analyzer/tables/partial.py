"""The partial aggregate: the additive statistics one batch of games leaves.

A partial is a DataFrame indexed by ``(cell, group, key, metric)``
(:data:`INDEX`) with the float64 columns ``n``, ``sum``, ``sumsq``
(:data:`MOMENTS`): the count, sum and sum of squares of one metric over the
rows of one group. Partials are additive, so batches are summed with
:func:`combine` (or the runner's exact sum). Here: making one
(:class:`Part`, :func:`assemble`, :func:`empty_partial`), summing them, and
reading one group's rows back (:func:`group_rows`, :func:`group_lists`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.core.frames import column_arrays

INDEX = ["cell", "group", "key", "metric"]
MOMENTS = ["n", "sum", "sumsq"]


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


# --------------------------------------------------------------------------- reading a group


def _plain_partial(agg: pd.DataFrame) -> bool:
    """Whether ``agg`` is a partial as this module builds it (a MultiIndex of
    :data:`INDEX`, the columns :data:`MOMENTS` as numpy arrays), whose rows
    :func:`group_rows` and :func:`group_lists` read from the index's codes; any
    other frame goes through pandas (:func:`group_rows_by_pandas`)."""
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
    :func:`group_rows_by_pandas`, read from the index's codes (a report, a summary and
    the runner's headline ask for a group a dozen times: pandas' ``xs`` and
    ``reset_index`` cost about 0.3 ms each time)."""
    rows = _group_at(agg, group)
    if rows is None:
        return group_rows_by_pandas(agg, group)
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
        frame = group_rows_by_pandas(agg, group)
        return {c: frame[c].tolist() for c in ["cell", "key", "metric", *MOMENTS]}
    idx = agg.index
    out = {
        name: np.asarray(idx.levels[j].tolist(), dtype=object)[idx.codes[j][rows]].tolist()
        for j, name in ((0, "cell"), (2, "key"), (3, "metric"))
    }
    arrays = column_arrays(agg)
    out.update((m, arrays[m][rows].tolist()) for m in MOMENTS)
    return out


def group_rows_by_pandas(agg: pd.DataFrame, group: str) -> pd.DataFrame:
    """:func:`group_rows` with pandas' ``xs``, for a frame that is not a plain
    partial (:func:`_plain_partial`)."""
    if agg.empty:
        return pd.DataFrame(columns=["cell", "key", "metric", *MOMENTS])
    try:
        sub = agg.xs(group, level="group")
    except KeyError:
        return pd.DataFrame(columns=["cell", "key", "metric", *MOMENTS])
    return sub.reset_index()
