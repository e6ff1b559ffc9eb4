"""Kernel views of :class:`~analyzer.unearth.state.State` (the game),
:class:`~analyzer.unearth.memo.Memo` (the seats' strategies and memo),
:class:`~analyzer.unearth.rules.Tables` (the rules); a batch's results are a
:func:`analyzer.kernels.kernel_view.results_view`. Kernels take views and scalars only
(:mod:`analyzer.kernels.kernel_view`).

numba flattens a NamedTuple argument into every field's parts; with dozens of
arrays per bundle that made each jitted function take seconds to compile. A view
is passed as one pointer, compiles fast, caches, and costs no reference counting.
Kernels use the same attribute syntax (``s.sc``, ``t.card_claim``) either way.

The view borrows the NamedTuple's arrays (shared, not copied) and keeps the
NamedTuple alive, so Python can read the arrays after a kernel wrote through it.
"""

from __future__ import annotations

from analyzer.kernels.kernel_view import make_view
from analyzer.unearth.memo import Memo
from analyzer.unearth.rules import Tables
from analyzer.unearth.state import State


def pack_state(s: State):
    """The kernel view of ``s`` (arrays shared); ``s`` itself with the JIT disabled."""
    return make_view(s, "State")


def pack_memo(m: Memo):
    """The kernel view of ``m`` (arrays shared); ``m`` itself with the JIT disabled."""
    return make_view(m, "Memo")


def pack_tables(t: Tables):
    """The kernel view of ``t`` (arrays shared); ``t`` itself with the JIT disabled."""
    return make_view(t, "Tables")
