"""Helpers every game's rules loader shares: overrides checked against the shipped data.

A game keeps its rules as data files and lets a designer replace any value by a
dotted path (``docs/CONTRACTS.md``). :func:`coerce_override` checks that a new
value has the type of the value it replaces; :func:`check` raises the one-line
:class:`~analyzer.errors.InputError` of a failed validation.
"""

from __future__ import annotations

import copy
from typing import Any

from analyzer.errors import bad_value


def coerce_override(old: Any, value: Any, where: str, *, tables: bool = True) -> Any:
    """``value`` (a copy) if it has the type of the shipped ``old`` value.

    Booleans only replace booleans; integers integers; a float accepts an
    integer too (made a float); a list must hold values of the kind of the
    shipped list's first element (integers for an empty one); a table replaces a
    table unless ``tables`` is false (then the path must name a value).
    """
    if isinstance(old, dict) and not tables:
        raise bad_value(where, value, "a path naming a value, not a table")
    if isinstance(old, bool):
        ok = isinstance(value, bool)
    elif isinstance(old, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(old, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(old, list):
        kind = type(old[0]) if old else int
        ok = isinstance(value, list) and all(
            isinstance(v, kind) and not isinstance(v, bool) for v in value
        )
    else:
        ok = isinstance(value, type(old))
    if not ok:
        raise bad_value(where, value, f"a value of the same type as {old!r}")
    return copy.deepcopy(value)


def check(cond: bool, where: str, value: Any, allowed: str) -> None:
    """Raise ``bad_value(where, value, allowed)`` unless ``cond``."""
    if not cond:
        raise bad_value(where, value, allowed)
