"""Uruk's questions for the findings page: the generic ones and its own.

Registered as :attr:`analyzer.uruk.plugin.Uruk.questions`; answered from the
``inventions_at_end`` table of :mod:`analyzer.uruk.tables`.
"""

from __future__ import annotations

from analyzer.tables import findings as F


def _inventions(tables, info, params) -> list[F.Finding]:
    """Owners' win rate against the other seats', per invention displayed at the
    end (first cell). The others' rate follows from the table: every game's win
    shares sum to one, so all seat-games together win ``1/players`` of the time."""
    t = tables.get("inventions_at_end")
    if t is None or not len(t):
        return []
    t = t[t["cell"] == t["cell"].min()]
    out = []
    for _, r in t.iterrows():
        n1, share = float(r["n"]), float(r["share"])
        if not 0 < share < 1:
            continue
        n_all = n1 / share
        n0 = n_all - n1
        w_all = n_all / float(r["players"])
        w1 = float(r["win_rate"]) * n1
        d, lo, hi = F.rates_difference(w1, n1, w_all - w1, n0)
        others = (w_all - w1) / n0
        text = (
            f"Seats displaying {r['name']} at the end won {F.pct(r['win_rate'])} of their games "
            f"against {F.pct(others)} for the rest, {100 * d:+.1f} points "
            f"[{100 * lo:+.1f}, {100 * hi:+.1f}] (n = {F.count(n1)} of {F.count(n_all)} "
            f"seat-games{F.cell_suffix(info, r['label'])}; association, not cause)."
        )
        out.append(
            F.difference_finding(
                "inventions",
                r["label"],
                f"{r['name']}: owners' win rate minus the rest's",
                text,
                d,
                lo,
                hi,
                n_all,
                others,
                "seat-games",
                "share",
                note="association, not cause",
            )  # fmt: skip
        )
    return out


INVENTIONS = F.Question(
    "inventions", "Does displaying an invention at the end go with winning?", _inventions
)

#: Uruk's standard questions, in page order
QUESTIONS = (*F.GENERIC, INVENTIONS)
