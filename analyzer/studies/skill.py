"""The skill gradient: how much a stronger player gains, rung by rung.

Every game has a strength ladder (:func:`strength_ladder`): ``random`` (legal
moves at random) < the yardstick (``baseline``, the frozen player ratings are
measured against) < the game's default (the tuned player) < ``search`` (the
default with rollouts; slow). A game may declare its own with a
``strength_ladder`` attribute; the machinery needs nothing else.

:func:`skill_gradient` plays each pair of adjacent rungs as the ladder plays a
line-up: one seat of the stronger rung against a field of the weaker in every
other seat, that seat in each position in turn, every line-up on the same game
indices of the same seed (common random numbers: the same deals). For each
step it gives

- the stronger rung's **win share** per seat-game with its 95% Wilson interval
  (a shared win counts as its share), against a fair share of ``1/players``;
- a **verdict**: *skill matters* at a step when its whole 95% interval lies at
  least :data:`CLEAR_EDGE` (10 points) above the fair share (60% at 2 players:
  the better player wins three games in five, an edge a player notices within
  an evening; a smaller one takes a statistician to see), *luck decides* when
  the whole interval lies below that, *not settled* otherwise;
- the **share of the outcome's variance that chance alone explains**: with the
  game's luck terms (a ``luck_win`` column, ``docs/statistics.md``) the variance
  they remove, ``1 - Var(win - luck_win) / Var(win)`` over every seat-game;
  otherwise (and always, beside it) the share the **deal** explains: the same
  deals replayed with the seats' players swapped, ``Cov(x_k, x_l) / Var(x)``
  for the first seat's outcome ``x_k`` in line-ups *k* ≠ *l* of one game index
  (a deal that decides the game alone gives 1, players that decide it whatever
  the deal give 0; chance that the players' different choices draw afresh is
  not counted, so it is a lower bound). Both with 95% percentile intervals from
  a bootstrap over game indices.

``search`` is slow (about a second a game at its shipped budget): its step
plays ``search_games`` games per line-up (a few dozen), with the scenario's
``strategy_params.search`` (a smaller budget) when given; both are stated.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

#: a step "matters" when its interval lies this far above the fair share (a share)
CLEAR_EDGE = 0.10
#: bootstrap replicates of the chance shares' intervals
BOOTSTRAP = 400


@dataclass
class SkillGradient:
    """What :func:`skill_gradient` returns."""

    table: pd.DataFrame  #: one row per step (``tables/skill_gradient.csv``)
    info: dict  #: settings: game, players, rungs, games, seed, method

    def as_dict(self) -> dict:
        return {**self.info, "steps": _records(self.table)}


def _records(df: pd.DataFrame) -> list[dict]:
    out = []
    for row in df.to_dict(orient="records"):
        clean = {}
        for k, v in row.items():
            if isinstance(v, np.integer):
                v = int(v)
            elif isinstance(v, np.floating | float):
                v = float(v) if math.isfinite(float(v)) else None
            clean[k] = v
        out.append(clean)
    return out


def strength_ladder(game) -> tuple[str, ...]:
    """The game's rungs, weakest first: its own ``strength_ladder`` if it declares one,
    else ``random`` < yardstick < default < ``search``, those it has, each once."""
    own = getattr(game, "strength_ladder", None)
    if own:
        return tuple(own)
    names = set(game.strategy_names())
    rungs = ["random", game.yardstick_name(), game.default_strategy, "search"]
    return tuple(dict.fromkeys(r for r in rungs if r in names))


def play_lineups(
    base: dict, lineups: Sequence[tuple[str, ...]], *, workers=None
) -> list[pd.DataFrame]:
    """Each line-up played through the one driver on the same game indices of
    ``base``'s seed (``base``: a scenario dict without ``strategies``); the games
    tables sorted by game and seat."""
    from analyzer.runs.driver import run_scenario
    from analyzer.runs.scenario_file import parse_scenario

    out = []
    for up in lineups:
        sc = parse_scenario({**base, "strategies": list(up)}, "landscape", default_name="skill")
        run = run_scenario(sc, workers=workers, progress=False, exact=False)
        out.append(run.games.sort_values(["game", "seat"]).reset_index(drop=True))
    return out


def step_lineups(weak: str, strong: str, players: int) -> list[tuple[str, ...]]:
    """One seat of ``strong`` against ``weak`` in every other seat, in each seat in turn."""
    ups = []
    for k in range(players):
        seats = [weak] * players
        seats[k] = strong
        ups.append(tuple(seats))
    return ups


def chance_shares(tables: list[pd.DataFrame], players: int, bootstrap: int, rng) -> dict:
    """The variance shares of one step's line-ups (see the module's docstring):
    ``deal``, ``skill`` (between line-ups: who sits first) and, with luck terms,
    ``luck``; each ``(estimate, low, high)``."""
    games = len(tables[0]) // players
    first = np.stack([t["win"].to_numpy(float)[::players] for t in tables])  # [K, G]
    has_luck = all("luck_win" in t for t in tables)
    if has_luck:
        win = np.stack([t["win"].to_numpy(float).reshape(games, players) for t in tables])
        luck = np.stack([t["luck_win"].to_numpy(float).reshape(games, players) for t in tables])

    def shares(w: np.ndarray) -> tuple[float, float, float]:
        total = w.sum()
        x = first  # [K, G]
        mean_k = (x @ w) / total
        pooled = float(((x - mean_k.mean()) ** 2 @ w).sum() / (total * len(x)))
        dev = x - mean_k[:, None]
        k = len(x)
        cov = 0.0
        for a in range(k):
            for b in range(a + 1, k):
                cov += float((dev[a] * dev[b]) @ w) / total
        cov /= k * (k - 1) / 2
        deal = cov / pooled if pooled > 0 else math.nan
        skill = float(mean_k.var()) / pooled if pooled > 0 else math.nan
        lk = math.nan
        if has_luck:
            ww = np.repeat(w, players)
            flat_w = win.reshape(len(tables), -1)
            flat_l = luck.reshape(len(tables), -1)
            var_w = _wvar(flat_w, ww)
            var_a = _wvar(flat_w - flat_l, ww)
            lk = 1 - var_a / var_w if var_w > 0 else math.nan
        return deal, skill, lk

    est = shares(np.ones(games))
    boot = np.array(
        [
            shares(np.bincount(rng.integers(0, games, games), minlength=games).astype(float))
            for _ in range(bootstrap)
        ]
    ).reshape(-1, 3)
    lo = hi = np.full(3, np.nan)
    if bootstrap:
        with warnings.catch_warnings():  # a column of NaN (no luck terms) stays NaN
            warnings.simplefilter("ignore", RuntimeWarning)
            lo, hi = np.nanpercentile(boot, [2.5, 97.5], axis=0)
    out = {
        "deal": (est[0], lo[0], hi[0]),
        "skill": (est[1], lo[1], hi[1]),
    }
    if has_luck:
        out["luck"] = (est[2], lo[2], hi[2])
    return out


def _wvar(x: np.ndarray, w: np.ndarray) -> float:
    """Weighted variance of every entry of ``x`` [K, N] (weights ``w`` [N] per column)."""
    total = w.sum() * len(x)
    m = float((x @ w).sum() / total)
    return float((((x - m) ** 2) @ w).sum() / total)


def verdict(low: float, high: float, fair: float, edge: float = CLEAR_EDGE) -> str:
    """``skill matters``, ``luck decides`` or ``not settled`` (see :data:`CLEAR_EDGE`)."""
    if low >= fair + edge:
        return "skill matters"
    if high < fair + edge:
        return "luck decides"
    return "not settled"


def skill_gradient(
    game: str,
    players: int = 2,
    games: int = 500,
    seed: int = 0,
    *,
    search_games: int = 24,
    rungs: Sequence[str] | None = None,
    rulings: dict | None = None,
    overrides: dict | None = None,
    strategy_params: dict | None = None,
    workers: int | None = 1,
    bootstrap: int = BOOTSTRAP,
    progress: Callable[[str], None] | None = None,
) -> SkillGradient:
    """Play every step of the game's strength ladder (see the module's docstring)."""
    import time

    from analyzer.core.errors import bad_value
    from analyzer.core.stats import wilson
    from analyzer.games import load_game

    g = load_game(game, where="game")
    rungs = tuple(rungs) if rungs else strength_ladder(g)
    for r in rungs:
        if r not in g.strategy_names():
            raise bad_value("rungs", r, ", ".join(g.strategy_names()))
    slow = {s.name for s in g.strategies if s.slow}
    base = {"game": g.name, "players": int(players), "seed": int(seed)}
    if rulings:
        base["rules"] = dict(rulings)
    if overrides:
        base["overrides"] = dict(overrides)
    if strategy_params:
        base["strategy_params"] = {k: dict(v) for k, v in strategy_params.items()}
    base["output"] = {"claims": False}
    fair = 1.0 / players
    rng = np.random.default_rng([int(seed), 0x5C1])
    rows = []
    for weak, strong in zip(rungs[:-1], rungs[1:], strict=True):
        n = int(search_games) if {weak, strong} & slow else int(games)
        t0 = time.perf_counter()
        ups = step_lineups(weak, strong, players)
        tables = play_lineups({**base, "games": n}, ups, workers=workers)
        wins = np.concatenate([t["win"].to_numpy(float)[k::players] for k, t in enumerate(tables)])
        total, seat_games = float(wins.sum()), len(wins)
        lo, hi = (float(v) for v in wilson(total, seat_games))
        share = total / seat_games
        ch = chance_shares(tables, players, bootstrap, rng)
        luck = ch.get("luck")
        chance, method = (luck, "luck terms") if luck else (ch["deal"], "same deals, seats swapped")
        rows.append(
            {
                "game": g.name,
                "players": int(players),
                "weaker": weak,
                "stronger": strong,
                "field": f"one {strong} seat against {players - 1} {weak}",
                "games": n,
                "seat_games": seat_games,
                "win_share": share,
                "low": lo,
                "high": hi,
                "fair": fair,
                "edge": share - fair,
                "verdict": verdict(lo, hi, fair),
                "chance_share": chance[0],
                "chance_low": chance[1],
                "chance_high": chance[2],
                "chance_method": method,
                "deal_share": ch["deal"][0],
                "deal_low": ch["deal"][1],
                "deal_high": ch["deal"][2],
                "skill_share": ch["skill"][0],
                "skill_low": ch["skill"][1],
                "skill_high": ch["skill"][2],
                "luck_share": luck[0] if luck else math.nan,
                "luck_low": luck[1] if luck else math.nan,
                "luck_high": luck[2] if luck else math.nan,
                "seconds": round(time.perf_counter() - t0, 3),
            }
        )
        if progress:
            progress(
                f"skill: {strong} against {weak}: {share:.3f} [{lo:.3f}, {hi:.3f}] over "
                f"{seat_games:,} seat-games, {rows[-1]['seconds']:.1f} s"
            )
    search_row = None
    if "search" in rungs:
        row = dict(g.strategies[g.strategy_names().index("search")].params_for(players))
        row.update((strategy_params or {}).get("search", {}))
        search_row = {k: row[k] for k in ("budget",) if k in row} or row
    info = {
        "game": g.name,
        "players": int(players),
        "rungs": list(rungs),
        "games_per_lineup": int(games),
        "search_games_per_lineup": int(search_games),
        "search_params": search_row,
        "seed": int(seed),
        "clear_edge": CLEAR_EDGE,
        "bootstrap": int(bootstrap),
        "method": (
            "adjacent rungs, one seat of the stronger against a field of the weaker, seats "
            "rotated, the same game indices (deals) for every line-up; Wilson 95% intervals "
            f"on win shares; skill matters where the interval lies {100 * CLEAR_EDGE:.0f} "
            "points or more above the fair share; chance's share of the outcome variance by "
            "the luck terms where the game has them, else the same deals with the seats' "
            f"players swapped; {bootstrap} bootstrap resamples of games"
        ),
    }
    return SkillGradient(table=pd.DataFrame(rows), info=info)


# --------------------------------------------------------------------------- words

#: the words live with the questions (the tables layer); still importable from here
from analyzer.tables.landscape import skill_sentences, step_text  # noqa: E402,F401


def report_table(doc: dict) -> pd.DataFrame:
    """``tables/skill_gradient.csv``: one row per step."""
    return pd.DataFrame(doc.get("steps") or [])
