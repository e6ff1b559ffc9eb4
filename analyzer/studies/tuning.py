"""Self-play tuning: search one strategy's parameters against a field of opponents.

:func:`tune` searches the parameters a game declares for a strategy
(:class:`analyzer.games.Strategy` ``params`` and ``bounds``), for any
registered game, at one player count:

- **Objective.** The mean win share of the tuned strategy's seat (1 for a win,
  1/k for a k-way shared win) against a field of opponents in every other seat
  (default: the game's yardstick, :attr:`analyzer.games.Game.yardstick`, such as
  its frozen ``baseline``, else its default strategy), with the line-up rotated
  so that the tuned seat plays every seat equally often (cyclic rotations,
  :mod:`analyzer.runs.scenario_file`).
- **Self-play.** The field may name the tuned strategy itself (``self``, or its
  name): those seats play its *shipped* row, so the search looks for the best
  reply to the current default (alone, ``--field self``, or mixed with other
  opponents, ``--field self,baseline,baseline``). Two rows of one strategy
  cannot share a name in a game, so those seats play under a *stand-in*: another
  strategy running the same code (:attr:`analyzer.games.Game.row_strategies`)
  given the shipped row in full. A game without such strategies refuses it.
- **Common random numbers.** Every candidate plays the same game indices of
  the same seed, so two candidates differ by their parameters, not by their
  luck; games are played by the one driver
  (:func:`analyzer.runs.driver.run_scenario`), so seeds and workers behave as in
  ``analyzer run``.
- **Optimiser: CMA-ES from** ``cma`` **(pycma)**, the reference implementation
  by the method's author, kept up to date, with numpy as its only dependency.
  CMA-ES suits this search: a handful of continuous, bounded parameters and a
  noisy objective without gradients; it ranks candidates only within a
  generation, and the candidates of a generation are played on the same seeds,
  so the noise it sees is the noise of differences under common random
  numbers, much smaller than that of two independent runs. (optuna's CMA-ES
  sampler wraps the same method behind a study database and a dozen
  dependencies; its TPE sampler is weaker on correlated continuous
  parameters.) The search runs in the unit cube (each parameter scaled by its
  bounds), starts at the strategy's shipped row (trial 1, the incumbent) with
  step 0.3, and draws its normal variates from a numpy Generator seeded by
  ``seed``, so a run is deterministic.
- **Luck-adjusted outcomes.** When the game's luck terms are on (``luck=True``,
  ``--luck``: a ``luck_win`` column, ``docs/statistics.md``; off by default)
  a game's
  outcome for the tuned seat is its adjusted win ``win - luck_win``: the same
  expectation, less variance, so candidates are ranked on less noise for the
  same games. The confirmation then gives normal intervals (adjusted shares
  leave [0, 1]) and the plain win shares beside them; without them (the
  default, ``--no-luck``) it compares plain wins.
- **Winner's curse.** The best of many noisy candidates is flattered by its
  own search games. The best row (and the shipped row, for a paired
  comparison) is therefore played again on fresh game indices, after those
  of the search, and that *confirmation* win share with its 95% Wilson
  interval is the number to quote; the search estimate is kept beside it.

The result is written as a TOML (or JSON) data file that records the command,
seed, games, field, bounds, the best row, the confirmation and the analyzer
version (:func:`write_result`, read back by :func:`read_result`).
"""

from __future__ import annotations

import datetime
import json
import math
import numbers
import shlex
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.core.errors import InputError, StalledGameError, bad_value

if TYPE_CHECKING:  # imported where used: bad input is answered before they load
    import numpy as np
    import pandas as pd

#: most candidate rows one search may play (more is a typo: it would never end)
MAX_TRIALS = 1_000_000
#: the step CMA-ES starts with, in the unit cube of the bounds
SIGMA0 = 0.3
#: win share taken off per unit of shortfall below a strategy's share floor
FLOOR_PENALTY = 10.0


@dataclass
class Trial:
    """One candidate row and its search result."""

    index: int
    params: dict[str, float]
    win_share: float
    games: int
    share: float | None = None  #: share of its points from the share floor's columns
    objective: float | None = None  #: win share less the floor's penalty (with a floor)


@dataclass
class TuneResult:
    """What :func:`tune` returns; :meth:`as_dict` is the data file."""

    settings: dict
    trials: list[Trial]
    best: Trial
    #: best and shipped row on fresh games: win shares, intervals, paired gain; when the
    #: shipped row is the best, ``runner_up``: the best other trial on the same games
    confirm: dict
    extra: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "tune": self.settings,
            "best": {
                "params": self.best.params,
                "row": {**self.settings["shipped"], **self.best.params},
                "trial": self.best.index,
                "search_win_share": self.best.win_share,
                "search_games": self.best.games,
            },
            "confirm": self.confirm,
            "recommend": recommend(self.settings, self.confirm, self.best.params),
            "trials": [
                {"trial": t.index, "win_share": t.win_share, "params": t.params}
                | ({"share": t.share, "objective": t.objective} if t.share is not None else {})
                for t in self.trials
            ],
        }


def recommend(settings: dict, confirm: dict, best_params: dict) -> dict:
    """Which row to ship after a search: the best row only if the fresh games
    show it better than the shipped row (the paired gain's 95% interval above
    0), else the shipped row. With a share floor, a row must also keep to it on
    the fresh games: a shipped row below the floor gives way to a best row at or
    above it, and when both are below it the one nearer to it ships. Without a
    confirmation, the shipped row."""
    shipped = dict(settings["shipped"])
    best = {**shipped, **best_params}
    if not confirm.get("games"):
        return {"which": "shipped", "row": shipped, "why": "no confirmation games"}
    better = confirm["gain_low"] > 0
    floor = settings.get("share_floor")
    if floor is None:
        if better:
            return {"which": "best", "row": best, "why": "better on fresh games"}
        return {"which": "shipped", "row": shipped, "why": "the search found no better row"}
    best_ok = confirm["share"] >= floor
    shipped_ok = confirm["shipped_share"] >= floor
    if best_ok and (better or not shipped_ok):
        why = "better on fresh games" if better else "the shipped row is below the share floor"
        return {"which": "best", "row": best, "why": why + ", and at or above the floor"}
    if shipped_ok:
        return {"which": "shipped", "row": shipped, "why": "the search found no better row"}
    # both below the floor: the one nearer to it
    if confirm["share"] >= confirm["shipped_share"]:
        return {"which": "best", "row": best, "why": "both rows are below the share floor"}
    return {"which": "shipped", "row": shipped, "why": "both rows are below the share floor"}


# --------------------------------------------------------------------------- inputs


def parse_bounds(items: Sequence[str] | dict | None) -> dict[str, tuple[float, float]]:
    """``NAME=LOW:HIGH`` strings (or a dict) as ``{name: (low, high)}``."""
    if not items:
        return {}
    if isinstance(items, dict):
        pairs = [(k, v) for k, v in items.items()]
    else:
        pairs = []
        for item in items:
            key, sep, text = item.partition("=")
            lo, colon, hi = text.partition(":")
            try:
                pairs.append((key.strip(), (float(lo), float(hi))))
                ok = bool(sep and colon and key.strip())
            except ValueError:
                ok = False
            if not ok:
                raise bad_value("--bound", item, "NAME=LOW:HIGH, e.g. w_ruin=0:4")
    out = {}
    for key, (lo, hi) in pairs:
        lo, hi = float(lo), float(hi)
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise bad_value(f"--bound {key}", f"{lo}:{hi}", "finite LOW < HIGH")
        out[key] = (lo, hi)
    return out


def _search_space(strat, params, bounds, players):
    """(names, defaults, lows, highs) of the searched parameters."""
    declared = strat.params_for(players)
    if not declared:
        raise InputError(f"--strategy: {strat.name!r} has no parameters to tune")
    if isinstance(params, str):
        params = [p.strip() for p in params.split(",") if p.strip()]
    shipped = {p: (lo, hi) for p, lo, hi in strat.bounds}
    tuned = tuple(p for p in declared if p in shipped) or tuple(declared)
    names = tuple(params) if params else tuned
    for p in names:
        if p not in declared:
            raise bad_value("--params", p, ", ".join(declared))
        if shipped and p not in shipped and p not in bounds:
            why = f"{p} has no declared range: name one with --bound {p}=LOW:HIGH"
            raise bad_value("--params", p, f"{', '.join(tuned)} ({why})")
    if len(set(names)) != len(names):
        raise bad_value("--params", ",".join(names), "each parameter once")
    for p in bounds:
        if p not in names:
            raise bad_value("--bound", p, f"a searched parameter: {', '.join(names)}")
    lows, highs = [], []
    for p in names:
        d = declared[p]
        lo, hi = bounds.get(p) or shipped.get(p) or (0.0, max(1.0, 2 * abs(d)))
        lows.append(lo)
        highs.append(hi)
    import numpy as np

    defaults = np.array([declared[p] for p in names], float)
    return names, defaults, np.array(lows), np.array(highs)


# --------------------------------------------------------------------------- the search


def _check_own_options(g, games, confirm_games, seed, workers, rulings, overrides) -> None:
    """Refuse what the driver would refuse later under its own names (``games`` of
    a trial, the run's ``seed``, ``workers``, a scenario's ``rules``), naming
    ``tune``'s options instead."""
    from analyzer.core.seeding import SEED_ALLOWED, seed_ok
    from analyzer.runs.options import GAMES_ALLOWED, MAX_GAMES, MAX_WORKERS

    if games > MAX_GAMES:
        raise bad_value("--games", games, GAMES_ALLOWED)
    if confirm_games > MAX_GAMES:
        raise bad_value("--confirm-games", confirm_games, f"0 (none) to {MAX_GAMES:,}")
    if seed is not None and not seed_ok(seed):
        raise bad_value("--seed", seed, SEED_ALLOWED)
    if workers is not None and (
        isinstance(workers, bool)
        or not isinstance(workers, numbers.Integral)
        or not 1 <= workers <= MAX_WORKERS
    ):
        raise bad_value("--workers", workers, f"an integer from 1 to {MAX_WORKERS:,}")
    rules = dict(rulings or {})
    if "edition" in rules:
        g.load_rules({"edition": rules["edition"]}, {}, "--edition")
    if rules:
        g.load_rules(rules, {}, "--rule")
    if overrides:
        g.load_rules(rules, dict(overrides), "overrides")


def tune(
    game: str = "unearth",
    players: int = 2,
    strategy: str | None = None,
    field_: Sequence[str] | str | None = None,
    *,
    params: Sequence[str] | str | None = None,
    bounds: dict | Sequence[str] | None = None,
    trials: int = 40,
    games: int = 400,
    confirm_games: int = 2000,
    seed: int | None = None,
    rulings: dict | None = None,
    overrides: dict | None = None,
    workers: int | None = 1,
    progress: Callable[[str], None] | None = None,
    command: Sequence[str] | None = None,
    luck: bool | None = None,
) -> TuneResult:
    """Search ``strategy``'s parameters (``params``: a subset; ``bounds``:
    ranges) for the highest win share against ``field_`` at ``players`` seats.

    ``trials`` candidates (the shipped row first) each play ``games`` games
    (rounded up to a multiple of the seat orders) on the same game indices;
    the best and the shipped row then play ``confirm_games`` fresh games.
    ``luck``: True plays the game's luck terms and compares luck-adjusted
    outcomes; None (default): the game's default (off in every game); False: off.
    Deterministic in its arguments (``seed`` None: fresh, recorded).
    """
    from analyzer._version import __version__
    from analyzer.core.seeding import resolve_seed
    from analyzer.games import load_game
    from analyzer.runs.scenario_file import parse_scenario

    g = load_game(game, where="--game")
    strategy = strategy or g.tune_strategy_name()
    by_name = {s.name: s for s in g.strategies}
    if strategy not in by_name:
        raise bad_value("--strategy", strategy, ", ".join(by_name))
    strat = by_name[strategy]
    if strat.frozen or strat.slow:
        tunable = ", ".join(s.name for s in g.strategies if not s.frozen and not s.slow)
        why = "frozen" if strat.frozen else "a search: too slow to tune"
        raise bad_value("--strategy", strategy, f"{tunable} ({strategy} is {why})")
    for key, v, low in (("--trials", trials, 1), ("--games", games, 1)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low:
            raise bad_value(key, v, "a positive integer")
    if trials > MAX_TRIALS:
        raise bad_value("--trials", trials, f"an integer from 1 to {MAX_TRIALS:,}")
    if isinstance(confirm_games, bool) or not isinstance(confirm_games, numbers.Integral):
        raise bad_value("--confirm-games", confirm_games, "a non-negative integer")
    if confirm_games < 0:
        raise bad_value("--confirm-games", confirm_games, "a non-negative integer")
    _check_own_options(g, games, confirm_games, seed, workers, rulings, overrides)
    if isinstance(players, bool) or not isinstance(players, numbers.Integral):
        raise bad_value("--players", players, f"an integer from {g.min_players} to {g.max_players}")
    players = int(players)
    if not 2 <= players <= g.max_players:
        raise bad_value("--players", players, f"an integer from 2 to {g.max_players}")
    names, defaults, lows, highs = _search_space(strat, params, parse_bounds(bounds), players)
    fld = _field(g, strategy, field_, players)
    fixed = strat.params_for(players)
    stand_in = _stand_in(g, strategy, fld)
    seed = resolve_seed(seed)
    lineup = [strategy, *(stand_in if s == strategy else s for s in fld)]
    base = {
        "game": g.name,
        "players": players,
        "games": int(games),
        "seed": seed,
        "lineup": lineup,
        "rotation": "cyclic",
        # luck on: the game's own default (off where the terms cost more than
        # they gain: plain wins then); off: never the terms
        "output": {"claims": False} if luck is None else {"claims": False, "luck": bool(luck)},
    }
    if rulings:
        base["rules"] = dict(rulings)
    if overrides:
        base["overrides"] = dict(overrides)
    # the self seats play the shipped row in full under the stand-in's name
    selfplay = {stand_in: dict(fixed)} if stand_in else {}
    if stand_in:
        base["strategy_params"] = {**selfplay, strategy: dict(fixed)}
    floor = strat.share_floor  # (score columns, least share of the points from them)
    parse_scenario(base, "tune", default_name="tune")  # every input checked before a game
    # checked: now the engine and the tables' libraries
    import numpy as np

    from analyzer.core.stats import mean_ci, wilson
    from analyzer.runs.driver import run_scenario

    adjusted = [False]  # the games have luck terms and luck is on
    plain: dict = {}  # the last play's plain wins (beside the adjusted ones)

    def play(row: dict, n_games: int, first_game: int) -> tuple[np.ndarray, float | None]:
        """The tuned seat's win share in each game (indexed by game; luck-adjusted
        when the games have luck terms and ``luck`` is on, the plain ones then in
        ``plain["w"]``), and with a share floor the share of its points from the
        floor's columns (else None); a row whose games never end (the engine's
        turn cap) loses them all."""
        rows = {**selfplay, strategy: {**fixed, **row}}
        raw = {**base, "games": int(n_games), "strategy_params": rows}
        sc = parse_scenario(raw, "tune", default_name="tune")
        try:
            run = run_scenario(
                sc, workers=workers, progress=False, exact=False, first_game=first_game
            )
        except StalledGameError:
            if progress:
                progress("tune: this row makes games that never end: scored as losing them all")
            from analyzer.runs.scenario_file import games_per_order, seat_orders

            lost = np.zeros(games_per_order(sc) * len(seat_orders(sc)))
            plain["w"] = lost
            return lost, 0.0 if floor else None
        t = run.games
        mine = t[t["strategy"].astype(str) == strategy].sort_values("game")
        share = None
        if floor:
            points = float(mine["score"].clip(lower=0).sum())
            share = float(mine[list(floor[0])].sum().sum()) / max(points, 1.0)
        w = mine["win"].to_numpy(np.float64)
        plain["w"] = w
        if luck is not False and "luck_win" in mine:  # adjusted (docs/statistics.md)
            adjusted[0] = True
            return w - mine["luck_win"].to_numpy(np.float64), share
        return w, share

    def objective(w: np.ndarray, share: float | None) -> float:
        """Win share, less ten times the shortfall below the share floor (if any):
        a row a point below the floor loses ten points of win share, so the
        search keeps to rows at or above it."""
        if not floor:
            return float(w.mean())
        return float(w.mean()) - FLOOR_PENALTY * max(0.0, floor[1] - share)

    def row_of(x: np.ndarray) -> dict[str, float]:
        vals = lows + np.clip(x[: len(names)], 0.0, 1.0) * (highs - lows)
        return {p: round(float(v), 6) for p, v in zip(names, vals, strict=True)}

    x0 = np.clip((defaults - lows) / (highs - lows), 0.0, 1.0)
    if len(x0) == 1:  # pycma does not support 1-D: search a second, ignored coordinate
        x0 = np.array([x0[0], 0.5])
    rng = np.random.default_rng([seed, 0xC3A])
    import cma  # (after the checks: it loads matplotlib, and bad input is answered first)

    es = cma.CMAEvolutionStrategy(
        x0,
        SIGMA0,
        {
            "bounds": [0.0, 1.0],
            "seed": np.nan,  # leave numpy's global generator alone
            "randn": lambda *shape: rng.standard_normal(shape),
            "verbose": -9,
        },
    )
    done: list[Trial] = []

    def evaluate(rows: list[dict]) -> list[float]:
        out = []
        for row in rows:
            w, share = play(row, games, 0)
            done.append(Trial(len(done) + 1, row, float(w.mean()), int(len(w))))
            if floor:
                done[-1].share = share
                done[-1].objective = objective(w, share)
            out.append(done[-1].objective if floor else done[-1].win_share)
            if progress:
                best = max(done, key=lambda t: t.objective if floor else t.win_share)
                share = (
                    f", {done[-1].share:.2f} of its points from {' + '.join(floor[0])}"
                    if floor
                    else ""
                )
                progress(
                    f"tune: trial {len(done)}/{trials}: win share {done[-1].win_share:.3f}{share} "
                    f"(best so far {best.win_share:.3f}, trial {best.index}) "
                    + " ".join(f"{k}={v:.3g}" for k, v in row.items())
                )
        return out

    evaluate([dict(zip(names, map(float, defaults), strict=True))])  # the shipped row
    while len(done) < trials:
        xs = es.ask()
        left = trials - len(done)
        shares = evaluate([row_of(x) for x in xs[:left]])
        if len(shares) < len(xs):
            break  # budget spent mid-generation: nothing left to learn from
        es.tell(xs, [-s for s in shares])
    best = max(done, key=lambda t: (t.objective if floor else t.win_share, -t.index))
    search_games = done[0].games

    confirm: dict = {"games": int(confirm_games)}
    if confirm_games > 0:
        first = _first_fresh_game(games, players, lineup)
        if progress:
            progress(f"tune: confirming the best row (trial {best.index}) on fresh games")
        w_best, best_share = play(best.params, confirm_games, first)
        p_best = plain["w"]
        if best is done[0]:  # the shipped row won its own search: its games are these
            w_ship, ship_share, p_ship = w_best, best_share, p_best
        else:
            w_ship, ship_share = play(done[0].params, confirm_games, first)
            p_ship = plain["w"]
        if adjusted[0]:  # adjusted shares leave [0, 1]: normal intervals
            _, lo, hi = mean_ci(w_best)
            _, slo, shi = mean_ci(w_ship)
        else:
            lo, hi = wilson(w_best.sum(), len(w_best))
            slo, shi = wilson(w_ship.sum(), len(w_ship))
        gain, glo, ghi = mean_ci(w_best - w_ship)
        confirm.update(
            {
                "first_game": int(first),
                "games": int(len(w_best)),
                "win_share": float(w_best.mean()),
                "low": float(lo),
                "high": float(hi),
                "shipped_win_share": float(w_ship.mean()),
                "shipped_low": float(slo),
                "shipped_high": float(shi),
                "gain": float(gain),
                "gain_low": float(glo),
                "gain_high": float(ghi),
            }
        )
        if adjusted[0]:  # the plain figures of the same games beside the adjusted ones
            pg, pglo, pghi = mean_ci(p_best - p_ship)
            confirm.update(
                {
                    "plain_win_share": float(p_best.mean()),
                    "plain_shipped_win_share": float(p_ship.mean()),
                    "plain_gain": float(pg),
                    "plain_gain_low": float(pglo),
                    "plain_gain_high": float(pghi),
                }
            )
        if floor:
            confirm["share"] = best_share
            confirm["shipped_share"] = ship_share
        runner = _runner_up(done, best, floor)
        if runner is not None:  # how close the best challenger came, on the same games
            if progress:
                progress(
                    f"tune: the shipped row won; confirming the runner-up (trial {runner.index})"
                )
            w_run, run_share = play(runner.params, confirm_games, first)
            if adjusted[0]:
                _, rlo, rhi = mean_ci(w_run)
            else:
                rlo, rhi = wilson(w_run.sum(), len(w_run))
            rgain, rglo, rghi = mean_ci(w_run - w_ship)
            confirm["runner_up"] = {
                "trial": runner.index,
                "params": dict(runner.params),
                "search_win_share": runner.win_share,
                "search_gap": runner.win_share - done[0].win_share,
                "win_share": float(w_run.mean()),
                "low": float(rlo),
                "high": float(rhi),
                "gain": float(rgain),
                "gain_low": float(rglo),
                "gain_high": float(rghi),
                **({"share": run_share} if floor else {}),
            }
    settings = {
        "command": " ".join(shlex.quote(a) for a in (command or sys.argv)),
        "analyzer_version": __version__,
        "game": g.name,
        "rules_version": g.rules_version,
        "strategies_version": g.strategies_version,
        "rules": dict(rulings or {}),
        "overrides": dict(overrides or {}),
        "players": players,
        "strategy": strategy,
        "field": list(fld),
        "rotation": "cyclic: the tuned seat plays every seat equally often",
        "seed": int(seed),
        "trials": len(done),
        "games_per_trial": int(search_games),
        "params": list(names),
        "bounds": {p: [float(lo), float(hi)] for p, lo, hi in zip(names, lows, highs, strict=True)},
        "shipped": dict(fixed),
        "fair_share": 1.0 / players,
        **({"share_columns": list(floor[0]), "share_floor": float(floor[1])} if floor else {}),
        **(
            {"self_play": {"stand_in": stand_in, "row": dict(fixed), "seats": fld.count(strategy)}}
            if stand_in
            else {}
        ),
        "optimiser": f"CMA-ES, cma {cma.__version__} (sigma0 {SIGMA0} in the unit cube)",
        "objective": "mean win share of the tuned strategy's seat, seats rotated"
        + (
            f", less {FLOOR_PENALTY:g} times the shortfall below {floor[1]:.3g} of its points from "
            f"{' + '.join(floor[0])}"
            if floor
            else ""
        )
        + (
            f"; the field's {strategy} seats play its shipped row (as {stand_in}, same code)"
            if stand_in
            else ""
        ),
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    if adjusted[0]:  # old results and --no-luck keep the keys they had
        settings["objective"] = "luck-adjusted (win - luck_win) " + settings["objective"]
        settings["luck_adjusted"] = True
    return TuneResult(settings=settings, trials=done, best=best, confirm=confirm)


def _runner_up(done: list[Trial], best: Trial, floor) -> Trial | None:
    """The best trial other than the shipped row (trial 1) when the shipped row
    won its own search (``best``), else None: the challenger whose confirmation
    says how close the search came to beating the shipped row."""
    if best is not done[0] or len(done) < 2:
        return None
    return max(done[1:], key=lambda t: (t.objective if floor else t.win_share, -t.index))


def _field(g, strategy: str, field_, players: int) -> tuple[str, ...]:
    names = g.strategy_names()
    mates = [s for s in g.row_strategies if s != strategy]
    can_self = strategy in g.row_strategies and bool(mates)
    if field_ is None or field_ == "" or field_ == ():
        default = g.yardstick_name()
        if default == strategy:
            raise InputError(
                f"--field: the default opponent {default!r} is the tuned strategy "
                "(its seats would change too); name another strategy"
            )
        field_ = [default]
    if isinstance(field_, str):
        field_ = [s.strip() for s in field_.split(",") if s.strip()]
    field_ = [strategy if s == "self" else s for s in field_]
    for s in field_:
        if s not in names:
            allowed = ", ".join(names) + (", self (the shipped row)" if can_self else "")
            raise bad_value("--field", s, allowed)
        if s == strategy and not can_self:
            why = (
                f"{g.name} names no strategy that plays {strategy}'s code under another name"
                if g.row_strategies == () or strategy not in g.row_strategies
                else "no other strategy plays its code"
            )
            raise bad_value(
                "--field",
                s,
                f"strategies other than the tuned {strategy} (self-play needs a stand-in: {why})",
            )
    if len(field_) == 1:
        field_ = field_ * (players - 1)
    if len(field_) != players - 1:
        raise bad_value(
            "--field", ",".join(field_), f"one strategy, or {players - 1} (one per other seat)"
        )
    return tuple(field_)


def _stand_in(g, strategy: str, fld: Sequence[str]) -> str | None:
    """The strategy whose name the field's self seats play under: the first of the
    game's :attr:`row_strategies` (same code) that is neither tuned nor in the
    field; None when the field has no self seat."""
    if strategy not in fld:
        return None
    free = [s for s in g.row_strategies if s != strategy and s not in fld]
    if not free:
        taken = ", ".join(s for s in g.row_strategies if s != strategy)
        raise bad_value(
            "--field",
            ",".join(fld),
            f"a field leaving one of {taken} free (the self seats play {strategy}'s row under it)",
        )
    return free[0]


def _first_fresh_game(games: int, players: int, lineup) -> int:
    """The first game index after every index the search played (all seat orders)."""
    orders = len({tuple(lineup[i:] + lineup[:i]) for i in range(players)})
    return math.ceil(games / orders) * orders


# --------------------------------------------------------------------------- the data file


def write_result(result: TuneResult, path) -> Path:
    """Write the result as TOML (``.toml``) or JSON (``.json``) atomically."""
    from analyzer.runs.runner import write_text_atomic

    path = Path(path)
    if path.suffix not in (".toml", ".json"):
        raise bad_value("--out", str(path), "a file ending in .toml or .json")
    if not path.parent.is_dir():
        raise bad_value("--out", str(path), "a file in an existing folder")
    write_text_atomic(path, result_text(result.as_dict(), path.suffix))
    return path


def result_text(doc: dict, suffix: str = ".toml") -> str:
    """The text of a result file (``doc`` as :meth:`TuneResult.as_dict` gives it):
    JSON for ``.json``, else TOML."""
    if suffix == ".json":
        return json.dumps(doc, indent=2) + "\n"
    return (
        "# written by analyzer tune: the best row of a parameter search and its\n"
        "# confirmation on fresh games; [tune] says how it was made\n\n" + to_toml(doc)
    )


def read_result(path) -> dict:
    """A data file written by :func:`write_result`, as a dict."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise InputError(f"{path}: cannot read ({err.strerror})") from None
    try:
        doc = json.loads(raw) if path.suffix == ".json" else tomllib.loads(raw.decode())
    except (ValueError, tomllib.TOMLDecodeError) as err:
        raise InputError(f"{path}: not a tune result ({err})") from None
    if not isinstance(doc, dict) or "best" not in doc or "tune" not in doc:
        raise InputError(f"{path}: not a tune result (missing [tune] or [best])")
    return doc


def to_toml(doc: dict) -> str:
    """A small TOML writer for the result's shapes: tables of scalars, lists and
    nested tables, and arrays of tables."""
    lines: list[str] = []

    def scalar(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, numbers.Integral):
            return str(int(v))
        if isinstance(v, numbers.Real):
            v = float(v)
            if math.isnan(v):
                return "nan"
            if math.isinf(v):
                return "inf" if v > 0 else "-inf"
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=False)
        if isinstance(v, list | tuple):
            return "[" + ", ".join(scalar(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{_key(k)} = {scalar(x)}" for k, x in v.items()) + " }"
        raise TypeError(type(v).__name__)

    def table(prefix: str, t: dict, header: str) -> None:
        inline = header.startswith("[[")  # an array's tables hold nested tables inline
        plain = {
            k: v for k, v in t.items() if inline or (not isinstance(v, dict) and not _tables(v))
        }
        lines.append(header)
        lines.extend(f"{_key(k)} = {scalar(v)}" for k, v in plain.items())
        lines.append("")
        for k, v in t.items():
            if inline:
                break
            name = f"{prefix}.{_key(k)}" if prefix else _key(k)
            if isinstance(v, dict):
                table(name, v, f"[{name}]")
            elif _tables(v):
                for item in v:
                    table(name, item, f"[[{name}]]")

    for k, v in doc.items():
        if isinstance(v, dict):
            table(_key(k), v, f"[{_key(k)}]")
        elif _tables(v):
            for item in v:
                table(_key(k), item, f"[[{_key(k)}]]")
        else:
            lines.insert(0, f"{_key(k)} = {scalar(v)}")
    return "\n".join(lines).rstrip() + "\n"


def _tables(v) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def _key(k: str) -> str:
    k = str(k)
    return k if k.replace("_", "").replace("-", "").isalnum() else json.dumps(k)


def format_result(result: TuneResult) -> str:
    """The best row, its search and confirmation win shares, in words."""
    s = result.settings
    c = result.confirm
    b = result.best
    fair = s["fair_share"]
    lines = [
        f"Tuned {s['strategy']} at {s['players']} players against "
        f"{', '.join(seat_names(s))} (seats rotated; fair share {fair:.3f}); "
        f"{s['trials']} trials x {s['games_per_trial']:,} games on the same seeds, "
        f"seed {s['seed']}; rules {s['rules_version']}, "
        f"strategies {s.get('strategies_version', '?')}; {s['optimiser']}",
        f"best row (trial {b.index}): " + ", ".join(f"{k} = {v:.4g}" for k, v in b.params.items()),
        f"  search win share {b.win_share:.3f} over {b.games:,} games (the best of "
        f"{s['trials']}: flattered by its own games)",
    ]
    if c.get("games"):
        lines += [
            f"  confirmation on {c['games']:,} fresh games (from game {c['first_game']}): "
            f"win share {c['win_share']:.3f} (95% CI {c['low']:.3f} to {c['high']:.3f})",
            f"  shipped row on the same games: {c['shipped_win_share']:.3f} "
            f"(95% CI {c['shipped_low']:.3f} to {c['shipped_high']:.3f}); paired gain "
            f"{c['gain']:+.3f} (95% CI {c['gain_low']:+.3f} to {c['gain_high']:+.3f})",
        ]
        if "plain_gain" in c:
            plain_w = c["plain_gain_high"] - c["plain_gain_low"]
            ratio = (c["gain_high"] - c["gain_low"]) / plain_w if plain_w > 0 else math.nan
            lines.append(
                f"  (luck-adjusted wins; plain: {c['plain_win_share']:.3f} against "
                f"{c['plain_shipped_win_share']:.3f}, paired gain {c['plain_gain']:+.3f} "
                f"(95% CI {c['plain_gain_low']:+.3f} to {c['plain_gain_high']:+.3f}); "
                f"the adjusted interval is {ratio:.2f}x as wide)"
            )
        verdict = (
            "better than the shipped row"
            if c["gain_low"] > 0
            else "not shown better than the shipped row by these games"
        )
        lines.append(f"  the best row is {verdict}.")
        r = c.get("runner_up")
        if r:
            lines += [
                f"  the shipped row won its own search; the runner-up (trial {r['trial']}: "
                + ", ".join(f"{k} = {v:.4g}" for k, v in r["params"].items())
                + f") scored {r['search_win_share']:.3f} in the search "
                f"({r['search_gap']:+.3f} against the shipped row's games)",
                f"  runner-up on the same fresh games: win share {r['win_share']:.3f} "
                f"(95% CI {r['low']:.3f} to {r['high']:.3f}); paired gain over the shipped row "
                f"{r['gain']:+.3f} (95% CI {r['gain_low']:+.3f} to {r['gain_high']:+.3f}): "
                + (
                    "it beats the shipped row on fresh games: tune again with more games."
                    if r["gain_low"] > 0
                    else f"no row of this search beat the shipped one by more than "
                    f"{max(r['gain_high'], 0.0) * 100:.1f} win points (the interval's top)."
                ),
            ]
        rec = recommend(s, c, b.params)
        lines.append(f"  recommendation: ship the {rec['which']} row ({rec['why']}).")
        if c.get("share") is not None:
            cols = " + ".join(s.get("share_columns", []))
            lines.append(
                f"  share of its points from {cols}: {c['share']:.3f} "
                f"(shipped row {c['shipped_share']:.3f}; the floor is {s['share_floor']:.3f})"
            )
    return "\n".join(lines)


def seat_names(s: dict) -> list[str]:
    """The field's names, a self seat marked as the tuned strategy's shipped row."""
    own = s["strategy"] if "self_play" in s else None
    return [f"{n} (its shipped row)" if n == own else n for n in s["field"]]


def trials_frame(result: TuneResult) -> pd.DataFrame:
    """One row per trial: index, win share and the parameters."""
    import pandas as pd

    return pd.DataFrame(
        [
            {"trial": t.index, "win_share": t.win_share}
            | ({"share": t.share, "objective": t.objective} if t.share is not None else {})
            | t.params
            for t in result.trials
        ]
    )
