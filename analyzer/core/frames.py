"""Reading a DataFrame's columns without pandas' per-column cost, and scratch
arrays a batch reuses (a leaf: numpy and pandas only, so the runner, the
aggregation and the games use it without importing each other)."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pandas as pd

#: each thread's scratch arrays (:func:`scratch`)
_SCRATCH = threading.local()
#: scratch arrays a thread keeps at most, the largest it keeps and the most bytes
#: it keeps in all (a run of huge batches does not hold on to its memory)
SCRATCH_KEPT = 8
SCRATCH_MAX_BYTES = 64 << 20
SCRATCH_TOTAL_BYTES = 160 << 20


def scratch(shape: tuple[int, ...], dtype=np.float64) -> np.ndarray:
    """An uninitialised C-ordered array of ``shape`` and ``dtype``, for work that
    lives only within one call (a batch's transposed results, the reducer's float
    matrix): one this thread made before when nothing refers to it or to a view of
    it any longer, else a new one (kept for next time, up to
    :data:`SCRATCH_KEPT` arrays of at most :data:`SCRATCH_MAX_BYTES` each,
    :data:`SCRATCH_TOTAL_BYTES` in all).

    A fresh array of a few MB is new memory the kernel maps page by page (about
    4 µs for each 4 kB page on this box, 6 MB a batch: several ms); a reused one
    is already mapped. Reuse is safe whoever keeps what: an array held anywhere
    (itself or through a view, whose ``base`` it is) has a reference besides this
    pool's and is never handed out again while it has."""
    shape = tuple(int(x) for x in shape)
    dtype = np.dtype(dtype)
    pool = getattr(_SCRATCH, "arrays", None)
    if pool is None:
        pool = _SCRATCH.arrays = []
    for i in range(len(pool)):
        # two references: the pool's list and getrefcount's own argument
        if pool[i].shape == shape and pool[i].dtype == dtype and sys.getrefcount(pool[i]) == 2:
            return pool[i]
    out = np.empty(shape, dtype)
    if out.nbytes <= SCRATCH_MAX_BYTES:
        pool.append(out)
        # the oldest go first (still alive for whoever holds them)
        while len(pool) > SCRATCH_KEPT or sum(a.nbytes for a in pool) > SCRATCH_TOTAL_BYTES:
            pool.pop(0)
    return out


def column_arrays(df: pd.DataFrame) -> dict:
    """Each column's array by name (a numpy array, or pandas' own array for a
    categorical or nullable column: what ``df[name].array`` holds), without a
    Series per column: pandas builds one for every ``df[name]`` or ``items()``
    step (about 20-70 µs each, several ms for a games table of 40 columns)."""
    arrays = getattr(df, "_iter_column_arrays", None)  # pandas' own iterator
    names = df.columns.tolist()
    # (a set of the names, not ``is_unique``: that builds the Index's hash table)
    if arrays is None or len(set(names)) != len(names):
        return {
            name: col.to_numpy() if isinstance(col.dtype, np.dtype) else col.array
            for name, col in df.items()
        }
    return dict(zip(names, arrays(), strict=True))


__all__ = ["column_arrays", "scratch"]
