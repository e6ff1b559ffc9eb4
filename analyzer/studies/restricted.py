"""Restricted play: what is each card, wonder or action worth to a seat?

A scenario that asks the question ``dominance`` (:data:`analyzer.tables.restricted.DOMINANCE`)
gets this study from ``analyzer run``: every thing the game declares a seat can
be barred from (:meth:`analyzer.games.Game.barrable`: Unearth's named wonders
and the wonder path, Uruk's inventions, trading and god auctions, ...) is
barred from one seat at a time, every seat in turn (``forbid.seats = "each"``:
each seat barred in an equal share of the games), the others playing as usual,
on the same games as the scenario's configuration with nothing barred (common
random numbers: game ``g`` draws from the same stream in every arm). One
comparison per thing, ``a`` = nothing barred, played by the one driver
(:func:`analyzer.runs.driver.run_scenario`, aggregate only, without the luck
terms); the paired difference of the barred seat's win (barred − free, the
reducer's ``treated seats``) is the thing's worth to a seat, with its normal
95% interval and a p-value, Holm-corrected over the things.

The result is the manifest's ``restricted`` (:func:`run_restricted`); the table,
the question and the words are :mod:`analyzer.tables.restricted`'s.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace

from analyzer.runs.scenario_cells import MAX_CELLS
from analyzer.runs.scenario_types import Forbid, Variant
from analyzer.tables.restricted import asked, chosen, games_per_thing, holm_rows


def study_scenarios(sc, games: int | None = None) -> list[tuple[object, tuple]]:
    """The scenarios the study plays, each ``(scenario, things)``: a comparison
    whose variant ``a`` bars nothing and every other one bar one thing from each
    seat in turn; at most ``MAX_CELLS - 1`` things a scenario (more: several,
    each with its own ``a``, the same games)."""
    params = asked(sc) or {}
    game = sc.game_def
    rules = game.load_rules(sc.rulings, sc.overrides, f"{sc.path}: rules")
    things = chosen(game, rules, params, f"{sc.path}: questions")
    n = int(games if games is not None else games_per_thing(sc, params))
    out = []
    step = MAX_CELLS - 1
    for k in range(0, len(things), step):
        part = things[k : k + step]
        variants = [Variant("a", "nothing barred")]
        for i, b in enumerate(part):
            target = Forbid(tuple((kind, tuple(ids)) for kind, ids in b.forbid.items()), "each")
            label = f"forced: {b.label}" if b.forced else f"{b.label} barred"
            variants.append(Variant(f"t{k + i}", label, forbid=target))
        study = replace(
            sc,
            name=f"{sc.name} (restricted play)",
            games=n,
            compare=tuple(variants),
            sweep=(),
            questions=(),
            ladder=None,
            tune=None,
            sensitivity=None,
            forbid=None,
            fields=(),
            save_tables=False,
            claims=False,
            luck=False,
        )
        out.append((study, part))
    return out


def run_restricted(
    sc, seed: int, *, workers: int | None = None, progress: bool = True, games: int | None = None
) -> dict:
    """Play restricted play for ``sc`` (seed: the run's) and return the manifest's
    ``restricted``: the field, the games per thing and one row per thing (see
    :func:`analyzer.tables.restricted.restricted_table`)."""
    from analyzer.runs.driver import run_scenario
    from analyzer.tables.aggregate import build_tables

    t0 = time.perf_counter()
    game = sc.game_def
    rows = []
    total = 0
    per = 0
    for study, things in study_scenarios(sc, games):
        run = run_scenario(
            replace(study, seed=seed), workers=workers, progress=progress, exact=False
        )
        comp = build_tables(run.aggregate, run.info).get("comparison")
        total += int(run.info["games_total"])
        per = int(run.info["games"])
        for i, b in enumerate(things, start=1):
            rows.append(_row(comp, i, b))
    rows = holm_rows(rows)
    strategies = list(sc.strategies or sc.lineup or ())
    if len(strategies) == 1:  # one name for every seat
        strategies *= sc.players
    return {
        "players": sc.players,
        "strategies": strategies,
        "rotation": "each seat barred in turn, the others as printed",
        "games": per,
        "games_total": total,
        "nouns": {k: _noun(game, k) for k in dict.fromkeys(r["group"] for r in rows)},
        "rows": rows,
        "seconds": round(time.perf_counter() - t0, 3),
    }


def _noun(game, kind: str) -> str:
    """``wonders`` -> ``wonder``: the kind of thing in the singular, for headings."""
    nouns = getattr(game, "barrable_nouns", {}) or {}
    if kind in nouns:
        return nouns[kind]
    return kind[:-1] if kind.endswith("s") else kind


def _row(comp, cell: int, b) -> dict:
    """One thing's row from the comparison table of its run (cell ``cell``)."""
    from analyzer.tables.answers import diff_p, se_from_interval

    def pick(metric: str):
        if comp is None:
            return None
        sub = comp[
            (comp["cell"] == cell) & (comp["scope"] == "treated seats") & (comp["metric"] == metric)
        ]
        return sub.iloc[0] if len(sub) else None

    win, score = pick("win"), pick("score")
    nan = math.nan
    row = {
        "thing": b.thing,
        "label": b.label,
        "group": b.group,
        "forced": bool(b.forced),
        "effect": nan,
        "low": nan,
        "high": nan,
        "p": nan,
        "pairs": 0,
        "win_free": nan,
        "win_barred": nan,
        "score_effect": nan,
        "score_low": nan,
        "score_high": nan,
    }
    if win is not None:
        d, lo, hi = (float(win[k]) for k in ("diff", "diff_low", "diff_high"))
        row.update(
            {
                "effect": 100 * d,
                "low": 100 * lo,
                "high": 100 * hi,
                # no pair differs (a thing the seats never use): nothing to test, p = 1
                "p": 1.0 if d == lo == hi == 0 else float(diff_p(d, se_from_interval(lo, hi))),
                "pairs": int(win["pairs"]),
                "win_free": float(win["mean_a"]),
                "win_barred": float(win["mean_b"]),
            }
        )
    if score is not None:
        row.update(
            {
                "score_effect": float(score["diff"]),
                "score_low": float(score["diff_low"]),
                "score_high": float(score["diff_high"]),
            }
        )
    return row
