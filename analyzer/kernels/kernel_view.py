"""Views: hand a bundle of arrays to numba kernels without reference counting.

A kernel that takes a NamedTuple of dozens of arrays compiles slowly (numba
flattens every field into arguments), and a numba StructRef compiles fast but is
reference counted: every call that passes it, and every ``s.field`` read,
increments and decrements an atomic counter. In the game engine that counting
took about two thirds of the run time.

A :class:`View` is a plain pointer to a C struct of the bundle's fields, built
once per batch. Array fields are stored *borrowed* (no owner, no counter), so
reading ``s.field`` inside a kernel costs one load and no reference counting
(the array's owner is a constant null, so LLVM drops every count on it and on
what is sliced from it), and passing ``s`` to a function costs one pointer. The
Python :class:`View` object keeps the NamedTuple (and so every array) alive.
Fields are read-only from kernels (arrays are written in place as usual).

**The one rule that keeps this safe**: an array read from a view lives only as
long as the call that received the view. So a kernel that takes a view takes
views and scalars only, and returns no array (nor a tuple holding one):
:func:`analyzer.kernels.jit.njit` refuses to compile a kernel that breaks this, naming
it. Work space a kernel needs is a named field of a view, never an array made
and handed on. Kernels that take no view (the tableau geometry, the tiebreak)
take and return ordinary, reference-counted arrays.

With ``NUMBA_DISABLE_JIT=1`` :func:`make_view` returns the NamedTuple itself, so
kernels run unchanged as plain Python.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core.cgutils import create_struct_proxy
from numba.core.typing.templates import AttributeTemplate
from numba.extending import (
    NativeValue,
    infer_getattr,
    intrinsic,
    lower_getattr_generic,
    models,
    register_model,
    typeof_impl,
    unbox,
)

from analyzer.kernels.jit import njit


class ViewType(types.Type):
    """numba type of a :class:`View`: a pointer to a struct of ``fields``."""

    is_kernel_view = True  #: what :func:`analyzer.kernels.jit.njit`'s view rule looks for

    def __init__(self, tag: str, fields: tuple):
        self.tag = tag
        self.fields = tuple(fields)
        self.field_dict = dict(self.fields)
        body = ", ".join(f"{n}: {t}" for n, t in self.fields)
        super().__init__(name=f"View[{tag}]({body})")
        self.data_type = ViewDataType(self)

    def __reduce__(self):  # cache index entries are pickled
        return (ViewType, (self.tag, self.fields))


class ViewDataType(types.Type):
    """The struct a :class:`ViewType` points to."""

    def __init__(self, view: ViewType):
        self.view = view
        super().__init__(name=f"Data{view.name}")

    def __reduce__(self):
        return (ViewDataType, (self.view,))


@register_model(ViewDataType)
class _ViewDataModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, list(fe_type.view.fields))


@register_model(ViewType)
class _ViewModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        data = dmm.lookup(fe_type.data_type).get_data_type()
        super().__init__(dmm, fe_type, data.as_pointer())


def _without_owner(context, builder, ty, value):
    """``value`` itself, or for an array a copy with no meminfo and no parent
    (an array's data model is a struct: numba's ``cgutils.create_struct_proxy``,
    as in the interval example of numba's extension docs)."""
    if not isinstance(ty, types.Array):
        return value
    src = create_struct_proxy(ty)(context, builder, value=value)
    out = create_struct_proxy(ty)(context, builder)
    for name in ("nitems", "itemsize", "data", "shape", "strides"):
        setattr(out, name, getattr(src, name))
    out.meminfo = ir.Constant(out.meminfo.type, None)
    out.parent = ir.Constant(out.parent.type, None)
    return out._getvalue()


@infer_getattr
class _ViewAttribute(AttributeTemplate):
    key = ViewType

    def generic_resolve(self, typ, attr):
        return typ.field_dict.get(attr)


@lower_getattr_generic(ViewType)
def _view_getattr(context, builder, typ, val, attr):
    data = create_struct_proxy(typ.data_type, kind="data")(context, builder, ref=val)
    ty = typ.field_dict[attr]
    # a constant null owner lets LLVM drop the reference counting of the result
    return _without_owner(context, builder, ty, getattr(data, attr))


@intrinsic
def _store_view(typingctx, buf, values):
    """Write ``values`` (a tuple, arrays borrowed) into the bytes of ``buf`` if
    they fit; return the bytes they take (a ``buf`` too small is left as it is).

    The struct's layout depends only on the fields' types, so positional names do.
    """
    fields = tuple((f"f{i}", types.unliteral(v)) for i, v in enumerate(values.types))
    vt = ViewType("store", fields)

    def codegen(context, builder, sig, args):
        llty = context.get_data_type(vt.data_type)
        size = context.get_abi_sizeof(llty)
        arr = create_struct_proxy(sig.args[0])(context, builder, value=args[0])
        fits = builder.icmp_signed(">=", arr.nitems, ir.Constant(arr.nitems.type, size))
        with builder.if_then(fits):
            ptr = builder.bitcast(arr.data, llty.as_pointer())
            data = create_struct_proxy(vt.data_type, kind="data")(context, builder, ref=ptr)
            for i, (name, ty) in enumerate(fields):
                v = builder.extract_value(args[1], i)
                v = context.cast(builder, v, values.types[i], ty)
                setattr(data, name, _without_owner(context, builder, ty, v))
        return context.get_constant(types.intp, size)

    return types.intp(buf, values), codegen


@njit
def _fill(buf, *values):
    return _store_view(buf, values)


#: a buffer no struct fits in: :func:`_fill` on it only measures
_NO_BYTES = np.zeros(0, np.uint8)


class View:
    """A NamedTuple of arrays and scalars as one borrowed pointer for kernels.

    Keep the View (it keeps the NamedTuple) alive while kernels use it.
    """

    __slots__ = ("_numba_type", "_bundle", "_buf", "_address")

    def __init__(self, bundle, tag: str):
        fields = tuple(
            (name, types.unliteral(numba.typeof(getattr(bundle, name)))) for name in bundle._fields
        )
        self._numba_type = ViewType(tag, fields)
        self._bundle = bundle
        self._buf = np.zeros(_fill(_NO_BYTES, *bundle) + 64, np.uint8)
        _fill(self._buf, *bundle)
        self._address = self._buf.ctypes.data

    @property
    def bundle(self):
        """The NamedTuple this view shows."""
        return self._bundle

    def __getattr__(self, name):  # Python code may read fields as on the NamedTuple
        return getattr(self._bundle, name)


@typeof_impl.register(View)
def _typeof_view(val, c):
    return val._numba_type


@unbox(ViewType)
def _unbox_view(typ, obj, c):
    addr = c.pyapi.object_getattr_string(obj, "_address")
    ptr = c.pyapi.long_as_voidptr(addr)
    c.pyapi.decref(addr)
    llty = c.context.get_value_type(typ)
    return NativeValue(c.builder.bitcast(ptr, llty))


def make_view(bundle, tag: str):
    """A :class:`View` of the NamedTuple ``bundle``; ``bundle`` itself with the JIT disabled."""
    if numba.config.DISABLE_JIT:
        return bundle
    return View(bundle, tag)


class Results(NamedTuple):
    """What a game's batch kernel writes: one row per (game, seat)."""

    results: np.ndarray  #: integers[count * n_players, the game's result columns]
    wins: np.ndarray  #: float32[count * n_players] win shares


def results_view(results: np.ndarray, wins: np.ndarray):
    """The kernel view of a batch's output arrays (kernels take views, not arrays)."""
    return make_view(Results(results, wins), "Results")
