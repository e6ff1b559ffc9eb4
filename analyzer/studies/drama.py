"""Drama and decisiveness: how often the lead changes, when the game is decided,
how close it ends (after Ludii's drama and decisiveness metrics).

:func:`drama` plays games one at a time with their checkable trace
(:meth:`analyzer.games.Game.replay_events`, the same game ``i`` of the seed as
a run's game ``i``) and asks the game for each seat's score if the game ended
after each turn (:meth:`analyzer.games.Game.score_track`: per-game knowledge,
read from what the trace records and checked against the final scores). From
those, per player count:

- **the leader** after a turn: the seat that would win if the game ended then,
  the one with the highest score; a tied top score has no single leader (the
  game shares the win, or, by a ruling, gives none), and a tie on the score
  track does not end a lead;
- **lead changes**: how often the single leader differs from the previous
  single leader, per game (mean with a normal 95% interval), and the share of
  games with at least one;
- **decisiveness**: at each tenth of the game (the last turn completed by then),
  how often the leader then wins (Wilson 95% intervals); the game is *decided*
  from the first tenth after which the leader wins at least
  :data:`DECIDED` (nine games in ten) at every later tenth;
- **closeness**: the final margin between the top two scores, in points and as
  a share of the winner's score, and the share of games won by at most
  :data:`CLOSE` (5%) of the winner's score.

A game whose trace gives no running score (its :meth:`score_track` answers
None) is reported as not measured, never guessed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

#: the leader's win rate from which a game counts as decided (nine in ten)
DECIDED = 0.9
#: a game is close when the winner leads by at most this share of its score
CLOSE = 0.05
#: the points of the game at which the leader is read (tenths of its turns)
TENTHS = tuple(range(1, 11))


@dataclass
class Drama:
    """What :func:`drama` returns."""

    table: pd.DataFrame  #: one row per player count (``tables/drama.csv``)
    info: dict

    def as_dict(self) -> dict:
        from analyzer.studies.skill import _records

        return {**self.info, "rows": _records(self.table)}


def leaders(scores: np.ndarray, keys: Sequence | None = None) -> np.ndarray:
    """The single leader after each turn (``scores``: float[T, seats]), -1 where the
    top is tied. ``keys`` (per turn, per seat, a list): the game's tie-break, compared
    after the score (most ruins of the highest claim value, say)."""
    scores = np.asarray(scores, float)
    out = np.full(len(scores), -1)
    for t, row in enumerate(scores):
        rank = [(round(float(x), 9), *(keys[t][p] if keys is not None else ())) for p, x in
                enumerate(row)]  # fmt: skip
        best = max(rank)
        top = [p for p, r in enumerate(rank) if r == best]
        if len(top) == 1:
            out[t] = top[0]
    return out


def lead_changes(lead: Sequence[int]) -> int:
    """How often the single leader changes (ties skipped: A, tie, A is no change)."""
    out, last = 0, -1
    for x in lead:
        if x < 0:
            continue
        if last >= 0 and x != last:
            out += 1
        last = x
    return out


def game_measures(track: dict, winners: Sequence[int]) -> dict:
    """One game's lead changes, its leader at each tenth and whether that leader won,
    and its final margin."""
    scores = np.asarray(track["scores"], float)
    lead = leaders(scores, track.get("keys"))
    t = len(lead)
    at = {}
    for k in TENTHS:
        i = max(int(math.ceil(k * t / 10)) - 1, 0)
        leader = int(lead[i])
        at[k] = None if leader < 0 else (1.0 / len(winners) if leader in winners else 0.0)
    final = np.sort(scores[-1])[::-1]
    margin = float(final[0] - final[1]) if len(final) > 1 else math.nan
    return {
        "turns": t,
        "changes": lead_changes(lead),
        "at": at,
        "margin": margin,
        "relative": margin / final[0] if final[0] > 0 else math.nan,
    }


def summarise(measures: list[dict]) -> dict:
    """The per-count row from the games' measures (see the module's docstring)."""
    from analyzer.core.stats import mean_ci, wilson

    n = len(measures)
    changes = np.array([m["changes"] for m in measures], float)
    lc, lc_lo, lc_hi = mean_ci(changes)
    any_lo, any_hi = wilson(float((changes > 0).sum()), n)
    row = {
        "games": n,
        "mean_turns": float(np.mean([m["turns"] for m in measures])),
        "lead_changes": lc,
        "lead_changes_low": lc_lo,
        "lead_changes_high": lc_hi,
        "any_change_share": float((changes > 0).mean()),
        "any_change_low": float(any_lo),
        "any_change_high": float(any_hi),
    }
    curve = {}
    for k in TENTHS:
        won = [m["at"][k] for m in measures if m["at"][k] is not None]
        if won:
            lo, hi = wilson(float(sum(won)), len(won))
            curve[k] = (float(np.mean(won)), float(lo), float(hi), len(won))
        else:
            curve[k] = (math.nan, math.nan, math.nan, 0)
        row[f"leader_wins_at_{10 * k}pct"] = curve[k][0]
    decided = None
    for k in TENTHS:
        if all(curve[j][0] >= DECIDED for j in TENTHS if j >= k):
            decided = k
            break
    row["decided_at_share"] = decided / 10 if decided else math.nan
    row["decided_at_turn"] = (
        math.ceil(decided * row["mean_turns"] / 10) if decided else math.nan
    )  # fmt: skip
    half = curve[5]
    row.update(
        {
            "decided_rate": curve[decided][0] if decided else math.nan,
            "decided_low": curve[decided][1] if decided else math.nan,
            "decided_high": curve[decided][2] if decided else math.nan,
            "half_leader_wins": half[0],
            "half_leader_low": half[1],
            "half_leader_high": half[2],
        }
    )
    margins = np.array([m["margin"] for m in measures], float)
    rel = np.array([m["relative"] for m in measures], float)
    mm, m_lo, m_hi = mean_ci(margins[np.isfinite(margins)])
    rm, r_lo, r_hi = mean_ci(rel[np.isfinite(rel)])
    close = float((rel[np.isfinite(rel)] <= CLOSE).sum())
    c_lo, c_hi = wilson(close, int(np.isfinite(rel).sum()))
    row.update(
        {
            "margin": mm,
            "margin_low": m_lo,
            "margin_high": m_hi,
            "relative_margin": rm,
            "relative_margin_low": r_lo,
            "relative_margin_high": r_hi,
            "close_share": close / max(int(np.isfinite(rel).sum()), 1),
            "close_low": float(c_lo),
            "close_high": float(c_hi),
        }
    )
    return row


def drama(
    game: str,
    players: Sequence[int],
    games: int,
    seed: int,
    *,
    strategies: dict[int, Sequence[str]] | None = None,
    rulings: dict | None = None,
    overrides: dict | None = None,
    strategy_params: dict | None = None,
    progress: Callable[[str], None] | None = None,
) -> Drama:
    """Trace ``games`` games at each player count of ``players`` (the seats'
    strategies: ``strategies[n]``, else the game's default in every seat) and
    measure their drama (see the module's docstring)."""
    import time

    from analyzer.games import load_game

    g = load_game(game, where="game")
    rules = g.load_rules(dict(rulings or {}), dict(overrides or {}), "drama: rules")
    rows, missing = [], {}
    for n in players:
        t0 = time.perf_counter()
        field = tuple((strategies or {}).get(n) or (g.default_strategy,) * n)
        job = g.make_job(n, field, seed, rules, strategy_params=strategy_params or None)
        measures, none = [], 0
        for i in range(games):
            trace = g.replay_events(job, i)
            track = g.score_track(job, trace)
            if track is None:
                none += 1
                if i == 0 and none == 1 and games > 1:
                    # a game without a score track says so on its first game
                    if g.score_track(job, g.replay_events(job, 1)) is None:
                        none = games
                        break
                continue
            winners = list(trace["final"].get("winners") or [])
            measures.append(game_measures(track, winners))
        if not measures:
            missing[n] = none
            continue
        row = {
            "game": g.name,
            "players": int(n),
            "field": ", ".join(field),
            **summarise(measures),
            "untracked": none,
            "seconds": round(time.perf_counter() - t0, 3),
        }
        rows.append(row)
        if progress:
            progress(
                f"drama: {g.name} at {n} players: {len(measures):,} games traced, "
                f"{row['seconds']:.1f} s"
            )
    info = {
        "game": g.name,
        "players": [int(n) for n in players],
        "games_per_count": int(games),
        "seed": int(seed),
        "decided": DECIDED,
        "close": CLOSE,
        "measured": bool(rows),
        "not_measured": sorted(int(n) for n in missing),
        "method": (
            "games replayed with their trace; the score if the game ended after each turn "
            "from the game's score track (checked against the final scores); leader: the "
            "single top score; decided from the first tenth of the game after which the "
            f"leader wins at least {100 * DECIDED:.0f}% at every later tenth; close: won by "
            f"at most {100 * CLOSE:.0f}% of the winner's score; normal and Wilson 95% intervals"
        ),
    }
    return Drama(table=pd.DataFrame(rows), info=info)


def report_table(doc: dict) -> pd.DataFrame:
    """``tables/drama.csv``: one row per player count."""
    return pd.DataFrame(doc.get("rows") or [])
