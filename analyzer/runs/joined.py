"""The tables a run keeps, joined batch after batch in game order.

Game-agnostic. With ``keep_tables`` the runner keeps every game's rows: each
table's batches are joined as they come (:class:`_Joined`), to the bit the frame
:func:`concat_tables` of all the batches gives, without holding every batch and
then a second copy of them all.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd


def concat_tables(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """``pd.concat`` of same-shaped tables in order, keeping a column categorical
    when every part has it categorical with different categories (the union, in
    order of first appearance; pandas would fall back to object)."""
    fast = _concat_same(frames)
    if fast is not None:
        return fast
    out = pd.concat(frames, ignore_index=True)
    each = [f.dtypes for f in frames]
    categorical = {c for d in each for c, t in d.items() if isinstance(t, pd.CategoricalDtype)}
    for col in out.columns:
        if col not in categorical or isinstance(out[col].dtype, pd.CategoricalDtype):
            continue  # (a column categorical in no part stays as pandas made it)
        dtypes = [d[col] for d in each if col in d.index]
        if dtypes and all(isinstance(d, pd.CategoricalDtype) for d in dtypes):
            cats = list(dict.fromkeys(c for d in dtypes for c in d.categories))
            out[col] = pd.Categorical(out[col], categories=cats)
    return out


def _concat_same(frames: list[pd.DataFrame]) -> pd.DataFrame | None:
    """``pd.concat(frames, ignore_index=True)`` of frames with the same columns and
    dtypes (numpy's, or categoricals of the same categories), no attributes: each
    column's arrays joined once, without pandas' per-block planning. None for
    anything else (then pandas joins them)."""
    from analyzer.core.frames import column_arrays

    first = frames[0] if frames else None
    if len(frames) < 2 or first.attrs or not first.columns.is_unique:
        return None
    dtypes = first.dtypes
    for f in frames[1:]:
        if f.attrs or not f.columns.equals(first.columns) or not f.dtypes.equals(dtypes):
            return None
    each = [column_arrays(f) for f in frames]
    out = {}
    for name, dtype in dtypes.items():
        parts = [e[name] for e in each]
        if isinstance(dtype, np.dtype):
            out[name] = np.concatenate(parts)
        elif isinstance(dtype, pd.CategoricalDtype):
            # the same categories in the same order (== holds for any order)
            if not all(p.categories.equals(dtype.categories) for p in parts):
                return None
            codes = np.concatenate([p.codes for p in parts])
            out[name] = pd.Categorical.from_codes(codes, dtype=dtype)
        else:
            return None
    result = pd.DataFrame(out, copy=False)
    result.columns = first.columns
    return result


def _joinable(frame: pd.DataFrame) -> dict | None:
    """``frame``'s columns by name (:func:`analyzer.core.frames.column_arrays`) if it can
    be joined column by column as :func:`_concat_same` joins (unique names, numpy
    dtypes or categoricals, no attributes), else None."""
    from analyzer.core.frames import column_arrays

    if frame.attrs:
        return None
    arrays = column_arrays(frame)
    if len(arrays) != len(frame.columns) or not arrays:
        return None
    if not all(isinstance(a, np.ndarray | pd.Categorical) for a in arrays.values()):
        return None
    return arrays


def _shape(arrays: dict) -> list:
    """What two batches must share to be joined: each column's name and dtype (a
    categorical's categories in their order too, as :func:`_concat_same` asks)."""
    return [
        (name, a.dtype, tuple(a.categories) if isinstance(a, pd.Categorical) else None)
        for name, a in arrays.items()
    ]


class _Joined:
    """One kept table of a run (``keep_tables``), joined as the batches come: from
    the second batch on, each batch's columns are copied into arrays sized for the
    whole run, and the batch's own frame is let go (its memory serves the next
    batch). The table at the end is :func:`concat_tables` of the batches, to the
    bit (the same columns, dtypes, categories and index), without keeping every
    batch and then a second copy of them all: a run maps half the memory, and
    copies each batch while it is fresh in the cache. ``games_left``: the run's
    games still to come (None: not known, a precision run; its batches are kept
    and joined at the end). Anything :func:`_concat_same` would not join (a dtype
    or categories that change, an extension dtype) keeps the batches and joins
    them with :func:`concat_tables`."""

    def __init__(self, games_left: int | None) -> None:
        self.games_left = games_left
        self.frames: list[pd.DataFrame] = []  #: batches kept as they are
        self.games = 0  #: games of the batches in ``frames``
        self.first: pd.DataFrame | None = None  #: no rows: the table's columns
        self.shape: list | None = None  #: :func:`_shape` of every batch joined
        self.arrays: dict[str, np.ndarray] = {}  #: each column's values (codes for categoricals)
        self.rows = 0  #: rows written into ``arrays``

    def add(self, frame: pd.DataFrame, games: int) -> None:
        if self.games_left is not None:
            self.games_left -= games
        if self.first is not None:
            arrays = _joinable(frame)
            if arrays is not None and _shape(arrays) == self.shape:
                self._write(arrays, len(frame))
                return
            self.frames = [self._joined()]  # back to keeping the batches as they are
            self.first, self.shape, self.arrays = None, None, {}
            self.games_left = None
        self.frames.append(frame)
        self.games += games
        if len(self.frames) != 2 or self.games_left is None:
            return
        each = [_joinable(f) for f in self.frames]
        if any(a is None for a in each) or _shape(each[0]) != _shape(each[1]):
            return
        rows = sum(len(f) for f in self.frames)
        ahead = math.ceil(rows / max(1, self.games) * max(0, self.games_left))
        self.first, self.shape = frame.iloc[:0].copy(), _shape(each[1])
        for name, col in each[1].items():
            dtype = col.codes.dtype if isinstance(col, pd.Categorical) else col.dtype
            self.arrays[name] = np.empty(rows + ahead, dtype)
        for f, arrays in zip(self.frames, each, strict=True):
            self._write(arrays, len(f))
        self.frames = []

    def _write(self, arrays: dict, n: int) -> None:
        need = self.rows + n
        if need > len(next(iter(self.arrays.values()))):  # more rows than foreseen
            grown = int(need * 1.5)
            for name, arr in self.arrays.items():
                bigger = np.empty(grown, arr.dtype)
                bigger[: self.rows] = arr[: self.rows]
                self.arrays[name] = bigger
        for name, col in arrays.items():
            values = col.codes if isinstance(col, pd.Categorical) else col
            self.arrays[name][self.rows : need] = values
        self.rows = need

    def _joined(self) -> pd.DataFrame:
        """The rows written so far as one frame (the columns trimmed to them)."""
        out = {}
        for name, dtype in self.first.dtypes.items():
            arr = self.arrays[name]
            # a column sized past its rows (a table whose rows per game vary) is
            # copied to its length, so the frame does not hold the spare rows
            arr = arr if len(arr) == self.rows else arr[: self.rows].copy()
            if isinstance(dtype, pd.CategoricalDtype):
                arr = pd.Categorical.from_codes(arr, dtype=dtype)
            out[name] = arr
        result = pd.DataFrame(out, copy=False)
        result.columns = self.first.columns
        return result

    def table(self) -> pd.DataFrame:
        """The whole table: the batches joined in order."""
        if self.first is not None:
            return self._joined()
        return concat_tables(self.frames) if self.frames else pd.DataFrame()
