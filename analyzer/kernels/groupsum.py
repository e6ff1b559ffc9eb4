"""Group sums bit for bit as pandas computes them, without building a groupby.

The reducer (:mod:`analyzer.tables.groupby`) used to sum every batch with pandas
``groupby(...).sum()``/``.count()``/``.mean()``. pandas sums a float group in row
order with Kahan's compensated summation, so a sum's last bits depend on that
algorithm; to keep every partial aggregate (and so every report number) the same
bits, :func:`kahan_moments` runs the same loop (pandas' ``group_sum``: the
compensation of each group and column, reset when it is NaN, NaN values skipped
and not counted) over integer group labels, for the sums of the values and of
their squares at once. The twin it replaces is ``tests/pandas_twins.py``'s
``moments_pandas``, and the tests compare them on random tables.

This module holds only the kernel, so that importing :mod:`analyzer.tables.aggregate`
(reports rebuilt from saved tables) does not import numba.
"""

from __future__ import annotations

import numpy as np

from analyzer.kernels.jit import njit


@njit
def kahan_moments(labels, values, cols, exact, n_groups):
    """``(n, sum, sumsq)``, each ``float64[n_groups, K]``, of the rows ``cols``
    (``int64[K]``) of ``values`` (``float64[M, N]``, one row per metric) by ``labels``
    (``int64[N]``; a negative label skips the row).

    Sums of the values and of their squares are Kahan-compensated in row order
    exactly as pandas' ``groupby().sum()`` adds them; NaN values are skipped and
    not counted (``n`` is pandas' ``count()``). A column marked ``exact`` (bool[K]:
    integers whose sums of squares stay below 2**53, so every sum is exact in any
    order, Kahan's too) is summed plainly. Rows are the outer loop, so the K
    columns' additions (independent of each other) overlap."""
    k_cols = len(cols)
    n_rows = values.shape[1]
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
            val = values[cols[j], i]
            if val != val:
                continue
            n[lab, j] += 1.0
            if exact[j]:
                s[lab, j] += val
                ss[lab, j] += val * val
                continue
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


@njit
def plain_moments(labels, values, cols, n_groups):
    """``(sum, sumsq)`` (``float64[n_groups, K]``) of the rows ``cols`` of ``values``
    (``float64[M, N]``) by ``labels`` (-1: row not used), added plainly column by
    column: for columns whose sums are exact in any order (integers, no NaN, every
    sum of squares below 2**53). Added as int64 (an integer addition waits less
    than a float one), then converted: exact, so the same float64 as adding the
    floats in any order."""
    k_cols = len(cols)
    n_rows = values.shape[1]
    s = np.zeros((n_groups, k_cols), np.int64)
    ss = np.zeros((n_groups, k_cols), np.int64)
    for j in range(k_cols):
        row = values[cols[j]]
        for i in range(n_rows):
            lab = labels[i]
            if lab >= 0:
                val = np.int64(row[i])
                s[lab, j] += val
                ss[lab, j] += val * val
    return s.astype(np.float64), ss.astype(np.float64)


def _pandas_reduceat() -> bool:
    """Does this pandas sum the groups of rows already in group order with numpy's
    ``add.reduceat`` (pandas 3.1: ``BaseGrouper._reduceat_aggregate``)?"""
    from pandas.core.groupby import ops

    return hasattr(ops.BaseGrouper, "_reduceat_aggregate")


#: pandas sums rows that come in group order with ``np.add.reduceat`` (pairwise
#: summation) when none of the values is NaN, and every other group with Kahan's
PANDAS_REDUCEAT = _pandas_reduceat()


def group_moments(labels: np.ndarray, values: np.ndarray, cols, exact, n_groups: int):
    """``(n, sum, sumsq)`` (``float64[n_groups, K]``) of the rows ``cols`` of
    ``values`` (``float64[M, N]``, no NaN among the rows used) by ``labels``
    (``int64[N]``, -1: row not used; every group 0 .. n_groups-1 has a row), summed
    as pandas' groupby sums them: rows in group order with ``np.add.reduceat``
    where this pandas does, else with Kahan (:func:`kahan_moments`). Columns marked
    ``exact`` (bool[K], see :func:`kahan_moments`) have the same sums in any
    order: they are summed plainly."""
    cols = np.asarray(cols, np.int64)
    exact = np.asarray(exact, np.bool_)
    used = labels >= 0
    lab = labels if used.all() else labels[used]
    tight, loose = np.flatnonzero(exact), np.flatnonzero(~exact)
    n = np.repeat(
        np.bincount(lab, minlength=n_groups).astype(np.float64).reshape(-1, 1), len(cols), 1
    )
    s = np.empty((n_groups, len(cols)))
    ss = np.empty((n_groups, len(cols)))
    if len(tight):
        s[:, tight], ss[:, tight] = plain_moments(labels, values, cols[tight], n_groups)
    if not len(loose):
        return n, s, ss
    if PANDAS_REDUCEAT and len(lab) and bool(np.all(lab[1:] >= lab[:-1])):
        rows = cols[loose]
        every = len(rows) == len(values) and bool((rows == np.arange(len(rows))).all())
        vals = values if every else values[rows]  # (only read: no copy of every row)
        if len(lab) != len(labels):
            vals = vals[:, used]
        starts = np.flatnonzero(np.r_[True, lab[1:] != lab[:-1]])
        s[:, loose] = np.add.reduceat(vals, starts, axis=1).T
        ss[:, loose] = np.add.reduceat(vals * vals, starts, axis=1).T
    else:
        none = np.zeros(len(loose), np.bool_)
        _, s[:, loose], ss[:, loose] = kahan_moments(labels, values, cols[loose], none, n_groups)
    return n, s, ss


@njit
def compress_labels(codes, sizes, total):
    """``(label int64[N], present int64[G])`` of rows with key codes ``codes``
    (``int64[k, N]``, -1: row left out; key ``c`` takes values below ``sizes[c]``):
    each row's group ``0 .. G-1`` (-1 if left out), groups numbered in the order
    of their codes (the first key most significant), and each group's mixed-radix
    value (``total`` is the product of ``sizes``, small enough to index)."""
    k_keys, n_rows = codes.shape
    label = np.empty(n_rows, np.int64)
    remap = np.full(total, -1, np.int64)
    for i in range(n_rows):
        r = 0
        for c in range(k_keys):
            v = codes[c, i]
            if v < 0:
                r = -1
                break
            r = r * sizes[c] + v
        label[i] = r
        if r >= 0:
            remap[r] = 0
    n_groups = 0
    for v in range(total):
        if remap[v] == 0:
            remap[v] = n_groups
            n_groups += 1
    present = np.empty(n_groups, np.int64)
    for v in range(total):
        if remap[v] >= 0:
            present[remap[v]] = v
    for i in range(n_rows):
        if label[i] >= 0:
            label[i] = remap[label[i]]
    return label, present


@njit
def block_moments(cell, n_cells, subs, n_subs, rank, values, exact):
    """``(n, sum, sumsq, in_order)`` of a table stacking ``R`` blocks that each hold
    every row of a table in order: block ``r`` keys row ``i`` by ``(cell[i],
    rank[r], subs[r, i])`` (codes below ``n_cells``, ``R``, ``n_subs``), its values
    are ``values[:, i]`` (``float64[K, N]``). Groups are numbered by their key codes
    (the cell most significant): ``float64[n_cells * R * n_subs, K]`` each, a group
    without rows all zero. Sums are :func:`kahan_moments`'s over the stacked rows,
    bit for bit, without building them; ``in_order`` says whether the stacked rows
    come in group order (then pandas would use ``np.add.reduceat``: the caller
    must sum otherwise)."""
    n_blocks, n_rows = subs.shape
    k_cols = values.shape[0]
    n_groups = n_cells * n_blocks * n_subs
    n = np.zeros((n_groups, k_cols))
    s = np.zeros((n_groups, k_cols))
    ss = np.zeros((n_groups, k_cols))
    comp = np.zeros((n_groups, k_cols))
    comp2 = np.zeros((n_groups, k_cols))
    in_order = True
    prev = -1
    for r in range(n_blocks):
        for i in range(n_rows):
            lab = (cell[i] * n_blocks + rank[r]) * n_subs + subs[r, i]
            if lab < prev:
                in_order = False
            prev = lab
            for j in range(k_cols):
                val = values[j, i]
                if val != val:
                    continue
                n[lab, j] += 1.0
                if exact[j]:
                    s[lab, j] += val
                    ss[lab, j] += val * val
                    continue
                y = val - comp[lab, j]
                t = s[lab, j] + y
                comp[lab, j] = t - s[lab, j] - y
                if comp[lab, j] != comp[lab, j]:
                    comp[lab, j] = 0.0
                s[lab, j] = t
                sq = val * val
                y = sq - comp2[lab, j]
                t = ss[lab, j] + y
                comp2[lab, j] = t - ss[lab, j] - y
                if comp2[lab, j] != comp2[lab, j]:
                    comp2[lab, j] = 0.0
                ss[lab, j] = t
    return n, s, ss, in_order


@njit
def int_codes(arr, limit):
    """``(ok, codes int64[N], values int64[G])``: each value of the integer array
    ``arr`` as its rank among the distinct values (``values``, sorted), in two
    sweeps through a table of the range; ``ok`` False (nothing else computed)
    when the range spans ``limit`` or more values, or the values come near
    int64's bounds."""
    n_rows = len(arr)
    codes = np.empty(n_rows, np.int64)
    lo = np.int64(arr[0])
    hi = lo
    for i in range(n_rows):
        v = np.int64(arr[i])
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    if lo < -(2**62) or hi > 2**62 or hi - lo >= limit:
        return False, codes, np.empty(0, np.int64)
    span = hi - lo + 1
    remap = np.full(span, -1, np.int64)
    for i in range(n_rows):
        remap[np.int64(arr[i]) - lo] = 0
    n_values = 0
    for v in range(span):
        if remap[v] == 0:
            remap[v] = n_values
            n_values += 1
    values = np.empty(n_values, np.int64)
    for v in range(span):
        if remap[v] >= 0:
            values[remap[v]] = v + lo
    for i in range(n_rows):
        codes[i] = remap[np.int64(arr[i]) - lo]
    return True, codes, values
