"""Luck accounting shared by every game: AIVAT-style control variates.

At every chance event a game adds, for each seat, the luck of the outcome::

    luck = V(state after the outcome) - sum_o P(o) * V(state after outcome o)

with ``P`` the exact distribution of the outcome (enumerated) and ``V`` a fixed
value estimate of the seat's win share and final score. Each term has mean zero
given everything that happened before the event, whatever ``V`` is, so the sum
over a game (columns ``luck_win`` and ``luck_score`` of the games table) has mean
zero and ``win - luck_win``, ``score - luck_score`` estimate the same expectations
as ``win`` and ``score`` with less variance when ``V`` is good
(``docs/statistics.md``, "Luck-adjusted estimates").

Here: the kernels that turn one outcome's value estimates into the event's term
(a game calls :func:`event_begin`, :func:`event_outcome` once per outcome, then
:func:`event_end`), the win-share transform of score estimates, the luck fields
of a game's state (:func:`luck_arrays`: whether the terms are on, :func:`luck_on`,
and a game's luck copied to its rows, :func:`store_luck`), ``V``'s shipped row
(:func:`value_row`), and the adjusted estimates of a table. A game supplies
only its chance events and ``V``.
"""

from __future__ import annotations

import math
import tomllib
from importlib import resources

import numpy as np

from analyzer.core.stats import z_value
from analyzer.kernels.jit import njit

#: rows of a luck accumulator ``acc`` (float64[ACC_ROWS, P])
ACC_EXP_WIN = 0  #: expected win value over the outcomes (sum P(o) V_win(o))
ACC_EXP_SCORE = 1  #: expected score value
ACC_WIN = 2  #: the actual outcome's win value
ACC_SCORE = 3  #: the actual outcome's score value
ACC_SHARE = 4  #: scratch: one outcome's win values
ACC_ROWS = 5

#: the columns a game with luck terms adds to its games table
LUCK_COLUMNS = ("luck_win", "luck_score")


@njit
def win_values(vs, n, tau, out):
    """Win values from score values: ``out[p] = softmax(vs / tau)[p]`` for the
    first ``n`` seats (they sum to 1; equal scores share). ``tau <= 0``: the
    best seats share 1 equally. Draws no random numbers."""
    best = vs[0]
    for p in range(1, n):
        if vs[p] > best:
            best = vs[p]
    total = 0.0
    if tau <= 0.0:
        for p in range(n):
            out[p] = 1.0 if vs[p] == best else 0.0
            total += out[p]
    else:
        for p in range(n):
            out[p] = math.exp((vs[p] - best) / tau)
            total += out[p]
    for p in range(n):
        out[p] /= total


@njit(inline="always")
def luck_on(s, n_par):
    """Whether a game's luck terms are on: its state's ``luck_par`` holds the
    ``n_par`` parameters of its ``V`` (shape ``(1,)``: off)."""
    return s.luck_par.shape[0] >= n_par


@njit(inline="always")
def planted(s, n_par):
    """Tests only: the known bias a ``luck_par`` one longer than ``V``'s ``n_par``
    parameters plants (its last value; 0: none)."""
    return int(s.luck_par[n_par]) if s.luck_par.shape[0] > n_par else 0


@njit
def store_luck(s, n, row0, n_par):
    """Copy this game's luck (``s.luck``, float64[kinds, 2, P]: win, score) into
    rows ``row0 ..`` of ``s.luck_out`` (float64[rows, kinds, 2]) when the terms
    are on (``n_par``: :func:`luck_on`) and it has room."""
    if not luck_on(s, n_par) or s.luck_out.shape[0] < row0 + n:
        return
    for p in range(n):
        for k in range(s.luck.shape[0]):
            s.luck_out[row0 + p, k, 0] = s.luck[k, 0, p]
            s.luck_out[row0 + p, k, 1] = s.luck[k, 1, p]


@njit
def event_begin(acc, n):
    """Start a chance event: clear the expectations of ``acc`` (float64[ACC_ROWS, P])."""
    for p in range(n):
        acc[ACC_EXP_WIN, p] = 0.0
        acc[ACC_EXP_SCORE, p] = 0.0
        acc[ACC_WIN, p] = 0.0
        acc[ACC_SCORE, p] = 0.0


@njit
def event_outcome(acc, vs, n, tau, prob, actual):
    """One outcome of the event, of probability ``prob``, whose score values are
    ``vs`` (float64[P]); ``actual``: it is the outcome that happened. Its win
    values are :func:`win_values` of ``vs`` at temperature ``tau`` (``tau < 0``:
    the caller wrote them in ``acc[ACC_SHARE]``, e.g. a finished game's shares)."""
    share = acc[ACC_SHARE]
    if tau >= 0.0:
        win_values(vs, n, tau, share)
    for p in range(n):
        acc[ACC_EXP_WIN, p] += prob * share[p]
        acc[ACC_EXP_SCORE, p] += prob * vs[p]
        if actual:
            acc[ACC_WIN, p] = share[p]
            acc[ACC_SCORE, p] = vs[p]


@njit
def event_end(acc, luck_win, luck_score, n):
    """Add the event's terms (actual minus expected) to ``luck_win``/``luck_score``
    (float64[P])."""
    for p in range(n):
        luck_win[p] += acc[ACC_WIN, p] - acc[ACC_EXP_WIN, p]
        luck_score[p] += acc[ACC_SCORE, p] - acc[ACC_EXP_SCORE, p]


def luck_arrays(par, kinds: int, players: int, rows: int) -> dict[str, np.ndarray]:
    """The luck fields every game's state holds, keyword arguments of its
    ``State``: ``luck_par`` (``V``'s parameters ``par``, float64; ``None``: off,
    shape ``(1,)``), ``luck`` (float64[kinds, 2, players]: this game's luck by kind
    of event, win and score), ``luck_out`` (float64[rows, kinds, 2], at least one
    row: each (game, seat)'s luck, :func:`store_luck`), ``luck_acc``
    (float64[ACC_ROWS, players]: one event's expectations), ``luck_vs`` and
    ``luck_base`` (float64[players]: one outcome's score values, the values it
    starts from)."""
    f = np.zeros
    return {
        "luck_par": f(1) if par is None else np.array(par, np.float64),
        "luck": f((kinds, 2, players), np.float64),
        "luck_out": f((max(rows, 1), kinds, 2), np.float64),
        "luck_acc": f((ACC_ROWS, players), np.float64),
        "luck_vs": f(players, np.float64),
        "luck_base": f(players, np.float64),
    }


def shipped_values(package: str) -> dict:
    """A game's shipped luck file, ``data/luck_value.toml`` of ``package``."""
    return tomllib.loads(resources.files(package).joinpath("data/luck_value.toml").read_text())


def value_row(values: dict, names, players: int | None = None) -> np.ndarray:
    """``V``'s row (float64, in the order of ``names``) from a luck file's tables:
    ``[value]``, overridden by ``[players.N]`` for ``players`` = N when the file
    fits that player count apart (a parameter missing from both is 0)."""
    par = dict(values["value"])
    if players is not None:
        par.update(values.get("players", {}).get(str(players), {}))
    return np.array([float(par.get(name, 0.0)) for name in names], np.float64)


def adjusted(values, luck, level: float = 0.95) -> dict:
    """Plain and luck-adjusted estimates of the mean of ``values`` (per game or
    per paired game) given their summed luck terms ``luck`` (same length).

    Returns ``mean, low, high`` (plain, normal interval), ``adj, adj_low,
    adj_high`` (the mean of ``values - luck``, normal interval: adjusted wins
    leave [0, 1]), ``ratio`` (adjusted interval width / plain width) and ``n``.
    """
    v = np.asarray(values, float)
    a = v - np.asarray(luck, float)
    n = v.size
    z = z_value(level)
    out = {"n": n}
    for key, x in (("", v), ("adj", a)):
        m = float(x.mean()) if n else math.nan
        half = z * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
        pre = f"{key}_" if key else ""
        out[key or "mean"] = m
        out[f"{pre}low"] = m - half
        out[f"{pre}high"] = m + half
        out[f"{pre}half"] = half
    out["ratio"] = out["adj_half"] / out["half"] if out["half"] > 0 else math.nan
    return out


# --------------------------------------------------------------------------- fitting V
#
# Each game's ``luck_fit`` plays games of separate seeds once per parameter row
# tried and searches the row that leaves the least variance; what is shared is
# the objective and the search.


def residual(runs, par) -> float:
    """The objective of a fit: over ``runs`` (each ``run(par) -> (score, win,
    luck)``, ``luck[:, 0]`` the summed win terms and ``luck[:, 1]`` the score
    terms), the adjusted score's standard deviation over the plain one plus the
    same for the win, averaged over the runs (2: nothing removed, 0: everything)."""
    total = 0.0
    for run in runs:
        score, win, luck = run(par)
        total += np.std(score - luck[:, 1]) / np.std(score)
        total += np.std(win - luck[:, 0]) / np.std(win)
    return total / len(runs)


def scale(name: str, value: float, step: float, sign: float) -> float:
    """The default move of :func:`coordinate_search`: ``value`` times ``step`` (up)
    or divided by it (down)."""
    return value * step**sign


def coordinate_search(objective, par, names, *, rounds: int = 3, move=scale, log=print):
    """Minimise ``objective(par)`` one parameter at a time from ``par``: each
    parameter moved by ``move(name, value, step, sign)`` up, then down, for as long
    as the objective falls (by more than 1e-5), ``rounds`` times over with the
    step (first 2) shrinking to its square root each round. Returns the best row
    (a copy); ``log`` gets a line per improvement."""
    par = np.array(par, dtype=np.float64)
    best = objective(par)
    log(f"start {best:.4f} {dict(zip(names, par.round(3), strict=True))}")
    step = 2.0
    for _ in range(rounds):
        for i in range(len(par)):
            for sign in (1.0, -1.0):
                while True:
                    trial = par.copy()
                    trial[i] = move(names[i], trial[i], step, sign)
                    value = objective(trial)
                    if value >= best - 1e-5:
                        break
                    par, best = trial, value
                    log(f"{names[i]} -> {par[i]:.3f}: {best:.4f}")
        step = step**0.5
    return par
