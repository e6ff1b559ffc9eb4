"""A finding and a question: what a report says, one estimate at a time.

A *question* (:class:`Question`) turns report tables into *findings*
(:class:`Finding`): one estimate with its 95% interval, its sample size, the
value that would mean "no effect" and a sentence saying it in words. The
findings of a report (:class:`Findings`) are tested against "no effect",
corrected for their number with Holm's method and ranked by effect size
(:func:`correct`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (pandas loads with the tables: a game's questions load without it)
    import pandas as pd

#: familywise error rate of the corrected tests
ALPHA = 0.05


#: findings shown per question on the first page (every one is in tables/findings.csv)
PAGE_PER_QUESTION = 4


@dataclass(frozen=True)
class Finding:
    """One answer: an estimate with its 95% interval, sample size and a sentence.

    ``effect`` is ``estimate - reference`` in the estimate's units; ``effect_size``
    is ``|effect|`` relative to the baseline (the ranking key); ``p_value`` is the
    uncorrected two-sided p-value, ``p_adjusted`` Holm's over the whole report.
    Rates are shares (0..1); ``unit`` says what the numbers are.
    """

    question: str
    label: str  #: the configuration (cell label) it describes
    subject: str  #: what was measured, e.g. "first player's win rate"
    text: str  #: the sentence (estimate, interval, n)
    estimate: float
    low: float
    high: float
    n: int
    n_unit: str  #: "games", "seat-games", "paired games", ...
    reference: float
    effect: float
    effect_size: float
    p_value: float
    unit: str = "share"  #: "share" (0..1), "points", "turns", ...
    note: str = ""  #: e.g. "association, not cause"
    p_adjusted: float = math.nan
    significant: bool = False
    rank: int = 0  #: 1 = largest effect size in the report

    def verdict(self) -> str:
        """``significant (Holm p = 0.003)`` or ``not significant (...)``."""
        p = self.p_adjusted
        ptext = "p < 0.001" if math.isfinite(p) and p < 0.001 else f"p = {p:.3f}"
        word = "significant" if self.significant else "not significant"
        return f"{word} (Holm-adjusted {ptext})" if math.isfinite(p) else word

    def as_dict(self) -> dict:
        d = asdict(self)
        return {
            k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in d.items()
        }


#: ``answer(tables, info, params) -> [Finding]``
Answer = Callable[["dict[str, pd.DataFrame]", dict, dict], "list[Finding]"]


@dataclass(frozen=True)
class Question:
    """A question a report can answer from its tables.

    ``id`` is what a scenario's ``questions`` key names; ``params`` the keys a
    scenario may give with it (``strategy``, ``seat``, ``metric``); ``needs``
    a scenario feature without which it has no answer (``"compare"`` or
    ``"sweep"``)."""

    id: str
    text: str
    answer: Answer
    params: tuple[str, ...] = ()
    needs: str | None = None
    #: ``heading(info, params) -> str | None``: the question as a run puts it (None: ``text``)
    heading: Callable[[dict, dict], str | None] | None = None


@dataclass
class Findings:
    """What :func:`answer` returns: the questions asked and their findings, ranked."""

    questions: list[dict]  #: ``{"id", "text", "params"}`` in the order asked
    findings: list[Finding]  #: ranked by effect size (largest first)
    method: str
    whose_play: list[str] = field(default_factory=list)
    assumed: list[str] = field(default_factory=list)
    explicit: bool = False  #: the scenario named its questions
    page_per_question: int = PAGE_PER_QUESTION  #: findings per question shown on page 1
    #: the field of players in one line per field, for the top of page 1
    field_of_players: list[str] = field(default_factory=list)
    #: question key -> sentences saying whether its answer holds in every field
    across: dict[str, list[str]] = field(default_factory=dict)
    #: question key -> its one-line verdict in words (:mod:`analyzer.tables.verdicts`)
    verdicts: dict[str, str] = field(default_factory=dict)
    #: labels of the configurations answers start from (the printed game first)
    first_labels: list[str] = field(default_factory=list)

    def for_question(self, index: int) -> list[Finding]:
        """Question ``index``'s findings: those of the printed game (the base of a
        comparison) first, each group ranked by effect size."""
        q = self.questions[index]
        mine = [f for f in self.findings if f.question == question_key(q)]
        first = set(self.first_labels)
        return sorted(mine, key=lambda f: f.label not in first)  # stable: ranked within

    def verdict_for(self, index: int) -> str:
        """Question ``index``'s one-line verdict in words ('' without findings)."""
        return self.verdicts.get(question_key(self.questions[index]), "")

    def across_for(self, index: int) -> list[str]:
        """Whether question ``index``'s answers hold in every field (empty: one field)."""
        return list(self.across.get(question_key(self.questions[index]), []))

    def table(self) -> pd.DataFrame:
        """One row per finding (``tables/findings.csv``)."""
        cols = list(Finding.__dataclass_fields__)
        import pandas as pd

        return pd.DataFrame([f.as_dict() for f in self.findings], columns=cols)

    def as_dict(self) -> dict:
        """JSON-able form for the manifest."""
        return {
            "questions": self.questions,
            "explicit": self.explicit,
            "method": self.method,
            "whose_play": self.whose_play,
            "field": self.field_of_players,
            "across_fields": self.across,
            "verdicts": self.verdicts,
            "assumed": self.assumed,
            "findings": [f.as_dict() for f in self.findings],
        }


def question_key(q: dict) -> str:
    """The ``question`` field of the findings of an asked question."""
    return (
        q["id"]
        if not q.get("params")
        else f"{q['id']}:" + ",".join(f"{k}={v}" for k, v in sorted(q["params"].items()))
    )


def correct(found: list[Finding], alpha: float = ALPHA) -> list[Finding]:
    """Holm-adjusted p-values and significance, ranked by effect size (largest first;
    ties by smaller p-value)."""
    from analyzer.core.stats import holm

    if not found:
        return []
    adj = holm([f.p_value for f in found])
    out = [
        replace(f, p_adjusted=float(a), significant=bool(math.isfinite(a) and a < alpha))
        for f, a in zip(found, adj, strict=True)
    ]
    order = sorted(
        range(len(out)),
        key=lambda i: (-_finite(out[i].effect_size), _finite(out[i].p_value, 1.0)),
    )
    return [replace(out[i], rank=r + 1) for r, i in enumerate(order)]


def _finite(x: float, default: float = 0.0) -> float:
    return float(x) if x is not None and math.isfinite(x) else default
