"""Plain values of the command line read without pydantic.

typer (from 0.2x) reads every option's value through a pydantic ``TypeAdapter``,
and importing pydantic is the largest single part of the command line's start
(about a third of the time a bad option takes to be answered). The options of
analyzer are all of plain types (``str``, ``int``, ``float``, ``bool``, ``Path``
and lists of them), so :func:`install` gives those a reading of their own: a value in its
plain form (``12``, ``-3``, ``0.05``, ``1e-3``, a word, a path) is read here;
anything else (``1_000``, `` 7``, ``abc`` for a number, an empty path) goes to
typer's own reading, so its value or its error is exactly typer's
(``tests/cli/test_coercion.py`` compares both on the same values). With another
typer, which lacks the internals used here, nothing is changed.
"""

from __future__ import annotations

import re
from pathlib import Path

_INT = re.compile(r"-?[0-9]+")
_FLOAT = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")
#: the annotations read here
PLAIN = (str, int, float, bool, Path)
#: what :func:`plain_value` returns for a value it leaves to typer
MISS = object()


def plain_value(annotation, value):
    """``value`` read as ``annotation`` (one of :data:`PLAIN`) when it is in its plain
    form, else :data:`MISS` (typer's own reading answers)."""
    if annotation is str:
        return value if isinstance(value, str) else MISS
    if annotation is bool or isinstance(value, bool):
        return value if annotation is bool and isinstance(value, bool) else MISS
    if annotation is int:
        if isinstance(value, int):
            return value
        return int(value) if isinstance(value, str) and _INT.fullmatch(value) else MISS
    if annotation is float:
        if isinstance(value, int | float):
            return float(value)
        return float(value) if isinstance(value, str) and _FLOAT.fullmatch(value) else MISS
    if annotation is Path:
        if isinstance(value, Path):
            return value
        return Path(value) if isinstance(value, str) and value.strip() else MISS
    return MISS


def _leaf(annotation):
    """The annotation read value by value: ``list[X]``'s ``X``, else itself."""
    from typing import get_args, get_origin

    if get_origin(annotation) is list:
        args = get_args(annotation)
        return args[0] if len(args) == 1 else None
    return annotation


def is_plain(descriptor) -> bool:
    """Whether typer's ``TypeDescriptor`` is one read here: a plain type or a list of
    one, no parser, no bounds, no choices, no file to open, no path checks."""
    info = descriptor.parameter_info
    if descriptor.file_annotation is not None or info.parser is not None:
        return False
    if info.min is not None or info.max is not None or getattr(info, "click_type", None):
        return False
    leaf = _leaf(descriptor.annotation)
    if not any(leaf is t for t in PLAIN):
        return False
    checks = (getattr(info, k, False) for k in ("exists", "resolve_path", "allow_dash"))
    if leaf is Path and any(checks):
        return False
    return not descriptor.is_choice


def install() -> bool:
    """Give typer's parameters of plain types the reading above; False (nothing
    changed) with a typer that lacks the internals it relies on."""
    try:
        from typer import core
        from typer._coercion import RuntimeParam, build_runtime_param
        from typer._param_types import coerce_cli_path
    except ImportError:
        return False
    cls = getattr(core, "_TyperParameter", None)
    typers = getattr(cls, "get_runtime_param", None)
    if typers is None or getattr(typers, "_analyzer_plain", False):
        return typers is not None

    from dataclasses import dataclass

    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):
        """A value of a plain type read without pydantic; any other to typer's."""

        descriptor: object = None

        def _typers(self):
            return build_runtime_param(self.descriptor)

        def _one(self, leaf, value, param, ctx):
            out = plain_value(leaf, value)
            if out is not MISS and leaf is Path:  # typer's checks of a path, as it does
                info = self.parameter_info
                path_type = getattr(info, "path_type", None) or Path
                out = coerce_cli_path(out, info, path_type=path_type, param=param, ctx=ctx)
            return out

        def _coerce_value(self, value, param, ctx):
            leaf = _leaf(self.annotation)
            if leaf is self.annotation:
                out = self._one(leaf, value, param, ctx)
            elif isinstance(value, list | tuple):
                out = [self._one(leaf, v, param, ctx) for v in value]
                out = MISS if any(v is MISS for v in out) else out
            else:
                out = MISS
            if out is MISS:
                return self._typers()._coerce_value(value, param=param, ctx=ctx)
            return out

    def get_runtime_param(self):
        if self._runtime_param is None and is_plain(self.type_descriptor):
            d = self.type_descriptor
            self._runtime_param = PlainRuntimeParam(
                parameter_info=d.parameter_info, annotation=d.annotation, descriptor=d
            )
        return typers(self)

    get_runtime_param._analyzer_plain = True
    cls.get_runtime_param = get_runtime_param
    return True
