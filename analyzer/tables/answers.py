"""The building blocks of an answer: numbers in words, tests, findings from estimates.

What every question (the generic ones, :mod:`analyzer.tables.questions`, and each
game's own) uses to say an estimate: a share as a percentage with its interval
(:func:`pct`, :func:`pct_interval`), a seat by its name (:func:`seat_name`), a
p-value against "no effect" (:func:`rate_p`, :func:`diff_p`), and a
:class:`~analyzer.tables.finding.Finding` from a rate against a reference share
(:func:`rate_finding`) or a difference against zero (:func:`difference_finding`).
"""

from __future__ import annotations

import math

from analyzer.tables.finding import Finding


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


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def seat_name(seat: int, players: int) -> str:
    """A seat (numbered from 0 in the tables) in people's words, counted from 1:
    ``The fourth (last) player``, ``The second player``."""
    nth = ORDINALS[seat] if seat < len(ORDINALS) else f"#{seat + 1}"
    return f"The {nth} (last) player" if seat == players - 1 and seat > 0 else f"The {nth} player"


def cell_suffix(info: dict, label: str) -> str:
    """`` (label)`` when the run has several configurations, else nothing."""
    return f" ({label})" if len(info.get("cells", [])) > 1 else ""


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
    """``w1/n1 - w0/n0`` with the Agresti-Caffo 95% interval, independent samples."""
    if n1 <= 0 or n0 <= 0:
        return math.nan, math.nan, math.nan
    d = w1 / n1 - w0 / n0
    # Agresti-Caffo: one win and one loss added to each side, so that a handful of
    # seat-games (2 builders, 0 wins) gets a wide interval, not one of width 0
    q1, q0 = (w1 + 1) / (n1 + 2), (w0 + 1) / (n0 + 2)
    se = math.sqrt(q1 * (1 - q1) / (n1 + 2) + q0 * (1 - q0) / (n0 + 2))
    half = z_value(0.95) * se
    return d, q1 - q0 - half, q1 - q0 + half


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
