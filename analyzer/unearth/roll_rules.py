"""Roll modifiers in plain Python, for the exact odds (no numba: ``analyzer odds``
imports this without the kernels).

:func:`roll_parameters` reads every modifier's parameters from the rules data;
:func:`reachable` is the any-order search of final values for a list of
mandatory amounts, the plain-Python twin of
:func:`analyzer.unearth.modifiers._reach_search`. Both are also importable from
:mod:`analyzer.unearth.modifiers`.
"""

from functools import lru_cache

#: named-wonder effects that change a roll (the ``--wonder`` names of ``analyzer odds``)
ROLL_WONDERS = ("college", "columns", "edifice", "sanctuary")


def roll_parameters(rules) -> dict:
    """Every roll modifier's parameters as the rules data gives them.

    ``{"ancestral_claim": {"amount", "faces"}, "reading_the_stones": {"amount"},
    "college": {"amount", "faces"}, "columns": {"amount"}, "sanctuary":
    {"amount"}, "edifice": {"rolls"}}`` (``faces`` 0: any die); a card or wonder
    that is not in the data is left out."""
    out = {}
    for d in rules.data["delvers"]["delver"]:
        if d["effect"] == "ancestral_claim":
            out["ancestral_claim"] = {"amount": int(d["amount"]), "faces": int(d.get("faces", 0))}
        elif d["effect"] == "reading_the_stones":
            out["reading_the_stones"] = {"amount": int(d["amount"])}
    for w in rules.data["named_wonders"]["wonder"]:
        eff = w["effect"]
        if eff in ("college", "columns", "sanctuary"):
            out[eff] = {"amount": int(w["amount"]), "faces": int(w.get("faces", 0))}
        elif eff == "edifice":
            out[eff] = {"rolls": list(range(int(w["reroll_low"]), int(w["reroll_high"]) + 1))}
    return out


@lru_cache(maxsize=4096)
def reachable(n: int, amounts: tuple[int, ...], faces: int) -> frozenset[int]:
    """Final values reachable from ``n`` applying all ``amounts`` in some order,
    each step clamped to ``1 .. faces`` (the plain-Python twin of
    :func:`_reach_search` for mandatory modifiers)."""
    if not amounts:
        return frozenset([n])
    out: set[int] = set()
    for k, a in enumerate(amounts):
        rest = amounts[:k] + amounts[k + 1 :]
        out |= reachable(min(max(n + a, 1), faces), tuple(sorted(rest)), faces)
    return frozenset(out)
