"""The charts of a run: which of the generic charts its tables call for, then the game's.

:func:`make_charts` picks the charts of :mod:`analyzer.report.charts` a run's
tables call for (seats, strategies, score parts, a sweep, a comparison, an
intervention's effect) and adds the game's own
(:meth:`analyzer.games.Game.charts`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.games import DEFAULT_GAME, load_game
from analyzer.report import charts
from analyzer.report.info import plays_games
from analyzer.tables import findings


def make_charts(
    tables: dict[str, pd.DataFrame], info: dict, stamp: str
) -> list[tuple[str, object]]:
    """``[(name, Figure)]`` for every chart the tables support: the generic ones,
    then the game's (a game chart of the same name replaces the generic one)."""
    out = []
    t = tables
    if "first_player" in t:
        out.append(("first_player", charts.first_player(t["first_player"], stamp, t.get("seats"))))
    if "seats" in t:
        out.append(("seats", charts.seats(t["seats"], stamp)))
    if "strategies" in t and (t["strategies"].groupby("cell")["strategy"].nunique() > 1).any():
        out.append(("strategies", charts.strategies(t["strategies"], stamp)))
    if "comparison" in t:
        cells = info.get("cells", [])
        comp = t["comparison"]
        comp = comp[~comp["metric"].str.endswith(" per use")]
        pairs = [tuple(p) for p in info["pairs"]]
        if len(pairs) > 2 and not info.get("fields"):
            # many variants: one page of small multiples, then the two that change most
            base = cells[pairs[0][0]]["label"]
            out.append(("variants", charts.variants_overview(comp, base, stamp)))
            clear = comp.groupby("cell")["significant"].sum()
            pairs = sorted(pairs, key=lambda p: -int(clear.get(p[1], 0)))[:2]
        for i, (a, b) in enumerate(pairs[:MAX_PAIR_CHARTS]):
            sub = comp[comp["cell"] == b]
            if len(sub):
                name = "comparison" if i == 0 else f"comparison_{i + 1}"
                fig = charts.comparison(
                    sub, cells[a]["label"], cells[b]["label"], stamp, info.get("labels")
                )
                out.append((name, fig))
    worth = intervention_table(t.get("comparison"), info)
    if worth is not None:
        iv = info["intervention"]
        verb, past = (list(iv.get("words") or []) + ["use", "used"])[:2]
        fig = charts.intervention(worth, findings.intervention_thing(info), verb, stamp, past)
        out.insert(0, ("intervention", fig))
    if "restricted_play" in t and len(t["restricted_play"]):
        from analyzer.report.restricted_chart import restricted_play

        out.insert(0, ("restricted_play", restricted_play(t["restricted_play"], info, stamp)))
    if "sweep" in t:
        out.append(("sweep", charts.sweep(t["sweep"], list(info.get("sweep", [])), stamp)))
    if "score_distribution" in t:
        out.append(
            ("score_distribution", charts.score_distribution(t["score_distribution"], stamp))
        )
    if "score_parts" in t and len(t["score_parts"]["part"].unique()) > 1:
        fig = charts.score_parts(t["score_parts"], stamp, labels=info.get("labels", {}))
        out.append(("score_parts", fig))
    if "game_length" in t:
        out.append(("game_length", charts.game_length(t["game_length"], stamp)))
    if not plays_games(info):
        return out
    game_figs = load_game(info.get("game", DEFAULT_GAME)).charts(tables, info, stamp)
    replaced = {name: fig for name, fig in game_figs}
    out = [(name, replaced.pop(name, fig)) for name, fig in out]
    return out + [(name, fig) for name, fig in game_figs if name in replaced]


def intervention_table(comp: pd.DataFrame | None, info: dict) -> pd.DataFrame | None:
    """The treated seats' paired differences, allowed minus forbidden, one row per field
    and metric (for :func:`analyzer.report.charts.intervention`); None without an intervention."""
    iv = info.get("intervention") or {}
    if comp is None or not iv.get("variant") or "scope" not in comp:
        return None
    sub = comp[comp["scope"] == "treated seats"]
    sub = sub[sub["metric"].isin(["win", "score", "win per use", "score per use"])]
    if not len(sub):
        return None
    sign = 1.0 if iv["variant"] == "a" else -1.0
    rows = []
    for _, r in sub.iterrows():
        lo, hi = sorted((sign * r["diff_low"], sign * r["diff_high"]))
        field = findings._field_label(info, int(r["cell"])) if info.get("fields") else r["label"]
        rows.append(
            {
                "field": field.removeprefix("field "),
                "metric": r["metric"],
                "est": sign * r["diff"],
                "low": lo,
                "high": hi,
                "significant": bool(r["significant"]),
                "pairs": r["pairs"],
                "uptake": r.get("uptake", np.nan),
            }
        )
    return pd.DataFrame(rows)


#: paired comparisons drawn (one chart each, a field of players each); the rest are tables
MAX_PAIR_CHARTS = 8
