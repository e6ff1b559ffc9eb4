"""Borrowed views (analyzer.kernel_view): kernels see the NamedTuple's own data."""

from typing import NamedTuple

import numba
import numpy as np
import pytest

from analyzer.jit import njit
from analyzer.kernel_view import View, borrowed, make_view


class Bundle(NamedTuple):
    ints: np.ndarray
    grid: np.ndarray
    count: int
    flag: bool
    floats: np.ndarray


def bundle():
    return Bundle(
        ints=np.arange(6, dtype=np.int64),
        grid=np.zeros((3, 4), np.float64),
        count=7,
        flag=True,
        floats=np.linspace(0.0, 1.0, 5),
    )


@njit
def _read(v):
    return v.ints.sum() + v.count + (100 if v.flag else 0) + v.floats[-1] + v.grid.shape[1]


@njit
def _write(v, value):
    v.grid[1, 2] = value
    part = v.ints[2:5]  # a view of a borrowed array
    part[0] = -1


@njit
def _inner(v, i):
    return v.ints[i]


@njit
def _calls(v, n):
    total = 0
    for i in range(n):
        total += _inner(v, i % v.ints.shape[0])
    return total


@njit
def _sum_borrowed(a):
    b = borrowed(a)
    return b.sum()


needs_jit = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="views exist only when jitted")


@needs_jit
def test_kernel_reads_every_kind_of_field():
    b = bundle()
    v = make_view(b, "Bundle")
    assert isinstance(v, View)
    assert _read(v) == pytest.approx(b.ints.sum() + 7 + 100 + 1.0 + 4)


@needs_jit
def test_kernel_writes_land_in_the_namedtuple_arrays():
    b = bundle()
    v = make_view(b, "Bundle")
    _write(v, 2.5)
    assert b.grid[1, 2] == 2.5
    assert b.ints[2] == -1
    assert v.bundle is b and v.count == 7  # Python reads fields through the view


@needs_jit
def test_view_passed_down_calls_and_kept_alive():
    v = make_view(bundle(), "Bundle")  # the view alone keeps the arrays alive
    import gc

    gc.collect()
    assert _calls(v, 12) == 2 * sum(range(6))


@needs_jit
def test_views_of_other_field_types_are_other_types():
    a = make_view(bundle(), "Bundle")
    other = bundle()._replace(ints=np.arange(6, dtype=np.int32))
    b = make_view(other, "Bundle")
    assert numba.typeof(a) != numba.typeof(b)
    assert _read(b) == pytest.approx(_read(a))


def test_borrowed_is_the_identity_for_results():
    a = np.arange(10.0)
    assert _sum_borrowed(a) == 45.0


def test_make_view_without_jit_returns_the_bundle(monkeypatch):
    monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    b = bundle()
    assert make_view(b, "Bundle") is b
