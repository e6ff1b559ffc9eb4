"""What change makes it fair? The balance search of a scenario's ``[balance]`` table.

:func:`balance` answers a :class:`~analyzer.runs.balance_file.BalanceSpec`: which
values of its knobs (override paths) bring its objectives (seat fairness at each
player count asked, a mixed field's viability, game length or a column's mean in
a band, fewest edits) closest to their targets, how sure that is, and whether it
holds for players re-tuned at the found design.

How games are spent (every game through :func:`analyzer.runs.driver.run_scenario`,
so workers and the seed give the same answer for any number of workers):

- **Common random numbers.** Every candidate plays the same game indices with
  the same seed, so candidates differ only by the design; comparisons are on
  paired per-game differences (blocks of games are cached per candidate).
- **One numeric knob**: a small paired grid (5 values over the range), a fitted
  logistic curve of the seat that is furthest from fair, its inversion, then a
  second paired grid of 3 values around the root on new games; the recommended
  value is the root of the second fit, its 95% interval a percentile bootstrap
  over games (games resampled jointly across the grid's values, keeping the
  pairing).
- **Several knobs** (or a choice knob): optuna's TPE (a well-kept optimiser that
  takes integer and categorical values as they are, seeded, so the same seed
  proposes the same designs) over the knobs' allowed values, with successive
  halving in every generation: candidates play a block of games, the better
  half plays a block twice as large, and so on; the worse are dropped early.
- **Fresh seeds**: the recommended and the printed design are played again on
  a seed derived separately (``seeds.fresh``); ``before``/``after``, the
  certificate and the seat rates come from those games only, never from the
  games that chose the design.
- **Certificate**: two one-sided tests (TOST) per seat and player count, an
  intersection-union test (every seat within ±delta of fair, 95%).
- **Attribution**: each knob one step either side of the recommended design,
  paired, on a third seed: each seat's win rate per step, with a 95% interval.
- **Re-tuning** (``retune = true``): the field's tunable strategy re-tuned at the
  recommended design (:func:`analyzer.studies.tuning.tune`, the scenario's small
  budget), the objectives measured again on the fresh seeds; if the re-tuned
  players undo the fix, the search runs again with them (``rounds`` at most).

Progress is kept per evaluated block (``store``): an interrupted search
continues with the same answer.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from analyzer.core.errors import InputError

SCHEMA = 1
GRID_POINTS = 5  #: values of the first paired grid (one knob)
REFINE_POINTS = 3  #: values of the second grid, around the first root
BOOTSTRAP = 1000
POPSIZE = 6  #: candidates per CMA-ES generation
RUNGS = 3  #: successive-halving rungs per generation
GENERATIONS = 6  #: generations the budget is planned for
MAX_GENERATIONS = 60
RACE = 4  #: designs racing at the end of a TPE search
MIN_BLOCK = 50
CANDIDATES_FILE = "tables/balance_candidates.csv"
STORE_DIR = "balance_progress"


class Interrupted(Exception):
    """Raised by a test's hook to stop a search part-way (see ``on_evaluated``)."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class BalanceResult:
    """What :func:`balance` returns: the ``balance.json`` content and the candidates."""

    data: dict
    candidates: tuple = ()

    def __repr__(self) -> str:
        d = self.data
        rec = ", ".join(f"{k} = {v!r}" for k, v in (d.get("recommended") or {}).items())
        cert = "certified" if d.get("certified") else "not certified"
        return (
            f"<BalanceResult {d.get('game')}: {rec or 'no change'}; {cert}; "
            f"{d.get('candidates', 0)} candidates, {d['games']['total']:,} games>"
        )

    @property
    def recommended(self) -> dict:
        return dict(self.data["recommended"])

    @property
    def certified(self) -> bool:
        return bool(self.data["certified"])

    def to_json(self) -> dict:
        """The ``balance.json`` content (the schema shared with the report)."""
        return json.loads(json.dumps(self.data, default=_plain))


@dataclass
class Outcome:
    """The games of one design at one player count, over a range of game indices."""

    wins: np.ndarray  #: (games, seats) win shares
    turns: np.ndarray  #: (games,) turns of the game
    columns: dict = field(default_factory=dict)  #: name -> (games,) mean over seats
    scores: np.ndarray | None = None  #: (games, seats) final scores
    #: strategy -> (games,) mean win share of the seats playing it in each game
    by_strategy: dict = field(default_factory=dict)

    @staticmethod
    def join(parts: list[Outcome]) -> Outcome:
        if len(parts) == 1:
            return parts[0]
        return Outcome(
            np.concatenate([p.wins for p in parts]),
            np.concatenate([p.turns for p in parts]),
            {k: np.concatenate([p.columns[k] for p in parts]) for k in parts[0].columns},
            None if parts[0].scores is None else np.concatenate([p.scores for p in parts]),
            {k: np.concatenate([p.by_strategy[k] for p in parts]) for k in parts[0].by_strategy},
        )


def derived_seed(seed: int, what: str) -> int:
    """A seed for ``what`` (fresh games, attribution, re-tuning) derived from ``seed``:
    games it seeds share nothing with the search's."""
    tag = int.from_bytes(hashlib.sha256(what.encode()).digest()[:4], "big")
    return int(np.random.SeedSequence([int(seed), tag]).generate_state(2, np.uint32)[0]) * 2 + 1


# --------------------------------------------------------------------------- playing


class Evaluator:
    """Plays designs through the driver, block by block, keeping each block (memory and
    ``store``) so a design is never played twice on the same games."""

    def __init__(
        self,
        sc,
        spec,
        *,
        workers=None,
        store: Path | None = None,
        on_evaluated: Callable[[int], None] | None = None,
        progress=None,
    ) -> None:
        self.sc = sc
        self.spec = spec
        self.workers = workers
        self.store = Path(store) if store is not None else None
        self.on_evaluated = on_evaluated
        self.progress = progress
        self.memo: dict[str, Outcome] = {}
        self.games = {"search": 0, "fresh": 0, "attribution": 0, "retune": 0}
        self.played = 0  #: blocks played now (not read back from the store)
        self.columns = sorted(
            {o.column for o in spec.objectives if o.measure == "column" and o.column}
        )
        self.strategies = sorted(set(spec.field))

    def _key(self, design, n, start, games, seed, params) -> str:
        text = json.dumps(
            [sorted(design.items()), n, start, games, seed, params or {}, list(self.spec.field)],
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def play(
        self,
        design: dict,
        n: int,
        start: int,
        games: int,
        seed: int,
        params: dict | None = None,
        kind: str = "search",
    ) -> Outcome:
        key = self._key(design, n, start, games, seed, params)
        if key in self.memo:  # played already in this search: the same games, not counted again
            return self.memo[key]
        self.games[kind] += games
        path = self.store / f"{key}.npz" if self.store is not None else None
        if path is not None and path.is_file():
            with np.load(path) as z:
                out = Outcome(
                    z["wins"],
                    z["turns"],
                    {c: z[f"col_{c}"] for c in self.columns},
                    z["scores"],
                    {s: z[f"by_{s}"] for s in self.strategies},
                )
        else:
            out = self._run(design, n, start, games, seed, params)
            if path is not None:
                tmp = path.with_suffix(".tmp.npz")
                np.savez(
                    tmp,
                    wins=out.wins,
                    turns=out.turns,
                    scores=out.scores,
                    **{f"by_{k}": v for k, v in out.by_strategy.items()},
                    **{f"col_{c}": v for c, v in out.columns.items()},
                )
                tmp.replace(path)
            self.played += 1
            if self.on_evaluated is not None:
                self.on_evaluated(self.played)
        self.memo[key] = out
        return out

    def _run(self, design, n, start, games, seed, params) -> Outcome:
        from analyzer.runs.driver import run_scenario

        sc = self.sc
        strategy_params = dict(sc.strategy_params)
        for s, row in (params or {}).items():
            strategy_params[s] = {**strategy_params.get(s, {}), **row}
        one = replace(
            sc,
            players=n,
            games=games,
            seed=seed,
            strategies=None if self.spec.rotate else self.spec.field_at(n),
            lineup=self.spec.field_at(n) if self.spec.rotate else None,
            fields=(),
            rotation="cyclic",
            overrides={**sc.overrides, **design},
            strategy_params=strategy_params,
            sweep=(),
            compare=None,
            forbid=None,
            claims=False,
            save_tables=True,
            questions=(),
            ladder=None,
            tune=None,
            sensitivity=None,
            balance=None,
            batch_size=None,
        )
        run = run_scenario(
            one,
            workers=self.workers,
            progress=False,
            exact=False,
            first_game=start,
            headline="widest_seat",
        )
        g = run.tables["games"].sort_values(["game", "seat"], kind="stable")
        wins = g["win"].to_numpy(np.float64).reshape(-1, n)
        turns = g["game_turns"].to_numpy(np.float64).reshape(-1, n)[:, 0]
        cols = {c: g[c].to_numpy(np.float64).reshape(-1, n).mean(axis=1) for c in self.columns}
        scores = g["score"].to_numpy(np.float64).reshape(-1, n)
        names = g["strategy"].astype(str).to_numpy().reshape(-1, n)
        by = {}
        for s in self.strategies:
            mask = names == s
            with np.errstate(invalid="ignore", divide="ignore"):
                by[s] = (wins * mask).sum(axis=1) / mask.sum(axis=1)
        return Outcome(wins, turns, cols, scores, by)


# --------------------------------------------------------------------------- measuring


def _seat_gaps(o: Outcome) -> np.ndarray:
    return o.wins.mean(axis=0) - 1.0 / o.wins.shape[1]


def measure(spec, design: dict, outcomes: dict[int, Outcome]) -> dict[str, float]:
    """Each objective's value (lower is better; win points, turns or the column's unit)."""
    out = {}
    for ob in spec.objectives:
        if ob.measure == "edits":
            out[ob.id] = float(_edits(spec, design))
            continue
        o = outcomes[ob.players]
        if ob.measure == "seat_fairness":
            out[ob.id] = float(np.abs(_seat_gaps(o)).max() * 100)
        elif ob.measure == "strategy_viability":
            by = {s: float(np.nanmean(v)) for s, v in o.by_strategy.items()}
            by = {s: v for s, v in by.items() if s in spec.field_at(ob.players)}
            spread = (max(by.values()) - min(by.values())) * 100
            hi = ob.band[1] if ob.band is not None else spec.delta
            out[ob.id] = max(0.0, spread - hi)
        else:
            vals = o.turns if ob.measure == "length" else o.columns[ob.column]
            m = float(vals.mean())
            out[ob.id] = max(0.0, ob.band[0] - m, m - ob.band[1])
    return out


def _edits(spec, design: dict) -> float:
    total = 0.0
    for k in spec.knobs:
        v = design.get(k.path, k.printed)
        if k.kind == "choice":
            total += float(v != k.printed)
        elif k.step:
            total += abs(float(v) - float(k.printed)) / float(k.step)
        else:  # a list of values: allowed values between them
            vals = np.asarray(k.values, float)
            total += abs(
                int(np.argmin(np.abs(vals - float(v))))
                - int(np.argmin(np.abs(vals - float(k.printed))))
            )
    return total


def combined(spec, values: dict[str, float]) -> float:
    """One number to minimise: the weighted sum (``weights``, ``front``), or the
    objectives in order, each a thousand times the next (``order``)."""
    obs = spec.objectives
    if spec.combine == "order":
        k = len(obs)
        return float(sum(values[o.id] * 1000.0 ** (k - 1 - i) for i, o in enumerate(obs)))
    return float(sum(o.weight * values[o.id] for o in obs))


# --------------------------------------------------------------------------- curve


def _fit(xs: np.ndarray, rates: np.ndarray, target: float) -> tuple[str, np.ndarray, float]:
    """Fit rate(x) (logistic when every rate is inside (0, 1), else linear) and
    invert it at ``target``: ``(kind, coef, root)``; root nan when the fit is flat."""
    if np.all((rates > 0.002) & (rates < 0.998)):
        y = np.log(rates / (1 - rates))
        b, a = np.polyfit(xs, y, 1)
        t = math.log(target / (1 - target))
        root = (t - a) / b if abs(b) > 1e-12 else math.nan
        return "logistic", np.array([a, b]), root
    b, a = np.polyfit(xs, rates, 1)
    root = (target - a) / b if abs(b) > 1e-12 else math.nan
    return "linear", np.array([a, b]), root


def _predict(kind: str, coef: np.ndarray, x: np.ndarray) -> np.ndarray:
    z = coef[0] + coef[1] * x
    return 1 / (1 + np.exp(-z)) if kind == "logistic" else z


def fit_root(xs, W: np.ndarray, target: float, seed: int, boot: int = BOOTSTRAP) -> dict:
    """The curve through the grid's paired games ``W`` (games x values: the target
    seat's win share), its root and a percentile bootstrap over games (rows
    resampled together, keeping the pairing)."""
    xs = np.asarray(xs, float)
    rates = W.mean(axis=0)
    kind, coef, root = _fit(xs, rates, target)
    rng = np.random.default_rng([seed, 0xB007])
    roots, curves = [], []
    fine = np.linspace(xs.min(), xs.max(), 25)
    for _ in range(boot):
        idx = rng.integers(0, W.shape[0], W.shape[0])
        r = W[idx].mean(axis=0)
        k2, c2, x2 = _fit(xs, np.clip(r, 1e-4, 1 - 1e-4) if kind == "logistic" else r, target)
        roots.append(x2)
        curves.append(_predict(k2, c2, fine))
    roots = np.array(roots)
    ok = roots[np.isfinite(roots)]
    if len(ok) < 0.975 * boot:  # flat in too many resamples: no bounded interval
        interval = [None, None]
    else:
        interval = [float(np.quantile(ok, 0.025)), float(np.quantile(ok, 0.975))]
    curves = np.array(curves)
    band = [
        {"value": float(v), "low": float(lo), "high": float(hi)}
        for v, lo, hi in zip(
            fine,
            np.quantile(curves, 0.025, axis=0),
            np.quantile(curves, 0.975, axis=0),
            strict=True,
        )
    ]
    return {
        "kind": kind,
        "coef": [float(c) for c in coef],
        "root": float(root),
        "root_interval": interval,
        "band": band,
        "rates": rates,
    }


# --------------------------------------------------------------------------- the search


@dataclass
class _Plan:
    budget: int
    fresh: int  #: games per count for each fresh design
    attribution: int
    search: int


def block_of(spec, games: int) -> int:
    """``games`` rounded up to a whole number of seat rotations at every count asked
    (a rotated field: blocks of games never share a game index)."""
    if not spec.rotate:
        return int(games)
    unit = math.lcm(*spec.counts)
    return int(math.ceil(games / unit) * unit)


def plan(spec, budget: int) -> _Plan:
    c, k = len(spec.counts), len(spec.knobs)
    fresh = block_of(spec, max(100, int(0.15 * budget / c)))
    attribution = block_of(spec, max(100, int(0.10 * budget / (2 * k * c))))
    search = max(budget - 2 * fresh * c - 2 * k * c * attribution, 20 * MIN_BLOCK * c)
    return _Plan(budget, fresh, attribution, search)


def _snap(knob, x: float):
    """The allowed value nearest ``x`` (numeric knobs)."""
    vals = np.asarray(knob.values, float)
    v = knob.values[int(np.argmin(np.abs(vals - x)))]
    return v


class _Search:
    def __init__(self, sc, spec, ev: Evaluator, seed: int, plan_: _Plan, say, params=None):
        self.sc, self.spec, self.ev, self.seed, self.plan = sc, spec, ev, seed, plan_
        self.say = say
        self.params = params
        self.rows: list[dict] = []
        self.round = 0

    def outcomes(self, design, start, games, kind="search", seed=None, params=None):
        seed = self.seed if seed is None else seed
        params = self.params if params is None else params
        return {
            n: self.ev.play(design, n, start, games, seed, params, kind) for n in self.spec.counts
        }

    def field_outcomes(self, design, games, kind, seed):
        """The scenario's own field at ``design`` (never the re-tuned players)."""
        return {n: self.ev.play(design, n, 0, games, seed, None, kind) for n in self.spec.counts}

    def record(self, design, games, values, score, rung, kept):
        row = {"candidate": len(self.rows), "round": self.round, "rung": rung}
        row.update({k.path: design.get(k.path, k.printed) for k in self.spec.knobs})
        row.update({"games": games, **values, "score": score, "kept": kept})
        self.rows.append(row)

    def best_text(self) -> str:
        """The best candidate so far, in words (the progress line)."""
        top = max(r["round"] for r in self.rows)
        rows = [r for r in self.rows if r["round"] == top]
        best = min(rows, key=lambda r: r["score"])
        design = ", ".join(f"{k.path} = {best[k.path]!r}" for k in self.spec.knobs)
        return f"; best so far {design} (score {best['score']:.2f})"

    # one numeric knob --------------------------------------------------------------

    def monotone(self) -> dict:
        spec, knob = self.spec, self.spec.knobs[0]
        c = len(spec.counts)
        g1 = block_of(spec, max(MIN_BLOCK, int(0.3 * self.plan.search / (GRID_POINTS * c))))
        g2 = block_of(spec, max(MIN_BLOCK, int(0.7 * self.plan.search / (REFINE_POINTS * c))))
        vals = list(knob.values)
        r0 = max(r["round"] for r in self.rows) + 1 if self.rows else 0  # a search again
        self.round = r0
        idx = sorted({int(round(i)) for i in np.linspace(0, len(vals) - 1, GRID_POINTS)})
        grid1 = [vals[i] for i in idx]
        outs1 = []
        for v in grid1:
            o = self.outcomes({knob.path: v}, 0, g1)
            outs1.append(o)
            values = measure(spec, {knob.path: v}, o)
            self.record({knob.path: v}, g1 * c, values, combined(spec, values), 0, True)
            self.say(f"grid {v!r}: " + _brief(values) + self.best_text())
        n0 = _primary_count(spec)
        printed_at = int(np.argmin([abs(float(v) - float(knob.printed)) for v in grid1]))
        seat = int(np.argmax(np.abs(_seat_gaps(outs1[printed_at][n0]))))
        W1 = np.column_stack([o[n0].wins[:, seat] for o in outs1])
        f1 = fit_root(grid1, W1, 1.0 / n0, self.seed, boot=200)
        root1 = f1["root"]
        lo_v, hi_v = float(vals[0]), float(vals[-1])
        centre = min(max(root1, lo_v), hi_v) if math.isfinite(root1) else float(knob.printed)
        i0 = int(np.argmin(np.abs(np.asarray(vals, float) - centre)))
        half = max(1, len(vals) // 10)
        picks = sorted({min(max(i0 + d, 0), len(vals) - 1) for d in (-half, 0, half)})
        if len(picks) < 2:
            picks = [0, len(vals) - 1]
        grid2 = [vals[i] for i in picks]
        self.round = r0 + 1
        outs2 = []
        for v in grid2:
            o = self.outcomes({knob.path: v}, g1, g2)
            outs2.append(o)
            values = measure(spec, {knob.path: v}, o)
            self.record({knob.path: v}, g2 * c, values, combined(spec, values), 1, True)
            self.say(f"refine {v!r}: " + _brief(values) + self.best_text())
        W2 = np.column_stack([o[n0].wins[:, seat] for o in outs2])
        f2 = fit_root(grid2, W2, 1.0 / n0, self.seed)
        root = f2["root"]
        iv2 = f2["root_interval"]
        covers = iv2[0] is not None and iv2[0] <= float(knob.printed) <= iv2[1]
        if math.isfinite(root) and iv2[0] is not None and not covers:
            chosen = _snap(knob, min(max(root, lo_v), hi_v))
            if knob.kind == "float":
                chosen = float(chosen)
        else:
            chosen = knob.printed
        others = {}
        for n in spec.counts:
            if n == n0:
                continue
            s = int(np.argmax(np.abs(_seat_gaps(outs2[0][n]))))
            Wn = np.column_stack([o[n].wins[:, s] for o in outs2])
            fn = fit_root(grid2, Wn, 1.0 / n, self.seed, boot=200)
            others[n] = {"seat": s + 1, "root": fn["root"], "root_interval": fn["root_interval"]}
        points = [
            {
                "value": v,
                "estimate": float(r - 1.0 / n0),
                "low": float(r - 1.0 / n0 - 1.96 * W[:, i].std(ddof=1) / math.sqrt(len(W))),
                "high": float(r - 1.0 / n0 + 1.96 * W[:, i].std(ddof=1) / math.sqrt(len(W))),
                "games": int(len(W)),
            }
            for W, grid, rates in ((W1, grid1, W1.mean(axis=0)), (W2, grid2, W2.mean(axis=0)))
            for i, (v, r) in enumerate(zip(grid, rates, strict=True))
        ]
        band = [
            {"value": b["value"], "low": b["low"] - 1.0 / n0, "high": b["high"] - 1.0 / n0}
            for b in f2["band"]
        ]
        curve = {
            "knob": knob.path,
            "objective": f"seat_{seat + 1}_rate_{n0}p",
            "seat": seat + 1,
            "players": n0,
            "points": sorted(points, key=lambda p: float(p["value"])),
            "fit": {"kind": f2["kind"], "coef": f2["coef"], "scale": "win rate"},
            "band": band,
            "target": 0.0,
            "chosen": chosen,
            "root": root if math.isfinite(root) else None,
            "root_interval": f2["root_interval"],
            "first_root": root1 if math.isfinite(root1) else None,
            "other_counts": {str(n): v for n, v in others.items()},
        }
        interval = f2["root_interval"]
        return {
            "recommended": {knob.path: chosen},
            "interval": {knob.path: interval} if interval[0] is not None else {},
            "curve": curve,
            "method": "monotone grid + fit",
            "settings": {
                "grid": grid1,
                "refine": grid2,
                "games_grid": g1,
                "games_refine": g2,
                "bootstrap": BOOTSTRAP,
                "interval": "percentile bootstrap over games",
            },
        }

    # several knobs -------------------------------------------------------------------

    def tpe(self, start: dict | None = None) -> dict:
        """Several knobs: optuna's TPE proposes a generation of designs (knob values
        as indices into their allowed values; a choice knob categorical), each played
        in successive halving on the shared blocks of games; every candidate's score
        at the rung it reached goes back to the sampler."""
        import warnings

        import optuna

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        spec = self.spec
        c = len(spec.counts)
        block = block_of(
            spec, max(MIN_BLOCK, int(self.plan.search / (c * POPSIZE * RUNGS * GENERATIONS)))
        )
        sizes = [block * 2**r for r in range(RUNGS)]
        starts = [sum(sizes[:r]) for r in range(RUNGS)]
        knobs = spec.knobs
        dists = {
            k.path: (
                optuna.distributions.CategoricalDistribution(list(range(len(k.values))))
                if k.kind == "choice"
                else optuna.distributions.IntDistribution(0, len(k.values) - 1)
            )
            for k in knobs
        }
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # multivariate TPE is marked experimental
            sampler = optuna.samplers.TPESampler(
                seed=derived_seed(self.seed, f"balance tpe {self.round}") % 2**32,
                multivariate=True,
                n_startup_trials=POPSIZE,
            )
        study = optuna.create_study(direction="minimize", sampler=sampler)
        base = start or {k.path: k.printed for k in knobs}
        if all(base.get(k.path) in k.values for k in knobs):  # the printed design first
            study.enqueue_trial({k.path: k.values.index(base[k.path]) for k in knobs})

        best, gen, spent0 = None, 0, self.ev.games["search"]
        per_gen = c * sum(s * max(1, POPSIZE // 2**r) for r, s in enumerate(sizes))
        # until the budget is spent (games played, not designs seen again), at most
        # MAX_GENERATIONS generations (a small space is soon all cached)
        seen: dict[tuple, tuple[float, int]] = {}  #: design -> (score, rung reached)

        def key_of(d):
            return tuple(repr(d[k.path]) for k in knobs)

        while gen == 0 or (
            self.ev.games["search"] - spent0 + per_gen <= self.plan.search and gen < MAX_GENERATIONS
        ):
            trials, designs = [], []
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for _ in range(POPSIZE * 5):  # new designs only: a seen one is told its score
                    t = study.ask(dists)
                    d = {k.path: k.values[t.params[k.path]] for k in knobs}
                    if key_of(d) in seen or key_of(d) in map(key_of, designs):
                        study.tell(t, seen.get(key_of(d), (math.inf,))[0])
                        continue
                    trials.append(t)
                    designs.append(d)
                    if len(designs) == POPSIZE:
                        break
            if not designs:
                break  # every design the sampler proposes is known: the race settles it
            alive = list(range(len(designs)))
            scores = [math.inf] * len(designs)
            values_of: dict[int, dict] = {}
            for r in range(RUNGS):
                for i in alive:
                    parts = [self.outcomes(designs[i], starts[q], sizes[q]) for q in range(r + 1)]
                    joined = {n: Outcome.join([p[n] for p in parts]) for n in spec.counts}
                    values_of[i] = measure(spec, designs[i], joined)
                    scores[i] = combined(spec, values_of[i])
                    seen[key_of(designs[i])] = (scores[i], r)
                keep = sorted(alive, key=lambda i: (scores[i], i))[: max(1, len(alive) // 2)]
                for i in alive:
                    g = sum(sizes[: r + 1]) * c
                    self.record(designs[i], g, values_of[i], scores[i], r, i in keep)
                alive = keep
            for t, sc_ in zip(trials, scores, strict=True):
                study.tell(t, sc_)
            gen += 1
            top = min((v for v in seen.items() if v[1][1] == RUNGS - 1), key=lambda v: v[1][0])
            words = ", ".join(f"{k.path} = {v}" for k, v in zip(knobs, top[0], strict=True))
            self.say(f"generation {gen}: best so far {words} (score {top[1][0]:.2f})")
        # the race: the best designs that reached the last rung play further blocks
        # (twice as large each time, the same games for all), the worse half dropped,
        # until one is left or the budget is spent
        finalists = sorted((v[0], k) for k, v in seen.items() if v[1] == RUNGS - 1)[:RACE]
        by_key = {
            key_of(row_d): row_d
            for row_d in ({k.path: r[k.path] for k in knobs} for r in self.rows)
        }
        alive_d = [by_key[k] for _, k in finalists]
        lengths, begin, size, rung = list(sizes), sum(sizes), sizes[-1] * 2, RUNGS
        while len(alive_d) > 1:
            cost = size * c * len(alive_d)
            if self.ev.games["search"] - spent0 + cost > self.plan.search * 1.05:
                break
            lengths.append(size)
            vals = []
            for d in alive_d:
                parts = [
                    self.outcomes(d, sum(lengths[:q]), lengths[q]) for q in range(len(lengths))
                ]
                joined = {n: Outcome.join([p[n] for p in parts]) for n in spec.counts}
                v = measure(spec, d, joined)
                vals.append((combined(spec, v), v, d))
            vals.sort(key=lambda x: x[0])
            keep_n = max(1, len(vals) // 2)
            for j, (score, v, d) in enumerate(vals):
                self.record(d, sum(lengths) * c, v, score, rung, j < keep_n)
            alive_d = [d for _, _, d in vals[:keep_n]]
            begin, size, rung = begin + size, size * 2, rung + 1
        if len(alive_d) > 1:  # budget spent: the best on the games all have played
            last = [r for r in self.rows if r["rung"] == max(x["rung"] for x in self.rows)]
            alive_d = [{k.path: min(last, key=lambda r: r["score"])[k.path] for k in knobs}]
        best = (None, alive_d[0])
        return {
            "recommended": best[1],
            "interval": {},
            "curve": None,
            "method": "optuna TPE + successive halving",
            "settings": {
                "popsize": POPSIZE,
                "rungs": RUNGS,
                "blocks": sizes,
                "generations": gen,
                "race": [len(finalists), lengths],
                "optimiser": f"TPE (multivariate), optuna {optuna.__version__}",
            },
        }


def _brief(values: dict) -> str:
    return ", ".join(f"{k} {v:.2f}" for k, v in values.items())


def _design_text(d: dict | None) -> str:
    return ", ".join(f"{k} = {v!r}" for k, v in (d or {}).items())


def _primary_count(spec) -> int:
    for o in spec.objectives:
        if o.measure == "seat_fairness":
            return o.players
    return spec.counts[-1]


# --------------------------------------------------------------------------- fresh games


def _worst(outs: dict[int, Outcome]) -> float:
    """The largest gap of any seat from a fair share, at any count (win points)."""
    return float(max(abs(g) for o in outs.values() for g in _seat_gaps(o)) * 100)


def _rates(o: Outcome, z: float = 1.96) -> list[dict]:
    n = o.wins.shape[0]
    m = o.wins.mean(axis=0)
    se = o.wins.std(axis=0, ddof=1) / math.sqrt(n)
    return [
        {
            "seat": s + 1,
            "rate": float(m[s]),
            "low": float(m[s] - z * se[s]),
            "high": float(m[s] + z * se[s]),
        }
        for s in range(o.wins.shape[1])
    ]


def _objective_intervals(spec, design, outs: dict[int, Outcome], seed) -> dict:
    """Each objective on fresh games with a 95% bootstrap interval (values in
    the objective's own unit; fairness as a fraction, the schema's)."""
    point = measure(spec, design, outs)
    rng = np.random.default_rng([seed, 0xF00D])
    boots = {k: [] for k in point}
    B = 200
    for _ in range(B):
        res = {}
        for n, o in outs.items():
            idx = rng.integers(0, len(o.turns), len(o.turns))
            res[n] = Outcome(
                o.wins[idx],
                o.turns[idx],
                {c: v[idx] for c, v in o.columns.items()},
                None,
                {s: v[idx] for s, v in o.by_strategy.items()},
            )
        for k, v in measure(spec, design, res).items():
            boots[k].append(v)
    out = {}
    for ob in spec.objectives:
        scale = _unit_scale(ob)
        b = np.array(boots[ob.id])
        games = len(outs[ob.players].turns) if ob.players else 0
        out[ob.id] = {
            "value": point[ob.id] * scale,
            "low": float(np.quantile(b, 0.025)) * scale,
            "high": float(np.quantile(b, 0.975)) * scale,
            "games": games,
        }
    return out


def certificate(spec, outs: dict[int, Outcome], alpha: float = 0.05) -> dict:
    """TOST per seat and count on fresh games: every seat within ±delta of fair."""
    delta = spec.delta / 100
    z = 1.6448536269514722  # one-sided 95%
    worst, ok, need = None, True, 0.0
    for n, o in outs.items():
        g = o.wins.shape[0]
        gaps = _seat_gaps(o)
        sd = o.wins.std(axis=0, ddof=1)
        for s in range(n):
            se = sd[s] / math.sqrt(g)
            lo, hi = gaps[s] - z * se, gaps[s] + z * se
            passed = lo > -delta and hi < delta
            ok &= bool(passed)
            margin = max(hi - delta, -delta - lo)
            if worst is None or margin > worst[0]:
                worst = (
                    margin,
                    {
                        "players": n,
                        "seat": s + 1,
                        "gap": float(gaps[s]),
                        "low": float(gaps[s] - 1.96 * se),
                        "high": float(gaps[s] + 1.96 * se),
                    },
                )
            room = delta - abs(gaps[s])
            if not passed:
                need = max(need, (z * sd[s] / room) ** 2 if room > 0 else math.inf)
    games = min(len(o.turns) for o in outs.values())
    counts = _and([str(n) for n in sorted(outs)])
    if ok:
        needed, sentence = (
            None,
            (
                f"Certified: every seat within ±{spec.delta:g} win points of fair at {counts} "
                f"players (95%, {games:,} fresh games per count)."
            ),
        )
    elif math.isfinite(need):
        needed = int(math.ceil(need * 1.1 / 100) * 100)
        sentence = (
            f"Not certified: with {games:,} fresh games per count not every seat is shown "
            f"within ±{spec.delta:g} win points of fair; about {needed:,} games per count "
            "would be needed to show it, if the gaps are what they seem."
        )
    else:
        needed = None
        w = worst[1]
        sentence = (
            f"Not certified: at {w['players']} players the {seat_word(w['seat'], w['players'])} "
            f"is measured {abs(w['gap']) * 100:.1f} win points from fair (95% interval "
            f"{w['low'] * 100:+.1f} to {w['high'] * 100:+.1f}, {games:,} fresh games), beyond "
            f"±{spec.delta:g}: more games would certify it only if the true gap is smaller "
            "than it looks, so the games it would take cannot be said."
        )
    return {
        "delta": delta,
        "games": games,
        "alpha": alpha,
        "worst": worst[1],
        "games_needed": needed,
        "sentence": sentence,
        "certified": bool(ok),
        "test": "two one-sided tests per seat and count (intersection-union)",
    }


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def seat_word(seat: int, players: int) -> str:
    """People's words for a seat (1 = the first player)."""
    words = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}
    if seat == players and seat > 2:
        return "last player"
    return f"{words.get(seat, f'{seat}th')} player"


# --------------------------------------------------------------------------- balance


def balance(
    sc,
    *,
    seed: int | None = None,
    workers: int | None = None,
    store: str | Path | None = None,
    scale: float = 1.0,
    progress: bool | Callable[[str], None] = False,
    on_evaluated: Callable[[int], None] | None = None,
) -> BalanceResult:
    """Answer the scenario's ``[balance]`` question (see the module's words).

    ``seed`` (default: the scenario's, else fresh; recorded) seeds the search; the
    fresh games, the attribution and the re-tuning use seeds derived from it.
    ``store``: a folder keeping every played block, so a second call with the
    same arguments (an interrupted run resumed) plays only what is missing and
    gives the same answer. ``scale`` multiplies the budget (``--games``).
    ``on_evaluated(k)`` is called after the k-th block played (tests stop a run
    with it).
    """
    from analyzer.core.seeding import resolve_seed

    spec = sc.balance
    if spec is None:
        raise InputError(f"{sc.path}: no [balance] table (allowed: a scenario with [balance])")
    seed = resolve_seed(seed if seed is not None else sc.seed)
    t0 = time.perf_counter()
    say = _sayer(progress)
    store_path = Path(store) if store is not None else None
    if store_path is not None:
        store_path.mkdir(parents=True, exist_ok=True)
    ev = Evaluator(sc, spec, workers=workers, store=store_path, on_evaluated=on_evaluated)
    budget = max(200, int(round(spec.games * scale)))
    minutes_note = None
    if spec.minutes is not None:
        budget, minutes_note = _budget_of_minutes(sc, spec, ev, seed, scale, store_path)
    pl = plan(spec, budget)
    say(
        f"budget {budget:,} games: search {pl.search:,}, fresh {pl.fresh:,} per design "
        f"and count, attribution {pl.attribution:,}"
    )
    search = _Search(sc, spec, ev, seed, pl, _with_games(say, ev, budget, t0))
    numeric_one = (
        len(spec.knobs) == 1
        and spec.knobs[0].kind != "choice"
        and any(o.measure == "seat_fairness" for o in spec.objectives)
    )
    found = search.monotone() if numeric_one else search.tpe()
    design = found["recommended"]
    printed = {k.path: k.printed for k in spec.knobs}
    fresh_seed = derived_seed(seed, "balance fresh")
    before_o = search.field_outcomes(printed, pl.fresh, "fresh", fresh_seed)
    after_o = search.field_outcomes(design, pl.fresh, "fresh", fresh_seed)
    cert = certificate(spec, after_o)

    # re-tuning: the field's tunable strategy re-tuned at the design, measured on the
    # fresh games; undone when the largest gap moves by more than delta
    retune_info, retuned, retuned_o, rounds, stopped = None, None, None, 0, None
    if spec.retune:
        retune_info = {"done": False, "strategy": None, "rounds": 0, "undone": False, "note": ""}
        while True:
            rounds += 1
            params, strat, tgames, shipped = _retune(sc, spec, design, seed, rounds, workers, say)
            ev.games["retune"] += tgames
            retuned_o = search.outcomes(design, 0, pl.fresh, "fresh", fresh_seed, params)
            fair_after = _worst(after_o)
            fair_re = _worst(retuned_o)
            undone = bool(fair_re - fair_after > spec.delta)
            retune_info.update(
                done=True,
                strategy=strat,
                rounds=rounds,
                undone=undone,
                params=params,
                shift=round(fair_re - fair_after, 4),
                shipped_best=bool(shipped),
            )
            if not undone or rounds > spec.rounds:
                break
            say(
                f"re-tuned players undo the fix (largest gap {fair_after:.1f} -> {fair_re:.1f} "
                "win points): searching again with them"
            )
            search.params = params
            found = search.monotone() if numeric_one else search.tpe(design)
            design = found["recommended"]
            # 'after' is the design played by the scenario's field; the re-tuned
            # players' games are the next round's 'retuned'
            after_o = search.field_outcomes(design, pl.fresh, "fresh", fresh_seed)
            cert = certificate(spec, after_o)
        verb = "undo" if undone else "keep"
        changed = any(design[k.path] != k.printed for k in spec.knobs)
        retune_info["note"] = (
            (f"re-tuned players {verb} the fix: " if changed else "")
            + "the largest gap from fair goes from "
            f"{fair_after:.1f} to {fair_re:.1f} win points"
            + (" (the re-tuning found no row better than the shipped one)" if shipped else "")
            + (f" (after {_searches(rounds - 1)} with re-tuned players)" if rounds > 1 else "")
        )
        if undone and rounds > spec.rounds:
            stopped = f"re-tuning still undoes the fix after {_searches(spec.rounds)}"
        retuned = _objective_intervals(spec, design, retuned_o, fresh_seed)
    # 'after' and the attribution: the scenario's field at the design (not re-tuned)
    attribution = _attribution(spec, search, design, seed)
    before = _objective_intervals(spec, printed, before_o, fresh_seed)
    after = _objective_intervals(spec, design, after_o, fresh_seed)
    seat_rates = {
        str(n): {
            "before": _rates(before_o[n]),
            "after": _rates(after_o[n]),
            "retuned": _rates(retuned_o[n]) if retuned_o is not None else None,
        }
        for n in spec.counts
    }
    costs = _costs(before_o, after_o)
    games = dict(ev.games)
    games["total"] = sum(games.values())
    front = _front(spec, search.rows) if spec.combine == "front" else None
    data = {
        "schema": SCHEMA,
        "game": sc.game,
        "question": sc.description or _question(sc, spec),
        "players": list(spec.counts),
        "field": list(spec.field),
        "field_label": _field_label(spec),
        "delta": spec.delta / 100,
        "knobs": [k.as_dict() for k in spec.knobs],
        "frozen": list(spec.frozen),
        "objectives": [_objective_json(o, spec) for o in spec.objectives],
        "combine": spec.combine,
        "method": found["method"],
        "search": found["settings"],
        "recommended": design,
        "interval": found["interval"],
        "before": before,
        "after": after,
        "retuned": retuned,
        "retune": retune_info,
        "seat_rates": seat_rates,
        "costs": costs,
        "certified": cert["certified"],
        "certificate": {k: v for k, v in cert.items() if k != "certified"},
        "attribution": attribution,
        "curve": found["curve"],
        "front": front,
        "candidates": len(search.rows),
        "games": games,
        "seeds": {
            "search": seed,
            "fresh": fresh_seed,
            "attribution": derived_seed(seed, "balance attribution"),
            "retune": derived_seed(seed, "balance retune") if spec.retune else None,
        },
        "budget": {"games": budget, "minutes": spec.minutes, "scale": scale, "note": minutes_note},
        "stopped": stopped,
        "seconds": round(time.perf_counter() - t0, 3),
    }
    data["verdict"], data["sentences"] = _words(spec, data, numeric_one)
    return BalanceResult(data=data, candidates=tuple(search.rows))


def _sayer(progress):
    if callable(progress):
        return progress
    if progress:
        return lambda line: print(f"balance: {line}", file=sys.stderr, flush=True)
    return lambda line: None


def _with_games(say, ev: Evaluator, budget: int, t0: float):
    def inner(line: str) -> None:
        done = sum(ev.games.values())
        secs = time.perf_counter() - t0
        eta = ""
        if 0 < done < budget and secs > 1:
            eta = f", about {max(0.0, secs * (budget - done) / done):.0f} s to go"
        say(f"{done:,} of ~{budget:,} games{eta}; {line}")

    return inner


def _budget_of_minutes(sc, spec, ev, seed, scale, store):
    """Games the minutes buy, measured once on the printed design and kept in the
    store (a resumed run reuses the figure, so it gives the same answer)."""
    rec = store / "budget.json" if store is not None else None
    if rec is not None and rec.is_file():
        got = json.loads(rec.read_text("utf-8"))
        return got["games"], got["note"]
    printed = {k.path: k.printed for k in spec.knobs}
    t = time.perf_counter()
    probe = 200
    for n in spec.counts:
        ev.play(printed, n, 10**9, probe, seed, None, "search")
    rate = probe * len(spec.counts) / max(time.perf_counter() - t, 1e-3)
    games = max(200, int(rate * spec.minutes * 60 * 0.7 * scale))
    note = f"{spec.minutes:g} minutes at {rate:,.0f} games/s measured on this machine"
    if rec is not None:
        rec.write_text(json.dumps({"games": games, "note": note}), "utf-8")
    return games, note


def _retune(sc, spec, design, seed, rnd, workers, say):
    """Re-tune the field's first tunable strategy at ``design``."""
    from analyzer.studies.tuning import tune

    game = sc.game_def
    tunable = [s.name for s in game.strategies if not s.frozen and not s.slow and s.params]
    strat = next(s for s in spec.field if s in tunable)
    n = _primary_count(spec)
    others = [s for s in game.strategy_names() if s != strat]
    fld = game.yardstick_name() if game.yardstick_name() != strat else others[0]
    say(f"re-tuning {strat} at the recommended design ({spec.retune_trials} trials)")
    res = tune(
        game.name,
        players=n,
        strategy=strat,
        field_=fld,
        trials=spec.retune_trials,
        games=spec.retune_games,
        confirm_games=0,
        seed=derived_seed(seed, f"balance retune {rnd}"),
        rulings=dict(sc.rulings),
        overrides={**sc.overrides, **design},
        workers=workers,
    )
    tgames = sum(int(t.games) for t in res.trials)
    shipped = res.best.index == res.trials[0].index  # the shipped row came out best
    return {strat: dict(res.best.params)}, strat, tgames, shipped


def _attribution(spec, search: _Search, design, seed) -> list[dict]:
    """Each knob's effect per step near ``design``, played by the scenario's field."""
    aseed = derived_seed(seed, "balance attribution")
    g = search.plan.attribution
    out = []
    for k in spec.knobs:
        if k.kind == "choice":
            continue
        vals = list(k.values)
        v = design[k.path]
        i = vals.index(v) if v in vals else int(np.argmin(np.abs(np.asarray(vals, float) - v)))
        lo, hi = vals[max(i - 1, 0)], vals[min(i + 1, len(vals) - 1)]
        # per step of the knob's grid (a list of values: per allowed value)
        steps = (
            (float(hi) - float(lo)) / float(k.step)
            if k.step
            else float(vals.index(hi) - vals.index(lo))
        )
        step_words = f"({k.step:g})" if k.step else "(the next allowed value)"
        if steps <= 0:
            continue
        down = search.field_outcomes({**design, k.path: lo}, g, "attribution", aseed)
        up = search.field_outcomes({**design, k.path: hi}, g, "attribution", aseed)
        for n in spec.counts:
            d = (up[n].wins - down[n].wins) / steps
            m, se = d.mean(axis=0), d.std(axis=0, ddof=1) / math.sqrt(len(d))
            for s in range(n):
                low, high = m[s] - 1.96 * se[s], m[s] + 1.96 * se[s]
                what = k.label or k.path
                out.append(
                    {
                        "knob": k.path,
                        "objective": f"seat_{s + 1}_rate_{n}p",
                        "players": n,
                        "seat": s + 1,
                        "per_step": float(m[s]),
                        "low": float(low),
                        "high": float(high),
                        "games": int(len(d)),
                        "sentence": (
                            f"one step more of {what} {step_words} moves the "
                            f"{seat_word(s + 1, n)}'s "
                            f"win rate at {n} players by {m[s] * 100:+.1f} "
                            f"[{low * 100:+.1f}, {high * 100:+.1f}] points"
                        ),
                    }
                )
            dt = (up[n].turns - down[n].turns) / steps
            m, se = dt.mean(), dt.std(ddof=1) / math.sqrt(len(dt))
            out.append(
                {
                    "knob": k.path,
                    "objective": f"length_{n}p",
                    "players": n,
                    "seat": None,
                    "per_step": float(m),
                    "low": float(m - 1.96 * se),
                    "high": float(m + 1.96 * se),
                    "games": int(len(dt)),
                    "sentence": (
                        f"one step more of {k.label or k.path} changes the game's length at "
                        f"{n} players by {m:+.2f} [{m - 1.96 * se:+.2f}, "
                        f"{m + 1.96 * se:+.2f}] turns"
                    ),
                }
            )
    return out


def _costs(before: dict, after: dict) -> dict:
    out: dict = {"length": {}, "score_spread": {}}
    for which, outs in (("before", before), ("after", after)):
        turns = np.concatenate([o.turns for o in outs.values()])
        m, se = turns.mean(), turns.std(ddof=1) / math.sqrt(len(turns))
        out["length"][which] = {
            "value": float(m),
            "low": float(m - 1.96 * se),
            "high": float(m + 1.96 * se),
            "unit": "turns",
        }
        spread = np.concatenate(
            [o.scores.max(axis=1) - o.scores.min(axis=1) for o in outs.values()]
        )
        m, se = spread.mean(), spread.std(ddof=1) / math.sqrt(len(spread))
        out["score_spread"][which] = {
            "value": float(m),
            "low": float(m - 1.96 * se),
            "high": float(m + 1.96 * se),
            "unit": "points between the highest and the lowest score of a game",
        }
    return out


def _unit_scale(ob) -> float:
    """From :func:`measure`'s unit to the schema's: win points to fractions."""
    return 0.01 if ob.measure in ("seat_fairness", "strategy_viability") else 1.0


def _front(spec, rows: list[dict]) -> list[dict]:
    """The candidates of the last rung no other beats on every objective, their
    objectives in the schema's units (fairness and viability as fractions)."""
    obs = list(spec.objectives)
    ids = [o.id for o in obs]
    top = max(r["rung"] for r in rows)
    pts = [r for r in rows if r["rung"] == top]
    front = []
    for r in pts:
        dominated = any(
            all(q[i] <= r[i] for i in ids) and any(q[i] < r[i] for i in ids) for q in pts
        )
        if not dominated:
            front.append(
                {
                    "candidate": r["candidate"],
                    "objectives": {o.id: r[o.id] * _unit_scale(o) for o in obs},
                    "design": {k.path: r[k.path] for k in spec.knobs},
                }
            )
    return front


def _objective_json(o, spec) -> dict:
    words = {
        "seat_fairness": (f"largest gap from a fair share at {o.players} players", "win points"),
        "strategy_viability": (
            f"strategies' spread beyond the band at {o.players} players",
            "win points",
        ),
        "length": (f"game length outside {o.band} turns at {o.players} players", "turns"),
        "column": (f"mean {o.column} outside {o.band} at {o.players} players", o.column),
        "edits": ("steps changed from the printed values", "steps"),
    }[o.measure]
    return {**o.as_dict(), "label": words[0], "unit": words[1], "target": 0.0}


def _field_label(spec) -> str:
    if len(spec.field) == 1:
        return f"{spec.field[0]} in every seat"
    if spec.rotate:
        return ", ".join(spec.field) + ", seats rotated"
    return ", ".join(f"{s} in seat {i + 1}" for i, s in enumerate(spec.field))


def _question(sc, spec) -> str:
    knobs = _and([k.label or k.path for k in spec.knobs])
    counts = _and([str(n) for n in spec.counts])
    return f"Which value of {knobs} makes the seats fair at {counts} players?"


def _searches(n: int) -> str:
    return "1 more search" if n == 1 else f"{n} more searches"


def _other_counts(spec, d: dict, asked: set) -> list[str]:
    """What the change does at the player counts played but not optimised ("does it
    hold at 2 and 4?"): the largest gap from fair before and after, and a warning
    where the change leaves the seats less fair than printed (the worst seat's 95%
    interval after the change leaves out a fair share and its gap grew)."""
    out = []
    for n in spec.counts:
        rates = (d.get("seat_rates") or {}).get(str(n)) or {}
        b, a = rates.get("before"), rates.get("after")
        if n in asked or not b or not a:
            continue
        fair = 1.0 / n
        gb = max(abs(r["rate"] - fair) for r in b)
        worst = max(a, key=lambda r: abs(r["rate"] - fair))
        ga = abs(worst["rate"] - fair)
        clear = not (worst["low"] <= fair <= worst["high"])
        if ga > gb and clear:
            out.append(
                f"at {n} players it leaves the seats less fair than printed (largest gap "
                f"{gb * 100:.1f} to {ga * 100:.1f} win points): not for {n} players"
            )
        else:
            out.append(
                f"at {n} players the largest gap goes from {gb * 100:.1f} to "
                f"{ga * 100:.1f} win points"
            )
    return out


def _words(spec, d: dict, monotone: bool) -> tuple[str, list[str]]:
    rec = d["recommended"]
    printed = {k.path: k.printed for k in spec.knobs}
    changes = [
        f"{k.label or k.path} from {printed[k.path]!r} to {rec[k.path]!r}"
        for k in spec.knobs
        if rec[k.path] != printed[k.path]
    ]
    fair = [o for o in spec.objectives if o.measure == "seat_fairness"]
    tail = []
    for o in fair:
        b, a = d["before"][o.id], d["after"][o.id]
        tail.append(
            f"at {o.players} players the largest gap from fair goes from {b['value'] * 100:.1f} "
            f"to {a['value'] * 100:.1f} win points"
        )
    if changes:
        tail += _other_counts(spec, d, {o.players for o in fair})
        verdict = "Change " + _and(changes) + (": " + "; ".join(tail) if tail else "") + "."
    else:
        verdict = (
            "Keep the printed values: no allowed change does better"
            + (" (" + "; ".join(tail) + ")" if tail else "")
            + "."
        )
    verdict += " " + ("Certified." if d["certified"] else "Not certified.")
    sentences = []
    if monotone and d["curve"] is not None:
        c = d["curve"]
        iv = c["root_interval"]
        k = spec.knobs[0]
        who = f"The {seat_word(c['seat'], c['players'])}'s win rate at {c['players']} players"
        name = k.label or k.path
        if c["root"] is not None and iv[0] is not None:
            sentences.append(
                f"{who} is fair at {name} = {c['root']:.2f} (95% interval {iv[0]:.2f} to "
                f"{iv[1]:.2f}, bootstrap over games); "
                + (
                    f"the printed value {k.printed!r} is inside it: no evidence for a change."
                    if iv[0] <= float(k.printed) <= iv[1]
                    else f"the nearest allowed value is {c['chosen']!r}."
                )
            )
        else:
            sentences.append(
                f"{who} shows no clear trend with {name} in these games (no bounded 95% "
                f"interval for the fair value): no evidence for a change, the printed "
                f"{c['chosen']!r} stays."
            )
        for n, o in (c.get("other_counts") or {}).items():
            if o["root"] is None or not math.isfinite(o["root"]):
                continue
            oi = o["root_interval"]
            span = (
                f" (95% interval {oi[0]:.2f} to {oi[1]:.2f})"
                if oi[0] is not None
                else " (no bounded 95% interval)"
            )
            sentences.append(
                f"At {n} players the {seat_word(o['seat'], int(n))} is fair at "
                f"{o['root']:.2f}{span}."
            )
    sentences.append(d["certificate"]["sentence"])
    if d["retune"] is not None:
        sentences.append(
            f"Re-tuning {d['retune']['strategy']} at the "
            + ("new" if d["recommended"] != {k.path: k.printed for k in spec.knobs} else "printed")
            + f" values: {d['retune']['note']}."
        )
    for a in d["attribution"]:
        if a["seat"] is not None and a["seat"] in (1, a["players"]):
            sentences.append(a["sentence"][0].upper() + a["sentence"][1:] + ".")
    sentences.append(
        f"Every figure above comes from {d['certificate']['games']:,} fresh games per player "
        f"count (seed {d['seeds']['fresh']}), not the {d['games']['search']:,} that chose it."
    )
    return verdict, sentences


# --------------------------------------------------------------------------- files


def candidates_csv(result: dict, rows: list[dict]) -> str:
    """``tables/balance_candidates.csv``: one row per candidate evaluated."""
    import pandas as pd

    return pd.DataFrame(rows).to_csv(index=False, float_format="%.6g")


def write_files(directory: Path, info: dict) -> list[str]:
    """``balance.json`` and ``tables/balance_candidates.csv`` of ``info['balance']``
    into a report folder being built; returns their paths relative to it."""
    from analyzer.runs.runner import write_text_atomic

    b = info.get("balance")
    if not b:
        return []
    directory = Path(directory)
    rows = b.get("candidate_rows") or []
    data = {k: v for k, v in b.items() if k != "candidate_rows"}
    write_text_atomic(directory / "balance.json", json.dumps(data, indent=2) + "\n")
    (directory / "tables").mkdir(exist_ok=True)
    write_text_atomic(directory / CANDIDATES_FILE, candidates_csv(data, rows))
    return ["balance.json", CANDIDATES_FILE]


def run_balance(
    sc, seed: int, *, workers=None, progress=True, store=None, scale=1.0, on_evaluated=None
) -> dict:
    """The manifest's ``balance`` entry of a scenario (``analyzer run``, ``analyzer balance``)."""
    res = balance(
        sc,
        seed=seed,
        workers=workers,
        store=store,
        scale=scale,
        progress=progress,
        on_evaluated=on_evaluated,
    )
    return {**res.to_json(), "candidate_rows": _jsonable_rows(res.candidates)}


def _jsonable_rows(rows) -> list[dict]:
    return json.loads(json.dumps(list(rows), default=_plain))


def _plain(v):
    if isinstance(v, np.generic):
        return v.item()
    return str(v)


# --------------------------------------------------------------------------- the folder


def with_budget(sc, games: int | None):
    """The scenario with ``[balance] games`` replaced (``analyzer balance --games``)."""
    if games is None:
        return sc
    from analyzer.core.errors import bad_value
    from analyzer.runs.balance_file import MAX_BUDGET, MIN_BUDGET

    if sc.balance is None:
        raise InputError(f"{sc.path}: no [balance] table (allowed: a scenario with [balance])")
    if isinstance(games, bool) or not isinstance(games, int):
        raise bad_value("--games", games, f"an integer from {MIN_BUDGET} to {MAX_BUDGET:,}")
    if not MIN_BUDGET <= games <= MAX_BUDGET:
        raise bad_value("--games", games, f"an integer from {MIN_BUDGET} to {MAX_BUDGET:,}")
    return replace(sc, balance=replace(sc.balance, games=int(games), minutes=None))


def _fingerprint(sc, seed: int) -> dict:
    from analyzer._version import __version__

    game = sc.game_def
    return {
        "seed": int(seed),
        "balance": sc.balance.as_dict(),
        "overrides": dict(sc.overrides),
        "rules": dict(sc.rulings),
        "strategy_params": {k: dict(v) for k, v in sc.strategy_params.items()},
        "game": game.name,
        "versions": [__version__, game.rules_version, game.strategies_version],
    }


def stored_seed(target: Path) -> int | None:
    """The seed of the progress kept in a report folder (a resumed run without a seed)."""
    state = Path(target) / STORE_DIR / "state.json"
    if not state.is_file():
        return None
    try:
        return int(json.loads(state.read_text("utf-8"))["seed"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def run_in_folder(sc, seed: int, target: Path, *, workers=None, progress=True, resume=False,
                  on_evaluated=None) -> dict:  # fmt: skip
    """:func:`run_balance` keeping its progress in ``target/balance_progress`` (every
    played block): ``resume`` continues what is there (same scenario, seed and
    versions, else refused), otherwise it starts afresh."""
    import shutil

    from analyzer.runs.runner import write_text_atomic

    store = Path(target) / STORE_DIR
    mark = _fingerprint(sc, seed)
    state = store / "state.json"
    if resume and state.is_file():
        try:
            old = json.loads(state.read_text("utf-8"))
        except (OSError, ValueError):
            old = None
        if old != json.loads(json.dumps(mark)):
            raise InputError(
                f"--resume: {store} holds another balance question (a different scenario, seed "
                "or analyzer version; allowed: the same command, or run without --resume)"
            )
    elif store.exists():
        shutil.rmtree(store)
    store.mkdir(parents=True, exist_ok=True)
    write_text_atomic(state, json.dumps(mark, indent=1, default=str) + "\n")
    return run_balance(sc, seed, workers=workers, progress=progress, store=store,
                       on_evaluated=on_evaluated)  # fmt: skip
