"""Views (analyzer.kernels.kernel_view): kernels see the NamedTuple's own data, and the
view rule (analyzer.kernels.jit) refuses kernels that could hand out an array read from one."""

from typing import NamedTuple

import numba
import numpy as np
import pytest

from analyzer.kernels.jit import ViewRuleError, check_view_rule, njit
from analyzer.kernels.kernel_view import View, make_view


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
def _returns_field(v):
    return v.ints  # an array read from a view, handed out: freed memory once returned


@njit
def _returns_tuple_with_field(v):
    return 1, v.grid[0]


@njit
def _takes_view_and_array(v, a):
    return v.count + a[0]


@njit
def _returns_fresh_array_but_takes_view(v):
    return np.zeros(v.count)  # owned, but the rule is about the signature: refused too


@njit
def _no_view(a):
    return a[1:]  # no view in sight: ordinary counted arrays may come and go


@njit(inline="always")
def _inline_takes_array(v, a):
    return v.count + a[0]


@njit
def _calls_inline(v):
    return _inline_takes_array(v, v.ints)


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


@needs_jit
@pytest.mark.parametrize(
    "kernel, args, words",
    [
        (_returns_field, (), "returns array"),
        (_returns_tuple_with_field, (), "returns"),
        (_returns_fresh_array_but_takes_view, (), "returns array"),
        (_takes_view_and_array, (np.arange(3),), "takes a view and an array (argument 2"),
    ],
)
def test_a_kernel_that_breaks_the_view_rule_is_refused_naming_it(kernel, args, words):
    v = make_view(bundle(), "Bundle")
    with pytest.raises(ViewRuleError) as err:
        kernel(v, *args)
    assert kernel.py_func.__name__ in str(err.value)
    assert words in str(err.value)


@needs_jit
def test_the_view_rule_lets_plain_array_kernels_and_inline_helpers_through():
    assert list(_no_view(np.arange(4))) == [1, 2, 3]
    v = make_view(bundle(), "Bundle")
    assert _calls_inline(v) == 7 + 0


def test_check_view_rule_reads_signatures():
    """The rule itself on numba signatures (no compiling): the cases above and a
    view-and-scalars kernel that returns a tuple of scalars."""
    from numba.core import types
    from numba.core.typing import signature

    vt = numba.typeof(View(bundle(), "Bundle")) if not numba.config.DISABLE_JIT else None
    if vt is None:
        pytest.skip("views exist only when jitted")
    arr = types.int64[:]
    check_view_rule("ok", signature(types.UniTuple(types.int64, 2), vt, types.int64))
    check_view_rule("no_view", signature(arr, arr, types.int64))
    with pytest.raises(ViewRuleError, match="bad"):
        check_view_rule("bad", signature(types.Tuple((types.float64, arr)), vt))
    with pytest.raises(ViewRuleError, match="bad"):
        check_view_rule("bad", signature(types.none, vt, types.List(types.int64)))
    check_view_rule("inline", signature(types.int64, vt, arr), inline=True)
    with pytest.raises(ViewRuleError):
        check_view_rule("inline", signature(arr, vt, arr), inline=True)


def test_make_view_without_jit_returns_the_bundle(monkeypatch):
    monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    b = bundle()
    assert make_view(b, "Bundle") is b
