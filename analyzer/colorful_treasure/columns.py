"""The kernel that turns a batch's result rows into the games table's columns.

Kept apart from :mod:`analyzer.colorful_treasure.game` (whose Python builds and
checks the table) so that the numba cache of this kernel is keyed by this file
alone (:func:`analyzer.kernels.jit.kernel_sources`), not by what the game module imports.
"""

from __future__ import annotations

import numpy as np

from analyzer.kernels.jit import njit

#: positions in :func:`split_rows`'s ``at`` (the result columns it reads)
AT_BAD, AT_TREASURE, AT_COUNTED, AT_SCORE, AT_DIAMOND, AT_PLASTIC = 0, 1, 2, 3, 4, 5
AT_TILES_HELD, AT_TILES_TOOK, AT_PARTS, AT_GEMS, AT_N_COLOURS = 6, 7, 8, 9, 10
#: positions in ``rule`` (integers of the rules)
RU_SCALE, RU_ABORTED, RU_REWARDS, RU_STOLEN_IGNORE, RU_DIAMOND, RU_PLASTIC = 0, 1, 2, 3, 4, 5
RU_TREASURE_MIN, RU_TREASURE_POINTS, RU_GEM_REWARD, RU_EXPLORER, RU_TREASURE_BAR = 6, 7, 8, 9, 10
#: positions in the returned flags: the first row of each broken check (-1: none)
#: and the largest invariant mask
F_CAPPED, F_BAD, F_BAD_MAX, F_COUNTED, F_SCORE = 0, 1, 2, 3, 4


@njit
def split_rows(
    results,
    players,
    at,
    rule,
    gem_table,
    tile_points,
    head_start,
    points_src,
    points,
    int16_src,
    int16,
    int8_src,
    got,
    int8,
    took,
):
    """The games table's typed columns and the checks of ``game.check_results`` in
    one sweep over the rows of ``results`` (int64[rows, R], a row per seat-game,
    a game's seats together), without a transposed copy: ``points[k] =
    results[:, points_src[k]] / scale`` (float64), ``int16[k]`` and ``int8[k]``
    the columns ``int16_src[k]``, ``int8_src[k]`` cast as numpy's ``astype``
    casts (wrapping), or with ``got[k]`` 1 where the column is positive, else 0;
    ``took`` the column ``at[AT_TILES_TOOK]``;
    and the checks' findings as int64[5] (``F_*``): the first row whose invariant
    mask has the ``rule[RU_ABORTED]`` bit, the first with any bit and the largest
    mask, the first whose key and chest cards counted for the treasure reward are
    wrong, and the first whose score does not recompute (-1 where none). The
    score is recomputed as ``game.recompute_scores`` does, step by step (the
    "first to" rewards' check included: a game whose gem or explorer reward went
    wrong gets -1 for its first seat at that step); ``head_start[q]``: the points (in
    60ths) seat ``q`` starts with (the seat-compensation knob, 0 as printed)."""
    n_rows = results.shape[0]
    flags = np.full(5, -1, np.int64)
    flags[F_BAD_MAX] = 0
    scale = rule[RU_SCALE]
    top_gem = len(gem_table) - 1
    n_col = at[AT_N_COLOURS]
    bar = rule[RU_TREASURE_BAR]  # seats barred from the treasure reward (bit q: seat q)
    for g0 in range(0, n_rows, players):
        treasure_col = at[AT_COUNTED] if rule[RU_STOLEN_IGNORE] else at[AT_TREASURE]
        best = np.int64(-1)
        for i in range(g0, g0 + players):
            if (bar >> (i - g0)) & 1 == 0:
                best = max(best, results[i, treasure_col])
        n_top = 0
        for i in range(g0, g0 + players):
            if (bar >> (i - g0)) & 1 == 0:
                if results[i, treasure_col] == best and best >= rule[RU_TREASURE_MIN]:
                    n_top += 1
        share = rule[RU_TREASURE_POINTS] * scale // max(n_top, 1)
        ok = np.ones(2, np.bool_)  # the gem and the explorer reward: each at most once
        for j in range(2):
            value = (rule[RU_GEM_REWARD] if j == 0 else rule[RU_EXPLORER]) * scale
            holders = 0
            for i in range(g0, g0 + players):
                v = results[i, at[AT_PARTS] + 3 + j]
                if v != 0 and v != value:
                    ok[j] = False
                if v > 0:
                    holders += 1
            if holders > 1:
                ok[j] = False
        for i in range(g0, g0 + players):
            bad = results[i, at[AT_BAD]]
            if bad & rule[RU_ABORTED] and flags[F_CAPPED] < 0:
                flags[F_CAPPED] = i
            if bad != 0 and flags[F_BAD] < 0:
                flags[F_BAD] = i
            flags[F_BAD_MAX] = max(flags[F_BAD_MAX], bad)
            held = results[i, at[AT_TREASURE]]
            counted = results[i, at[AT_COUNTED]]
            wrong = counted < 0 or counted > held
            if not rule[RU_STOLEN_IGNORE]:
                wrong = wrong or counted != held
            if wrong and flags[F_COUNTED] < 0:
                flags[F_COUNTED] = i
            pts = np.int64(0)
            for g in range(n_col):
                pts += gem_table[min(results[i, at[AT_GEMS] + g], top_gem)]
            pts += results[i, at[AT_DIAMOND]] * rule[RU_DIAMOND]
            pts += results[i, at[AT_PLASTIC]] * rule[RU_PLASTIC]
            mask = results[i, at[AT_TILES_HELD]]
            for b in range(len(tile_points)):
                pts += ((mask >> b) & 1) * tile_points[b]
            score = pts * scale + head_start[i - g0]
            if rule[RU_REWARDS]:
                mine = results[i, treasure_col] == best and (bar >> (i - g0)) & 1 == 0
                if mine and best >= rule[RU_TREASURE_MIN]:
                    score += share
                for j in range(2):
                    score += results[i, at[AT_PARTS] + 3 + j]
                    if i == g0 and not ok[j]:
                        score = -1
            if score != results[i, at[AT_SCORE]] and flags[F_SCORE] < 0:
                flags[F_SCORE] = i
            took[i] = results[i, at[AT_TILES_TOOK]]
            for k in range(len(points_src)):
                points[k, i] = np.float64(results[i, points_src[k]]) / scale
            for k in range(len(int16_src)):
                int16[k, i] = np.int16(results[i, int16_src[k]])
            for k in range(len(int8_src)):
                v = results[i, int8_src[k]]
                if got[k]:
                    int8[k, i] = np.int8(1 if v > 0 else 0)
                else:
                    int8[k, i] = np.int8(v)
    return flags
