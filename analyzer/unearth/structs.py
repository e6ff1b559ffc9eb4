"""Kernel views of :class:`~analyzer.unearth.state.State` and
:class:`~analyzer.unearth.rules.Tables` as numba StructRefs.

numba flattens a NamedTuple argument into every field's parts; with dozens of
arrays per bundle that made each jitted function take seconds to compile. A
StructRef is passed as one pointer, compiles fast and caches. Kernels use the
same attribute syntax (``s.sc``, ``t.card_claim``) either way.

The packed struct holds the same arrays as the NamedTuple (shared, not copied),
so Python can read the NamedTuple's arrays after a kernel wrote through the struct.
"""

from __future__ import annotations

import numba
from numba.core import types
from numba.experimental import structref

from analyzer.jit import njit
from analyzer.unearth.rules import Tables
from analyzer.unearth.state import State


@structref.register
class StateType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((n, types.unliteral(t)) for n, t in fields)


@structref.register
class TablesType(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((n, types.unliteral(t)) for n, t in fields)


class StateStruct(structref.StructRefProxy):
    """Kernel view of a :class:`State`."""


class TablesStruct(structref.StructRefProxy):
    """Kernel view of a :class:`Tables`."""


structref.define_proxy(StateStruct, StateType, list(State._fields))
structref.define_proxy(TablesStruct, TablesType, list(Tables._fields))


def pack_state(s: State) -> StateStruct | State:
    """The StructRef view of ``s`` (arrays shared); ``s`` itself with the JIT disabled."""
    if numba.config.DISABLE_JIT:
        return s
    return _pack_state_jit(*s)


def pack_tables(t: Tables) -> TablesStruct | Tables:
    """The StructRef view of ``t`` (arrays shared); ``t`` itself with the JIT disabled."""
    if numba.config.DISABLE_JIT:
        return t
    return _pack_tables_jit(*t)


# Built inside a cached jitted function: the proxies' own constructors are
# compiled afresh in every process, which costs seconds.
@njit
def _pack_state_jit(*arrays):
    return StateStruct(*arrays)


@njit
def _pack_tables_jit(*fields):
    return TablesStruct(*fields)
