"""Unearth's questions for the findings page: the generic ones and its own.

Registered as :attr:`analyzer.unearth.plugin.Unearth.questions`; answered from
the report tables of :mod:`analyzer.unearth.tables` by
:func:`analyzer.tables.findings.answer`.
"""

from __future__ import annotations

from analyzer.tables import findings as F


def _named_wonders(tables, info, params) -> list[F.Finding]:
    """Builders' win rate against the other seats', per named wonder (first cell)."""
    t = tables.get("named_wonders")
    if t is None or not len(t):
        return []
    t = t[t["cell"] == t["cell"].min()]
    out = []
    for _, r in t.iterrows():
        nb = float(r["builds"])
        if nb <= 0 or not r["build_rate"] > 0:
            continue
        n_all = nb / float(r["build_rate"])
        n_rest = n_all - nb
        d, lo, hi = F.rates_difference(r["win_builders"] * nb, nb, r["win_others"] * n_rest, n_rest)
        text = (
            f"Seats that built {r['name']} won {F.pct(r['win_builders'])} of their games against "
            f"{F.pct(r['win_others'])} for the rest, {100 * d:+.1f} points "
            f"[{100 * lo:+.1f}, {100 * hi:+.1f}] (n = {F.count(nb)} of {F.count(n_all)} "
            f"seat-games{F.cell_suffix(info, r['label'])}; association, not cause)."
        )
        out.append(
            F.difference_finding(
                "named_wonders",
                r["label"],
                f"{r['name']}: builders' win rate minus the rest's",
                text,
                d,
                lo,
                hi,
                n_all,
                r["win_others"],
                "seat-games",
                "share",
                note="association, not cause",
            )  # fmt: skip
        )
    return out


NAMED_WONDERS = F.Question(
    "named_wonders",
    "Does building a named wonder go with winning? (association, not a wonder's worth: for "
    "that, forbid it in a paired comparison, as scenarios/eternal_flame.toml does)",
    _named_wonders,
)

#: Unearth's standard questions, in page order
QUESTIONS = (*F.GENERIC, NAMED_WONDERS)
