"""The exact sum of partial aggregates, whatever the order and split of the batches.

Game-agnostic. The runner (:func:`analyzer.runs.runner.run`) adds each batch's
partial (a DataFrame of additive statistics indexed by group keys) in batch
order; :class:`_ExactSum` keeps integer columns as integers and float columns
exact (TwoSum residues, rounded once when read), so the total is bit-identical
whatever the number of workers, the completion order or the batch size.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd

from analyzer.core.errors import AnalyzerError

#: exact residues are kept as integers in units of the smallest subnormal double
_ULP_SCALE = 1074


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(s, e)`` with ``s = fl(a + b)`` and ``a + b = s + e`` exactly (Knuth's TwoSum)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def _scaled(x: float) -> int:
    """``x`` as an exact integer multiple of ``2**-1074``."""
    num, den = float(x).as_integer_ratio()
    return num << (_ULP_SCALE - (den.bit_length() - 1))


def _keys(index: pd.Index) -> list:
    """``index.tolist()`` (a MultiIndex's keys as tuples), for a MultiIndex without
    missing values built from its levels and codes: pandas would first build every
    key of the index as an object array (about 0.15 ms for a batch's partial)."""
    if not isinstance(index, pd.MultiIndex) or not all(len(lev) for lev in index.levels):
        return index.tolist()
    cols = [
        np.asarray(level.tolist(), dtype=object).take(codes)
        for level, codes in zip(index.levels, index.codes, strict=True)
    ]
    return list(zip(*cols, strict=True))


def _has_missing(index: pd.Index) -> bool:
    """Does any key of ``index`` hold a missing value?"""
    if isinstance(index, pd.MultiIndex):
        return any(bool((c < 0).any()) for c in index.codes)
    return bool(index.hasnans)


class _ExactSum:
    """Sum of partial aggregates, independent of how the games were split.

    Integer (and bool) columns are summed as int64. Float columns are summed in
    float64 with TwoSum: the rounding error of every addition is exact and is
    kept as an integer residue (only for the cells where it is not zero), and
    :meth:`value` rounds ``sum + residue`` once. So ``(a + b) + c`` and
    ``a + (b + c)`` give the same bits, whatever the order of the partials.
    Rows are the union of the group keys seen, sorted when read.
    """

    def __init__(self) -> None:
        #: the keys' index in pieces (the first partial's, then each partial's new
        #: keys): appended once when read, not per batch (an append costs ms)
        self._pieces: list[pd.Index] = []
        self._size = 0  #: rows so far
        self._where: dict = {}  #: each key's row in ``_index``
        self._acc: dict[str, np.ndarray] = {}
        self._resid: dict[str, dict[int, int]] = {}

    @property
    def _index(self) -> pd.Index | None:
        """Every key seen, in the order first seen (None before the first partial)."""
        if not self._pieces:
            return None
        if len(self._pieces) > 1:
            self._pieces = [self._pieces[0].append(self._pieces[1:])]
        return self._pieces[0]

    def _extend(self, new: pd.Index) -> None:
        """Rows for the keys ``new`` (not seen before), after the others."""
        self._pieces.append(new)
        self._size += len(new)
        for col, acc in self._acc.items():
            self._acc[col] = np.concatenate([acc, np.zeros(len(new), acc.dtype)])

    def _grow(self, index: pd.Index) -> np.ndarray:
        """Add unseen keys of ``index``; return the positions of its rows."""
        if self._where is None or _has_missing(index):  # keys a dict cannot match (NaN)
            return self._grow_pandas(index)
        keys = _keys(index)
        if len(set(keys)) != len(keys):
            raise AnalyzerError("reducer: the partial aggregate has duplicate group keys")
        if not self._pieces:
            self._extend(index)
            self._where = {k: i for i, k in enumerate(keys)}
            return np.arange(len(keys), dtype=np.intp)
        where = self._where
        unseen = np.array([k not in where for k in keys], bool)
        if unseen.any():  # the new keys, in their order (``index.difference(sort=False)``)
            for k, fresh in zip(keys, unseen.tolist(), strict=True):
                if fresh:  # (the keys at hand: not new.tolist(), which builds them again)
                    where[k] = len(where)
            self._extend(index[unseen])
        return np.array([where[k] for k in keys], np.intp)

    def _grow_pandas(self, index: pd.Index) -> np.ndarray:
        """:meth:`_grow` by pandas' own index operations (keys with missing values)."""
        self._where = None
        if not index.is_unique:
            raise AnalyzerError("reducer: the partial aggregate has duplicate group keys")
        if self._index is None:
            self._extend(index)
        else:
            new = index.difference(self._index, sort=False)
            if len(new):
                self._extend(new)
        return self._index.get_indexer(index)

    def add(self, partial: pd.DataFrame) -> None:
        from analyzer.core.frames import column_arrays

        pos = self._grow(partial.index)
        n = self._size
        for col, array in column_arrays(partial).items():
            dtype = array.dtype
            if isinstance(dtype, np.dtype) and dtype.kind in "biuf":  # numpy's own: no Series
                kind = np.float64 if dtype.kind == "f" else np.int64
                values = array.astype(kind, copy=False)
            elif pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_integer_dtype(dtype):
                values = partial[col].to_numpy(dtype=np.int64)
                kind = np.int64
            elif pd.api.types.is_float_dtype(dtype):
                values = partial[col].to_numpy(dtype=np.float64)
                kind = np.float64
            else:
                raise AnalyzerError(
                    f"reducer: column {col!r} has dtype {dtype} (allowed: integer or float)"
                )
            acc = self._acc.get(col)
            if acc is None:
                acc = self._acc[col] = np.zeros(n, dtype=kind)
                self._resid[col] = {}
            if acc.dtype.kind == "i":
                if kind is np.float64:
                    raise AnalyzerError(f"reducer: column {col!r} changed from integer to float")
                acc[pos] += values
                continue
            s, e = _two_sum(acc[pos], values)
            acc[pos] = s
            resid = self._resid[col]
            for k in np.flatnonzero((e != 0) & np.isfinite(e)):
                p = int(pos[k])
                resid[p] = resid.get(p, 0) + _scaled(e[k])

    def value(self) -> pd.DataFrame:
        """The sum so far as a numeric DataFrame sorted by index (empty if nothing added)."""
        if not self._pieces:
            return pd.DataFrame()
        out = {}
        for col, acc in self._acc.items():
            values = acc.copy()
            for p, r in self._resid[col].items():
                if r and math.isfinite(values[p]):
                    values[p] = float(Fraction(values[p]) + Fraction(r, 1 << _ULP_SCALE))
            out[col] = values
        return pd.DataFrame(out, index=self._keys_index()).sort_index()

    def _keys_index(self) -> pd.Index:
        """Every key seen, in the order first seen: with the dict of keys, a
        MultiIndex made once from them (appending a batch's index of new keys to
        the others costs ~0.15 ms a batch), else :attr:`_index`."""
        first = self._pieces[0]
        if self._where is None or len(self._pieces) == 1 or not isinstance(first, pd.MultiIndex):
            return self._index
        keys = list(self._where)  # (in the order of their rows)
        return pd.MultiIndex.from_arrays(
            [list(level) for level in zip(*keys, strict=True)], names=first.names
        )
