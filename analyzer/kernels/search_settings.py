"""The ``search`` player's settings checked, without numba or numpy.

Every game's ``strategy_params.search`` table is checked here, so a scenario's
values are answered before any engine loads (:mod:`analyzer.kernels.search`,
the kernels, re-exports :func:`search_settings`). A game keeps its settings'
names, bounds and words as plain data beside its defaults (``SEARCH_SETTINGS``
in ``<game>/defaults.py`` or ``codes.py``).
"""

from __future__ import annotations

import math
from numbers import Integral, Real


def search_settings(
    params: dict | None, defaults, settings: dict, strict: bool = False
) -> dict[str, float]:
    """A ``search`` player's settings: ``defaults`` (rows ``(name, value, help)``)
    with ``params["search"]`` applied, each checked against ``settings[key] =
    (low, high, words)`` (an integer setting when ``low`` is an int;
    ``strategy_params.search.<key>: bad value ...`` otherwise). A key not in
    ``settings`` is refused if ``strict``, else left to the caller (a game
    whose search also takes its base player's parameters checks those)."""
    from analyzer.core.errors import bad_value

    out = {name: default for name, default, _ in defaults}
    for key, val in dict((params or {}).get("search", {})).items():
        if key not in settings:
            if strict:
                raise bad_value("strategy_params.search", key, ", ".join(settings))
            continue
        low, high, allowed = settings[key]
        # numpy's scalars register as numbers (Integral, Real); bool is refused
        ok = not isinstance(val, bool) and isinstance(val, Integral | Real)
        ok = ok and math.isfinite(val)  # int(inf) would raise below
        if ok and isinstance(low, int) and float(val) != int(val):
            ok = False
        if not ok or not low <= val <= high:
            raise bad_value(f"strategy_params.search.{key}", val, allowed)
        out[key] = float(val)
    return out
