"""Aggregation: per-game tables -> additive partials -> report tables (pandas).

This is the one place that builds pandas tables for reports. It works in two
steps, so that aggregate-only runs (bounded memory) and runs that keep every
game give the same report:

1. :class:`Reducer` turns one batch's tables (``games`` and ``claims``, plus the
   ``cell`` and ``order`` columns added by :class:`analyzer.scenario.ScenarioJob`)
   into a *partial*: a DataFrame indexed by ``(cell, group, key, metric)`` with
   float64 columns ``n``, ``sum``, ``sumsq``. Partials are additive, so batches
   are combined with :func:`combine` (or the runner's own summation).
2. :func:`build_tables` turns the summed partials into the report tables, every
   estimate with a 95% interval (Wilson for rates, normal for means; see
   :mod:`analyzer.stats`).

Column lists come from the documented ``games`` table by prefix (``pts_``,
``named_``, ``played_``, ``wonders_``), so nothing here names a card; display
names come from the ``labels`` mapping the scenario supplies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.stats import wilson, z_value

INDEX = ["cell", "group", "key", "metric"]
MOMENTS = ["n", "sum", "sumsq"]
#: columns of the games table that are labels, not metrics
ID_COLUMNS = ("cell", "order", "game", "seat", "n_players", "strategy", "end_of_age")
CORE = ("score", "win")


def empty_partial() -> pd.DataFrame:
    """A partial with no rows (the right index and columns)."""
    idx = pd.MultiIndex.from_arrays([[], [], [], []], names=INDEX)
    return pd.DataFrame({c: pd.Series(dtype="float64") for c in MOMENTS}, index=idx)


def combine(partials) -> pd.DataFrame:
    """Sum partials (any iterable of partial DataFrames) into one, sorted by index."""
    parts = [p for p in partials if p is not None and len(p)]
    if not parts:
        return empty_partial()
    out = pd.concat(parts).groupby(level=INDEX, sort=True).sum()
    return out[MOMENTS].astype("float64")


def metric_columns(games: pd.DataFrame) -> list[str]:
    """Numeric per-seat metrics of a games table (everything but the id columns)."""
    return [
        c for c in games.columns if c not in ID_COLUMNS and pd.api.types.is_numeric_dtype(games[c])
    ]


def _moments(df: pd.DataFrame, group: str, keys: list[str], metrics: list[str]) -> pd.DataFrame:
    """Partial rows of ``group``: moments of ``metrics`` by cell and ``keys``."""
    if df.empty or not metrics:
        return empty_partial()
    vals = df[metrics].astype("float64")
    by = [df["cell"].astype("int64")] + [
        df[k].astype(str) if isinstance(df[k].dtype, pd.CategoricalDtype) else df[k] for k in keys
    ]
    grouped = vals.groupby(by, sort=True)
    s = grouped.sum()
    ss = (vals * vals).groupby(by, sort=True).sum()
    n = grouped.count()
    s.columns.name = ss.columns.name = n.columns.name = "metric"
    out = pd.DataFrame({"n": n.stack(), "sum": s.stack(), "sumsq": ss.stack()})
    frame = out.index.to_frame(index=False)
    if keys:
        key = frame[keys].astype(str).agg("|".join, axis=1)
    else:
        key = pd.Series("", index=frame.index)
    idx = pd.MultiIndex.from_arrays(
        [
            frame["cell"].to_numpy(),
            np.full(len(frame), group, object),
            key.to_numpy(),
            frame["metric"].to_numpy(),
        ],
        names=INDEX,
    )
    out.index = idx
    return out.astype("float64")


def _counts(df: pd.DataFrame, group: str, keys: list[str]) -> pd.DataFrame:
    """Histogram rows: ``n = sum = sumsq = count`` for each value of ``keys``."""
    if df.empty:
        return empty_partial()
    one = df[["cell", *keys]].assign(count=1.0)
    return _moments(one, group, keys, ["count"])


def _with_derived(games: pd.DataFrame) -> pd.DataFrame:
    g = games.copy()
    kinds = [c for c in g.columns if c.startswith("wonders_")]
    if kinds and "wonders_total" not in g:
        g["wonders_total"] = g[kinds].sum(axis=1)
    return g


def _game_level(games: pd.DataFrame) -> pd.DataFrame:
    """One row per (cell, game): length, whether the win was shared, means over seats."""
    shared = ((games["win"] > 0) & (games["win"] < 1)).astype("float64")
    by = games.assign(shared_win=shared).groupby(["cell", "game"], sort=True)
    out = pd.DataFrame(
        {
            "game_turns": by["game_turns"].first().astype("float64"),
            "shared_win": by["shared_win"].max(),
            "mean_score": by["score"].mean(),
        }
    )
    if "wonders_total" in games:
        out["wonders_per_seat"] = by["wonders_total"].mean()
    return out.reset_index()


@dataclass(frozen=True)
class Reducer:
    """Batch tables -> partial (picklable; used by the runner in every worker).

    ``pairs`` lists comparisons as ``(cell_a, cell_b)``: their games are paired by
    game index (and seat) and the moments of ``b - a`` are kept under group
    ``paired`` of cell ``b``. Draws no random numbers.
    """

    pairs: tuple[tuple[int, int], ...] = ()

    def __call__(self, tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
        parts = []
        games = tables.get("games")
        if games is not None and len(games):
            parts.extend(self._games(_with_derived(games)))
        claims = tables.get("claims")
        if claims is not None and len(claims):
            parts.extend(self._claims(claims))
        return combine(parts)

    def _games(self, g: pd.DataFrame) -> list[pd.DataFrame]:
        metrics = metric_columns(g)
        core = [m for m in metrics if m in CORE or m.startswith("pts_") or m.startswith("wonders_")]
        first = g[g["seat"] == 0]
        parts = [
            _moments(g, "all", [], metrics),
            _moments(g, "seat", ["seat"], metrics),
            _moments(g, "strategy", ["strategy"], core),
            _moments(g, "seat_strategy", ["seat", "strategy"], list(CORE)),
            _counts(g, "score_hist", ["score"]),
            _counts(first, "turns_hist", ["game_turns"]),
            _moments(g, "end_of_age", ["end_of_age"], ["score"]),
            _moments(first, "end_of_age_seat0", ["end_of_age"], ["win", "game_turns"]),
        ]
        game_level = _game_level(g)
        parts.append(
            _moments(game_level, "game", [], [c for c in game_level if c not in ("cell", "game")])
        )
        for col in (c for c in g.columns if c.startswith("named_")):
            built = g[g[col] > 0].assign(key=col[len("named_") :])
            parts.append(_moments(built, "named_built", ["key"], ["win", "score", "pts_named"]))
        for col in (c for c in g.columns if c.startswith("played_")):
            played = g[g[col] > 0].assign(key=col[len("played_") :])
            parts.append(_moments(played, "played_any", ["key"], ["win", "score"]))
        for a, b in self.pairs:
            parts.extend(_paired(g, game_level, a, b))
        return parts

    def _claims(self, c: pd.DataFrame) -> list[pd.DataFrame]:
        return [
            _counts(c, "claim_dice", ["claim_value", "n_dice"]),
            _counts(c, "claim_faces", ["claim_value", "winner_faces"]),
            _counts(c, "claim_decided", ["claim_value", "decided_by"]),
        ]


def _paired(g: pd.DataFrame, game_level: pd.DataFrame, a: int, b: int) -> list[pd.DataFrame]:
    """Moments of the paired differences ``b - a`` (same game index, same seat)."""
    seat_cols = ["win", "score"] + [c for c in g.columns if c.startswith("pts_")]
    ga = g[g["cell"] == a].set_index(["game", "seat"])[seat_cols]
    gb = g[g["cell"] == b].set_index(["game", "seat"])[seat_cols]
    da = ga.add_suffix("_a").join(gb.add_suffix("_b"), how="inner")
    out = []
    if len(da):
        diff = pd.DataFrame(
            {c: da[f"{c}_b"].astype("float64") - da[f"{c}_a"].astype("float64") for c in seat_cols}
        )
        diff["cell"] = b
        diff["key"] = "seat=" + diff.index.get_level_values("seat").astype(str)
        out.append(_moments(diff.reset_index(drop=True), "paired", ["key"], ["win", "score"]))
        diff["key"] = "all seats"
        out.append(_moments(diff.reset_index(drop=True), "paired", ["key"], seat_cols))
    la = game_level[game_level["cell"] == a].set_index("game").drop(columns="cell")
    lb = game_level[game_level["cell"] == b].set_index("game").drop(columns="cell")
    both = la.add_suffix("_a").join(lb.add_suffix("_b"), how="inner")
    if len(both):
        cols = list(la.columns)
        diff = pd.DataFrame({c: both[f"{c}_b"] - both[f"{c}_a"] for c in cols})
        diff["cell"] = b
        diff["key"] = "game"
        out.append(_moments(diff.reset_index(drop=True), "paired", ["key"], cols))
    return out


# --------------------------------------------------------------------------- estimates


def _group(agg: pd.DataFrame, group: str) -> pd.DataFrame:
    """Rows of one group as columns ``cell, key, metric, n, sum, sumsq``."""
    if agg.empty:
        return pd.DataFrame(columns=["cell", "key", "metric", *MOMENTS])
    try:
        sub = agg.xs(group, level="group")
    except KeyError:
        return pd.DataFrame(columns=["cell", "key", "metric", *MOMENTS])
    return sub.reset_index()


def mean_ci_arrays(n, s, ss, level: float = 0.95):
    """Vectorised :func:`analyzer.stats.mean_ci_from_moments`: ``(mean, low, high)`` arrays."""
    n = np.asarray(n, float)
    s = np.asarray(s, float)
    ss = np.asarray(ss, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.where(n > 0, s / n, np.nan)
        var = np.where(n > 1, np.maximum((ss - n * m * m) / (n - 1), 0.0), np.nan)
        half = z_value(level) * np.sqrt(var / n)
    return m, m - half, m + half


def _pivot(sub: pd.DataFrame, metric: str) -> pd.DataFrame:
    return sub[sub["metric"] == metric].set_index(["cell", "key"])[MOMENTS]


def _rate(prefix: str, succ, n) -> dict:
    lo, hi = wilson(np.asarray(succ, float), np.asarray(n, float))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(
            np.asarray(n, float) > 0, np.asarray(succ, float) / np.asarray(n, float), np.nan
        )
    return {prefix: p, f"{prefix}_low": np.atleast_1d(lo), f"{prefix}_high": np.atleast_1d(hi)}


def _mean(prefix: str, mom: pd.DataFrame) -> dict:
    m, lo, hi = mean_ci_arrays(mom["n"], mom["sum"], mom["sumsq"])
    return {prefix: m, f"{prefix}_low": lo, f"{prefix}_high": hi}


def _frame(index: pd.Index, cols: dict, names=("cell", "key")) -> pd.DataFrame:
    df = pd.DataFrame(cols, index=index).reset_index()
    df.columns = [*names, *cols.keys()]
    return df


def _numeric_key(df: pd.DataFrame, col: str = "key") -> pd.DataFrame:
    df[col] = pd.to_numeric(df[col])
    return df


def _add_labels(df: pd.DataFrame, info: dict) -> pd.DataFrame:
    cells = info.get("cells", [])
    labels = {c["index"]: c["label"] for c in cells}
    players = {c["index"]: c["players"] for c in cells}
    df.insert(1, "label", df["cell"].map(labels).fillna(df["cell"].astype(str)))
    if "players" not in df:
        df.insert(2, "players", df["cell"].map(players))
    return df


def build_tables(agg: pd.DataFrame, info: dict) -> dict[str, pd.DataFrame]:
    """All report tables from summed partials.

    ``info`` describes the run: ``cells`` (list of ``{"index", "label",
    "params", "players"}``), ``pairs`` (list of ``[a, b]``), ``labels`` (id ->
    display name) and ``wonder_points`` (named-wonder id -> printed points).
    Returns ``{table name: DataFrame}``; tables with no data are left out.
    Every rate has ``_low``/``_high`` (Wilson 95%), every mean likewise (normal 95%).
    """
    names = info.get("labels", {})
    out: dict[str, pd.DataFrame] = {}
    allg = _group(agg, "all")
    if len(allg):
        out.update(_balance_tables(agg, info, names))
    claims = _claims_tables(agg)
    out.update(claims)
    if info.get("sweep") and "seats" in out:
        out["sweep"] = _sweep_table(agg, info)
    if info.get("pairs"):
        comp = _comparison_table(agg, info)
        if len(comp):
            out["comparison"] = comp
    for name, df in list(out.items()):
        out[name] = _add_labels(df, info).reset_index(drop=True)
    return out


def _balance_tables(agg: pd.DataFrame, info: dict, names: dict) -> dict[str, pd.DataFrame]:
    out = {}
    players = {c["index"]: c["players"] for c in info.get("cells", [])}
    seat = _group(agg, "seat")
    win, score = _pivot(seat, "win"), _pivot(seat, "score")
    t = _frame(
        win.index,
        {
            "n": win["n"].to_numpy(),
            **_rate("win_rate", win["sum"], win["n"]),
            **_mean("score", score),
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
    out["first_player"] = fp

    strat = _group(agg, "strategy")
    win, score = _pivot(strat, "win"), _pivot(strat, "score")
    out["strategies"] = _frame(
        win.index,
        {
            "n": win["n"].to_numpy(),
            **_rate("win_rate", win["sum"], win["n"]),
            **_mean("score", score),
        },
        names=("cell", "strategy"),
    )
    ss = _group(agg, "seat_strategy")
    win, score = _pivot(ss, "win"), _pivot(ss, "score")
    t = _frame(
        win.index,
        {
            "n": win["n"].to_numpy(),
            **_rate("win_rate", win["sum"], win["n"]),
            **_mean("score", score),
        },
    )
    parts = t["key"].str.split("|", n=1, expand=True)
    t.insert(1, "seat", pd.to_numeric(parts[0]))
    t.insert(2, "strategy", parts[1])
    out["seat_strategy"] = t.drop(columns="key").sort_values(["cell", "seat", "strategy"])

    allg = _group(agg, "all").set_index(["cell", "metric"])[MOMENTS]
    rows = []
    for (cell, metric), mom in allg.iterrows():
        if metric == "score" or metric.startswith("pts_"):
            m, lo, hi = mean_ci_arrays([mom["n"]], [mom["sum"]], [mom["sumsq"]])
            rows.append((cell, metric, mom["n"], m[0], lo[0], hi[0]))
    out["score_parts"] = pd.DataFrame(
        rows, columns=["cell", "part", "n", "mean", "mean_low", "mean_high"]
    )

    rows = []
    for (cell, metric), mom in allg.iterrows():
        if metric.startswith("wonders_"):
            m, lo, hi = mean_ci_arrays([mom["n"]], [mom["sum"]], [mom["sumsq"]])
            rows.append((cell, metric[len("wonders_") :], mom["n"], m[0], lo[0], hi[0]))
    out["wonders"] = pd.DataFrame(
        rows, columns=["cell", "kind", "n", "mean", "mean_low", "mean_high"]
    )

    hist = _group(agg, "score_hist")
    h = _numeric_key(hist[["cell", "key", "n"]].rename(columns={"n": "count"}).copy())
    h = h.rename(columns={"key": "score"}).sort_values(["cell", "score"])
    h["share"] = h["count"] / h.groupby("cell")["count"].transform("sum")
    out["score_distribution"] = h

    hist = _group(agg, "turns_hist")
    h = _numeric_key(hist[["cell", "key", "n"]].rename(columns={"n": "games"}).copy())
    h = h.rename(columns={"key": "game_turns"}).sort_values(["cell", "game_turns"])
    h["share"] = h["games"] / h.groupby("cell")["games"].transform("sum")
    out["game_length"] = h

    game = _group(agg, "game")
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

    seat_rows = allg.reset_index()
    seat_n = seat_rows[seat_rows["metric"] == "win"].set_index("cell")["n"]
    seat_w = seat_rows[seat_rows["metric"] == "win"].set_index("cell")["sum"]
    points = info.get("wonder_points", {})

    built = _group(agg, "named_built")
    allm = _group(agg, "all")
    rows = []
    for _, r in allm[allm["metric"].str.startswith("named_")].iterrows():
        wid = r["metric"][len("named_") :]
        cell = r["cell"]
        sub = built[(built["cell"] == cell) & (built["key"] == wid)].set_index("metric")
        nb = float(sub.loc["win", "n"]) if "win" in sub.index else 0.0
        wb = float(sub.loc["win", "sum"]) if "win" in sub.index else 0.0
        pb = float(sub.loc["pts_named", "sum"]) if "pts_named" in sub.index else np.nan
        n_all, w_all = float(seat_n[cell]), float(seat_w[cell])
        rows.append(
            {
                "cell": cell,
                "wonder": wid,
                "name": names.get(wid, wid),
                "printed_points": points.get(wid, np.nan),
                "builds": nb,
                **{k: v[0] for k, v in _rate("build_rate", [nb], [n_all]).items()},
                "builder_pts_named": pb / nb if nb else np.nan,
                **{k: v[0] for k, v in _rate("win_builders", [wb], [nb]).items()},
                **{k: v[0] for k, v in _rate("win_others", [w_all - wb], [n_all - nb]).items()},
            }
        )
    if rows:
        out["named_wonders"] = pd.DataFrame(rows)

    played = _group(agg, "played_any")
    rows = []
    for _, r in allm[allm["metric"].str.startswith("played_")].iterrows():
        did = r["metric"][len("played_") :]
        cell = r["cell"]
        m, lo, hi = mean_ci_arrays([r["n"]], [r["sum"]], [r["sumsq"]])
        sub = played[(played["cell"] == cell) & (played["key"] == did)].set_index("metric")
        np_ = float(sub.loc["win", "n"]) if "win" in sub.index else 0.0
        wp = float(sub.loc["win", "sum"]) if "win" in sub.index else 0.0
        n_all, w_all = float(seat_n[cell]), float(seat_w[cell])
        row = {
            "cell": cell,
            "card": did,
            "name": names.get(did, did),
            "played_mean": m[0],
            "played_mean_low": lo[0],
            "played_mean_high": hi[0],
            "seats_played": np_,
            **{k: v[0] for k, v in _rate("share_played", [np_], [n_all]).items()},
            **{k: v[0] for k, v in _rate("win_played", [wp], [np_]).items()},
            **{k: v[0] for k, v in _rate("win_not_played", [w_all - wp], [n_all - np_]).items()},
        }
        row["win_difference"] = row["win_played"] - row["win_not_played"]
        rows.append(row)
    if rows:
        out["delvers"] = pd.DataFrame(rows)

    eoa = _group(agg, "end_of_age")
    eoa0 = _group(agg, "end_of_age_seat0")
    if len(eoa):
        score = _pivot(eoa, "score")
        w0, turns = _pivot(eoa0, "win"), _pivot(eoa0, "game_turns")
        t = _frame(
            score.index,
            {
                "games": w0["n"].reindex(score.index).to_numpy(),
                **_mean("score", score),
                **_mean("game_turns", turns.reindex(score.index)),
                **_rate("seat0_win", w0["sum"].reindex(score.index), w0["n"].reindex(score.index)),
            },
            names=("cell", "card"),
        )
        t.insert(2, "name", t["card"].map(lambda c: names.get(c, c)))
        t.insert(4, "share", t["games"] / t.groupby("cell")["games"].transform("sum"))
        out["end_of_age"] = t
    return out


def _claims_tables(agg: pd.DataFrame) -> dict[str, pd.DataFrame]:
    out = {}
    dice = _group(agg, "claim_dice")
    if not len(dice):
        return out

    def split(df: pd.DataFrame, second: str) -> pd.DataFrame:
        parts = df["key"].str.split("|", n=1, expand=True)
        t = pd.DataFrame(
            {
                "cell": df["cell"].to_numpy(),
                "claim_value": pd.to_numeric(parts[0]).to_numpy(),
                second: pd.to_numeric(parts[1]).to_numpy(),
                "count": df["n"].to_numpy(),
            }
        )
        t = t.sort_values(["cell", "claim_value", second]).reset_index(drop=True)
        total = t.groupby(["cell", "claim_value"])["count"].transform("sum")
        lo, hi = wilson(t["count"].to_numpy(), total.to_numpy())
        t["share"] = t["count"] / total
        t["share_low"], t["share_high"] = np.atleast_1d(lo), np.atleast_1d(hi)
        return t

    d = split(dice, "n_dice")
    out["claims_dice"] = d
    out["claims_faces"] = split(_group(agg, "claim_faces"), "winner_faces")
    dec = split(_group(agg, "claim_decided"), "decided_by")
    rows = []
    for (cell, cv), sub in d.groupby(["cell", "claim_value"]):
        n = sub["count"].sum()
        s = (sub["count"] * sub["n_dice"]).sum()
        ss = (sub["count"] * sub["n_dice"] ** 2).sum()
        m, lo, hi = mean_ci_arrays([n], [s], [ss])
        dsub = dec[(dec["cell"] == cell) & (dec["claim_value"] == cv)]
        second = dsub.loc[dsub["decided_by"] >= 2, "count"].sum()
        never = dsub.loc[dsub["decided_by"] < 0, "count"].sum()
        rows.append(
            {
                "cell": cell,
                "claim_value": cv,
                "resolved": n,
                "mean_dice": m[0],
                "mean_dice_low": lo[0],
                "mean_dice_high": hi[0],
                **{k: v[0] for k, v in _rate("second_die", [second], [n]).items()},
                **{k: v[0] for k, v in _rate("unbreakable", [never], [n]).items()},
            }
        )
    out["claims_tiebreak"] = pd.DataFrame(rows)
    return out


def _sweep_table(agg: pd.DataFrame, info: dict) -> pd.DataFrame:
    """Long table: each cell's parameter values and headline metrics with intervals."""
    rows = []
    cells = {c["index"]: c for c in info.get("cells", [])}
    seat = _group(agg, "seat")
    allg = _group(agg, "all").set_index(["cell", "metric"])
    game = _group(agg, "game").set_index(["cell", "metric"]) if len(_group(agg, "game")) else None
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
            *sorted(
                m
                for m in allg.index.get_level_values(1).unique()
                if m.startswith("pts_") or m == "wonders_total"
            ),
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


def _comparison_table(agg: pd.DataFrame, info: dict) -> pd.DataFrame:
    """Paired differences ``b - a`` with 95% intervals; ``significant`` when 0 is outside."""
    paired = _group(agg, "paired")
    rows = []
    seat = _group(agg, "seat")
    allg = _group(agg, "all")
    game = _group(agg, "game")
    for a, b in info.get("pairs", []):
        sub = paired[paired["cell"] == b]
        for _, r in sub.iterrows():
            m, lo, hi = mean_ci_arrays([r["n"]], [r["sum"]], [r["sumsq"]])
            key, metric = r["key"], r["metric"]
            if key.startswith("seat="):
                src, k = seat, key[len("seat=") :]
            elif key == "game":
                src, k = game, ""
            else:
                src, k = allg, ""

            def mean_of(cell, src=src, k=k, metric=metric):
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
    return pd.DataFrame(rows)


def _fmt(v) -> str:
    if isinstance(v, list | tuple):
        return "[" + ",".join(str(x) for x in v) + "]"
    return str(v)


def headline(info: dict):
    """Headline for the runner's precision stop: first-player win rate of cell 0.

    Returns a function ``aggregate -> analyzer.runner.Headline``-like object built
    by ``make`` (the runner's ``Headline`` class), so this module does not
    import the runner.
    """

    def compute(agg: pd.DataFrame):
        from analyzer.runner import Headline

        seat = _group(agg, "seat")
        r = seat[(seat["cell"] == 0) & (seat["key"] == "0") & (seat["metric"] == "win")]
        n = float(r["n"].sum())
        s = float(r["sum"].sum())
        lo, hi = wilson(s, n)
        return Headline(
            label="first-player win rate",
            value=s / n if n else float("nan"),
            low=lo,
            high=hi,
            half_width=(hi - lo) / 2,
        )

    return compute
