"""Bit masks of cards and places: count the bits, find the lowest, pick the k-th.

Colorful Treasure keeps sets of cards and of grid places as int64 masks (bit
``c`` for card or place ``c``; at most 60 of them, see ``rules.MAX_WONDERS``).
These helpers compile to single machine instructions (``popcnt``, ``tzcnt``)
inside kernels; with ``NUMBA_DISABLE_JIT=1`` the plain Python bodies run.
"""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic, overload

from analyzer.kernels.jit import njit


def popcount(x):
    """Number of bits set in the non-negative int64 ``x``."""
    return int(x).bit_count()


def lowest(x):
    """Index of the lowest bit set in ``x`` (``x`` > 0)."""
    x = int(x)
    return (x & -x).bit_length() - 1


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@overload(popcount, inline="always")
def _popcount_impl(x):
    def impl(x):
        return _ctpop(x)

    return impl


@overload(lowest, inline="always")
def _lowest_impl(x):
    def impl(x):
        return _cttz(x)

    return impl


@njit(inline="always")
def kth_bit(x, k):
    """Index of the ``k``-th lowest bit set in ``x`` (k = 0: the lowest), or -1
    if ``x`` has ``k`` or fewer bits."""
    for _ in range(k):
        x &= x - 1
    if x == 0:
        return -1
    return lowest(x)
