"""A scenario's ``[ladder]`` and ``[tune]`` sections: ratings and tuning inside ``analyzer run``.

A scenario file may hold a ``[ladder]`` table (the options of ``analyzer
ladder``) and a ``[tune]`` table (those of ``analyzer tune``); ``analyzer run``
then plays them after the scenario's own games, through the same code as the
commands (:func:`analyzer.studies.ratings.ladder`, :func:`analyzer.studies.tuning.tune`, both on
the one driver :func:`analyzer.runs.driver.run_scenario`), with the scenario's
seed, its ``[rules]``, ``[overrides]`` and (ladder) ``[strategy_params]``, and
the run's ``--workers``. A scenario may hold only these sections (no
``games``/``strategies``/``lineup`` of its own): its report is then the
sections' pages alone.

The sections are validated with the file (:mod:`analyzer.runs.sections_file`:
:func:`parse_ladder`, :func:`parse_tune`, still importable from here). This
module is a study, above the driver: it plays them (:func:`run_sections`,
called by ``analyzer run`` after the driver), writes their data files into the report folder
(:func:`write_files`: ``ladder/ratings.csv``, ``matrix.csv``,
``matrix_wide.csv``, ``ladder.json``; ``tune/tune.toml``, ``trials.csv``) and
says what they found in words (:func:`ladder_sentences`, :func:`tune_sentences`).
The results are kept whole in the manifest (``ladder``: the content of
``ladder.json``; ``tune``: that of ``tune.toml``), so ``analyzer report DIR``
draws the pages again without playing a game.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.core.invocation import command_line
from analyzer.runs.sections_file import (  # noqa: F401 - their old home: still importable from here
    LADDER_KEYS,
    MAX_BOOTSTRAP,
    MAX_LADDER_GAMES,
    MAX_TRIALS,
    MAX_TUNE_GAMES,
    TUNE_KEYS,
    LadderSpec,
    TuneSpec,
    parse_ladder,
    parse_tune,
)

#: where a report folder keeps the sections' data files
LADDER_DIR = "ladder"
TUNE_DIR = "tune"


# --------------------------------------------------------------------------- playing


def run_sections(
    sc, seed: int, *, workers: int | None = None, progress: bool = True
) -> dict[str, dict]:
    """Play the scenario's ladder and tune (those it has) with ``seed``; returns
    ``{"ladder": doc, "tune": doc}`` for the manifest (see :func:`ladder_doc`)."""
    say: Callable[[str], None] | None = None
    if progress:

        def say(line: str) -> None:
            try:
                print(line, file=sys.stderr, flush=True)
            except (OSError, ValueError):  # stderr closed: progress is not worth failing for
                pass

    out: dict[str, dict] = {}
    if sc.ladder is not None:
        from analyzer.studies.ratings import ladder, lineups

        spec = sc.ladder
        if say:
            n = len(lineups(spec.strategies, spec.players))
            say(
                f"ladder: {len(spec.strategies)} strategies at {spec.players} players, "
                f"{n} line-ups x {spec.games:,} games"
            )
        t0 = time.perf_counter()
        result = ladder(
            sc.game,
            spec.players,
            spec.strategies,
            spec.games,
            seed,
            rulings=dict(sc.rulings) or None,
            overrides=dict(sc.overrides) or None,
            strategy_params=sc.strategy_params or None,
            anchor=spec.anchor,
            bootstrap=spec.bootstrap,
            workers=workers,
            progress=say,
            command=command_line(),
            luck=sc.luck,  # absent (None): the game's default
        )
        out["ladder"] = ladder_doc(result, time.perf_counter() - t0)
    if sc.tune is not None:
        from analyzer.studies.tuning import tune

        spec = sc.tune
        t0 = time.perf_counter()
        result = tune(
            sc.game,
            spec.players,
            spec.strategy,
            list(spec.field),
            params=list(spec.params),
            bounds=dict(spec.bounds),
            trials=spec.trials,
            games=spec.games,
            confirm_games=spec.confirm_games,
            seed=seed,
            rulings=dict(sc.rulings) or None,
            overrides=dict(sc.overrides) or None,
            workers=workers,
            progress=say,
            command=command_line(),
            luck=sc.luck,  # absent (None): the game's default
        )
        doc = result.as_dict()
        doc["tune"]["seconds"] = round(time.perf_counter() - t0, 3)
        out["tune"] = doc
    return out


def ladder_doc(result, seconds: float | None = None) -> dict:
    """A :class:`~analyzer.studies.ratings.Ladder` as the JSON-able dict of ``ladder.json``."""
    doc = {
        **result.info,
        "ratings": _records(result.ratings),
        "matrix": _records(result.matrix),
    }
    if seconds is not None:
        doc["seconds"] = round(seconds, 3)
    return doc


def _records(df: pd.DataFrame) -> list[dict]:
    out = []
    for row in df.to_dict(orient="records"):
        out.append(
            {
                k: (
                    int(v)
                    if isinstance(v, np.integer)
                    else float(v)
                    if isinstance(v, np.floating)
                    else v
                )
                for k, v in row.items()
            }  # fmt: skip
        )
    return out


def ladder_of(doc: dict):
    """The :class:`~analyzer.studies.ratings.Ladder` of a saved doc (ratings and matrix)."""
    from analyzer.studies.ratings import Ladder

    info = {k: v for k, v in doc.items() if k not in ("ratings", "matrix", "seconds")}
    return Ladder(
        ratings=pd.DataFrame(doc["ratings"]), matrix=pd.DataFrame(doc["matrix"]), info=info
    )


# --------------------------------------------------------------------------- files


def write_files(directory: Path, info: dict) -> list[str]:
    """Write the sections' data files of ``info`` into ``directory`` (a report
    folder being built); returns their paths relative to it."""
    from analyzer.runs.runner import write_text_atomic
    from analyzer.studies.ratings import write_ladder
    from analyzer.studies.tuning import result_text

    directory = Path(directory)
    files = []
    if info.get("ladder"):
        for path in write_ladder(ladder_of(info["ladder"]), directory / LADDER_DIR):
            files.append(f"{LADDER_DIR}/{path.name}")
    if info.get("tune"):
        (directory / TUNE_DIR).mkdir(exist_ok=True)
        write_text_atomic(directory / TUNE_DIR / "tune.toml", result_text(info["tune"], ".toml"))
        write_text_atomic(
            directory / TUNE_DIR / "trials.csv",
            trials_table(info["tune"]).to_csv(index=False, float_format="%.6g"),
        )
        files += [f"{TUNE_DIR}/tune.toml", f"{TUNE_DIR}/trials.csv"]
    return files


# --------------------------------------------------------------------------- words


def elo_text(x: float) -> str:
    """An Elo figure, signed, without a negative zero; "n/a" if not finite."""
    return f"{int(round(x)):+d}" if isinstance(x, int | float) and math.isfinite(x) else "n/a"


def _interval(lo: float, hi: float) -> str:
    return f"[{elo_text(lo)}, {elo_text(hi)}]" if math.isfinite(lo) else "[no interval]"


def ladder_headline(doc: dict) -> str:
    """The ladder in one line (the chart's title)."""
    top = doc["ratings"][0]
    anchor = doc["anchor"]
    if top["strategy"] == anchor:
        return f"{anchor} rates highest of {len(doc['ratings'])} strategies (Elo, {anchor} = 0)"
    if elo_text(top["elo"]) in ("+0", "-0") and elo_text(top["high"]) in ("+0", "-0"):
        return f"{top['strategy']} and {anchor} rate level at the top (Elo, {anchor} = 0)"
    return (
        f"{top['strategy']} rates highest: {elo_text(top['elo'])} "
        f"{_interval(top['low'], top['high'])} Elo against {anchor}"
    )


def ladder_sentences(doc: dict) -> list[str]:
    """What the ladder found, in words: the top strategy against the anchor and the
    next, and which strategies' intervals lie above, below or around the anchor."""
    r = doc["ratings"]
    anchor = doc["anchor"]
    n = doc["players"]
    total = doc["games_total"]
    per = doc["games_per_lineup"]
    top, second = r[0], r[1]
    over = (
        f"over {total:,} {n}-player games ({doc['lineups']} line-ups × {per:,}, seats rotated, "
        "the same game seeds for every line-up)"
    )
    out = []
    if top["strategy"] == anchor:
        out.append(f"{anchor} rates highest {over}.")
    else:
        lo, hi = top["low"], top["high"]
        side = "above" if top["elo"] >= 0 else "below"
        text = (
            f"{top['strategy']} rates {elo_text(top['elo'])} {_interval(lo, hi)} Elo {side} "
            f"{anchor} {over}"
        )
        if elo_text(top["elo"]) == "+0":
            text = (
                f"{top['strategy']} rates level with {anchor} ({elo_text(top['elo'])} "
                f"{_interval(lo, hi)} Elo) {over}"
            )
        if n == 2:
            p = 1 / (1 + 10 ** (-top["elo"] / 400))
            text += f"; at that difference it would win {100 * p:.0f}% of games against {anchor}"
        out.append(text + ".")
    nxt = f"{second['strategy']} ({elo_text(second['elo'])})"
    if second["strategy"] == anchor:
        nxt = f"{anchor} (0, the anchor)"
        sep = math.isfinite(top["low"]) and top["low"] > 0
    elif top["strategy"] == anchor:
        sep = math.isfinite(second["high"]) and second["high"] < 0
    else:
        sep = math.isfinite(top["low"]) and top["low"] > second["high"]
    if sep:
        out.append(f"It is separated from {nxt}, the next, by these games: the 95% intervals "
                   "do not overlap.")  # fmt: skip
    else:
        out.append(f"It is not separated from {nxt}, the next, by these games: the 95% "
                   "intervals overlap.")  # fmt: skip
    others = [x for x in r if x["strategy"] != anchor and math.isfinite(x["low"])]
    above = [x["strategy"] for x in others if x["low"] > 0]
    below = [x["strategy"] for x in others if x["high"] < 0]
    around = [x["strategy"] for x in others if x["low"] <= 0 <= x["high"]]
    parts = []
    if above:
        parts.append(f"above {anchor}: {', '.join(above)}")
    if below:
        parts.append(f"below: {', '.join(below)}")
    if around:
        parts.append(f"not separated from it: {', '.join(around)}")
    if parts:
        out.append("95% intervals " + "; ".join(parts) + ".")
    from analyzer.studies.equilibrium import equilibrium_sentences

    return out + equilibrium_sentences(doc)


def tune_headline(doc: dict) -> str:
    s, c = doc["tune"], doc["confirm"]
    if c.get("win_share") is not None:
        return (
            f"Tuned {s['strategy']}: the best row wins {100 * c['win_share']:.1f}% "
            f"[{100 * c['low']:.1f}, {100 * c['high']:.1f}] of fresh games against "
            f"{field_text(s['field'])} (shipped row {100 * c['shipped_win_share']:.1f}%)"
        )
    b = doc["best"]
    return (
        f"Tuned {s['strategy']}: the best row won {100 * b['search_win_share']:.1f}% of its "
        "search games (not confirmed on fresh games)"
    )


def field_text(fld) -> str:
    uniq = list(dict.fromkeys(fld))
    return uniq[0] if len(uniq) == 1 else ", ".join(fld)


def tune_sentences(doc: dict) -> list[str]:
    """What the tuning found, in words: the best row, its confirmation and the gain."""
    s, c, b = doc["tune"], doc["confirm"], doc["best"]
    row = ", ".join(f"{k} {v:.3g}" for k, v in b["params"].items())
    n = s["players"]
    out = [
        f"Searching {', '.join(s['params'])} of {s['strategy']} at {n} players against "
        f"{field_text(s['field'])} ({s['trials']} trials × {s['games_per_trial']:,} games on "
        f"the same seeds, seats rotated), the best row was trial {b['trial']} ({row}), "
        f"{100 * b['search_win_share']:.1f}% in its search games (flattered: the best of "
        f"{s['trials']})."
    ]
    if c.get("win_share") is not None:
        verdict = (
            "better than the shipped row"
            if c["gain_low"] > 0
            else ("worse than the shipped row" if c["gain_high"] < 0 else
                  "not shown better than the shipped row by these games")
        )  # fmt: skip
        out.append(
            f"On {c['games']:,} fresh games it wins {100 * c['win_share']:.1f}% "
            f"[{100 * c['low']:.1f}, {100 * c['high']:.1f}] against a fair share of "
            f"{100 * s['fair_share']:.0f}%, the shipped row {100 * c['shipped_win_share']:.1f}% "
            f"[{100 * c['shipped_low']:.1f}, {100 * c['shipped_high']:.1f}]; paired gain "
            f"{100 * c['gain']:+.1f} points [{100 * c['gain_low']:+.1f}, "
            f"{100 * c['gain_high']:+.1f}]: {verdict}."
        )
    else:
        out.append("No confirmation games were played (confirm_games = 0).")
    return out


def settings_lines(info: dict) -> list[str]:
    """Lines for the report's settings (``key   value``)."""
    lines = []
    lad = info.get("ladder")
    if lad:
        lines.append(
            f"ladder          {len(lad['strategies'])} strategies ({', '.join(lad['strategies'])}) "
            f"at {lad['players']} players: {lad['lineups']} line-ups × "
            f"{lad['games_per_lineup']:,} games ({lad['games_total']:,} games), anchor "
            f"{lad['anchor']}, {lad['bootstrap']} bootstrap resamples, seed {lad['seed']}"
            + (f", {lad['seconds']:.1f} s" if lad.get("seconds") is not None else "")
            + f"; files {LADDER_DIR}/ratings.csv, matrix.csv, matrix_wide.csv, ladder.json"
        )
    tun = info.get("tune")
    if tun:
        s, c = tun["tune"], tun["confirm"]
        lines.append(
            f"tune            {s['strategy']} at {s['players']} players against "
            f"{', '.join(s['field'])}: {', '.join(s['params'])}; {s['trials']} trials × "
            f"{s['games_per_trial']:,} games, {c.get('games', 0):,} confirmation games, "
            f"seed {s['seed']}, {s['optimiser']}"
            + (f", {s['seconds']:.1f} s" if s.get("seconds") is not None else "")
            + f"; files {TUNE_DIR}/tune.toml, trials.csv"
        )
    return lines


def games_text(info: dict) -> str:
    """The sections' games for a page's stamp or subtitle ("" if none)."""
    parts = []
    lad = info.get("ladder")
    if lad:
        parts.append(f"ladder {lad['lineups']} line-ups × {lad['games_per_lineup']:,} games")
    tun = info.get("tune")
    if tun:
        s = tun["tune"]
        parts.append(f"tune {s['trials']} trials × {s['games_per_trial']:,} games")
    return ", ".join(parts)


# --------------------------------------------------------------------------- tables


def _pct(v, lo, hi) -> str:
    return f"{v:.3f} [{lo:.3f}, {hi:.3f}]"


def ratings_table(doc: dict) -> pd.DataFrame:
    """The ratings for reading: Elo (bootstrap) and win share over all its seat-games
    (Wilson) with their 95% intervals."""
    from analyzer.core.stats import wilson

    rows = []
    adjusted = bool(doc.get("luck_adjusted"))
    for i, r in enumerate(doc["ratings"], 1):
        lo, hi = wilson(r["win_share"] * r["seat_games"], r["seat_games"])
        rows.append(
            {
                "rank": i,
                "strategy": r["strategy"],
                "Elo [95% CI]": "0 (anchor)"
                if r["strategy"] == doc["anchor"]
                else f"{elo_text(r['elo'])} {_interval(r['low'], r['high'])}",
                # a luck-adjusted share has no Wilson interval (the matrix gives normal ones)
                **(
                    {"luck-adjusted win share": f"{r['win_share']:.3f}"}
                    if adjusted
                    else {"win share [95% CI]": _pct(r["win_share"], lo, hi)}
                ),
                "seat-games": f"{int(r['seat_games']):,}",
            }
        )
    return pd.DataFrame(rows)


def matrix_table(doc: dict) -> pd.DataFrame:
    """The head-to-head matrix for reading: the row's win share against the column
    with its Wilson interval, strategies in rating order."""
    names = [r["strategy"] for r in doc["ratings"]]
    cell = {(m["strategy"], m["opponent"]): m for m in doc["matrix"]}
    rows = []
    for a in names:
        row = {"strategy (row) vs": a}
        for b in names:
            m = cell.get((a, b))
            row[b] = "–" if m is None else _pct(m["win_share"], m["low"], m["high"])
        rows.append(row)
    return pd.DataFrame(rows)


def trials_table(doc: dict) -> pd.DataFrame:
    """One row per trial: trial, win share (search games) with its 95% Wilson
    interval, and the parameters."""
    from analyzer.core.stats import wilson

    n = doc["tune"]["games_per_trial"]
    rows = []
    for t in doc["trials"]:
        lo, hi = wilson(t["win_share"] * n, n)
        rows.append(
            {"trial": t["trial"], "win_share": t["win_share"], "win_share_low": lo,
             "win_share_high": hi, "games": n, **t["params"]}
        )  # fmt: skip
    return pd.DataFrame(rows)


def best_row_table(doc: dict) -> pd.DataFrame:
    """The best row beside the shipped one and the searched range, one parameter a row."""
    s, b = doc["tune"], doc["best"]
    rows = []
    for p in s["params"]:
        lo, hi = s["bounds"][p]
        rows.append(
            {
                "parameter": p,
                "shipped": f"{s['shipped'][p]:.4g}",
                "best": f"{b['params'][p]:.4g}",
                "searched range": f"{lo:g} – {hi:g}",
            }
        )
    return pd.DataFrame(rows)


def display_items(info: dict) -> list[tuple[str, pd.DataFrame, str, str]]:
    """``[(name, display table, title, note)]`` of the sections, for the HTML page."""
    items = []
    lad = info.get("ladder")
    if lad:
        items.append(
            (
                "ladder_ratings",
                ratings_table(lad),
                "Ladder: ratings",
                f"Bradley–Terry on the Elo scale, {lad['anchor']} = 0; 95% bootstrap interval "
                f"({lad['bootstrap']} resamples of games); {lad['games_per_lineup']:,} games "
                "per line-up",
            )
        )
        items.append(("ladder_matrix", matrix_table(lad), "Ladder: head-to-head", matrix_note(lad)))
    tun = info.get("tune")
    if tun:
        items.append(("tune_best", best_row_table(tun), "Tuning: the best row", ""))
        t = trials_table(tun)
        t.insert(
            1,
            "win share [95% CI]",
            [_pct(v, lo, hi) for v, lo, hi in
             zip(t["win_share"], t["win_share_low"], t["win_share_high"], strict=True)],
        )  # fmt: skip
        t = t.drop(columns=["win_share", "win_share_low", "win_share_high", "games"])
        t[list(tun["tune"]["params"])] = t[list(tun["tune"]["params"])].map(lambda v: f"{v:.4g}")
        items.append(
            (
                "tune_trials",
                t,
                "Tuning: every trial",
                f"{'luck-adjusted ' if tun['tune'].get('luck_adjusted') else ''}"
                f"win share of the tuned seat in {tun['tune']['games_per_trial']:,} search games "
                "(the same seeds for every trial"
                + (
                    "; the Wilson interval is a plain win's, a guide only)"
                    if tun["tune"].get("luck_adjusted")
                    else ")"
                ),
            )
        )
    return items


def matrix_note(doc: dict) -> str:
    n = doc["players"]
    per = doc["matrix"][0]["games"] if doc["matrix"] else 0
    field_ = "the column's strategy" if n == 2 else f"{n - 1} seats of the column's strategy"
    kind = "luck-adjusted win share" if doc.get("luck_adjusted") else "win share"
    ci = "normal" if doc.get("luck_adjusted") else "Wilson"
    return (
        f"{kind} of one seat of the row's strategy against {field_} (fair share "
        f"{1 / n:.2f}), 95% {ci} interval; n = {per:,} seat-games per cell, every seat"
    )


__all__ = [
    "LadderSpec",
    "TuneSpec",
    "ladder_sentences",
    "parse_ladder",
    "parse_tune",
    "run_sections",
    "tune_sentences",
    "write_files",
]
