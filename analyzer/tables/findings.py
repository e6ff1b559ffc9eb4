"""Findings: a scenario's questions answered in plain sentences, with intervals and n.

A *question* (:class:`Question`) turns report tables into *findings*
(:class:`Finding`): one estimate with its 95% interval, its sample size, the
value that would mean "no effect" (a fair share, zero difference) and a
sentence saying it in words. Every game lists the questions it answers by
default in :attr:`analyzer.games.Game.questions` (the generic ones defined
here, :data:`GENERIC`, and its own); a scenario may name its questions instead
(key ``questions``, see ``scenarios/README.md``).

:func:`answer` asks the questions of a run, tests every finding against its
"no effect" value (two-sided z-tests), corrects the p-values for the number of
findings in the report with Holm's step-down method (valid whatever the
dependence between the tests; seat win rates of one game are negatively
dependent, which the Benjamini-Hochberg procedure does not cover) and ranks the
findings by effect size: the distance from "no effect" relative to the
baseline (2.4 points above a fair 25% is 9.6%), so that win rates, points and
turns rank on one scale. Reports, ``summary.md`` and the manifest all show what
:func:`answer` returns.

Findings only read report tables (:mod:`analyzer.tables.aggregate`); they never
compute from per-game tables and never import a game.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace

import numpy as np
import pandas as pd

from analyzer.core.errors import InputError, bad_value

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
Answer = Callable[[dict[str, pd.DataFrame], dict, dict], list[Finding]]


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

    def for_question(self, index: int) -> list[Finding]:
        q = self.questions[index]
        return [f for f in self.findings if f.question == question_key(q)]

    def across_for(self, index: int) -> list[str]:
        """Whether question ``index``'s answers hold in every field (empty: one field)."""
        return list(self.across.get(question_key(self.questions[index]), []))

    def table(self) -> pd.DataFrame:
        """One row per finding (``tables/findings.csv``)."""
        cols = list(Finding.__dataclass_fields__)
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
            "assumed": self.assumed,
            "findings": [f.as_dict() for f in self.findings],
        }


# --------------------------------------------------------------------------- helpers for answers


def pct(x: float, digits: int = 1) -> str:
    """A share as a percentage: ``0.274 -> '27.4%'``."""
    return f"{100 * x:.{digits}f}%"


def pct_interval(low: float, high: float) -> str:
    """``[26.7, 28.1]`` (percent, the unit given by the estimate before it)."""
    return f"[{100 * low:.1f}, {100 * high:.1f}]"


def num(x: float, digits: int = 1) -> str:
    return f"{x:,.{digits}f}"


def count(n) -> str:
    return f"{int(round(float(n))):,}"


def two_sided_p(z: float) -> float:
    """Two-sided normal p-value of a z statistic."""
    from analyzer.core.stats import two_sided_p as p

    return p(z)


def z_value(level: float = 0.95) -> float:
    from analyzer.core.stats import z_value as z  # scipy: imported when a report is made

    return z(level)


def se_from_interval(low: float, high: float) -> float:
    """Standard error of a normal 95% interval ``[low, high]``."""
    return (float(high) - float(low)) / (2 * z_value(0.95))


def rate_p(rate: float, n: float, reference: float) -> float:
    """p-value of a rate against ``reference`` (z-test with the reference's variance)."""
    if n <= 0 or not 0 < reference < 1:
        return math.nan
    return two_sided_p((rate - reference) / math.sqrt(reference * (1 - reference) / n))


def diff_p(diff: float, se: float) -> float:
    """p-value of a difference with standard error ``se`` against zero."""
    if not se > 0:
        return math.nan if not math.isfinite(diff) or diff == 0 else 0.0
    return two_sided_p(diff / se)


def relative(effect: float, baseline: float) -> float:
    """``|effect|`` relative to ``|baseline|`` (``|effect|`` when the baseline is 0)."""
    b = abs(float(baseline))
    return abs(float(effect)) / b if b > 1e-12 else abs(float(effect))


def direction(effect: float, up: str = "above", down: str = "below") -> str:
    return up if effect >= 0 else down


def cell_suffix(info: dict, label: str) -> str:
    """`` (label)`` when the run has several configurations, else nothing."""
    return f" ({label})" if len(info.get("cells", [])) > 1 else ""


def rate_finding(
    question: str,
    label: str,
    subject: str,
    text: str,
    rate: float,
    low: float,
    high: float,
    n: float,
    reference: float,
    n_unit: str,
    note: str = "",
) -> Finding:
    """A rate tested against a reference share (a fair share)."""
    effect = float(rate) - float(reference)
    return Finding(
        question=question,
        label=label,
        subject=subject,
        text=text,
        estimate=float(rate),
        low=float(low),
        high=float(high),
        n=int(round(float(n))),
        n_unit=n_unit,
        reference=float(reference),
        effect=effect,
        effect_size=relative(effect, reference),
        p_value=rate_p(float(rate), float(n), float(reference)),
        note=note,
    )


def difference_finding(
    question: str,
    label: str,
    subject: str,
    text: str,
    diff: float,
    low: float,
    high: float,
    n: float,
    baseline: float,
    n_unit: str,
    unit: str,
    note: str = "",
) -> Finding:
    """A difference (normal 95% interval) tested against zero; ``baseline`` scales it."""
    return Finding(
        question=question,
        label=label,
        subject=subject,
        text=text,
        estimate=float(diff),
        low=float(low),
        high=float(high),
        n=int(round(float(n))),
        n_unit=n_unit,
        reference=0.0,
        effect=float(diff),
        effect_size=relative(diff, baseline),
        p_value=diff_p(float(diff), se_from_interval(low, high)),
        unit=unit,
        note=note,
    )


def independent_difference(a, a_lo, a_hi, b, b_lo, b_hi) -> tuple[float, float, float]:
    """``b - a`` with a normal 95% interval from two independent 95% intervals."""
    se = math.hypot(se_from_interval(a_lo, a_hi), se_from_interval(b_lo, b_hi))
    d = float(b) - float(a)
    half = z_value(0.95) * se
    return d, d - half, d + half


def rates_difference(w1: float, n1: float, w0: float, n0: float) -> tuple[float, float, float]:
    """``w1/n1 - w0/n0`` with a normal (Wald) 95% interval, independent samples."""
    if n1 <= 0 or n0 <= 0:
        return math.nan, math.nan, math.nan
    p1, p0 = w1 / n1, w0 / n0
    se = math.sqrt(max(p1 * (1 - p1), 0) / n1 + max(p0 * (1 - p0), 0) / n0)
    half = z_value(0.95) * se
    d = p1 - p0
    return d, d - half, d + half


def first_cell(tables, name: str) -> list:
    """The rows (``(index, row)`` pairs) of report table ``name`` in its first
    configuration (cell); none if the table is missing or empty."""
    t = tables.get(name)
    if t is None or not len(t):
        return []
    return list(t[t["cell"] == t["cell"].min()].iterrows())


def association(question: str, table: str, who: str, seats: str, measure):
    """The answer of a question "does doing a thing go with winning?": for each row of
    report table ``table`` in its first cell, the win rate of the seats that did it
    against the rest's, per seat-game (a difference with a Wald 95% interval; an
    association, not a cause, as the finding says). ``measure(row, tables)`` gives
    ``(name, rate, wins, n, other_rate, other_wins, other_n, n_all)`` for the row (the
    thing's name, each side's win rate, wins and seat-games, the seat-games in all), or
    None to pass it over; ``who`` names the seats in the subject (``"builders'"``),
    ``seats`` in the sentence (``"Seats that built {}"``, the name filled in)."""

    def answer(tables, info, params) -> list[Finding]:
        out = []
        for _, r in first_cell(tables, table):
            m = measure(r, tables)
            if m is None:
                continue
            name, rate, wins, n, other_rate, other_wins, other_n, n_all = m
            d, lo, hi = rates_difference(wins, n, other_wins, other_n)
            text = (
                f"{seats.format(name)} won {pct(rate)} of their games against "
                f"{pct(other_rate)} for the rest, {100 * d:+.1f} points "
                f"[{100 * lo:+.1f}, {100 * hi:+.1f}] (n = {count(n)} of {count(n_all)} "
                f"seat-games{cell_suffix(info, r['label'])}; association, not cause)."
            )
            subject = f"{name}: {who} win rate minus the rest's"
            out.append(
                difference_finding(question, r["label"], subject, text, d, lo, hi, n_all,
                                   other_rate, "seat-games", "share",
                                   note="association, not cause")
            )  # fmt: skip
        return out

    return answer


# --------------------------------------------------------------------------- generic questions


def _first_player(tables, info, params) -> list[Finding]:
    fp = tables.get("first_player")
    if fp is None:
        return []
    out = []
    for _, r in fp.iterrows():
        eff = r["seat0_win"] - r["fair"]
        text = (
            f"The first player wins {pct(r['seat0_win'])} "
            f"{pct_interval(r['seat0_win_low'], r['seat0_win_high'])} of "
            f"{int(r['players'])}-player games{cell_suffix(info, r['label'])}, "
            f"{abs(100 * eff):.1f} points {direction(eff)} a fair {pct(r['fair'], 0)} "
            f"(n = {count(r['games'])} games)."
        )
        text += _adjusted_sentence(r)
        out.append(
            rate_finding(
                "first_player",
                r["label"],
                "first player's win rate",
                text,
                r["seat0_win"],
                r["seat0_win_low"],
                r["seat0_win_high"],
                r["games"],
                r["fair"],
                "games",
            )
        )
    return out


def _adjusted_sentence(r) -> str:
    """The luck-adjusted estimate beside the plain one (``docs/statistics.md``), or ''."""
    adj = r.get("seat0_win_adj", math.nan)
    ratio = r.get("var_ratio", math.nan)
    if not (isinstance(adj, float) and math.isfinite(adj) and math.isfinite(ratio)):
        return ""
    interval = pct_interval(r["seat0_win_adj_low"], r["seat0_win_adj_high"])
    return (
        f" Luck-adjusted: {pct(adj)} {interval}, an interval {math.sqrt(ratio):.2f} "
        f"times as wide (variance ratio {ratio:.2f})."
    )


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def seat_name(seat: int, players: int) -> str:
    """``Seat 3 (the last player)``, ``Seat 1 (the second player)``."""
    nth = (
        "last"
        if seat == players - 1
        else (ORDINALS[seat] if seat < len(ORDINALS) else f"#{seat + 1}")
    )
    return f"Seat {seat} (the {nth} player)"


def _seats(tables, info, params) -> list[Finding]:
    t = tables.get("seats")
    if t is None:
        return []
    want = params.get("seat")
    out = []
    for _, r in t.iterrows():
        seat, players = int(r["seat"]), int(r["players"])
        if (want is None and seat == 0) or (want is not None and seat != want):
            continue
        eff = r["win_rate"] - r["fair"]
        text = (
            f"{seat_name(seat, players)} wins {pct(r['win_rate'])} "
            f"{pct_interval(r['win_rate_low'], r['win_rate_high'])} of {players}-player games"
            f"{cell_suffix(info, r['label'])}, {abs(100 * eff):.1f} points {direction(eff)} "
            f"a fair {pct(r['fair'], 0)} (n = {count(r['n'])} games)."
        )
        out.append(
            rate_finding(
                "seats",
                r["label"],
                f"seat {seat} win rate",
                text,
                r["win_rate"],
                r["win_rate_low"],
                r["win_rate_high"],
                r["n"],
                r["fair"],
                "games",
            )
        )
    return out


def _strategies(tables, info, params) -> list[Finding]:
    t = tables.get("strategies")
    if t is None:
        return []
    want = params.get("strategy")
    out = []
    for _, sub in t.groupby("cell", sort=True):
        if sub["strategy"].nunique() < 2 and want is None:
            continue
        for _, r in sub.iterrows():
            if want is not None and r["strategy"] != want:
                continue
            fair = 1.0 / float(r["players"])
            eff = r["win_rate"] - fair
            text = (
                f"{r['strategy']} wins {pct(r['win_rate'])} "
                f"{pct_interval(r['win_rate_low'], r['win_rate_high'])} of its seat-games"
                f"{cell_suffix(info, r['label'])}, {abs(100 * eff):.1f} points "
                f"{direction(eff)} a fair {pct(fair, 0)} (n = {count(r['n'])} seat-games)."
            )
            out.append(
                rate_finding(
                    "strategies",
                    r["label"],
                    f"{r['strategy']} win rate",
                    text,
                    r["win_rate"],
                    r["win_rate_low"],
                    r["win_rate_high"],
                    r["n"],
                    fair,
                    "seat-games",
                )
            )
    return out


#: paired-difference rows a comparison reports by default: (scope, metric, subject, unit)
VARIANT_METRICS = (
    ("seat=0", "win", "the first player's win rate", "share"),
    ("all seats", "score", "the mean final score", "points"),
    ("game", "game_turns", "the game length", "turns"),
)


#: what an intervention's paired comparison reports by default: (metric, unit)
INTERVENTION_METRICS = (("win", "share"), ("score", "points"))


def _intervention_effect(comp, info, metrics) -> list[Finding]:
    """What is forbidden is worth to the seats it applies to: the paired difference
    of their win share or score, allowed minus forbidden (the same games), with
    the per-use figure (the difference divided by how often they used it where
    allowed) in the sentence."""
    iv = info.get("intervention") or {}
    thing = intervention_thing(info)
    verb, past, instead = (
        list(iv.get("words") or [])
        + ["use", "used", "what it does instead"][len(iv.get("words") or []) :]
    )[:3]
    sign = 1.0 if iv.get("variant") == "a" else -1.0  # allowed minus forbidden
    out = []
    for metric, unit in metrics:
        sub = comp[(comp["scope"] == "treated seats") & (comp["metric"] == metric)]
        per = comp[(comp["scope"] == "treated seats") & (comp["metric"] == f"{metric} per use")]
        for _, r in sub.iterrows():
            d = sign * r["diff"]
            lo, hi = sorted((sign * r["diff_low"], sign * r["diff_high"]))
            allowed, forbidden = r["mean_b"], r["mean_a"]
            if sign < 0:
                allowed, forbidden = forbidden, allowed
            where = f" ({_field_label(info, int(r['cell']))})" if info.get("fields") else ""
            if unit == "share":
                worth = f"{_points(d, lo, hi)} win points"
                means = f"{pct(allowed)} of games won when allowed, {pct(forbidden)} when not"
            else:
                worth = f"{_interval(d, lo, hi)} points of score"
                means = f"{num(allowed, 2)} points when allowed, {num(forbidden, 2)} when not"
            text = (
                f"{thing} is worth {worth} to a seat that may {verb} it, over {instead}{where}: "
                f"{means} (n = {count(r['pairs'])} paired seat-games)."
            )
            p = per[per["cell"] == r["cell"]]
            if len(p) and not math.isfinite(float(p["diff"].iloc[0])):
                text += f" Allowed, the seat never {past} it here."
            elif len(p):
                q = p.iloc[0]
                pd_ = sign * q["diff"]
                plo, phi = sorted((sign * q["diff_low"], sign * q["diff_high"]))
                each = (
                    f"{100 * pd_:+.1f} win points [{100 * plo:+.1f}, {100 * phi:+.1f}]"
                    if unit == "share"
                    else f"{_interval(pd_, plo, phi)} points"
                )
                text += (
                    f" {past.capitalize()} in {pct(q['uptake'])} of them: {each} each time, "
                    f"if all of the effect comes through that."
                )
            out.append(
                difference_finding(
                    "variant_effect",
                    r["label"],
                    f"worth of {thing} ({'win share' if unit == 'share' else 'score'})",
                    text,
                    d,
                    lo,
                    hi,
                    r["pairs"],
                    forbidden,
                    "paired seat-games",
                    unit,
                )
            )
    return out


def _points(d: float, lo: float, hi: float) -> str:
    """A share difference in percentage points with its interval: ``+1.3 [+0.2, +2.4]``,
    two decimals when the interval is narrower than a point."""
    digits = 2 if 100 * (hi - lo) < 1 else 1
    return f"{100 * d:+.{digits}f} [{100 * lo:+.{digits}f}, {100 * hi:+.{digits}f}]"


def _interval(d: float, lo: float, hi: float) -> str:
    """A difference with its interval, ``+0.52 [+0.12, +0.91]``; three decimals when
    the interval is narrower than a tenth."""
    digits = 3 if hi - lo < 0.1 else 2
    return f"{d:+.{digits}f} [{lo:+.{digits}f}, {hi:+.{digits}f}]"


def intervention_thing(info: dict) -> str:
    """What a run's intervention forbids, by name: ``The Eternal Flame``."""
    iv = info.get("intervention") or {}
    labels = info.get("labels", {})
    names = [labels.get(x, x) for ids in (iv.get("things") or {}).values() for x in ids]
    return " and ".join(names) or "what is forbidden"


def variant_labels(info: dict) -> list[str]:
    """The labels of a run's comparison variants, the reference (``a``) first."""
    compare = (info.get("scenario") or {}).get("compare") or {}
    if compare:
        keys = ["a", *(k for k in compare if k != "a")] if "a" in compare else list(compare)
        return [str(compare[k].get("label", k)) for k in keys]
    return [str(c["label"]) for c in info.get("cells") or []] if info.get("pairs") else []


def _variant_heading(info: dict, params: dict) -> str | None:
    """The question's heading: with an intervention, what the thing forbidden is
    worth; else what each variant changes against the first, by their labels;
    what it measures in brackets (a metric, a seat, a strategy's win rate)."""
    iv = info.get("intervention") or {}
    metric, seat, strategy = params.get("metric"), params.get("seat"), params.get("strategy")
    names = {"win": "win share", "score": "final score"}
    bits = []
    if strategy:
        bits.append(f"win rate of {strategy}")
    elif metric is not None:
        bits.append(names.get(metric, info.get("labels", {}).get(metric, metric)))
    if seat is not None:
        bits.append(f"seat {seat}")
    what = f" ({', '.join(bits)})" if bits else ""
    if iv.get("variant") and seat is None and not strategy:
        verb = (list(iv.get("words") or []) + ["use"])[0]
        return f"What is {intervention_thing(info)} worth to a seat that may {verb} it?{what}"
    labels = variant_labels(info)
    if len(labels) < 2:
        return None
    if len(labels) == 2:
        return f"What does {labels[1]} change, against {labels[0]}?{what}"
    return f"What does each of the {len(labels) - 1} variants change, against {labels[0]}?{what}"


def _field_label(info: dict, cell: int) -> str:
    """The label of a cell's field of players (its own label without fields)."""
    for c in info.get("cells", []):
        if int(c["index"]) == cell:
            key = c.get("field")
            for f in info.get("fields") or []:
                if f["key"] == key:
                    return f"field {f['label']}"
            return str(c["label"])
    return str(cell)


def _variant_effect(tables, info, params) -> list[Finding]:
    if params.get("strategy") is not None:
        return _variant_strategy(tables, info, params["strategy"])
    comp = tables.get("comparison")
    if comp is None:
        return []
    treated = (comp["scope"] == "treated seats").any() and (info.get("intervention") or {}).get(
        "variant"
    )
    if treated and params.get("seat") is None:
        metric = params.get("metric")
        if metric is None:
            return _intervention_effect(comp, info, INTERVENTION_METRICS)
        if metric in ("win", "score") or metric.startswith("pts_"):
            unit = "share" if metric == "win" else "points"
            return _intervention_effect(comp, info, ((metric, unit),))
    rows = VARIANT_METRICS
    if params.get("metric") is not None or params.get("seat") is not None:
        from analyzer.tables.aggregate import metric_scopes

        metric = params.get("metric", "win")
        scope = f"seat={params['seat']}" if params.get("seat") is not None else None
        if scope is None:
            per_game = metric_scopes(info.get("columns") or ()).get(metric) == "game"
            scope = "game" if per_game else "all seats"
            if metric == "win":
                scope = "seat=0"
        rows = ((scope, metric, _metric_name(metric, scope, info), _unit(metric)),)
    out = []
    for scope, metric, subject, unit in rows:
        sub = comp[(comp["scope"] == scope) & (comp["metric"] == metric)]
        for _, r in sub.iterrows():
            a = _cell_label(info, int(r["cell_a"]))
            if unit == "share":
                change = (
                    f"by {100 * r['diff']:+.1f} points [{100 * r['diff_low']:+.1f}, "
                    f"{100 * r['diff_high']:+.1f}] ({pct(r['mean_a'])} → {pct(r['mean_b'])})"
                )
            else:
                change = (
                    f"by {r['diff']:+.2f}{' ' + unit if unit != 'value' else ''} "
                    f"[{r['diff_low']:+.2f}, {r['diff_high']:+.2f}] "
                    f"({num(r['mean_a'], 2)} → {num(r['mean_b'], 2)})"
                )
            text = (
                f"{r['label']} instead of {a} changes {subject} {change} "
                f"(n = {count(r['pairs'])} paired games)."
            )
            if r["diff_low"] == r["diff_high"] == 0:  # no pair differs: nothing to test
                text = (
                    f"{r['label']} instead of {a} leaves {subject} unchanged in every one "
                    f"of the {count(r['pairs'])} paired games."
                )
            out.append(
                difference_finding(
                    "variant_effect",
                    r["label"],
                    subject,
                    text,
                    r["diff"],
                    r["diff_low"],
                    r["diff_high"],
                    r["pairs"],
                    r["mean_a"],
                    "paired games",
                    unit,
                )
            )
    return out


def _unit(metric: str) -> str:
    """What a compared metric's numbers are: a share, points, turns or a plain value."""
    if metric in ("win", "shared_win"):
        return "share"
    if metric in ("score", "mean_score") or metric.startswith("pts_"):
        return "points"
    if metric == "game_turns":
        return "turns"
    return "value"


def _metric_name(metric: str, scope: str, info: dict) -> str:
    names = {
        "win": "the win rate",
        "score": "the mean final score",
        "game_turns": "the game length",
        "mean_score": "the mean final score per game",
        "shared_win": "the share of shared wins",
    }
    name = names.get(metric, f"the mean {info.get('labels', {}).get(metric, metric)}")
    if scope.startswith("seat="):
        seat = scope[len("seat=") :]
        return (
            f"{name} of seat {seat}"
            if seat != "0"
            else name.replace("the ", "the first player's ", 1)
        )
    return name


def _variant_strategy(tables, info, strategy: str) -> list[Finding]:
    st = tables.get("strategies")
    pairs = info.get("pairs") or []
    if st is None or not pairs:
        return []
    out = []
    for a_cell, b_cell in pairs:
        out += _variant_strategy_pair(st, strategy, a_cell, b_cell)
    return out


def _variant_strategy_pair(st, strategy: str, a_cell: int, b_cell: int) -> list[Finding]:
    a = st[(st["cell"] == a_cell) & (st["strategy"] == strategy)]
    b = st[(st["cell"] == b_cell) & (st["strategy"] == strategy)]
    if not len(a) or not len(b):
        return []
    a, b = a.iloc[0], b.iloc[0]
    d, lo, hi = independent_difference(
        a["win_rate"], a["win_rate_low"], a["win_rate_high"],
        b["win_rate"], b["win_rate_low"], b["win_rate_high"],
    )  # fmt: skip
    text = (
        f"{b['label']} instead of {a['label']} changes the win rate of {strategy} by "
        f"{100 * d:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}] "
        f"({pct(a['win_rate'])} → {pct(b['win_rate'])}; n = {count(b['n'])} seat-games each, "
        "interval as if independent)."
    )
    return [
        difference_finding(
            "variant_effect",
            b["label"],
            f"{strategy} win rate",
            text,
            d,
            lo,
            hi,
            b["n"],
            a["win_rate"],
            "seat-games",
            "share",
        )  # fmt: skip
    ]


#: sweep metrics answered by default: (metric in the sweep table, subject, unit)
SWEEP_METRICS = (
    ("win rate seat 0", "the first player's win rate", "share"),
    ("mean score", "the mean final score", "points"),
    ("mean game_turns", "the game length", "turns"),
)


def _sweep_effect(tables, info, params) -> list[Finding]:
    sw = tables.get("sweep")
    params_swept = info.get("sweep") or []
    if sw is None or not params_swept or "players" in params_swept:
        return []  # across player counts the first-player question answers per count
    cells = sorted(sw["cell"].unique())
    if len(cells) < 2:
        return []
    first, last = cells[0], cells[-1]
    la, lb = _cell_label(info, first), _cell_label(info, last)
    metrics = SWEEP_METRICS
    if params.get("metric") is not None:
        m = params["metric"]
        name = m if m.startswith(("mean ", "win rate")) else f"mean {m}"
        metrics = ((name, f"the {name}", "share" if name.startswith("win") else "points"),)
    out = []
    for metric, subject, unit in metrics:
        a = sw[(sw["cell"] == first) & (sw["metric"] == metric)]
        b = sw[(sw["cell"] == last) & (sw["metric"] == metric)]
        if not len(a) or not len(b):
            continue
        a, b = a.iloc[0], b.iloc[0]
        d, lo, hi = independent_difference(
            a["estimate"], a["low"], a["high"], b["estimate"], b["low"], b["high"]
        )
        if unit == "share":
            change = (
                f"by {100 * d:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}] "
                f"({pct(a['estimate'])} → {pct(b['estimate'])})"
            )
        else:
            change = (
                f"by {d:+.2f} {unit} [{lo:+.2f}, {hi:+.2f}] "
                f"({num(a['estimate'], 2)} → {num(b['estimate'], 2)})"
            )
        text = (
            f"Going from {la} to {lb} changes {subject} {change} "
            f"(n = {count(b['n'])} each; interval as if independent, so conservative)."
        )
        out.append(
            difference_finding(
                "sweep_effect",
                lb,
                subject,
                text,
                d,
                lo,
                hi,
                b["n"],
                a["estimate"],
                "games" if "win rate" in metric else "seat-games",
                unit,
            )  # fmt: skip
        )
    return out


def _cell_label(info: dict, index: int) -> str:
    for c in info.get("cells", []):
        if int(c["index"]) == int(index):
            return str(c["label"])
    return str(index)


FIRST_PLAYER = Question("first_player", "Is the first seat favoured?", _first_player)
SEATS = Question("seats", "Is any other seat favoured or held back?", _seats, ("seat",))
STRATEGIES = Question(
    "strategies", "Does any strategy win more than its fair share?", _strategies, ("strategy",)
)
VARIANT_EFFECT = Question(
    "variant_effect",
    "What does each variant change, against the first?",
    _variant_effect,
    ("metric", "seat", "strategy"),
    needs="compare",
    heading=_variant_heading,
)
SWEEP_EFFECT = Question(
    "sweep_effect",
    "What changes from the first swept value to the last?",
    _sweep_effect,
    ("metric",),
    needs="sweep",
)

#: the questions every game can answer from the generic tables, in order
GENERIC = (FIRST_PLAYER, SEATS, STRATEGIES, VARIANT_EFFECT, SWEEP_EFFECT)


# --------------------------------------------------------------------------- asking


def game_questions(game) -> tuple[Question, ...]:
    """The questions ``game`` answers by default (:data:`GENERIC` if it lists none)."""
    return tuple(getattr(game, "questions", ()) or GENERIC)


def question_key(q: dict) -> str:
    """The ``question`` field of the findings of an asked question."""
    return (
        q["id"]
        if not q.get("params")
        else f"{q['id']}:" + ",".join(f"{k}={v}" for k, v in sorted(q["params"].items()))
    )


def parse_questions(value, game, where: str, *, compare: bool, sweep: bool) -> list[dict]:
    """Validate a scenario's ``questions``: a list of question ids, or tables
    ``{ ask = "<id>", <param> = value }``. Returns ``[{"id", "params"}]``.

    Raises :class:`InputError` (one line: file, key, value, what is allowed)."""
    known = {q.id: q for q in game_questions(game)}
    allowed = ", ".join(known)
    if not isinstance(value, list) or not value:
        raise bad_value(
            f"{where}: questions", value, f"a non-empty list of question ids ({allowed})"
        )
    out = []
    for i, item in enumerate(value):
        key = f"{where}: questions[{i}]"
        if isinstance(item, str):
            item = {"ask": item}
        if not isinstance(item, dict):
            raise bad_value(key, item, f"a question id ({allowed}) or a table with 'ask'")
        if "ask" not in item:
            raise InputError(f"{key}: missing key 'ask' (allowed: {allowed})")
        qid = item["ask"]
        if qid not in known:
            raise bad_value(f"{key}.ask", qid, allowed)
        q = known[qid]
        params = {k: v for k, v in item.items() if k != "ask"}
        for k, v in params.items():
            if k not in q.params:
                raise InputError(
                    f"{key}: unknown key '{k}' for question '{qid}' "
                    f"(allowed: {', '.join(q.params) or 'none'})"
                )
            _check_param(k, v, game, f"{key}.{k}")
        if q.needs == "compare" and not compare:
            raise InputError(f"{key}: question '{qid}' needs a [compare.a]/[compare.b] scenario")
        if q.needs == "sweep" and not sweep:
            raise InputError(f"{key}: question '{qid}' needs a [sweep] scenario")
        out.append({"id": qid, "params": params})
    return out


def _check_param(key: str, value, game, where: str) -> None:
    if key == "strategy":
        names = game.strategy_names()
        if value not in names:
            raise bad_value(where, value, ", ".join(names))
    elif key == "seat":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise bad_value(where, value, "a seat index: 0 (first player), 1, ...")
    elif key == "metric":
        if not isinstance(value, str) or not value:
            raise bad_value(where, value, "a metric name such as win, score, game_turns")


def answer(tables: dict[str, pd.DataFrame], info: dict, game=None) -> Findings:
    """Ask the run's questions (the scenario's, else the game's), correct and rank.

    ``game`` is the run's :class:`~analyzer.games.Game` (looked up from ``info``
    when None)."""
    if game is None:
        from analyzer.games import DEFAULT_GAME, load_game

        game = load_game(info.get("game", DEFAULT_GAME))
    known = {q.id: q for q in game_questions(game)}
    asked = (info.get("scenario") or {}).get("questions")
    explicit = bool(asked)
    if not asked:
        asked = [{"id": q.id, "params": {}} for q in game_questions(game)]
    questions, found = [], []
    for q in asked:
        question = known.get(q["id"])
        if question is None:  # a saved run asked a question this version no longer has
            continue
        got = question.answer(tables, info, dict(q.get("params") or {}))
        if not got and not explicit:
            continue  # a standard question this run has no data for
        text = question.text
        if q.get("params"):
            text += " (" + ", ".join(f"{k} {v}" for k, v in q["params"].items()) + ")"
        own = question.heading(info, dict(q.get("params") or {})) if question.heading else None
        text = own or text
        entry = {"id": q["id"], "text": text, "params": dict(q.get("params") or {})}
        questions.append(entry)
        found += [replace(f, question=question_key(entry)) for f in got]
    found = correct(found)
    n = len(found)
    method = (
        f"Method: each finding is tested against 'no effect' (two-sided z-test); significant: "
        f"p < {ALPHA:g} after Holm's correction for the {n} finding{'s' if n != 1 else ''} "
        "in this report. 95% intervals (Wilson for rates, normal for means and differences), "
        "uncorrected. Ranked by effect size: distance from 'no effect' relative to its baseline."
    )
    return Findings(
        questions=questions,
        findings=found,
        method=method,
        whose_play=whose_play(info, game),
        assumed=assumed_lines(info),
        explicit=explicit,
        field_of_players=field_lines(info, game),
        across=across_fields(questions, found, info),
    )


# --------------------------------------------------------------------------- fields


def _cell_fields(info: dict) -> dict[str, str]:
    """Cell label -> the label of its field of players (runs with ``[fields]``)."""
    names = {f["key"]: f["label"] for f in info.get("fields") or []}
    return {str(c["label"]): names.get(c.get("field"), "") for c in info.get("cells", [])}


def across_fields(questions: list[dict], found: list[Finding], info: dict) -> dict[str, list[str]]:
    """For a run with several fields of players: for each question and each thing it
    measured (a finding's subject), whether the answer holds in every field (the
    same sign and significant in each), in one sentence."""
    fields = info.get("fields") or []
    if len(fields) < 2:
        return {}
    of = _cell_fields(info)
    order = [f["label"] for f in fields]
    out: dict[str, list[str]] = {}
    for q in questions:
        key = question_key(q)
        mine = [f for f in found if f.question == key and of.get(f.label)]
        subjects = list(dict.fromkeys(f.subject for f in mine))
        lines = []
        for subject in subjects:
            by_field: dict[str, list[Finding]] = {}
            for f in mine:
                if f.subject == subject:
                    by_field.setdefault(of[f.label], []).append(f)
            if len(by_field) < 2:
                continue
            lines.append(_across_sentence(subject, by_field, order))
        if lines:
            out[key] = lines
    return out


def _short_estimate(f: Finding) -> str:
    if f.unit == "share":
        if f.reference == 0:
            return f"{_points(f.estimate, f.low, f.high)} points"
        return f"{pct(f.estimate)} {pct_interval(f.low, f.high)}"
    return _interval(f.estimate, f.low, f.high)


def _across_sentence(subject: str, by_field: dict[str, list[Finding]], order: list[str]) -> str:
    """``Across the 3 fields, <subject>: holds in every field ...``."""
    names = [n for n in order if n in by_field] + [n for n in by_field if n not in order]
    rows = [(n if len(by_field[n]) == 1 else f.label, f) for n in names for f in by_field[n]]
    sig = [(n, f) for n, f in rows if f.significant]
    ups = {f.effect > 0 for _, f in sig}
    each = "; ".join(
        f"{n}: {_short_estimate(f)}{'' if f.significant else ' (n.s.)'}" for n, f in rows
    )
    k, m = len(sig), len(rows)
    if k == m and len(ups) == 1:
        side = "above" if ups == {True} else "below"
        verdict = (
            f"the conclusion holds in every field: {side} 'no effect' and significant in all {m}"
        )
    elif k == 0:
        verdict = f"no field shows a significant effect (0 of {m})"
    elif len(ups) > 1:
        above = ", ".join(n for n, f in sig if f.effect > 0)
        below = ", ".join(n for n, f in sig if f.effect <= 0)
        verdict = (
            f"the fields disagree: significantly above 'no effect' in {above}, below in {below}"
        )
    else:
        side = "above" if ups == {True} else "below"
        rest = [n for n, f in rows if not f.significant]
        verdict = (
            f"the conclusion does not hold in every field: significantly {side} 'no effect' "
            f"in {k} of {m}, not in {', '.join(rest)}"
        )
    return f"Across the fields, {subject}: {verdict} ({each})."


def field_lines(info: dict, game) -> list[str]:
    """The field of players in a line (one per field with ``[fields]``): the
    strategies of the seats, which parameter rows they play (shipped, tuned for the
    player count, frozen) with the strategies version, and any parameter changed."""
    sc = info.get("scenario") or {}
    if not info.get("cells"):
        return []
    version = info.get("strategies_version", "?")
    rows = {r["name"]: r for r in info.get("strategy_rows") or []}
    strategies = {s.name: s for s in getattr(game, "strategies", ())}
    players = sc.get("players")
    base_params = sc.get("strategy_params") or {}

    def who(strats, lineup, rotation, n_orders) -> str:
        if lineup:
            return (
                f"line-up {', '.join(lineup)} played in {n_orders} {rotation or 'all'} seat orders"
            )
        strats = list(strats or [])
        if len(set(strats)) == 1:
            return f"every seat {strats[0]}"
        return "seats " + ", ".join(f"{i}: {x}" for i, x in enumerate(strats))

    def rows_text(names, changed) -> str:
        parts = []
        for name in names:
            st = strategies.get(name)
            r = rows.get(name, {})
            if st is not None and st.frozen:
                text = f"{name} frozen (the yardstick's fixed row)"
            elif st is not None and not st.params:
                text = f"{name} (no parameters)"
            elif r.get("by_players") and players is not None:
                text = f"{name} on its tuned {players}-player row"
            else:
                text = f"{name} on its shipped row"
            if changed.get(name):
                text += " with " + ", ".join(
                    f"{k} = {_short_num(v)}" for k, v in changed[name].items()
                )
            parts.append(text)
        return "; ".join(parts)

    def used(cells) -> list[str]:
        out: list[str] = []
        for c in cells:
            for o in c.get("orders", []):
                for x in o:
                    if x not in out:
                        out.append(x)
        return out

    cells = info.get("cells", [])
    fields = info.get("fields") or []
    iv = info.get("intervention")
    tail = f" (strategies version {version})"
    lines = []
    if fields:
        for f in fields:
            mine = [c for c in cells if c["index"] in f.get("cells", [])]
            changed = {**base_params, **(f.get("strategy_params_played") or {})}
            players_text = who(f["strategies"], f["lineup"], f["rotation"], f["orders"])
            lines.append(
                f"Field {f['label']}: {players_text}; {rows_text(used(mine), changed)}{tail}."
            )
    else:
        n_orders = len({tuple(o) for o in cells[0].get("orders", [])}) if cells else 1
        lines.append(
            f"Field: {who(sc.get('strategies'), sc.get('lineup'), sc.get('rotation'), n_orders)}; "
            f"{rows_text(used(cells), base_params)}{tail}."
        )
    if iv:
        things = ", ".join(
            info.get("labels", {}).get(x, x) for ids in iv["things"].values() for x in ids
        )
        where = f", variant {iv['variant_label']}" if iv.get("variant_label") else ""
        kinds = getattr(game, "interventions", {}) or {}
        what = "; ".join(kinds[k] for k in iv["things"] if k in kinds)
        lines.append(
            f"Intervention{where}: {iv['target']} forbidden {things}"
            + (f" ({what})." if what else ".")
        )
    return lines


def correct(found: list[Finding], alpha: float = ALPHA) -> list[Finding]:
    """Holm-adjusted p-values and significance, ranked by effect size (largest first;
    ties by smaller p-value)."""
    from analyzer.core.stats import holm

    if not found:
        return []
    adj = holm([f.p_value for f in found])
    out = [
        replace(f, p_adjusted=float(a), significant=bool(np.isfinite(a) and a < alpha))
        for f, a in zip(found, adj, strict=True)
    ]
    order = sorted(
        range(len(out)),
        key=lambda i: (-_finite(out[i].effect_size), _finite(out[i].p_value, 1.0)),
    )
    return [replace(out[i], rank=r + 1) for r, i in enumerate(order)]


def _finite(x: float, default: float = 0.0) -> float:
    return float(x) if x is not None and math.isfinite(x) else default


# --------------------------------------------------------------------------- whose play


def whose_play(info: dict, game) -> list[str]:
    """Sentences saying whose play the numbers describe: strategies, their
    parameters, the versions, and any strategy parameter the scenario changed."""
    sc = info.get("scenario") or {}
    rows = {r["name"]: r for r in info.get("strategy_rows") or []}
    if not rows:  # a run saved before strategy rows were recorded: the shipped ones
        players = sc.get("players") or getattr(game, "min_players", 2)
        rows = {
            s.name: {
                "name": s.name,
                "description": s.description,
                "params": s.params_for(players),
            }
            for s in game.strategies
        }
    used: list[str] = []
    for cell in info.get("cells", []):
        for order in cell.get("orders", []):
            used += [s for s in dict.fromkeys(order) if s not in used]
    if not used:
        used = list(sc.get("lineup") or sc.get("strategies") or [])
    # the strategies a [ladder] rates and a [tune] plays (scenario sections)
    ladder, tune = sc.get("ladder") or {}, sc.get("tune") or {}
    more = [*ladder.get("strategies", []), *([tune["strategy"]] if tune else []),
            *tune.get("field", [])]  # fmt: skip
    used += [s for s in dict.fromkeys(more) if s not in used]
    section_lines = []
    if ladder:
        section_lines.append(
            f"The ladder rates {', '.join(ladder['strategies'])} at {ladder['players']} players."
        )
    if tune:
        section_lines.append(
            f"The tuning searches {tune['strategy']}'s parameters at {tune['players']} players "
            f"against {', '.join(dict.fromkeys(tune['field']))} (from its shipped parameters)."
        )
    lines = []
    if sc.get("lineup"):
        lines.append(
            f"Line-up {', '.join(sc['lineup'])}, played in {sc.get('rotation', 'all')} seat orders."
        )
    elif sc.get("strategies"):
        s = sc["strategies"]
        if len(set(s)) == 1:
            lines.append(f"Every seat played {s[0]}.")
        else:
            lines.append("Seats played " + ", ".join(f"{i}: {x}" for i, x in enumerate(s)) + ".")
    lines += section_lines
    changed = sc.get("strategy_params") or {}
    for name in used:
        r = rows.get(name, {"description": "", "params": {}})
        params = ", ".join(f"{k} {_short_num(v)}" for k, v in (r.get("params") or {}).items())
        text = f"{name}: {r.get('description', '')}".rstrip(": ")
        if params:
            text += f" (parameters {params}"
            text += f"; changed here: {', '.join(changed[name])})" if name in changed else ")"
        if r.get("by_players"):
            text += f"; its shipped rows differ by player count ({', '.join(r['by_players'])})"
        lines.append(text + ".")
    lines.append(
        f"Strategies and rules as in analyzer {info.get('analyzer_version', '?')}, "
        f"rules version {info.get('rules_version', '?')}, "
        f"strategies version {info.get('strategies_version', '?')}."
    )
    return lines


def _short_num(v) -> str:
    return f"{float(v):g}" if isinstance(v, int | float) else str(v)


def assumed_lines(info: dict) -> list[str]:
    """Values the run assumed: rulings, changed card values, values no rulebook gives."""
    out = []
    rulings = (info.get("rules") or {}).get("rulings") or {}
    if rulings:
        text = "Rulings: " + ", ".join(f"{k} = {v}" for k, v in rulings.items())
        # the configurations that play other rulings say so (a comparison of rulings)
        other = []
        for c in info.get("cells") or []:
            own = (c.get("rules") or {}).get("rulings") or {}
            diff = {k: v for k, v in own.items() if rulings.get(k) != v}
            if diff:
                other.append(f"{c['label']}: " + ", ".join(f"{k} = {v}" for k, v in diff.items()))
        if 0 < len(other) <= 4:
            text += "; except in " + "; ".join(other)
        elif other:
            text += f"; {len(other)} configurations play other rulings (page 'Settings')"
        out.append(text + ".")
    sc = info.get("scenario") or {}
    if sc.get("overrides"):
        out.append(
            "Changed from the printed game: "
            + ", ".join(f"{k} = {v}" for k, v in sc["overrides"].items())
            + "."
        )
    assumed = info.get("assumed") or []
    if assumed:
        shown = ", ".join(
            f"{a['key']} = {textwrap.shorten(str(a['value']), 40, placeholder=' …')}"
            for a in assumed[:6]
        )
        more = f" and {len(assumed) - 6} more (page 'Assumed values')" if len(assumed) > 6 else ""
        out.append(f"Assumed ({len(assumed)} values no rulebook gives): {shown}{more}.")
    else:
        out.append("Assumed values: none (every value is the rulebook's).")
    return out


__all__ = [
    "FIRST_PLAYER",
    "GENERIC",
    "Finding",
    "Findings",
    "Question",
    "answer",
    "correct",
    "game_questions",
    "parse_questions",
]
