"""Ratings of strategies: a seat-rotated round robin, Bradley–Terry fit, Elo scale.

:func:`ladder` plays every pairing of the given strategies through the one
driver (:func:`analyzer.runs.driver.run_scenario`), for any registered game:

- **Pairings.** For each ordered pair (A, B) of distinct strategies, A plays
  one seat against B in every other seat ("A against a field of B"), with A in
  each seat in turn. At 2 players that is every ordered pair with the seats
  swapped; line-ups that coincide (A–B with A first is B–A with B second) are
  played once.
- **Common random numbers.** Every line-up plays the same game indices of the
  same seed, so all pairings meet the same deals (dice, decks) game by game.
- **Model.** Generalised Bradley–Terry (Luce's choice model): in a game whose
  seats hold ``m_i`` seats of strategy *i*, a seat of strategy *i* wins with
  probability ``π_i / Σ_k m_k π_k``; a shared win counts as its share. At 2
  players this is the Bradley–Terry model, ``P(A beats B) = π_A / (π_A + π_B)``.
  Fitted by maximum likelihood with Hunter's MM algorithm (Hunter 2004, "MM
  algorithms for generalized Bradley–Terry models", Ann. Statist. 32; the Luce
  case of section 5), a fixed point that increases the likelihood at every
  step: a few lines of numpy, no solver to tune. A weak prior (``prior``
  virtual drawn games between every pair of strategies) keeps a strategy that
  never wins (``random``) finite.
- **Elo scale.** ``elo_i = 400 log10 π_i``, shifted so that the anchor
  strategy (the game's yardstick, such as ``baseline``, when it plays, else the
  first) is 0. At 2 players a
  difference *d* means ``P(win) = 1 / (1 + 10^(-d/400))``; with more players
  it is the same odds ratio against one seat of the field. Ratings of
  different player counts are different scales.
- **Intervals.** 95% percentile intervals from a bootstrap over game indices:
  each replicate draws game indices with replacement and keeps every line-up's
  games of a drawn index together (common random numbers stay paired), then
  refits. The head-to-head matrix (A's mean win share against a field of B,
  over all seats and games) has Wilson intervals.
- **Luck-adjusted outcomes.** When the game's luck terms are on (``luck=True``,
  ``--luck``: a ``luck_win`` column, ``docs/statistics.md``; off by default)
  each seat's
  outcome is its adjusted win ``win - luck_win``: the same expectation, less
  variance, so the same games rate the strategies more precisely. Adjusted
  wins leave [0, 1] (a game's still sum to 1): the MM fixed point solves the
  same moment equations (each strategy's expected wins equal its observed
  adjusted wins; a total at or below 0 is floored at a tiny positive share),
  and the head-to-head shares get normal intervals. Without them (the default,
  ``--no-luck``) the ladder rates plain outcomes.
"""

from __future__ import annotations

import math
import numbers
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from analyzer.core.errors import InputError, bad_value

if TYPE_CHECKING:  # imported where used: bad input is answered before they load
    import numpy as np
    import pandas as pd

#: most bootstrap replicates (each refits the ratings; more is a typo)
MAX_BOOTSTRAP = 1_000_000
#: default number of bootstrap replicates
BOOTSTRAP = 1000


@dataclass
class Ladder:
    """What :func:`ladder` returns."""

    ratings: pd.DataFrame  #: strategy, elo, low, high, win_share, seat_games (best first)
    matrix: pd.DataFrame  #: long form: strategy, opponent, games, win_share, low, high
    info: dict  #: settings: game, players, strategies, games, seed, anchor, method, ...
    lineups: list[tuple[str, ...]] = field(default_factory=list)
    wins: list[np.ndarray] = field(default_factory=list)  #: per line-up float[G, players]

    def wide_matrix(self) -> pd.DataFrame:
        """The head-to-head win shares as a square table (row: the strategy, column: the field)."""
        names = list(self.info["strategies"])
        wide = self.matrix.pivot(index="strategy", columns="opponent", values="win_share")
        return wide.reindex(index=names, columns=names)


# --------------------------------------------------------------------------- pairings


def lineups(strategies: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every line-up of the round robin, in a fixed order, duplicates removed."""
    out = []
    for a in strategies:
        for b in strategies:
            if a == b:
                continue
            for k in range(players):
                seats = [b] * players
                seats[k] = a
                out.append(tuple(seats))
    return list(dict.fromkeys(out))


def check_strategies(game, strategies: Sequence[str] | str | None, where="--strategies"):
    """The strategies to rate: the game's (default: all of them but the slow
    ones, see :class:`analyzer.games.Strategy`), at least two, no repeats."""
    names = game.strategy_names()
    if strategies is None or strategies == "" or strategies == ():
        slow = {s.name for s in game.strategies if s.slow}
        strategies = [n for n in names if n not in slow]
    if isinstance(strategies, str):
        strategies = [s.strip() for s in strategies.split(",") if s.strip()]
    strategies = tuple(strategies)
    for s in strategies:
        if s not in names:
            raise bad_value(where, s, ", ".join(names))
    if len(set(strategies)) != len(strategies):
        raise bad_value(where, ",".join(strategies), "each strategy once")
    if len(strategies) < 2:
        raise bad_value(where, ",".join(strategies), "at least two strategies")
    return strategies


# --------------------------------------------------------------------------- fitting


def fit_bradley_terry(
    counts: np.ndarray,
    wins: np.ndarray,
    prior: float = 1.0,
    tol: float = 1e-9,
    max_iter: int = 20_000,
) -> np.ndarray:
    """Strengths ``π`` (float64[S], geometric mean 1) maximising the Luce-choice
    likelihood by Hunter's MM iteration.

    ``counts`` float[C, S]: seats of each strategy in line-up ``c``; ``wins``
    float[C, S]: win shares summed over that line-up's games (a strategy's seats
    together; a line-up's row sums to its games when every game has a winner).
    ``prior``: virtual
    2-player games between every pair of strategies, drawn (half a win each), so
    that a strategy that never wins keeps a finite rating (0: none). No random
    numbers. Luck-adjusted win shares (outside [0, 1]) are accepted: a strategy
    whose total, prior included, is not positive is floored at a tiny share.
    """
    import numpy as np

    counts = np.asarray(counts, float)
    wins = np.asarray(wins, float)
    n_strat = counts.shape[1]
    if prior > 0:
        i, j = np.triu_indices(n_strat, 1)
        virtual = np.zeros((len(i), n_strat))
        virtual[np.arange(len(i)), i] = 1.0
        virtual[np.arange(len(i)), j] = 1.0
        counts = np.vstack([counts, virtual])
        wins = np.vstack([wins, virtual * (prior / 2)])
    games = wins.sum(axis=1)  # outcomes per line-up (the likelihood's denominators)
    total_wins = wins.sum(axis=0)
    if (total_wins <= 0).any():  # adjusted wins: moment equations need positive totals
        total_wins = np.maximum(total_wins, 1e-9 * max(float(games.sum()), 1.0))
    pi = np.ones(n_strat)
    for _ in range(max_iter):
        denom = (games / (counts @ pi)) @ counts
        new = total_wins / denom
        pos = new > 0
        if pos.any():
            new = new / math.exp(np.log(new[pos]).mean())
        done = np.max(np.abs(np.log(np.maximum(new, 1e-300) / np.maximum(pi, 1e-300)))) < tol
        pi = new
        if done:
            break
    return pi


def elo(pi: np.ndarray, anchor: int) -> np.ndarray:
    """Elo-scale ratings ``400 log10(π / π_anchor)``."""
    import numpy as np

    with np.errstate(divide="ignore"):
        return 400.0 * (np.log10(pi) - np.log10(pi[anchor]))


# --------------------------------------------------------------------------- the ladder


def ladder(
    game: str = "unearth",
    players: int = 2,
    strategies: Sequence[str] | str | None = None,
    games: int = 1000,
    seed: int | None = None,
    *,
    rulings: dict | None = None,
    overrides: dict | None = None,
    strategy_params: dict | None = None,
    anchor: str | None = None,
    bootstrap: int = BOOTSTRAP,
    prior: float = 1.0,
    workers: int | None = 1,
    checkpoint_dir=None,
    resume: bool = False,
    progress: Callable[[str], None] | None = None,
    command: Sequence[str] | None = None,
    luck: bool | None = None,
) -> Ladder:
    """Play the round robin of ``strategies`` at ``players`` seats (``games``
    games per line-up, the same game indices of ``seed`` for every line-up) and
    rate them. ``progress`` gets one line per finished line-up. ``luck``: True plays
    the game's luck terms and rates luck-adjusted outcomes; None (default): the
    game's default (off in every game: plain wins); False: plain wins. Returns a
    :class:`Ladder`. Deterministic in its arguments (``seed`` None: fresh,
    recorded in ``info``).
    """
    from analyzer._version import __version__
    from analyzer.core.seeding import resolve_seed
    from analyzer.games import load_game
    from analyzer.runs.scenario_file import parse_scenario

    g = load_game(game, where="--game")
    strategies = check_strategies(g, strategies)
    if (
        isinstance(players, bool)
        or not isinstance(players, numbers.Integral)
        or not g.min_players <= players <= g.max_players
    ):
        raise bad_value("--players", players, f"an integer from {g.min_players} to {g.max_players}")
    if isinstance(games, bool) or not isinstance(games, numbers.Integral) or games < 2:
        raise bad_value("--games", games, "an integer of at least 2 (games per line-up)")
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 0:
        raise bad_value("--bootstrap", bootstrap, f"an integer from 0 to {MAX_BOOTSTRAP:,}")
    if bootstrap > MAX_BOOTSTRAP:
        raise bad_value("--bootstrap", bootstrap, f"an integer from 0 to {MAX_BOOTSTRAP:,}")
    if not (isinstance(prior, int | float) and math.isfinite(prior) and prior >= 0):
        raise bad_value("--prior", prior, "a non-negative number")
    if anchor is None:
        anchor = g.yardstick_name() if g.yardstick_name() in strategies else strategies[0]
    if anchor not in strategies:
        raise bad_value("--anchor", anchor, ", ".join(strategies))
    seed = resolve_seed(seed)
    ups = lineups(strategies, int(players))
    base = {"game": g.name, "players": int(players), "games": int(games), "seed": seed}
    if rulings:
        base["rules"] = dict(rulings)
    if overrides:
        base["overrides"] = dict(overrides)
    if strategy_params:
        base["strategy_params"] = {k: dict(v) for k, v in strategy_params.items()}
    # luck None: the game's own default (off: plain wins); True: the terms on
    base["output"] = {"claims": False} if luck is None else {"claims": False, "luck": bool(luck)}
    # validate everything (players, rulings, params) before the first game
    parse_scenario({**base, "strategies": list(ups[0])}, "ladder", default_name="ladder")
    # checked: now the engine and the tables' libraries
    import numpy as np
    import pandas as pd

    from analyzer.core.stats import mean_ci, wilson
    from analyzer.runs.driver import run_scenario

    wins: list[np.ndarray] = []
    info_run: dict = {}
    adjusted = False
    for i, up in enumerate(ups):
        sc = parse_scenario({**base, "strategies": list(up)}, "ladder", default_name="ladder")
        ck = None if checkpoint_dir is None else f"{checkpoint_dir}/lineup{i:03d}"
        run = run_scenario(
            sc, workers=workers, progress=False, exact=False, checkpoint_dir=ck, resume=resume
        )
        table = run.games.sort_values(["game", "seat"])
        w = table["win"].to_numpy(np.float64)
        if luck is not False and "luck_win" in table:  # adjusted (docs/statistics.md)
            w = w - table["luck_win"].to_numpy(np.float64)
            adjusted = True
        w = w.reshape(-1, int(players))
        wins.append(w)
        info_run = run.info
        if progress:
            progress(
                f"ladder: line-up {i + 1}/{len(ups)} ({', '.join(up)}): {len(w):,} games, "
                f"{run.info['seconds']:.1f} s"
            )

    index = {s: j for j, s in enumerate(strategies)}
    n_s = len(strategies)
    counts = np.zeros((len(ups), n_s))
    # per line-up and game: each strategy's win share (its seats together)
    per_game = np.zeros((len(ups), games, n_s))
    for c, up in enumerate(ups):
        for seat, s in enumerate(up):
            counts[c, index[s]] += 1
            per_game[c, :, index[s]] += wins[c][:, seat]
    pi = fit_bradley_terry(counts, per_game.sum(axis=1), prior)
    a = index[anchor]
    rating = elo(pi, a)
    boot = np.empty((bootstrap, n_s))
    rng = np.random.default_rng([seed, 0x1AD])
    for b in range(bootstrap):
        weight = np.bincount(rng.integers(0, games, games), minlength=games).astype(float)
        boot[b] = elo(fit_bradley_terry(counts, weight @ per_game, prior), a)
    if bootstrap:
        low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    else:
        low = high = np.full(n_s, np.nan)

    # head-to-head: A's seat against a field of B, all seats and games
    rows = []
    seat_games = np.zeros(n_s)
    share_sum = np.zeros(n_s)
    for sa in strategies:
        for sb in strategies:
            if sa == sb:
                continue
            total, n = 0.0, 0
            values = []
            for k in range(int(players)):
                seats = [sb] * int(players)
                seats[k] = sa
                c = ups.index(tuple(seats))
                total += float(wins[c][:, k].sum())
                values.append(wins[c][:, k])
                n += games
            if adjusted:  # adjusted shares leave [0, 1]: a normal interval
                _, lo, hi = mean_ci(np.concatenate(values))
            else:
                lo, hi = wilson(total, n)
            rows.append(
                {
                    "strategy": sa,
                    "opponent": sb,
                    "games": n,
                    "win_share": total / n,
                    "low": lo,
                    "high": hi,
                }
            )
            seat_games[index[sa]] += n
            share_sum[index[sa]] += total
    matrix = pd.DataFrame(rows)
    eq = _equilibrium(strategies, ups, wins, int(players), bootstrap, seed)
    ratings = pd.DataFrame(
        {
            "strategy": list(strategies),
            "elo": rating,
            "low": low,
            "high": high,
            "win_share": share_sum / seat_games,
            "seat_games": seat_games.astype(np.int64),
        }
    )
    ratings = ratings.sort_values("elo", ascending=False, kind="stable").reset_index(drop=True)
    info = {
        "game": g.name,
        "rules_version": g.rules_version,
        "strategies_version": g.strategies_version,
        "players": int(players),
        "strategies": list(strategies),
        "lineups": len(ups),
        "games_per_lineup": int(games),
        "games_total": int(games) * len(ups),
        "seed": seed,
        "anchor": anchor,
        "fair_share": 1.0 / int(players),
        "bootstrap": int(bootstrap),
        "prior": float(prior),
        "method": (
            "generalised Bradley-Terry (Luce choice) by maximum likelihood, Hunter's MM "
            "algorithm; Elo = 400 log10(strength), anchor 0; 95% percentile bootstrap "
            "over game indices (line-ups kept paired); Wilson intervals on win shares"
            if not adjusted
            else "generalised Bradley-Terry (Luce choice) fitted to luck-adjusted win "
            "shares (win - luck_win) by Hunter's MM fixed point (the moment equations); "
            "Elo = 400 log10(strength), anchor 0; 95% percentile bootstrap over game "
            "indices (line-ups kept paired); normal intervals on adjusted win shares"
        ),
        "rules": info_run.get("rules", {}),
        "strategy_rows": info_run.get("strategy_rows", []),
        "strategy_params": strategy_params or {},
        "analyzer_version": __version__,
        "command": " ".join(shlex.quote(a) for a in (command or sys.argv)),
    }
    if adjusted:  # old runs and --no-luck keep the keys they had
        info["luck_adjusted"] = True
    info.update(eq.as_dict())
    return Ladder(ratings=ratings, matrix=matrix, info=info, lineups=ups, wins=wins)


def _equilibrium(strategies, ups, wins, players: int, bootstrap: int, seed: int):
    """The meta-game's equilibrium (:mod:`analyzer.studies.equilibrium`) from the
    line-ups' per-game wins: a seat of A against a field of B, averaged over its seats."""
    import numpy as np

    from analyzer.studies.equilibrium import equilibrium

    per_game = {}
    for sa in strategies:
        for sb in strategies:
            if sa == sb:
                continue
            cols = []
            for k in range(players):
                seats = [sb] * players
                seats[k] = sa
                cols.append(wins[ups.index(tuple(seats))][:, k])
            per_game[(sa, sb)] = np.mean(cols, axis=0)
    return equilibrium(strategies, per_game, bootstrap, seed=[seed, 0xE0])


def write_ladder(result: Ladder, out) -> list:
    """Write ``ratings.csv``, ``matrix.csv`` (long form), ``matrix_wide.csv`` and
    ``ladder.json`` into the folder ``out`` (created), each atomically. Returns the paths."""
    import json
    from pathlib import Path

    from analyzer.runs.runner import write_text_atomic

    out = Path(out)
    if out.exists() and not out.is_dir():
        raise bad_value("--out", str(out), "a folder (it is a file)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"--out: cannot create {str(out)!r}: {err.strerror}") from None
    doc = {
        **result.info,
        "ratings": result.ratings.to_dict(orient="records"),
        "matrix": result.matrix.to_dict(orient="records"),
    }
    files = {
        "ratings.csv": result.ratings.to_csv(index=False),
        "matrix.csv": result.matrix.to_csv(index=False),
        "matrix_wide.csv": result.wide_matrix().to_csv(),
        "ladder.json": json.dumps(doc, indent=2, default=_json_default) + "\n",
    }
    paths = []
    for name, text in files.items():
        write_text_atomic(out / name, text)
        paths.append(out / name)
    return paths


def _json_default(v):
    if isinstance(v, numbers.Integral):  # numpy's integers
        return int(v)
    if isinstance(v, numbers.Real):  # numpy's floats
        return float(v)
    raise TypeError(type(v).__name__)


def format_ladder(result: Ladder) -> str:
    """The ratings, the head-to-head matrix and a sentence, as plain text."""
    info = result.info
    n = info["players"]
    lines = [
        f"Ladder: {info['game']}, {n} players, {len(info['strategies'])} strategies, "
        f"{info['lineups']} line-ups x {info['games_per_lineup']:,} games "
        f"({info['games_total']:,} games, the same game seeds for every line-up), "
        f"seed {info['seed']}; rules {info['rules_version']}, "
        f"strategies {info.get('strategies_version', '?')}",
        *(
            ["luck-adjusted outcomes (win - luck_win; --no-luck for plain wins)"]
            if info.get("luck_adjusted")
            else []
        ),
        "",
        f"Ratings: Bradley-Terry strengths on the Elo scale, {info['anchor']} = 0; "
        f"95% interval from {info['bootstrap']} bootstrap resamples of games",
        f"  {'':>2}  {'strategy':<12} {'Elo':>7}  {'95% CI':<17} {'win share':>9}  seat-games",
    ]
    for i, r in enumerate(result.ratings.itertuples(index=False), 1):
        ci = f"[{_e(r.low)}, {_e(r.high)}]" if math.isfinite(r.low) else ""
        lines.append(
            f"  {i:>2}  {r.strategy:<12} {_e(r.elo):>7}  {ci:<17} {r.win_share:>9.3f}  "
            f"{r.seat_games:,}"
        )
    names = list(info["strategies"])
    width = 20
    lines += [
        "",
        f"Head-to-head: win share of one seat of the row's strategy against "
        f"{'the column' if n == 2 else f'{n - 1} seats of the column'} "
        f"(fair share {1 / n:.2f}), all seats, 95% "
        f"{'normal' if info.get('luck_adjusted') else 'Wilson'} interval",
        "  " + f"{'':<12}" + "".join(f"{c:>{width}}" for c in names),
    ]
    cell = {(r.strategy, r.opponent): r for r in result.matrix.itertuples(index=False)}
    for a in names:
        row = f"  {a:<12}"
        for b in names:
            r = cell.get((a, b))
            txt = "-" if r is None else f"{r.win_share:.3f} [{r.low:.2f},{r.high:.2f}]"
            row += f"{txt:>{width}}"
        lines.append(row)
    lines += ["", _sentence(result)]
    from analyzer.studies.equilibrium import equilibrium_sentences

    lines += equilibrium_sentences({**info, "players": n})
    return "\n".join(lines)


def _sentence(result: Ladder) -> str:
    """Which strategy rates highest, and whether the intervals separate it from the next."""
    r = result.ratings
    top, second = r.iloc[0], r.iloc[1]
    anchor = result.info["anchor"]
    n = result.info["players"]
    text = f"At {n} players {top.strategy} rates highest"
    if top.strategy != anchor:
        text += f" ({_e(top.elo)} Elo against {anchor}, 95% CI {_e(top.low)} to {_e(top.high)})"
    if math.isfinite(top.low) and top.low > second.high:
        text += f"; its interval lies above that of {second.strategy}, the next."
    else:
        text += (
            f"; its interval overlaps that of {second.strategy} ({_e(second.elo)}), "
            "so the two are not separated by these games."
        )
    return text


def _e(x: float) -> str:
    """An Elo figure, signed, without a negative zero."""
    return f"{int(round(x)):+d}" if math.isfinite(x) else "n/a"
