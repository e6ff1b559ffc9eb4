"""The kernel that turns a batch's result rows into the games table's columns.

Kept apart from :mod:`analyzer.colorful_treasure.game` (whose Python builds and
checks the table) so that the numba cache of this kernel is keyed by this file
alone (:func:`analyzer.jit.kernel_sources`), not by what the game module imports.
"""

from __future__ import annotations

import numpy as np

from analyzer.jit import njit


@njit
def split_results(
    results, columns, scale, points_src, points, int16_src, int16, int8_src, got, int8
):
    """``results`` (int64[rows, R], a row per seat-game) transposed into ``columns``
    (int64[R, rows], what the checks read; row by row: twice as fast as numpy's
    transposed copy), then the games table's typed columns from it, each in one
    sweep: ``points[k] = columns[points_src[k]] / scale`` (float64), ``int16[k]`` and
    ``int8[k]`` the columns ``int16_src[k]``, ``int8_src[k]`` cast as numpy's
    ``astype`` casts (wrapping), or with ``got[k]`` 1 where the column is
    positive, else 0."""
    n_rows, n_cols = results.shape
    for i in range(n_rows):
        for j in range(n_cols):
            columns[j, i] = results[i, j]
    for k in range(len(points_src)):
        src = points_src[k]
        for i in range(n_rows):
            points[k, i] = np.float64(columns[src, i]) / scale
    for k in range(len(int16_src)):
        src = int16_src[k]
        for i in range(n_rows):
            int16[k, i] = np.int16(columns[src, i])
    for k in range(len(int8_src)):
        src = int8_src[k]
        if got[k]:
            for i in range(n_rows):
                int8[k, i] = np.int8(1 if columns[src, i] > 0 else 0)
        else:
            for i in range(n_rows):
                int8[k, i] = np.int8(columns[src, i])
