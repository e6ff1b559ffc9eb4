"""Unearth's questions for the findings page: the generic ones and its own.

Registered as :attr:`analyzer.unearth.plugin.Unearth.questions`; answered from
the report tables of :mod:`analyzer.unearth.tables` by
:func:`analyzer.tables.findings.answer`.
"""

from __future__ import annotations

from analyzer.tables import findings as F


def _built(r, tables):
    """A named wonder's builders against the other seats (its row of ``named_wonders``)."""
    nb = float(r["builds"])
    if nb <= 0 or not r["build_rate"] > 0:
        return None
    n_all = nb / float(r["build_rate"])
    n_rest = n_all - nb
    builders, others = r["win_builders"], r["win_others"]
    return r["name"], builders, builders * nb, nb, others, others * n_rest, n_rest, n_all


NAMED_WONDERS = F.Question(
    "named_wonders",
    "Does building a named wonder go with winning? (association, not a wonder's worth: for "
    "that, forbid it in a paired comparison, as scenarios/eternal_flame.toml does)",
    F.association("named_wonders", "named_wonders", "builders'", "Seats that built {}", _built),
)

#: Unearth's standard questions, in page order
QUESTIONS = (*F.GENERIC, NAMED_WONDERS)
