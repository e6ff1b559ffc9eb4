"""Stones, rings and wonders (``docs/games/unearth.md``, "Stones, rings and wonders").

Each player's stones lie on a hex grid. Cells are numbered ``r * G + q`` on a
``G x G`` axial-coordinate parallelogram; the six neighbours of ``(q, r)`` are
``(q±1, r)``, ``(q, r±1)``, ``(q+1, r-1)`` and ``(q-1, r+1)``. The first stone
goes in the middle cell (the tableau is translation invariant, so "anywhere" is
the middle); every later stone must touch a stone already placed.

Per player, two int8 arrays of length ``G*G``:

- ``stone[cell]``: the stone colour (0..n_colours-1) or -1 (no stone);
- ``centre[cell]``: -1, or the :class:`~analyzer.unearth.codes.WonderKind` of the
  wonder filling a completed ring's centre, or ``NO_WONDER`` for a completed ring
  left empty because no wonder was left. A centre never takes a stone.

A **ring** is six stones around one empty cell (no stone, not a centre). When a
stone completes a ring, the centre is filled at once. ``G`` is 23: a player's
tableau never reaches the edge in practice (60 stones in all, placed touching);
cells on the edge are never ring centres and stones are not placed outside.
"""

from analyzer.kernels.jit import njit
from analyzer.unearth.codes import Formula
from analyzer.unearth.hexgrid import GRID, MIDDLE, N_CELLS, NEIGHBOURS, neighbour_table  # noqa: F401

NO_WONDER = 9  #: a completed ring whose centre holds no wonder (both piles empty)


@njit
def is_free(stone, centre, cell):
    """True when ``cell`` holds neither a stone nor a wonder centre."""
    return stone[cell] < 0 and centre[cell] < 0


@njit
def legal_cells(stone, centre, neigh, n_stones, out):
    """Write the cells where the next stone may go into ``out``; return how many.

    With no stones yet, the only cell is the middle. Otherwise: every free cell
    touching at least one stone. Cells in ascending order. Draws no random numbers.
    Finds the stones' bounding box, then scans only around it (see
    :func:`legal_cells_boxed` when the box is kept up to date).
    """
    if n_stones == 0:
        out[0] = MIDDLE
        return 1
    r0, r1, q0, q1 = stones_box(stone, n_stones)
    return _cells_in_box(stone, centre, neigh, r0, r1, q0, q1, out)


@njit
def stones_box(stone, n_stones):
    """(row min, row max, column min, column max) of the stones, scanning the grid
    until ``n_stones`` were found; (GRID, -1, GRID, -1) when there are none."""
    r0 = GRID
    r1 = -1
    q0 = GRID
    q1 = -1
    seen = 0
    for cell in range(stone.shape[0]):
        if seen == n_stones:  # every stone found: the box is complete
            break
        if stone[cell] >= 0:
            r = cell // GRID
            q = cell % GRID
            r0 = min(r0, r)
            r1 = max(r1, r)
            q0 = min(q0, q)
            q1 = max(q1, q)
            seen += 1
    return r0, r1, q0, q1


@njit
def legal_cells_boxed(stone, centre, neigh, box, out):
    """:func:`legal_cells` with the stones' bounding box ``box`` = (row min, row max,
    column min, column max) kept by :func:`grow_box` (row max -1: no stone yet)."""
    if box[1] < 0:
        out[0] = MIDDLE
        return 1
    return _cells_in_box(stone, centre, neigh, box[0], box[1], box[2], box[3], out)


@njit(inline="always")
def empty_box(box):
    """Reset ``box`` (int[4]) to the box of no stones."""
    box[0] = GRID
    box[1] = -1
    box[2] = GRID
    box[3] = -1


@njit(inline="always")
def grow_box(box, cell):
    """Widen the bounding box ``box`` (see :func:`legal_cells_boxed`) to take in ``cell``."""
    r = cell // GRID
    q = cell % GRID
    box[0] = min(box[0], r)
    box[1] = max(box[1], r)
    box[2] = min(box[2], q)
    box[3] = max(box[3], q)


@njit
def _cells_in_box(stone, centre, neigh, r0, r1, q0, q1, out):
    """The free cells touching a stone, scanning the box widened by one cell."""
    n = 0
    for r in range(max(r0 - 1, 0), min(r1 + 2, GRID)):
        for q in range(max(q0 - 1, 0), min(q1 + 2, GRID)):
            cell = r * GRID + q
            if not is_free(stone, centre, cell):
                continue
            for k in range(6):
                nb = neigh[cell, k]
                if nb >= 0 and stone[nb] >= 0:
                    out[n] = cell
                    n += 1
                    break
    return n


@njit
def ring_closed(stone, centre, neigh, cell):
    """True when free ``cell`` is surrounded by six stones (a completed ring centre)."""
    if not is_free(stone, centre, cell):
        return False
    for k in range(6):
        nb = neigh[cell, k]
        if nb < 0 or stone[nb] < 0:
            return False
    return True


@njit
def rings_closed_by(stone, centre, neigh, cell, out):
    """After a stone was placed on ``cell``: the ring centres it completed.

    Writes the centre cells into ``out`` (length >= 6) and returns how many (one
    stone can complete more than one ring). Draws no random numbers.
    """
    n = 0
    for k in range(6):
        nb = neigh[cell, k]
        if nb >= 0 and ring_closed(stone, centre, neigh, nb):
            out[n] = nb
            n += 1
    return n


@njit
def ring_colour_counts(stone, neigh, centre_cell, n_colours, counts):
    """Count the colours of the six stones around ``centre_cell`` into ``counts``."""
    for c in range(n_colours):
        counts[c] = 0
    for k in range(6):
        counts[stone[neigh[centre_cell, k]]] += 1


@njit
def formula_ok(kind, colour, count, counts, n_colours):
    """Does a ring with colour ``counts`` satisfy a named-wonder formula?

    ``kind`` is a :class:`Formula`; ``colour``/``count`` are used by AT_LEAST.
    Formulas count colours only. Formulas naming no colour are exact.
    """
    if kind == Formula.ANY:
        return True
    if kind == Formula.AT_LEAST:
        return counts[colour] >= count
    present = 0
    twos = 0
    threes = 0
    sixes = 0
    for c in range(n_colours):
        if counts[c] > 0:
            present += 1
        if counts[c] == 2:
            twos += 1
        elif counts[c] == 3:
            threes += 1
        elif counts[c] == 6:
            sixes += 1
    if kind == Formula.ALL_COLOURS:
        return present == n_colours
    if kind == Formula.TWO_THREES:
        return threes == 2
    if kind == Formula.THREE_TWOS:
        return twos == 3
    if kind == Formula.SIX_ALIKE:
        return sixes == 1
    return False


@njit
def all_alike(counts, n_colours):
    """True when all six stones of a ring share one colour (a greater wonder)."""
    for c in range(n_colours):
        if counts[c] == 6:
            return True
    return False
