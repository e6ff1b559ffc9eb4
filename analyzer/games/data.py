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
    """``value`` (a copy) if it has the type and shape of the shipped ``old`` value.

    Booleans only replace booleans; integers integers; a float accepts an
    integer too (made a float); a list must be a list whose every element has
    the type and shape of the shipped list's first element (integers for an
    empty one): a list of lists stays one; a table replaces a table unless
    ``tables`` is false (then the path must name a value), with only the keys of
    the shipped table, each value checked against the one it replaces (keys it
    leaves out keep their shipped values).
    """
    if isinstance(old, dict) and not tables:
        raise bad_value(where, value, "a path naming a value, not a table")
    return _coerce(old, value, where)


def _coerce(old: Any, value: Any, where: str, fill: bool = True) -> Any:
    """:func:`coerce_override` of one value, its elements and keys checked in turn
    (``fill``: a table may leave keys out; not an element of a list, which would
    take them from the shipped first element)."""
    if isinstance(old, dict):
        if not isinstance(value, dict):
            raise bad_value(where, value, f"a table like {_short(old)}")
        unknown = [k for k in value if k not in old]
        if unknown:
            raise bad_value(where, unknown[0], "a key of the table it replaces: " + ", ".join(old))
        missing = [k for k in old if k not in value]
        if missing and not fill:
            raise bad_value(where, value, "a table with the keys " + ", ".join(old))
        out = copy.deepcopy(old)
        for k, v in value.items():
            out[k] = _coerce(old[k], v, f"{where} key {k!r}")
        return out
    if isinstance(old, list):
        if not isinstance(value, list) or len(value) > LIMIT_LIST:
            raise bad_value(where, value, f"a list like {_short(old)}")
        if not old:
            if not all(map(_small_int, value)):
                raise bad_value(where, value, "a list of integers")
            return list(value)
        return [_coerce(old[0], v, f"{where} [{i}]", False) for i, v in enumerate(value)]
    if isinstance(old, bool):
        ok = isinstance(value, bool)
    elif isinstance(old, int):
        ok = _small_int(value)
        if not ok and isinstance(value, int) and not isinstance(value, bool):
            raise bad_value(where, value, f"an integer from {-LIMIT} to {LIMIT}")
    elif isinstance(old, float):
        ok = _small_int(value) or isinstance(value, float) and math.isfinite(value)
        value = float(value) if ok else value
    else:
        ok = isinstance(value, type(old))
    if not ok:
        raise bad_value(where, value, f"a value of the same type as {_short(old)}")
    return copy.deepcopy(value)


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
