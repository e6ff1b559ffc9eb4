"""Uruk's questions for the findings page: the generic ones and its own.

Registered as :attr:`analyzer.uruk.plugin.Uruk.questions`; answered from the
``inventions_at_end`` table of :mod:`analyzer.uruk.tables`.
"""

from __future__ import annotations

from analyzer.tables import findings as F


def _displayed(r, tables):
    """An invention's owners at the end against the other seats (its row of
    ``inventions_at_end``). The others' rate follows from the table: every game's
    win shares sum to one, so all seat-games together win ``1/players`` of the time."""
    n1, share = float(r["n"]), float(r["share"])
    if not 0 < share < 1:
        return None
    n_all = n1 / share
    n0 = n_all - n1
    w_all = n_all / float(r["players"])
    w1 = float(r["win_rate"]) * n1
    return r["name"], r["win_rate"], w1, n1, (w_all - w1) / n0, w_all - w1, n0, n_all


INVENTIONS = F.Question(
    "inventions",
    "Does displaying an invention at the end go with winning?",
    F.association(
        "inventions", "inventions_at_end", "owners'", "Seats displaying {} at the end", _displayed
    ),
)

#: Uruk's standard questions, in page order
QUESTIONS = (*F.GENERIC, INVENTIONS)
