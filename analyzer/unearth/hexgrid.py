"""The tableau's hex grid in plain Python (no numba): its size, middle cell and
neighbour table, as :mod:`.tableau` describes them. Split from :mod:`.tableau`
so that building the rules tables (``rules.Tables.neigh``) imports no kernel
module; every name is importable from :mod:`.tableau` as before.
"""

import numpy as np

GRID = 23
N_CELLS = GRID * GRID
MIDDLE = (GRID // 2) * GRID + GRID // 2

_DQ = (1, -1, 0, 0, 1, -1)
_DR = (0, 0, 1, -1, -1, 1)


def neighbour_table(grid: int = GRID) -> np.ndarray:
    """``int16[grid*grid, 6]``: the neighbour cells of each cell, -1 outside the grid."""
    out = np.full((grid * grid, 6), -1, np.int16)
    for r in range(grid):
        for q in range(grid):
            for k in range(6):
                qq, rr = q + _DQ[k], r + _DR[k]
                if 0 <= qq < grid and 0 <= rr < grid:
                    out[r * grid + q, k] = rr * grid + qq
    return out


NEIGHBOURS = neighbour_table()
