"""The report tables of a run, from its summed partials.

:func:`build_tables` turns the summed partials into the report tables, every
estimate with a 95% interval (Wilson for rates, normal for means;
:mod:`analyzer.tables.estimates`): the tables every game has (seats, first
player, strategies, score parts and distribution, game length), the game's
own (:meth:`analyzer.games.Game.report_tables`), a sweep's and a comparison's.
Display names come from the ``labels`` mapping the scenario supplies.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.core.stats import wilson
from analyzer.games import DEFAULT_GAME, load_game
from analyzer.tables.estimates import (
    _numeric_key,
    frame,
    mean_ci,
    mean_ci_arrays,
    per_use,
    pivot,
    rate,
)
from analyzer.tables.partial import MOMENTS, group_rows
from analyzer.tables.reducer import run_columns


def build_tables(agg: pd.DataFrame, info: dict) -> dict[str, pd.DataFrame]:
    """All report tables from summed partials: the generic ones, then the game's.

    ``info`` describes the run: ``game`` (registry name), ``columns`` (declared
    columns, see :func:`run_columns`), ``cells`` (list of ``{"index", "label",
    "params", "players"}``), ``pairs`` (list of ``[a, b]``), ``sweep_pairs`` (a
    sweep's, likewise: table ``sweep_paired``), ``labels`` (id ->
    display name) and whatever the game's :meth:`~analyzer.games.Game.info`
    added. Returns ``{table name: DataFrame}``; tables with no data are left out.
    Every rate has ``_low``/``_high`` (Wilson 95%), every mean likewise (normal 95%).
    """
    out: dict[str, pd.DataFrame] = {}
    allg = group_rows(agg, "all")
    if len(allg):
        out.update(_balance_tables(agg, info))
    out.update(load_game(info.get("game", DEFAULT_GAME)).report_tables(agg, info))
    if info.get("sweep") and "seats" in out:
        out["sweep"] = _sweep_table(agg, info)
    if info.get("pairs"):
        comp = _comparison_table(agg, info)
        if len(comp):
            out["comparison"] = comp
    if info.get("sweep_pairs"):
        comp = _comparison_table(agg, info, info["sweep_pairs"])
        if len(comp):
            out["sweep_paired"] = comp
    for name, df in list(out.items()):
        out[name] = _add_labels(df, info).reset_index(drop=True)
    return out


def _balance_tables(agg: pd.DataFrame, info: dict) -> dict[str, pd.DataFrame]:
    out = {}
    part_names = {c.name for c in run_columns(info) if c.part}
    players = {c["index"]: c["players"] for c in info.get("cells", [])}
    seat = group_rows(agg, "seat")
    win, score = pivot(seat, "win"), pivot(seat, "score")
    t = frame(
        win.index,
        {
            "n": win["n"].to_numpy(),
            **rate("win_rate", win["sum"], win["n"]),
            **mean_ci("score", score),
        },
        names=("cell", "seat"),
    )
    t = _numeric_key(t, "seat").sort_values(["cell", "seat"])
    t.insert(2, "players", t["cell"].map(players))
    t["fair"] = 1.0 / t["players"]
    out["seats"] = t

    fp = t[t["seat"] == 0].copy()
    fp = fp.rename(
        columns={
            "n": "games",
            "win_rate": "seat0_win",
            "win_rate_low": "seat0_win_low",
            "win_rate_high": "seat0_win_high",
        }
    )
    fp = fp[["cell", "players", "games", "seat0_win", "seat0_win_low", "seat0_win_high", "fair"]]
    fp["advantage"] = fp["seat0_win"] - fp["fair"]
    fp["significant"] = (fp["fair"] < fp["seat0_win_low"]) | (fp["fair"] > fp["seat0_win_high"])
    luck = group_rows(agg, "luck")
    if len(luck):
        fp = fp.merge(_adjusted_seat0(luck, pivot(seat, "win")), on="cell", how="left")
    out["first_player"] = fp

    strat = group_rows(agg, "strategy")
    win, score = pivot(strat, "win"), pivot(strat, "score")
    out["strategies"] = frame(
        win.index,
        {
            "n": win["n"].to_numpy(),
            **rate("win_rate", win["sum"], win["n"]),
            **mean_ci("score", score),
        },
        names=("cell", "strategy"),
    )
    ss = group_rows(agg, "seat_strategy")
    win, score = pivot(ss, "win"), pivot(ss, "score")
    t = frame(
        win.index,
        {
            "n": win["n"].to_numpy(),
            **rate("win_rate", win["sum"], win["n"]),
            **mean_ci("score", score),
        },
    )
    parts = t["key"].str.split("|", n=1, expand=True)
    t.insert(1, "seat", pd.to_numeric(parts[0]))
    t.insert(2, "strategy", parts[1])
    out["seat_strategy"] = t.drop(columns="key").sort_values(["cell", "seat", "strategy"])

    allg = group_rows(agg, "all").set_index(["cell", "metric"])[MOMENTS]
    rows = []
    for (cell, metric), mom in allg.iterrows():
        if mom["n"] == 0:  # a column some cells do not have (a rule's own part)
            continue
        if metric == "score" or metric in part_names:
            m, lo, hi = mean_ci_arrays([mom["n"]], [mom["sum"]], [mom["sumsq"]])
            rows.append((cell, metric, mom["n"], m[0], lo[0], hi[0]))
    out["score_parts"] = pd.DataFrame(
        rows, columns=["cell", "part", "n", "mean", "mean_low", "mean_high"]
    )

    hist = group_rows(agg, "score_hist")
    h = _numeric_key(hist[["cell", "key", "n"]].rename(columns={"n": "count"}).copy())
    h = h.rename(columns={"key": "score"}).sort_values(["cell", "score"])
    h["share"] = h["count"] / h.groupby("cell")["count"].transform("sum")
    out["score_distribution"] = h

    hist = group_rows(agg, "turns_hist")
    h = _numeric_key(hist[["cell", "key", "n"]].rename(columns={"n": "games"}).copy())
    h = h.rename(columns={"key": "game_turns"}).sort_values(["cell", "game_turns"])
    h["share"] = h["games"] / h.groupby("cell")["games"].transform("sum")
    out["game_length"] = h

    game = group_rows(agg, "game")
    if len(game):
        gm = game.set_index(["cell", "metric"])[MOMENTS]
        rows = []
        for (cell, metric), mom in gm.iterrows():
            if metric == "shared_win":
                lo, hi = wilson(mom["sum"], mom["n"])
                est = mom["sum"] / mom["n"]
            else:
                m, lo_, hi_ = mean_ci_arrays([mom["n"]], [mom["sum"]], [mom["sumsq"]])
                est, lo, hi = m[0], lo_[0], hi_[0]
            rows.append((cell, metric, mom["n"], est, lo, hi))
        out["games_summary"] = pd.DataFrame(
            rows, columns=["cell", "metric", "games", "estimate", "low", "high"]
        )

    return out


def _sweep_table(agg: pd.DataFrame, info: dict) -> pd.DataFrame:
    """Long table: each cell's parameter values and headline metrics with intervals."""
    rows = []
    swept = {c.name for c in run_columns(info) if c.kind == "metric" and (c.part or c.sweep)}
    cells = {c["index"]: c for c in info.get("cells", [])}
    seat = group_rows(agg, "seat")
    allg = group_rows(agg, "all").set_index(["cell", "metric"])
    game = (
        group_rows(agg, "game").set_index(["cell", "metric"])
        if len(group_rows(agg, "game"))
        else None
    )
    for idx, cell in cells.items():
        base = {f"param:{k}": _fmt(v) for k, v in cell["params"].items()}
        sub = seat[(seat["cell"] == idx) & (seat["metric"] == "win")]
        for _, r in sub.iterrows():
            lo, hi = wilson(r["sum"], r["n"])
            rows.append(
                {
                    "cell": idx,
                    **base,
                    "metric": f"win rate seat {r['key']}",
                    "estimate": r["sum"] / r["n"],
                    "low": lo,
                    "high": hi,
                    "n": r["n"],
                }
            )
        for metric in [
            "score",
            *sorted(m for m in allg.index.get_level_values(1).unique() if m in swept),
        ]:
            if (idx, metric) in allg.index:
                r = allg.loc[(idx, metric)]
                m, lo, hi = mean_ci_arrays([r["n"]], [r["sum"]], [r["sumsq"]])
                rows.append(
                    {
                        "cell": idx,
                        **base,
                        "metric": f"mean {metric}",
                        "estimate": m[0],
                        "low": lo[0],
                        "high": hi[0],
                        "n": r["n"],
                    }
                )
        if game is not None:
            for metric in ("game_turns", "shared_win"):
                if (idx, metric) in game.index:
                    r = game.loc[(idx, metric)]
                    if metric == "shared_win":
                        lo, hi = wilson(r["sum"], r["n"])
                        est = r["sum"] / r["n"]
                        name = "shared-win rate"
                    else:
                        m, lo_, hi_ = mean_ci_arrays([r["n"]], [r["sum"]], [r["sumsq"]])
                        est, lo, hi = m[0], lo_[0], hi_[0]
                        name = "mean game_turns"
                    rows.append(
                        {
                            "cell": idx,
                            **base,
                            "metric": name,
                            "estimate": est,
                            "low": lo,
                            "high": hi,
                            "n": r["n"],
                        }
                    )
    return pd.DataFrame(rows)


def _comparison_table(agg: pd.DataFrame, info: dict, pairs=None) -> pd.DataFrame:
    """Paired differences ``b - a`` with 95% intervals; ``significant`` when 0 is outside.
    ``pairs``: the comparison's (``info["pairs"]``), or a sweep's (``sweep_pairs``:
    table ``sweep_paired``, each swept value against the first)."""
    paired = group_rows(agg, "paired")
    rows = []
    seat = group_rows(agg, "seat")
    strategy = group_rows(agg, "strategy")
    allg = group_rows(agg, "all")
    game = group_rows(agg, "game")
    treated = group_rows(agg, "treated")
    untreated = group_rows(agg, "untreated")
    for a, b in info.get("pairs", []) if pairs is None else pairs:
        sub = paired[paired["cell"] == b]
        for _, r in sub.iterrows():
            key, metric = r["key"], r["metric"]
            if metric in PER_USE_PARTS or r["n"] == 0:  # n 0: a column one cell lacks
                continue
            m, lo, hi = mean_ci_arrays([r["n"]], [r["sum"]], [r["sumsq"]])
            if key.startswith("seat="):
                src, k = seat, key[len("seat=") :]
            elif key.startswith("strategy="):
                src, k = strategy, key[len("strategy=") :]
            elif key == "game":
                src, k = game, ""
            elif key == "treated seats":
                src, k = treated, ""
            elif key == "other seats":
                src, k = untreated, ""
            else:
                src, k = allg, ""

            def mean_of(cell, src=src, k=k, metric=metric):
                if src is None:
                    return np.nan
                x = src[(src["cell"] == cell) & (src["key"] == k) & (src["metric"] == metric)]
                return float(x["sum"].iloc[0] / x["n"].iloc[0]) if len(x) else np.nan

            rows.append(
                {
                    "cell": b,
                    "cell_a": a,
                    "scope": key,
                    "metric": metric,
                    "pairs": r["n"],
                    "mean_a": mean_of(a),
                    "mean_b": mean_of(b),
                    "diff": m[0],
                    "diff_low": lo[0],
                    "diff_high": hi[0],
                    "significant": bool(lo[0] > 0 or hi[0] < 0),
                }
            )
        rows += _per_use_rows(sub, a, b)
    return pd.DataFrame(rows)


#: paired-moment metrics kept only to work out the per-use ratio
PER_USE_PARTS = ("uptake", "win_x_uptake", "score_x_uptake")


def _per_use_rows(sub: pd.DataFrame, a: int, b: int) -> list[dict]:
    """Rows ``win per use`` and ``score per use`` of the treated seats (see
    :func:`per_use`), and ``uptake``, the share of treated seat-games that used
    what is forbidden where it is allowed (its mean in the ``mean_a``/``mean_b``
    column of that variant)."""
    t = sub[sub["key"] == "treated seats"].set_index("metric")
    if "uptake" not in t.index:
        return []
    u = t.loc["uptake"]
    n = float(u["n"])
    rows = []
    for metric in ("win", "score"):
        d, du = t.loc[metric], t.loc[f"{metric}_x_uptake"]
        r, lo, hi = per_use(n, d["sum"], d["sumsq"], u["sum"], u["sumsq"], du["sum"])
        rows.append(
            {
                "cell": b,
                "cell_a": a,
                "scope": "treated seats",
                "metric": f"{metric} per use",
                "pairs": n,
                "mean_a": np.nan,
                "mean_b": np.nan,
                "diff": r,
                "diff_low": lo,
                "diff_high": hi,
                "significant": bool(lo > 0 or hi < 0),
                "uptake": float(u["sum"]) / n if n else np.nan,
            }
        )
    return rows


def _fmt(v) -> str:
    if isinstance(v, list | tuple):
        return "[" + ",".join(str(x) for x in v) + "]"
    return str(v)


def _add_labels(df: pd.DataFrame, info: dict) -> pd.DataFrame:
    cells = info.get("cells", [])
    labels = {c["index"]: c["label"] for c in cells}
    players = {c["index"]: c["players"] for c in cells}
    df.insert(1, "label", df["cell"].map(labels).fillna(df["cell"].astype(str)))
    if "players" not in df:
        df.insert(2, "players", df["cell"].map(players))
    return df


def _adjusted_seat0(luck: pd.DataFrame, win: pd.DataFrame) -> pd.DataFrame:
    """The first seat's luck-adjusted win rate per cell: mean of ``win - luck_win``
    with a normal 95% interval (adjusted wins leave [0, 1]) and ``var_ratio``, its
    variance over the plain win's (the games needed for the same interval)."""
    adj = pivot(luck, "win_adj")
    adj = adj[adj.index.get_level_values("key") == "0"]
    plain = win[win.index.get_level_values("key") == "0"].reindex(adj.index)
    m, lo, hi = mean_ci_arrays(adj["n"], adj["sum"], adj["sumsq"])

    def var(mom):
        n, s, ss = (mom[c].to_numpy(float) for c in MOMENTS)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (ss - s * s / n) / (n - 1)

    return pd.DataFrame(
        {
            "cell": adj.index.get_level_values("cell").astype(int),
            "seat0_win_adj": m,
            "seat0_win_adj_low": lo,
            "seat0_win_adj_high": hi,
            "var_ratio": var(adj) / var(plain),
        }
    )
