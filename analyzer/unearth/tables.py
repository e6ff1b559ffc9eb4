"""Unearth's own report tables: the partial rows and tables only this game has.

Called through :class:`analyzer.unearth.plugin.Unearth` (``reduce`` and
``report_tables``) by :mod:`analyzer.tables.aggregate`, whose helpers build the
moments and intervals. The column names used here (``pts_*``, ``wonders_*``,
``named_<wonder>``, ``played_<delver>``, ``end_of_age``) are the ones this game
declares in :func:`analyzer.unearth.plugin.games_columns`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.tables import aggregate as A


def reduce(tables: dict[str, pd.DataFrame]) -> list:
    """Unearth's partial rows of one batch (:class:`analyzer.tables.aggregate.Part`):
    end-of-age card, named wonders built, delver cards played, and the claims
    table. The same rows pandas' groupby gives (its twin: ``tests/pandas_twins.py``).
    Draws no random numbers."""
    parts = []
    g = tables.get("games")
    if g is not None and len(g):
        t = A.Table(g)
        parts += [
            A.grouped(t, "end_of_age", ["end_of_age"], ["score"]),
            A.grouped(
                t, "end_of_age_seat0", ["end_of_age"], ["win", "game_turns"], t.floats("seat") == 0
            ),
        ]
        # the seats that built each wonder (played each card), stacked as one table
        for prefix, group, metrics in PER_CARD:
            cols = [c for c in g.columns if c.startswith(prefix)]
            if cols:
                blocks = [(c[len(prefix) :], np.flatnonzero(t.floats(c) > 0), None) for c in cols]
                parts.append(A.stacked(t, group, blocks, metrics))
    c = tables.get("claims")
    if c is not None and len(c):
        t = A.Table(c)
        parts += [A.grouped(t, group, keys, None) for group, keys in CLAIM_COUNTS]
    return parts


#: (column prefix, group, metrics) of the per-card rows
PER_CARD = (
    ("named_", "named_built", ["win", "score", "pts_named"]),
    ("played_", "played_any", ["win", "score"]),
)
#: (group, keys) of the claims table's histograms
CLAIM_COUNTS = (
    ("claim_dice", ["claim_value", "n_dice"]),
    ("claim_faces", ["claim_value", "winner_faces"]),
    ("claim_decided", ["claim_value", "decided_by"]),
)


def report_tables(agg: pd.DataFrame, info: dict) -> dict[str, pd.DataFrame]:
    """Wonders by kind, named wonders, delver cards, end-of-age card and claims tables."""
    out: dict[str, pd.DataFrame] = {}
    if len(A.group_rows(agg, "all")):
        out.update(_seat_tables(agg, info))
    out.update(claims_tables(agg))
    return out


def _seat_tables(agg: pd.DataFrame, info: dict) -> dict[str, pd.DataFrame]:
    out: dict[str, pd.DataFrame] = {}
    names = info.get("labels", {})
    allg = A.group_rows(agg, "all").set_index(["cell", "metric"])[A.MOMENTS]
    rows = []
    for (cell, metric), mom in allg.iterrows():
        if metric.startswith("wonders_"):
            m, lo, hi = A.mean_ci_arrays([mom["n"]], [mom["sum"]], [mom["sumsq"]])
            rows.append((cell, metric[len("wonders_") :], mom["n"], m[0], lo[0], hi[0]))
    out["wonders"] = pd.DataFrame(
        rows, columns=["cell", "kind", "n", "mean", "mean_low", "mean_high"]
    )

    seat_rows = allg.reset_index()
    seat_n = seat_rows[seat_rows["metric"] == "win"].set_index("cell")["n"]
    seat_w = seat_rows[seat_rows["metric"] == "win"].set_index("cell")["sum"]
    points = info.get("wonder_points", {})

    built = A.group_rows(agg, "named_built")
    allm = A.group_rows(agg, "all")
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
                **{k: v[0] for k, v in A.rate("build_rate", [nb], [n_all]).items()},
                "builder_pts_named": pb / nb if nb else np.nan,
                **{k: v[0] for k, v in A.rate("win_builders", [wb], [nb]).items()},
                **{k: v[0] for k, v in A.rate("win_others", [w_all - wb], [n_all - nb]).items()},
            }
        )
    if rows:
        out["named_wonders"] = pd.DataFrame(rows)

    played = A.group_rows(agg, "played_any")
    rows = []
    for _, r in allm[allm["metric"].str.startswith("played_")].iterrows():
        did = r["metric"][len("played_") :]
        cell = r["cell"]
        m, lo, hi = A.mean_ci_arrays([r["n"]], [r["sum"]], [r["sumsq"]])
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
            **{k: v[0] for k, v in A.rate("share_played", [np_], [n_all]).items()},
            **{k: v[0] for k, v in A.rate("win_played", [wp], [np_]).items()},
            **{k: v[0] for k, v in A.rate("win_not_played", [w_all - wp], [n_all - np_]).items()},
        }
        row["win_difference"] = row["win_played"] - row["win_not_played"]
        rows.append(row)
    if rows:
        out["delvers"] = pd.DataFrame(rows)

    eoa = A.group_rows(agg, "end_of_age")
    eoa0 = A.group_rows(agg, "end_of_age_seat0")
    if len(eoa):
        score = A.pivot(eoa, "score")
        w0, turns = A.pivot(eoa0, "win"), A.pivot(eoa0, "game_turns")
        t = A.frame(
            score.index,
            {
                "games": w0["n"].reindex(score.index).to_numpy(),
                **A.mean_ci("score", score),
                **A.mean_ci("game_turns", turns.reindex(score.index)),
                **A.rate("seat0_win", w0["sum"].reindex(score.index), w0["n"].reindex(score.index)),
            },
            names=("cell", "card"),
        )
        t.insert(2, "name", t["card"].map(lambda c: names.get(c, c)))
        t.insert(4, "share", t["games"] / t.groupby("cell")["games"].transform("sum"))
        out["end_of_age"] = t
    return out


def claims_tables(agg: pd.DataFrame) -> dict[str, pd.DataFrame]:
    out = {}
    dice = A.group_rows(agg, "claim_dice")
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
        lo, hi = A.wilson(t["count"].to_numpy(), total.to_numpy())
        t["share"] = t["count"] / total
        t["share_low"], t["share_high"] = np.atleast_1d(lo), np.atleast_1d(hi)
        return t

    d = split(dice, "n_dice")
    out["claims_dice"] = d
    out["claims_faces"] = split(A.group_rows(agg, "claim_faces"), "winner_faces")
    dec = split(A.group_rows(agg, "claim_decided"), "decided_by")
    rows = []
    for (cell, cv), sub in d.groupby(["cell", "claim_value"]):
        n = sub["count"].sum()
        s = (sub["count"] * sub["n_dice"]).sum()
        ss = (sub["count"] * sub["n_dice"] ** 2).sum()
        m, lo, hi = A.mean_ci_arrays([n], [s], [ss])
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
                **{k: v[0] for k, v in A.rate("second_die", [second], [n]).items()},
                **{k: v[0] for k, v in A.rate("unbreakable", [never], [n]).items()},
            }
        )
    out["claims_tiebreak"] = pd.DataFrame(rows)
    return out
