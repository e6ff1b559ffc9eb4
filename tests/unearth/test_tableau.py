"""Stones, rings and wonders: the tableau kernels against the plain-Python twins.

The twins in ``tests/naive.py`` work on axial coordinates ``(q, r)`` in dicts and
sets; the kernels on the numbered grid of :mod:`analyzer.unearth.tableau`. Ring
detection is checked against its definition (rings after the stone minus rings
before it), formulas exhaustively over every colour multiset of a ring.
"""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.unearth.codes import WonderKind
from analyzer.unearth.memo import new_memo
from analyzer.unearth.rules import default_rules
from analyzer.unearth.state import new_state
from analyzer.unearth.strategies import N_PARAMS, score_cells
from analyzer.unearth.structs import pack_memo, pack_state, pack_tables
from analyzer.unearth.tableau import (
    GRID,
    MIDDLE,
    N_CELLS,
    NEIGHBOURS,
    all_alike,
    empty_box,
    formula_ok,
    grow_box,
    legal_cells,
    legal_cells_boxed,
    ring_colour_counts,
    rings_closed_by,
)
from tests.naive import (
    naive_cell_score,
    naive_formula_ok,
    naive_hex_neighbours,
    naive_legal_cells,
    naive_rings_closed,
)

RULES = default_rules()
T = RULES.tables
COLOURS = RULES.stone_colours
MQ, MR = MIDDLE % GRID, MIDDLE // GRID
RADIUS = 4  #: generated tableaux stay within this hex distance of the middle

WINDOW = [
    (q, r)
    for q in range(-RADIUS, RADIUS + 1)
    for r in range(-RADIUS, RADIUS + 1)
    if abs(q) + abs(r) + abs(q + r) <= 2 * RADIUS
]


def to_cell(qr):
    q, r = qr
    return (r + MR) * GRID + (q + MQ)


def to_qr(cell):
    return (int(cell) % GRID - MQ, int(cell) // GRID - MR)


def to_arrays(stones, centres):
    stone = np.full(N_CELLS, -1, np.int64)
    centre = np.full(N_CELLS, -1, np.int64)
    for qr, colour in stones.items():
        stone[to_cell(qr)] = colour
    for qr, kind in centres.items():
        centre[to_cell(qr)] = kind
    return stone, centre


INNER = [c for c in WINDOW if abs(c[0]) + abs(c[1]) + abs(c[0] + c[1]) <= 2 * (RADIUS - 1)]


@st.composite
def tableaux(draw):
    """A random tableau near the middle: stones, wonder centres, and one stone (the
    last placed) whose completed rings are asked for. Up to two rings are forced
    around random centres so that completions (single and double) are common."""
    n = draw(st.integers(1, len(WINDOW) - 1))
    cells = draw(st.permutations(WINDOW))
    stones = {c: draw(st.integers(0, len(COLOURS) - 1)) for c in cells[:n]}
    rings = []
    if draw(st.integers(0, 3)) > 0:  # mostly: one forced ring, sometimes a second
        rings.append(draw(st.sampled_from(INNER)))
        near = [
            c
            for c in INNER
            if c not in rings
            and c not in naive_hex_neighbours(rings[0])
            and set(naive_hex_neighbours(c)) & set(naive_hex_neighbours(rings[0]))
        ]
        if near and draw(st.booleans()):
            rings.append(draw(st.sampled_from(near)))
    for centre in rings:
        for nb in naive_hex_neighbours(centre):
            stones.setdefault(nb, draw(st.integers(0, len(COLOURS) - 1)))
    for centre in rings:
        stones.pop(centre, None)
    empty = [c for c in WINDOW if c not in stones and c not in rings]
    n_centres = draw(st.integers(0, min(4, len(empty))))
    centres = {c: draw(st.sampled_from([0, 1, 2, 9])) for c in empty[:n_centres]}
    if rings and draw(st.booleans()):
        around = set(naive_hex_neighbours(rings[0]))
        if len(rings) == 2 and draw(st.booleans()):
            around &= set(naive_hex_neighbours(rings[1]))
        around = sorted(around)
        new = draw(st.sampled_from(around))
    else:
        new = draw(st.sampled_from(sorted(stones)))
    return stones, centres, new


@settings(max_examples=300, deadline=None)
@given(tableaux())
def test_rings_closed_by_matches_twin(case):
    stones, centres, new = case
    stone, centre = to_arrays(stones, centres)
    out = np.zeros(6, np.int64)
    k = rings_closed_by(stone, centre, NEIGHBOURS, to_cell(new), out)
    got = {to_qr(c) for c in out[:k]}
    assert len(got) == k  # no centre reported twice
    assert got == naive_rings_closed(stones, set(centres), new)


@settings(max_examples=200, deadline=None)
@given(tableaux())
def test_legal_cells_matches_twin(case):
    stones, centres, _ = case
    stone, centre = to_arrays(stones, centres)
    out = np.zeros(N_CELLS, np.int64)
    k = legal_cells(stone, centre, NEIGHBOURS, len(stones), out)
    assert list(out[:k]) == sorted(out[:k])  # ascending, as documented
    assert {to_qr(c) for c in out[:k]} == naive_legal_cells(stones, set(centres))


def box_of(stones):
    """The bounding box kept stone by stone, as the engine keeps it."""
    box = np.zeros(4, np.int64)
    empty_box(box)
    for qr in stones:
        grow_box(box, to_cell(qr))
    return box


@settings(max_examples=200, deadline=None)
@given(tableaux())
def test_legal_cells_with_a_kept_box_match_the_scan(case):
    stones, centres, _ = case
    stone, centre = to_arrays(stones, centres)
    out = np.zeros(N_CELLS, np.int64)
    k = legal_cells(stone, centre, NEIGHBOURS, len(stones), out)
    boxed = np.zeros(N_CELLS, np.int64)
    assert legal_cells_boxed(stone, centre, NEIGHBOURS, box_of(stones), boxed) == k
    assert list(boxed[:k]) == list(out[:k])


@settings(max_examples=150, deadline=None)
@given(tableaux())
def test_score_cells_matches_twin_for_every_cell_and_colour(case):
    """The all-colours scorer used by choose_colour/choose_cell against the plain
    one-cell, one-colour twin (the same float additions, so equal, not just close)."""
    stones, centres, _ = case
    s = new_state(T, 1)
    s.stone[0], s.centre[0] = to_arrays(stones, centres)
    s.box[0] = box_of(stones)
    memo = new_memo(T, 1, np.zeros(1, np.int64), np.zeros((1, N_PARAMS)))
    cells = memo.cells
    m = legal_cells_boxed(s.stone[0], s.centre[0], NEIGHBOURS, s.box[0], cells)
    n_col = len(COLOURS)
    score_cells(pack_state(s), pack_memo(memo), pack_tables(T), 0, m)
    out = memo.cellval
    for i in range(m):
        for col in range(n_col):
            twin = naive_cell_score(stones, centres, to_qr(cells[i]), col)
            assert out[i * n_col + col] == twin, (to_qr(cells[i]), col)


def test_first_stone_goes_in_the_middle():
    stone, centre = to_arrays({}, {})
    out = np.zeros(N_CELLS, np.int64)
    assert legal_cells(stone, centre, NEIGHBOURS, 0, out) == 1
    assert out[0] == MIDDLE
    assert naive_legal_cells({}, set()) is None  # the spec: anywhere


def test_one_stone_completes_two_rings_at_once():
    # centres (0,0) and (2,-1) share the stones (1,0) and (1,-1); (1,0) is placed last
    a, b = (0, 0), (2, -1)
    ring = (set(naive_hex_neighbours(a)) | set(naive_hex_neighbours(b))) - {a, b}
    stones = dict.fromkeys(ring, 0)
    stone, centre = to_arrays(stones, {})
    out = np.zeros(6, np.int64)
    k = rings_closed_by(stone, centre, NEIGHBOURS, to_cell((1, 0)), out)
    assert {to_qr(c) for c in out[:k]} == {a, b}
    assert naive_rings_closed(stones, set(), (1, 0)) == {a, b}


def test_a_filled_centre_is_not_a_ring_again():
    stones = dict.fromkeys(naive_hex_neighbours((0, 0)), 1)
    stone, centre = to_arrays(stones, {(0, 0): int(WonderKind.LESSER)})
    out = np.zeros(6, np.int64)
    assert rings_closed_by(stone, centre, NEIGHBOURS, to_cell((1, 0)), out) == 0


def _counts(ring):
    return np.array([ring.count(c) for c in range(len(COLOURS))], np.int64)


def test_formula_ok_matches_twin_for_every_ring_and_wonder():
    wonders = RULES.data["named_wonders"]["wonder"]
    checked = 0
    for ring in itertools.combinations_with_replacement(range(len(COLOURS)), 6):
        names = [COLOURS[c] for c in ring]
        counts = _counts(list(ring))
        for w, wonder in enumerate(wonders):
            got = formula_ok(
                T.wonder_formula[w], T.wonder_colour[w], T.wonder_count[w], counts, len(COLOURS)
            )
            assert bool(got) == naive_formula_ok(wonder["formula"], names, COLOURS), (
                wonder["id"],
                names,
            )
            checked += 1
        assert bool(all_alike(counts, len(COLOURS))) == (len(set(ring)) == 1)
    assert checked == 84 * len(wonders)  # every colour multiset of a ring


def _ok(wonder_id, ring):
    w = RULES.wonder_ids.index(wonder_id)
    counts = _counts([COLOURS.index(c) for c in ring])
    return bool(formula_ok(T.wonder_formula[w], T.wonder_colour[w], T.wonder_count[w], counts, 4))


def test_named_formula_examples_from_the_spec():
    b, r, u, y = "black", "red", "blue", "yellow"
    # a named colour's "any" slots may be that colour too
    assert _ok("college_of_the_overseers", [u] * 6)
    assert _ok("college_of_the_overseers", [u, u, u, r, r, y])
    assert not _ok("college_of_the_overseers", [u, u, r, r, y, y])
    assert _ok("temple_of_flames", [r, r, r, r, b, b])
    assert not _ok("temple_of_flames", [r, r, r, b, b, b])
    # all four colours present
    assert _ok("tomb_of_the_last_age", [b, r, u, y, y, y])
    assert not _ok("fountain_of_reflection", [b, r, u, u, u, u])
    # colourless formulas are exact
    assert _ok("palace_of_relics", [b, b, b, y, y, y])
    assert not _ok("palace_of_relics", [b, b, b, b, y, y])
    assert not _ok("palace_of_relics", [b] * 6)
    assert _ok("blackened_cenotaph", [b, b, r, r, u, u])
    assert not _ok("blackened_cenotaph", [b, b, r, r, u, y])
    assert _ok("crumbling_memorial", [y] * 6)
    assert not _ok("crumbling_memorial", [y] * 5 + [b])
    assert _ok("underground_library", [b, r, u, y, y, b])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=6, max_size=6), st.integers(0, 14))
def test_ring_colours_read_from_the_grid_count_colours_not_positions(ring, w):
    # six stones around the middle in any order: the kernel's counts feed formula_ok
    stones = dict(zip(naive_hex_neighbours((0, 0)), ring, strict=True))
    stone, _ = to_arrays(stones, {})
    counts = np.zeros(4, np.int64)
    ring_colour_counts(stone, NEIGHBOURS, MIDDLE, 4, counts)
    assert counts.tolist() == [ring.count(c) for c in range(4)]
    wonder = RULES.data["named_wonders"]["wonder"][w]
    got = formula_ok(T.wonder_formula[w], T.wonder_colour[w], T.wonder_count[w], counts, 4)
    assert bool(got) == naive_formula_ok(wonder["formula"], [COLOURS[c] for c in ring], COLOURS)
