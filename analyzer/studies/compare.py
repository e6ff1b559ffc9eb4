"""``analyzer compare RUN_A RUN_B``: what changed between two saved runs.

Two report folders written by ``analyzer run`` (for example two editions, or
before and after a card change) are compared configuration by configuration
(cell ``i`` of A with cell ``i`` of B; two sweeps of the same parameters sweep
point by sweep point: the value of B's cell matched with the same value in A, so
sweeps over different values compare the values they share). When both runs kept their per-game
tables, used the same seed and the same player count, game ``g`` of A and game
``g`` of B drew the same random numbers (common random numbers), so the
differences are *paired* game by game and seat by seat: their intervals are much
narrower than those of two independent runs. Otherwise the runs are compared as
independent samples (the difference of two estimates, its variance the sum of
theirs).

Every difference is a :class:`analyzer.tables.findings.Finding` (sentence, 95%
interval, n), Holm-corrected over the comparison and ranked by effect size like
a report's findings. Only saved tables are read; nothing is simulated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from analyzer.core.errors import InputError
from analyzer.core.outputs import atomic_write
from analyzer.games import DEFAULT_GAME, load_game
from analyzer.tables import findings as F


@dataclass
class SavedRun:
    """A report folder read back: its manifest, per-game tables (or None) and aggregate."""

    path: Path
    info: dict
    games: pd.DataFrame | None
    aggregate: pd.DataFrame | None

    @property
    def cells(self) -> list[dict]:
        return self.info.get("cells") or [{"index": 0, "label": "", "players": 0}]


@dataclass
class Comparison:
    """What :func:`compare_runs` returns."""

    a: SavedRun
    b: SavedRun
    paired: bool
    why: str  #: one sentence: why paired or not
    findings: list[F.Finding]
    #: the configurations compared, ``(cell of A, cell of B)``; two sweeps: by sweep point
    cells: list[tuple[int, int]] = field(default_factory=list)

    def table(self) -> pd.DataFrame:
        return pd.DataFrame([f.as_dict() for f in self.findings])


def load_run(path: str | Path, where: str) -> SavedRun:
    """Read a report folder; :class:`InputError` (one line) if it is not one."""
    p = Path(path)
    manifest = p / "manifest.json"
    if not p.is_dir():
        raise InputError(
            f"{where}: {p} is not a directory (allowed: a folder written by 'analyzer run')"
        )
    if not manifest.is_file():
        raise InputError(f"{where}: {p} is not a report folder (no manifest.json)")
    try:
        info = json.loads(manifest.read_text("utf-8"))
    except (OSError, ValueError) as err:
        raise InputError(f"{where}: {manifest}: cannot read ({err})") from None
    if not isinstance(info, dict) or "scenario" not in info or "seed" not in info:
        raise InputError(f"{where}: {manifest}: not a run manifest (no scenario or seed)")
    if info.get("cells") == []:
        raise InputError(
            f"{where}: {p} holds only a [ladder]/[tune] run, no games of its own to compare "
            "(allowed: a report of a scenario with games)"
        )
    data = p / "data"
    games = agg = None
    try:
        if (data / "games.parquet").is_file():
            games = pd.read_parquet(data / "games.parquet")
        if (data / "aggregate.parquet").is_file():
            agg = pd.read_parquet(data / "aggregate.parquet")
    except (OSError, ValueError) as err:
        raise InputError(f"{where}: {data}: cannot read the saved tables ({err})") from None
    if games is None and agg is None:
        raise InputError(f"{where}: {data}: no games.parquet or aggregate.parquet to compare")
    return SavedRun(path=p, info=info, games=games, aggregate=agg)


def compare_runs(path_a: str | Path, path_b: str | Path) -> Comparison:
    """Compare two saved runs (B minus A); see the module docstring."""
    a, b = load_run(path_a, "RUN_A"), load_run(path_b, "RUN_B")
    game_a, game_b = a.info.get("game", DEFAULT_GAME), b.info.get("game", DEFAULT_GAME)
    if game_a != game_b:
        raise InputError(
            f"RUN_B: {b.path} plays {game_b!r}, RUN_A {game_a!r} "
            "(allowed: two runs of the same game)"
        )
    load_game(game_a, where=f"RUN_A: {a.path}: game")
    cells = cell_pairs(a, b)
    paired, why = _pairing(a, b, cells)
    if paired and sweep_point_keys(a) is not None:
        why = why.replace("paired game by game", "paired sweep point by sweep point, game by game")
    found = _paired(a, b, cells) if paired else _independent(a, b, cells)
    return Comparison(a=a, b=b, paired=paired, why=why, findings=F.correct(found), cells=cells)


def sweep_point_keys(run: SavedRun) -> dict[int, str] | None:
    """Each cell of a sweep -> its sweep point (field of players and swept values, as
    one JSON string), or None when the run is no sweep."""
    swept = run.info.get("sweep") or []
    if not swept or any("params" not in c for c in run.cells):
        return None
    return {
        int(c["index"]): json.dumps(
            [c.get("params", {}).get("field"), [c["params"].get(k) for k in swept]],
            sort_keys=True,
        )
        for c in run.cells
    }


def cell_pairs(a: SavedRun, b: SavedRun) -> list[tuple[int, int]]:
    """The configurations compared, ``(cell of A, cell of B)``: two sweeps of the same
    parameters sweep point by sweep point (the values both swept, in B's order), any
    other two runs cell ``i`` with cell ``i``; :class:`InputError` (one line) when
    nothing can be matched."""
    ka, kb = sweep_point_keys(a), sweep_point_keys(b)
    if ka is not None and kb is not None and a.info.get("sweep") == b.info.get("sweep"):
        at = {k: cell for cell, k in ka.items()}
        pairs = [(at[k], cell) for cell, k in sorted(kb.items()) if k in at]
        if not pairs:
            raise InputError(
                f"RUN_B: {b.path} sweeps {', '.join(b.info['sweep'])} over values RUN_A "
                "did not play (allowed: two sweeps with at least one swept value in common)"
            )
        return pairs
    if len(a.cells) != len(b.cells):
        raise InputError(
            f"RUN_B: {b.path} has {len(b.cells)} configuration(s), RUN_A {len(a.cells)} "
            "(allowed: runs with the same number of configurations, compared in order, "
            "or two sweeps of the same parameters, compared by swept value)"
        )
    return [(int(c.get("index", 0)), int(c.get("index", 0))) for c in b.cells]


def _as_b_cells(df: pd.DataFrame | None, cells: list[tuple[int, int]]) -> pd.DataFrame | None:
    """Run A's rows renumbered with the cells of B they are compared with (rows of
    A's other cells left out)."""
    if df is None or "cell" not in df:
        return df
    to_b = {a: b for a, b in cells}
    out = df[df["cell"].isin(list(to_b))].copy()
    out["cell"] = out["cell"].map(to_b).astype(df["cell"].dtype)
    return out


def _pairing(a: SavedRun, b: SavedRun, cells=None) -> tuple[bool, str]:
    if a.games is None or b.games is None:
        return False, "independent: a run kept only its aggregate (no per-game tables)"
    if a.info["seed"] != b.info["seed"]:
        return False, (
            f"independent: the seeds differ ({a.info['seed']} and {b.info['seed']}), "
            "so the games share no random numbers"
        )
    players_a = {int(c.get("index", 0)): c.get("players") for c in a.cells}
    players_b = {int(c.get("index", 0)): c.get("players") for c in b.cells}
    cells = cells if cells is not None else [(i, i) for i in sorted(players_b)]
    if any(players_a.get(i) != players_b.get(j) for i, j in cells):
        return False, "independent: the player counts differ"
    return True, (
        f"paired game by game: both runs used seed {a.info['seed']}, so game g of one "
        "drew the same random numbers as game g of the other"
    )


def _label(run: SavedRun, cell: int) -> str:
    for c in run.cells:
        if int(c.get("index", 0)) == cell:
            return str(c.get("label") or run.info["scenario"].get("name", ""))
    return str(cell)


def _names(a: SavedRun, b: SavedRun) -> tuple[str, str]:
    na, nb = a.info["scenario"].get("name", "A"), b.info["scenario"].get("name", "B")
    if na == nb:
        na, nb = f"{na} ({a.path})", f"{nb} ({b.path})"
    return na, nb


def _sentence(
    subject: str, unit: str, ea: float, eb: float, d: float, lo: float, hi: float, n: str
) -> str:
    if unit == "share":
        return (
            f"{subject}: {F.pct(ea)} → {F.pct(eb)}, {100 * d:+.1f} points "
            f"[{100 * lo:+.1f}, {100 * hi:+.1f}] ({n})."
        )
    return f"{subject}: {ea:,.2f} → {eb:,.2f} {unit}, {d:+.2f} [{lo:+.2f}, {hi:+.2f}] ({n})."


def _finding(question, label, subject, unit, ea, eb, d, lo, hi, n, n_unit, text_n) -> F.Finding:
    text = _sentence(subject, unit, ea, eb, d, lo, hi, text_n)
    return F.difference_finding(question, label, subject, text, d, lo, hi, n, ea, n_unit, unit)


def _mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    from analyzer.core.stats import mean_ci

    return mean_ci(x)


def _part_columns(run: SavedRun) -> list[str]:
    return [c["name"] for c in run.info.get("columns", []) if c.get("part")]


def _paired(a: SavedRun, b: SavedRun, cells=None) -> list[F.Finding]:
    """Differences B - A of the same game index and seat, per configuration (``cells``:
    :func:`cell_pairs`, by default cell ``i`` with cell ``i``)."""
    ga = a.games if "cell" in a.games else a.games.assign(cell=0)
    gb = b.games if "cell" in b.games else b.games.assign(cell=0)
    if cells is not None:
        ga = _as_b_cells(ga, cells)
    parts = [c for c in _part_columns(a) if c in ga and c in gb]
    cols = ["win", "score", "game_turns", *parts]
    keys = ["cell", "game", "seat"]
    j = ga[keys + cols].merge(gb[keys + cols], on=keys, suffixes=("_a", "_b"))
    labels = a.info.get("labels", {})
    out = []
    for cell, sub in j.groupby("cell", sort=True):
        label = _label(b, int(cell))
        n_games = sub["game"].nunique()
        text_n = f"paired over {n_games:,} games"
        for seat, s in sub.groupby("seat", sort=True):
            d, lo, hi = _mean_ci(s["win_b"].to_numpy(float) - s["win_a"].to_numpy(float))
            out.append(
                _finding(
                    "win_rate",
                    label,
                    f"Seat {int(seat)}'s win rate",
                    "share",
                    s["win_a"].mean(),
                    s["win_b"].mean(),
                    d,
                    lo,
                    hi,
                    len(s),
                    "paired games",
                    text_n,
                )  # fmt: skip
            )
        per_game = sub.groupby("game")
        metrics = [("score", "Mean final score", "points")]
        metrics += [(p, f"Mean {labels.get(p, p)} points", "points") for p in parts]
        for col, subject, unit in metrics:
            xa = per_game[f"{col}_a"].mean().to_numpy(float)
            xb = per_game[f"{col}_b"].mean().to_numpy(float)
            d, lo, hi = _mean_ci(xb - xa)
            out.append(
                _finding(
                    "score",
                    label,
                    subject,
                    unit,
                    xa.mean(),
                    xb.mean(),
                    d,
                    lo,
                    hi,
                    len(xa),
                    "paired games",
                    text_n,
                )  # fmt: skip
            )
        ta = per_game["game_turns_a"].first().to_numpy(float)
        tb = per_game["game_turns_b"].first().to_numpy(float)
        d, lo, hi = _mean_ci(tb - ta)
        out.append(
            _finding(
                "length",
                label,
                "Game length",
                "turns",
                ta.mean(),
                tb.mean(),
                d,
                lo,
                hi,
                len(ta),
                "paired games",
                text_n,
            )  # fmt: skip
        )
    return out


def _tables(run: SavedRun) -> dict[str, pd.DataFrame]:
    from analyzer.tables.aggregate import (
        Reducer,
        build_tables,
        combine,
        paired_metrics,
        run_columns,
    )

    agg = run.aggregate
    if run.games is not None:
        pairs = tuple(tuple(p) for p in run.info.get("pairs", []))
        game = run.info.get("game", DEFAULT_GAME)
        from analyzer.runs.driver import reducer_uptake

        uptake = reducer_uptake(run.info.get("intervention"))
        reducer = Reducer(
            pairs,
            game=game,
            columns=run_columns(run.info),
            paired_metrics=paired_metrics(run.info),
            **uptake,
        )
        agg = combine([reducer({"games": run.games})])
    return build_tables(agg, run.info)


def _independent(a: SavedRun, b: SavedRun, cells=None) -> list[F.Finding]:
    """Differences of the two runs' estimates, intervals as for independent samples
    (``cells``: :func:`cell_pairs`, by default cell ``i`` with cell ``i``)."""
    ta, tb = _tables(a), _tables(b)
    if cells is not None:
        ta = {name: _as_b_cells(t, cells) for name, t in ta.items()}
    labels = a.info.get("labels", {})
    out = []

    def diff(question, label, subject, unit, ra, rb, est, lo, hi, n_col, n_unit):
        d, dlo, dhi = F.independent_difference(ra[est], ra[lo], ra[hi], rb[est], rb[lo], rb[hi])
        n = min(float(ra[n_col]), float(rb[n_col]))
        text_n = f"independent runs, {F.count(ra[n_col])} and {F.count(rb[n_col])} {n_unit}"
        out.append(
            _finding(
                question, label, subject, unit, ra[est], rb[est], d, dlo, dhi, n, n_unit, text_n
            )
        )

    sa, sb = ta.get("seats"), tb.get("seats")
    if sa is not None and sb is not None:
        for (cell, seat), ra in sa.set_index(["cell", "seat"]).iterrows():
            if (cell, seat) not in sb.set_index(["cell", "seat"]).index:
                continue
            rb = sb.set_index(["cell", "seat"]).loc[(cell, seat)]
            label = _label(b, int(cell))
            diff("win_rate", label, f"Seat {int(seat)}'s win rate", "share", ra, rb,
                 "win_rate", "win_rate_low", "win_rate_high", "n", "games")  # fmt: skip
    pa, pb = ta.get("score_parts"), tb.get("score_parts")
    if pa is not None and pb is not None:
        ib = pb.set_index(["cell", "part"])
        for (cell, part), ra in pa.set_index(["cell", "part"]).iterrows():
            if (cell, part) not in ib.index:
                continue
            subject = (
                "Mean final score" if part == "score" else f"Mean {labels.get(part, part)} points"
            )
            diff("score", _label(b, int(cell)), subject, "points", ra, ib.loc[(cell, part)],
                 "mean", "mean_low", "mean_high", "n", "seat-games")  # fmt: skip
    ga, gb = ta.get("games_summary"), tb.get("games_summary")
    if ga is not None and gb is not None:
        ib = gb.set_index(["cell", "metric"])
        for (cell, metric), ra in ga.set_index(["cell", "metric"]).iterrows():
            if metric != "game_turns" or (cell, metric) not in ib.index:
                continue
            diff("length", _label(b, int(cell)), "Game length", "turns", ra, ib.loc[(cell, metric)],
                 "estimate", "low", "high", "games", "games")  # fmt: skip
    return out


def comparison_lines(c: Comparison) -> list[str]:
    """The comparison as text: what was compared, how, and each difference ranked."""
    na, nb = _names(c.a, c.b)
    lines = [
        f"{nb} minus {na} ({c.a.info.get('game', DEFAULT_GAME)}; "
        f"{c.a.info.get('games', 0):,} and {c.b.info.get('games', 0):,} games per configuration)",
        f"{c.why}.",
        "",
    ]
    for f in c.findings:
        mark = "*" if f.significant else " "
        where = f"[{f.label}] " if len(c.b.cells) > 1 else ""
        verdict = f.verdict()
        lines.append(f"{mark} {where}{f.text} {verdict[:1].upper() + verdict[1:]}.")
    n_sig = sum(f.significant for f in c.findings)
    lines += [
        "",
        f"{n_sig} of {len(c.findings)} differences are significant (*: Holm-corrected p < "
        f"{F.ALPHA:g}); ranked by effect size relative to A's value; 95% intervals.",
    ]
    return lines


def write_csv(c: Comparison, path: str | Path) -> Path:
    """The differences as CSV, written atomically (a temporary file moved into place)."""
    p = Path(path)
    if p.suffix.lower() != ".csv":
        raise InputError(f"--csv: bad value {str(p)!r} (allowed: a file name ending in .csv)")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"--csv: bad value {str(p)!r} (allowed: a file in an existing directory)")
    table = c.table()

    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            table.to_csv(fh, index=False, float_format="%.6g")

    atomic_write(p, write, "--csv: writing")  # the umask's mode, not a temp file's 0600
    return p
