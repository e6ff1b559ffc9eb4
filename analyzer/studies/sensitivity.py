"""The sensitivity study: do a scenario's findings hang on a value no rulebook gives?

A game lists the values it assumes (:meth:`analyzer.games.Game.assumed_values`);
each assumed number declares a plausible range in its data file (``low`` and
``high``, or ``alternatives`` for a value that is not a number, with a
``range_note`` saying how it was chosen). A scenario's ``[sensitivity]`` (see
``scenarios/README.md``) plays its base configuration and, for each assumed value,
the same games with the value moved to each end of its range: one comparison
variant per end, on the same random streams as the base (common random numbers),
``games`` games each. Every configuration of the study answers the scenario's
questions on its own (Holm-corrected within the configuration, as page 1 is);
:func:`report_tables` and :func:`notes` then say, for each finding of the main
run, whether it holds under every assumed value, loses its significance or flips
its sign under one (compared with the study's own base configuration, at the
same number of games, so that fewer games alone never looks like a change).

Layering: this module sits beside :mod:`analyzer.studies.sections`: it plays its games
through the driver (:func:`analyzer.runs.driver.run_scenario`), and the report
(:mod:`analyzer.report`) shows what it found.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

import pandas as pd

from analyzer.runs.sensitivity_file import DEFAULT_GAMES, SensitivitySpec, move_label, plan

__all__ = [
    "DEFAULT_GAMES",
    "SensitivitySpec",
    "move_label",
    "notes",
    "plan",
    "report_tables",
    "run_sensitivity",
    "verdict_table",
]

#: the table of every finding under every assumed value (a page and a CSV)
TABLE = "sensitivity"
#: the paired shifts of the headline measures under every assumed value (a CSV)
SHIFTS = "sensitivity_shifts"
#: how the verdicts read, in the order page 1 tells them
VERDICTS = (
    "flips sign",
    "loses significance",
    "holds",
    "too few games to tell",
    "becomes significant",
    "not significant in the base run",
)


# --------------------------------------------------------------------------- playing


def run_sensitivity(sc, seed: int, *, workers: int | None = None, progress: bool = True) -> dict:
    """Play the study of ``sc`` (its seed: the base run's) and return the manifest's
    ``sensitivity``: the plan, the games played, each configuration's findings and
    the paired shifts of the headline measures."""
    import time

    from analyzer.runs.driver import run_scenario
    from analyzer.tables import findings
    from analyzer.tables.aggregate import build_tables

    where = sc.path
    p = plan(sc, where)
    out: dict[str, Any] = {
        **sc.sensitivity.as_dict(),
        "moves": p["moves"],
        "not_varied": p["not_varied"],
        "configurations": 0,
        "games_total": 0,
        "cells": [],
        "shifts": [],
        "seconds": 0.0,
    }
    if not p["moves"]:
        return out
    t0 = time.perf_counter()
    from analyzer.runs.scenario_file import sensitivity_scenario

    study = replace(sensitivity_scenario(sc, where), seed=seed)
    run = run_scenario(study, workers=workers, progress=progress, exact=False)
    tables = build_tables(run.aggregate, run.info)
    game = sc.game_def
    cells = []
    for cell in run.info["cells"]:
        c = int(cell["index"])
        mine = {
            name: (df[df["cell"] == c] if "cell" in df else df)
            for name, df in tables.items()
            if name != "comparison"
        }
        info = {
            **run.info,
            "cells": [cell],
            "pairs": [],
            "scenario": {**run.info["scenario"], "compare": None},
        }
        found = findings.answer(mine, info, game)
        move = p["moves"][c - 1] if c > 0 else None
        cells.append(
            {
                "index": c,
                "label": cell["label"],
                "move": move,
                "findings": [_finding_row(f) for f in found.findings],
            }
        )
    comp = tables.get("comparison")
    shifts = []
    if comp is not None:
        head = {("seat=0", "win"), ("all seats", "score"), ("game", "game_turns")}
        for _, r in comp.iterrows():
            if (r["scope"], r["metric"]) in head:
                shifts.append(
                    {
                        "assumed value": r["label"],
                        "scope": r["scope"],
                        "metric": r["metric"],
                        "pairs": int(r["pairs"]),
                        "as played": float(r["mean_a"]),
                        "moved": float(r["mean_b"]),
                        "shift": float(r["diff"]),
                        "shift_low": float(r["diff_low"]),
                        "shift_high": float(r["diff_high"]),
                        "significant": bool(r["significant"]),
                    }
                )
    out.update(
        {
            "games": run.info["games"],
            "configurations": len(run.info["cells"]),
            "games_total": run.info["games_total"],
            "cells": cells,
            "shifts": shifts,
            "seconds": round(time.perf_counter() - t0, 3),
        }
    )
    return out


def _finding_row(f) -> dict:
    keep = ("question", "subject", "label", "estimate", "low", "high", "n", "reference")
    row = {k: getattr(f, k) for k in keep}
    row.update(
        {
            "effect": f.effect,
            "significant": bool(f.significant),
            "p_adjusted": f.p_adjusted if math.isfinite(f.p_adjusted) else None,
            "unit": f.unit,
        }
    )
    return row


# --------------------------------------------------------------------------- telling


def _verdict(base, at_n, moved) -> str:
    """One finding under one assumed value (``base``: the main run's finding;
    ``at_n`` and ``moved``: the study's base configuration and the moved one)."""
    if not base.significant:
        if moved is not None and moved["significant"]:
            return "becomes significant"
        return "not significant in the base run"
    if at_n is None or not at_n["significant"] or moved is None:
        return "too few games to tell"
    if moved["significant"] and (moved["effect"] > 0) != (base.effect > 0):
        return "flips sign"
    if not moved["significant"]:
        return "loses significance"
    return "holds"


def verdict_table(info: dict, found) -> pd.DataFrame:
    """Every finding of the main run under every assumed value moved: the main
    run's estimate, the study's at the base values and at the moved value (each
    with its 95% interval and significance after Holm within its configuration),
    and the verdict."""
    sens = info.get("sensitivity") or {}
    cells = sens.get("cells") or []
    if len(cells) < 2:
        return pd.DataFrame()
    by_cell = [{(r["question"], r["subject"]): r for r in c["findings"]} for c in cells]
    rows = []
    for f in found.findings:
        key = (f.question, f.subject)
        at_n = by_cell[0].get(key)
        for c, mine in zip(cells[1:], by_cell[1:], strict=True):
            moved = mine.get(key)
            m = c["move"]
            rows.append(
                {
                    "finding": f.subject,
                    "question": f.question,
                    "assumed": m["key"],
                    "path": m["path"],
                    "end": m["end"],
                    "value": json.dumps(m["value"]),
                    "as_played": json.dumps(m["current"]),
                    "base": f.estimate,
                    "base_low": f.low,
                    "base_high": f.high,
                    "base_significant": f.significant,
                    "at_n": at_n["estimate"] if at_n else math.nan,
                    "at_n_significant": bool(at_n and at_n["significant"]),
                    "moved": moved["estimate"] if moved else math.nan,
                    "moved_low": moved["low"] if moved else math.nan,
                    "moved_high": moved["high"] if moved else math.nan,
                    "moved_significant": bool(moved and moved["significant"]),
                    "n": moved["n"] if moved else 0,
                    "verdict": _verdict(f, at_n, moved),
                }
            )
    return pd.DataFrame(rows)


def report_tables(info: dict, found) -> dict[str, pd.DataFrame]:
    """``{"sensitivity": every verdict, "sensitivity_shifts": the paired shifts}``
    (those with rows)."""
    out = {}
    t = verdict_table(info, found)
    if len(t):
        out[TABLE] = t
    shifts = (info.get("sensitivity") or {}).get("shifts") or []
    if shifts:
        out[SHIFTS] = pd.DataFrame(shifts)
    return out


def display(t: pd.DataFrame) -> pd.DataFrame:
    """The verdict table for its page: what moved, the finding in the main run (95%
    interval), at the study's games with the values as played, moved (95%
    interval), the verdict; the changes first."""
    order = {v: i for i, v in enumerate(VERDICTS)}
    t = t.assign(_o=t["verdict"].map(order)).sort_values(["_o", "finding"], kind="stable")
    moved_to = [
        f"{_short({'path': p, 'value': json.loads(v)})} ({e})"
        for p, v, e in zip(t["path"], t["value"], t["end"], strict=True)
    ]
    return pd.DataFrame(
        {
            "finding": t["finding"].to_numpy(),
            "value moved": moved_to,
            "base": t["base"].to_numpy(),
            "base_low": t["base_low"].to_numpy(),
            "base_high": t["base_high"].to_numpy(),
            "at n, as played": t["at_n"].to_numpy(),
            "moved": t["moved"].to_numpy(),
            "moved_low": t["moved_low"].to_numpy(),
            "moved_high": t["moved_high"].to_numpy(),
            "verdict": t["verdict"].to_numpy(),
        }
    )


def _short(m: dict) -> str:
    v = m["value"]
    text = "[" + ",".join(map(str, v)) + "]" if isinstance(v, list) else str(v)
    return f"{m['path']} = {text}"


#: verdict lines on page 1 before the rest is left to the page and the CSV
PAGE_LINES = 6


def notes(info: dict, found) -> list[tuple[str, list[str]]]:
    """``[(heading, sentences)]`` for page 1: which findings hold under every
    assumed value and which lose significance or flip sign under which; empty
    without a ``[sensitivity]``."""
    sens = info.get("sensitivity")
    if not sens:
        return []
    heading = "Does a finding hang on a guess? (sensitivity to assumed values)"
    moves = sens.get("moves") or []
    skipped = len(sens.get("not_varied") or [])
    if not moves:
        if not (info.get("assumed") or []):
            return [(heading, ["The rules as played assume no value: no finding hangs on a "
                               "guess, and there is nothing to vary."])]  # fmt: skip
        return [(heading, [f"None of the {skipped} assumed values declares a range to move "
                           "(page 'Assumed values' says why): nothing was varied."])]  # fmt: skip
    n_values = len({m["key"] for m in moves})
    lines = [
        f"{n_values} assumed value{'s' if n_values != 1 else ''} moved to the ends of "
        f"{'its' if n_values == 1 else 'their'} range ({len(moves)} configurations; "
        f"{sens['games_total']:,} games in all, {sens['games']:,} each, the same games)"
        + (f", {skipped} not varied" if skipped else "")
        + "; findings compared at that n (page 'Sensitivity to assumed values')."
    ]
    t = verdict_table(info, found)
    if not len(t):
        return [(heading, lines)]
    sig = t[t["base_significant"]]
    holds, changed, untold = [], [], []
    for subject, g in sig.groupby("finding", sort=False):
        if (g["verdict"] == "too few games to tell").all():
            untold.append(subject)
        elif (g["verdict"] == "holds").all():
            holds.append(subject)
        else:
            parts = []
            for verdict in ("flips sign", "loses significance"):
                hit = g[g["verdict"] == verdict]
                if len(hit):
                    moved = [
                        _short({"path": r["path"], "value": json.loads(r["value"])})
                        + f" ({r['end']})"
                        for _, r in hit.iterrows()
                    ]
                    parts.append(f"{verdict} when {_join(moved, 4)}")
            changed.append(f"{subject[:1].upper()}{subject[1:]} {'; '.join(parts)}.")
    if holds:
        names = f": {_join(holds)}" if len(holds) <= 3 else " (the page names them)"
        lines.append(
            f"{len(holds)} of the {len(holds) + len(changed) + len(untold)} significant "
            f"findings hold under every assumed value{names}."
        )
    lines += changed[:PAGE_LINES]
    if len(changed) > PAGE_LINES:
        lines.append(f"… and {len(changed) - PAGE_LINES} more findings that change (the page).")
    if untold:
        lines.append(
            f"Too few games to tell ({sens['games']:,} a configuration; not significant there "
            f"even with the values as played): {_join(untold)}; raise [sensitivity] games."
        )
    if not len(sig):
        lines.append("No finding of the base run is significant: nothing to lose.")
    return [(heading, lines)]


def _join(items: list[str], limit: int = 8) -> str:
    items = list(items)
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    items = items[:limit]
    if len(items) <= 1:
        return "".join(items) + more
    if more:
        return ", ".join(items) + more
    return ", ".join(items[:-1]) + " and " + items[-1]
