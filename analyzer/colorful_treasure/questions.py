"""Colorful Treasure's questions for the findings page: the generic ones and its own.

Registered as :attr:`analyzer.colorful_treasure.plugin.ColorfulTreasure.questions`;
answered from the ``rewards`` table of :mod:`analyzer.colorful_treasure.tables`.
"""

from __future__ import annotations

from analyzer.tables import findings as F


def _rewards(tables, info, params) -> list[F.Finding]:
    """Holders' win rate against the other seats', per reward (first cell)."""
    t = tables.get("rewards")
    if t is None or not len(t):
        return []
    t = t[t["cell"] == t["cell"].min()]
    n_all = _seat_games(tables, int(t["cell"].iloc[0]))
    out = []
    for _, r in t.iterrows():
        if not n_all or not r["held"] > 0 or r["held"] >= 1:
            continue
        n1 = r["held"] * n_all
        n0 = n_all - n1
        d, lo, hi = F.rates_difference(r["win_holders"] * n1, n1, r["win_others"] * n0, n0)
        name = str(r["reward"]).replace("_", " ")
        text = (
            f"Seats holding the {name} won {F.pct(r['win_holders'])} of their games against "
            f"{F.pct(r['win_others'])} for the rest, {100 * d:+.1f} points "
            f"[{100 * lo:+.1f}, {100 * hi:+.1f}] (n = {F.count(n1)} of {F.count(n_all)} "
            f"seat-games{F.cell_suffix(info, r['label'])}; association, not cause)."
        )
        out.append(
            F.difference_finding(
                "rewards",
                r["label"],
                f"{name}: holders' win rate minus the rest's",
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


def _seat_games(tables, cell: int) -> float:
    seats = tables.get("seats")
    if seats is None:
        return 0.0
    return float(seats.loc[seats["cell"] == cell, "n"].sum())


REWARDS = F.Question("rewards", "Does taking a reward go with winning?", _rewards)

#: Colorful Treasure's standard questions, in page order
QUESTIONS = (*F.GENERIC, REWARDS)
