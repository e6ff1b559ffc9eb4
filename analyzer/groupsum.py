"""Group sums bit for bit as pandas computes them, without building a groupby.

The reducer (:mod:`analyzer.aggregate`) used to sum every batch with pandas
``groupby(...).sum()``/``.count()``/``.mean()``. pandas sums a float group in row
order with Kahan's compensated summation, so a sum's last bits depend on that
algorithm; to keep every partial aggregate (and so every report number) the same
bits, :func:`kahan_moments` runs the same loop (pandas' ``group_sum``: the
compensation of each group and column, reset when it is NaN, NaN values skipped
and not counted) over integer group labels, for the sums of the values and of
their squares at once. The twin it replaces stays in :mod:`analyzer.aggregate`
(``_moments_pandas``) and the tests compare them on random tables.

This module holds only the kernel, so that importing :mod:`analyzer.aggregate`
(reports rebuilt from saved tables) does not import numba.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit


@njit
def kahan_moments(labels, values, n_groups):
    """``(n, sum, sumsq)``, each ``float64[n_groups, K]``, of ``values`` (``float64[K, N]``,
    one row per metric) by ``labels`` (``int64[N]``; a negative label skips the row).

    Sums of the values and of their squares are Kahan-compensated in row order
    exactly as pandas' ``groupby().sum()`` adds them; NaN values are skipped and
    not counted (``n`` is pandas' ``count()``). Rows are the outer loop, so the K
    columns' additions (independent of each other) overlap."""
    k_cols, n_rows = values.shape
    n = np.zeros((n_groups, k_cols))
    s = np.zeros((n_groups, k_cols))
    ss = np.zeros((n_groups, k_cols))
    comp = np.zeros((n_groups, k_cols))
    comp2 = np.zeros((n_groups, k_cols))
    for i in range(n_rows):
        lab = labels[i]
        if lab < 0:
            continue
        for j in range(k_cols):
            val = values[j, i]
            if val != val:
                continue
            n[lab, j] += 1.0
            y = val - comp[lab, j]
            t = s[lab, j] + y
            comp[lab, j] = t - s[lab, j] - y
            if comp[lab, j] != comp[lab, j]:  # an infinity: pandas resets it too
                comp[lab, j] = 0.0
            s[lab, j] = t
            sq = val * val
            y = sq - comp2[lab, j]
            t = ss[lab, j] + y
            comp2[lab, j] = t - ss[lab, j] - y
            if comp2[lab, j] != comp2[lab, j]:
                comp2[lab, j] = 0.0
            ss[lab, j] = t
    return n, s, ss


def _pandas_reduceat() -> bool:
    """Does this pandas sum the groups of rows already in group order with numpy's
    ``add.reduceat`` (pandas 3.1: ``BaseGrouper._reduceat_aggregate``)?"""
    from pandas.core.groupby import ops

    return hasattr(ops.BaseGrouper, "_reduceat_aggregate")


#: pandas sums rows that come in group order with ``np.add.reduceat`` (pairwise
#: summation) when none of the values is NaN, and every other group with Kahan's
PANDAS_REDUCEAT = _pandas_reduceat()


def group_moments(labels: np.ndarray, values: np.ndarray, n_groups: int):
    """``(n, sum, sumsq)`` (``float64[n_groups, K]``) of ``values`` (``float64[K, N]``,
    no NaN among the rows used) by ``labels`` (``int64[N]``, -1: row not used; every
    group 0 .. n_groups-1 has a row), summed as pandas' groupby sums them: rows in
    group order with ``np.add.reduceat`` where this pandas does, else
    :func:`kahan_moments`."""
    used = labels >= 0
    lab = labels if used.all() else labels[used]
    if PANDAS_REDUCEAT and len(lab) and bool(np.all(lab[1:] >= lab[:-1])):
        vals = values if len(lab) == len(labels) else values[:, used]
        starts = np.flatnonzero(np.r_[True, lab[1:] != lab[:-1]])
        sizes = np.diff(starts, append=len(lab)).astype(np.float64)
        s = np.add.reduceat(vals, starts, axis=1).T
        ss = np.add.reduceat(vals * vals, starts, axis=1).T
        n = np.repeat(sizes.reshape(-1, 1), values.shape[0], axis=1)
        return n, np.ascontiguousarray(s), np.ascontiguousarray(ss)
    return kahan_moments(labels, values, n_groups)
