"""Interval estimates used everywhere a number is reported.

Rates get Wilson score intervals; means get normal (t-free, large-sample)
intervals from the sample standard deviation. All at 95% unless told.
"""

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np


def z_value(level: float = 0.95) -> float:
    """Two-sided standard normal quantile for confidence ``level`` (the standard
    library's, so that making a report does not import scipy, about a second)."""
    return NormalDist().inv_cdf(0.5 + level / 2.0)


def two_sided_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic ``z``: ``P(|Z| >= |z|)``."""
    if not math.isfinite(z):
        return math.nan
    return math.erfc(abs(z) / math.sqrt(2.0))


def wilson(successes, n, level: float = 0.95):
    """Wilson score interval for a binomial rate.

    ``successes`` may be fractional (shared wins count as shares). Works on
    scalars or arrays; returns ``(low, high)``. With ``n == 0`` returns (0, 1).
    """
    s = np.asarray(successes, dtype=float)
    n_arr = np.asarray(n, dtype=float)
    z = z_value(level)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n_arr > 0, s / np.maximum(n_arr, 1), 0.0)
        denom = 1 + z * z / np.maximum(n_arr, 1)
        centre = (p + z * z / (2 * np.maximum(n_arr, 1))) / denom
        half = z * np.sqrt(
            p * (1 - p) / np.maximum(n_arr, 1) + z * z / (4 * np.maximum(n_arr, 1) ** 2)
        )
        half = half / denom
    low = np.where(n_arr > 0, np.clip(centre - half, 0, 1), 0.0)
    high = np.where(n_arr > 0, np.clip(centre + half, 0, 1), 1.0)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def mean_ci(values, level: float = 0.95):
    """``(mean, low, high)`` normal-approximation interval for the mean of ``values``."""
    v = np.asarray(values, dtype=float)
    n = v.size
    if n == 0:
        return math.nan, math.nan, math.nan
    m = float(v.mean())
    if n == 1:
        return m, math.nan, math.nan
    half = z_value(level) * float(v.std(ddof=1)) / math.sqrt(n)
    return m, m - half, m + half


def mean_ci_from_moments(n, total, total_sq, level: float = 0.95):
    """Like :func:`mean_ci` from running sums (for aggregate-as-you-go runs)."""
    if n == 0:
        return math.nan, math.nan, math.nan
    m = total / n
    if n == 1:
        return m, math.nan, math.nan
    var = max((total_sq - n * m * m) / (n - 1), 0.0)
    half = z_value(level) * math.sqrt(var / n)
    return m, m - half, m + half


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (familywise error, any dependence).

    The ``k``-th smallest of ``m`` p-values is multiplied by ``m - k + 1``, the
    running maximum taken so adjusted values keep the order of the raw ones, and
    capped at 1. NaN p-values stay NaN and do not count towards ``m``.
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(np.isfinite(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    adjusted = np.maximum.accumulate(p[order] * (m - np.arange(m)))
    out[order] = np.minimum(adjusted, 1.0)
    return out


@dataclass
class Headline:
    """One estimate with its 95% interval, e.g. a win rate."""

    label: str
    value: float
    low: float
    high: float
    half_width: float
