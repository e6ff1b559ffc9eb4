"""Helpers every game's rules loader shares: overrides checked against the shipped data.

A game keeps its rules as data files and lets a designer replace any value by a
dotted path (``docs/CONTRACTS.md``). :func:`coerce_override` checks that a new
value has the type of the value it replaces; :func:`check` raises the one-line
:class:`~analyzer.core.errors.InputError` of a failed validation.
"""

from __future__ import annotations

import copy
import math
from typing import Any

from analyzer.core.errors import bad_value


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
        ok = _small_int(value)
        if not ok and isinstance(value, int) and not isinstance(value, bool):
            raise bad_value(where, value, f"an integer from {-LIMIT} to {LIMIT}")
    elif isinstance(old, float):
        ok = _small_int(value) or isinstance(value, float) and math.isfinite(value)
        value = float(value) if ok else value
    elif isinstance(old, list):
        kind = type(old[0]) if old else int
        check_one = _small_int if kind is int else lambda v: isinstance(v, kind)
        ok = isinstance(value, list) and len(value) <= LIMIT_LIST and all(map(check_one, value))
    else:
        ok = isinstance(value, type(old))
    if not ok:
        raise bad_value(where, value, f"a value of the same type as {old!r}")
    return copy.deepcopy(value)


#: largest magnitude of an integer override (every kernel array holds it; a
#: bigger number is a typo, and beyond 64 bits it would not even fit)
LIMIT = 2**31 - 1
#: longest list an override may give
LIMIT_LIST = 10_000


def _small_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -LIMIT <= v <= LIMIT


def check_count(data: dict, key: str, where: str, low: int = 0, high: int = 10_000) -> None:
    """``data[key]`` must be an integer count from ``low`` to ``high`` (a count
    below zero, or one so large that set-up would exhaust memory, makes no game)."""
    v = data.get(key)
    check(
        _small_int(v) and low <= v <= high,
        f"{where}.{key}" if where else key,
        v,
        f"an integer from {low} to {high}",
    )


def check(cond: bool, where: str, value: Any, allowed: str) -> None:
    """Raise ``bad_value(where, value, allowed)`` unless ``cond``."""
    if not cond:
        raise bad_value(where, value, allowed)


def read_bounds(package: str, params, where: str = "data/tuning.toml") -> tuple:
    """The ``[bounds]`` table of a game's ``data/tuning.toml`` as ``Strategy.bounds``
    (``(name, low, high)`` in ``params`` order): the ranges ``analyzer tune``
    searches. Every key must name a parameter; low < high, both finite."""
    import tomllib
    from importlib import resources

    text = resources.files(package).joinpath("data", "tuning.toml").read_text("utf-8")
    table = tomllib.loads(text).get("bounds", {})
    for name, pair in table.items():
        check(name in params, f"{where}: bounds", name, ", ".join(params))
        ok = (
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(x, int | float) and math.isfinite(x) for x in pair)
            and pair[0] < pair[1]
        )
        check(ok, f"{where}: bounds.{name}", pair, "[low, high], finite, low < high")
    return tuple((p, float(table[p][0]), float(table[p][1])) for p in params if p in table)
