"""Estimates from moments: means and rates with their 95% intervals.

Report tables read a partial's ``n``, ``sum``, ``sumsq`` as estimates: a mean
with a normal interval (:func:`mean_ci_arrays`), a rate with Wilson's
(:func:`rate`), a paired effect per use with a delta-method interval
(:func:`per_use`); see :mod:`analyzer.core.stats`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.core.stats import wilson, z_value
from analyzer.tables.partial import MOMENTS


def mean_ci_arrays(n, s, ss, level: float = 0.95):
    """Vectorised :func:`analyzer.core.stats.mean_ci_from_moments`: ``(mean, low, high)`` arrays."""
    n = np.asarray(n, float)
    s = np.asarray(s, float)
    ss = np.asarray(ss, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.where(n > 0, s / n, np.nan)
        var = np.where(n > 1, np.maximum((ss - n * m * m) / (n - 1), 0.0), np.nan)
        half = z_value(level) * np.sqrt(var / n)
    return m, m - half, m + half


def pivot(sub: pd.DataFrame, metric: str) -> pd.DataFrame:
    return sub[sub["metric"] == metric].set_index(["cell", "key"])[MOMENTS]


def rate(prefix: str, succ, n) -> dict:
    lo, hi = wilson(np.asarray(succ, float), np.asarray(n, float))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(
            np.asarray(n, float) > 0, np.asarray(succ, float) / np.asarray(n, float), np.nan
        )
    return {prefix: p, f"{prefix}_low": np.atleast_1d(lo), f"{prefix}_high": np.atleast_1d(hi)}


def mean_ci(prefix: str, mom: pd.DataFrame) -> dict:
    m, lo, hi = mean_ci_arrays(mom["n"], mom["sum"], mom["sumsq"])
    return {prefix: m, f"{prefix}_low": lo, f"{prefix}_high": hi}


def frame(index: pd.Index, cols: dict, names=("cell", "key")) -> pd.DataFrame:
    df = pd.DataFrame(cols, index=index).reset_index()
    df.columns = [*names, *cols.keys()]
    return df


def _numeric_key(df: pd.DataFrame, col: str = "key") -> pd.DataFrame:
    df[col] = pd.to_numeric(df[col])
    return df


def per_use(n: float, sum_d: float, sumsq_d: float, sum_u: float, sumsq_u: float, sum_du: float):
    """``(ratio, low, high)``: the paired difference per use, ``sum d / sum u`` (the
    effect on the seats that used what the intervention forbids, if the effect
    comes only through that use), with a 95% delta-method interval from the
    moments of ``d`` (the paired difference), ``u`` (uptake, 0/1) and ``d*u``."""
    if n < 2 or sum_u <= 0:
        return np.nan, np.nan, np.nan
    mean_d, mean_u = sum_d / n, sum_u / n
    r = sum_d / sum_u
    var_d = max((sumsq_d - n * mean_d**2) / (n - 1), 0.0)
    var_u = max((sumsq_u - n * mean_u**2) / (n - 1), 0.0)
    cov = (sum_du - n * mean_d * mean_u) / (n - 1)
    var_r = max(var_d - 2 * r * cov + r * r * var_u, 0.0) / (n * mean_u**2)
    half = z_value(0.95) * np.sqrt(var_r)
    return r, r - half, r + half
