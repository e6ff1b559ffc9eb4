"""Pig in Python: the batch job, its ``games`` table, the replay and the checkable trace.

The wrapper validates, allocates, owns the seed and calls the kernels of
:mod:`.engine`; the machinery (runner, scenarios, reports) only ever calls a
:class:`PigJob` with ``(start, count)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.core.seeding import root_key
from analyzer.games import strategy_column
from analyzer.kernels.kernel_view import make_view, results_view

from . import engine as E
from .rules import RULES_VERSION, Rules

#: the games table's columns beyond the core ones (declared in plugin.py)
EXTRA_COLUMNS = ("turns", "rolls", "busts", "capped")
#: trace rows for one game (a game of two ``hold`` seats writes about 250)
TRACE_ROWS = 100_000


@dataclass(frozen=True)
class PigJob:
    """Plays Pig games of one configuration; picklable; deterministic in ``(start, count)``."""

    players: int
    strategies: tuple[str, ...]
    seed: int
    rules: Rules
    hold: float = 20.0  #: the ``hold`` strategy's parameter

    def __call__(self, start: int, count: int) -> dict[str, pd.DataFrame]:
        results, wins, _ = play_raw(self, start, count)
        return {"games": games_frame(self, start, count, results, wins)}


def play_raw(job: PigJob, start: int, count: int, trace_rows: int = 0):
    """Run the kernel: ``(results int32[count*n, N_RESULTS], wins float32[count*n], state)``."""
    n = job.players
    s = E.new_state(n, trace_rows)
    s.prm[:, E.P_STRATEGY] = [E.STRATEGY_NAMES.index(x) for x in job.strategies]
    s.prm[:, E.P_HOLD] = job.hold
    results = np.zeros((count * n, E.N_RESULTS), np.int32)
    wins = np.zeros(count * n, np.float32)
    key0, key1 = root_key(job.seed)
    t = make_view(job.rules.tables, "PigTables")
    E.play_batch(make_view(s, "PigState"), t, results_view(results, wins), n, key0, key1,
                 start, count)  # fmt: skip
    bad = results[:, E.R_INVARIANTS]
    if bad.any():  # a broken invariant is a bug in the engine, never a user error
        raise RuntimeError(f"pig engine invariant failed (mask {int(bad.max())}) in games {start}+")
    return results, wins, s


def games_frame(job: PigJob, start: int, count: int, results, wins) -> pd.DataFrame:
    """One row per game and seat: the core columns, then :data:`EXTRA_COLUMNS`."""
    n = job.players
    cols = {
        "game": np.repeat(np.arange(start, start + count, dtype=np.int64), n),
        "seat": np.tile(np.arange(n, dtype=np.int8), count),
        "n_players": np.full(count * n, n, np.int8),
        "strategy": strategy_column(job.strategies, count, E.STRATEGY_NAMES),
        "score": results[:, E.R_SCORE].astype(np.int16),
        "win": wins,
        "game_turns": results[:, E.R_GAME_TURNS].astype(np.int16),
    }
    for name in EXTRA_COLUMNS:
        cols[name] = results[:, getattr(E, f"R_{name.upper()}")].astype(np.int16)
    return pd.DataFrame(cols)


# ------------------------------------------------------------------ replays


def _play_traced(job: PigJob, game: int):
    results, wins, s = play_raw(job, game, 1, TRACE_ROWS)
    k = int(s.sc[E.S_TRACE_N])
    if k >= TRACE_ROWS:
        raise RuntimeError(f"pig trace: game {game} wrote more than {TRACE_ROWS} rows")
    return results, wins, s, s.trace[:k].tolist()


def replay_game(job: PigJob, game: int) -> str:
    """Game ``game`` of ``job`` as text, one line per event (``analyzer replay --game pig``)."""
    results, wins, s, rows = _play_traced(job, game)
    lines = [
        f"# Pig replay: {RULES_VERSION}, end {job.rules.end}, seed {job.seed}, game {game}",
        "# " + ", ".join(f"seat {p} {x}" for p, x in enumerate(job.strategies)),
    ]
    for ev, turn, seat, a, b, _ in rows:
        if ev == E.EV_ROLL:
            text = f"rolls {a}" + (f", turn total {b}" if b else "")
        elif ev == E.EV_DECIDE:
            text = "holds" if a else "rolls again"
        elif ev == E.EV_BUST:
            text = f"busts, loses {a}"
        else:
            text = f"banks {a}, score {b}"
        lines.append(f"t{turn} seat {seat}: {text}")
    for p in range(job.players):
        lines.append(f"# seat {p}: score {int(results[p, E.R_SCORE])}, win {float(wins[p]):g}")
    return "\n".join(lines) + "\n"


def replay_events(job: PigJob, game: int) -> dict:
    """Game ``game`` of ``job`` as the checkable trace (docs/CONTRACTS.md, "The
    checkable trace"; its events: README.md, "The trace")."""
    results, wins, s, rows = _play_traced(job, game)
    events = []
    for ev, turn, seat, a, b, _ in rows:
        head = {"turn": turn, "seat": seat}
        if ev == E.EV_ROLL:
            events.append({"kind": "chance", "type": "roll", **head, "face": a, "total": b})
        elif ev == E.EV_DECIDE:
            action = "hold" if a else "roll"
            events.append({"kind": "choice", "type": "decide", **head, "action": action,
                           "options": ["roll", "hold"], "total": b})  # fmt: skip
        elif ev == E.EV_BUST:
            events.append({"kind": "effect", "type": "bust", **head, "lost": a})
        else:
            events.append({"kind": "effect", "type": "bank", **head, "banked": a, "score": b})
    n = job.players
    seats = [
        {
            "seat": p,
            "score": int(results[p, E.R_SCORE]),
            "turns": int(results[p, E.R_TURNS]),
            "rolls": int(results[p, E.R_ROLLS]),
            "busts": int(results[p, E.R_BUSTS]),
            "win": float(wins[p]),
        }
        for p in range(n)
    ]
    final = {
        "seats": seats,
        "winners": [p for p in range(n) if wins[p] > 0],
        "turns": int(s.sc[E.S_TURN]),
        "capped": bool(s.sc[E.S_CAPPED]),
    }
    t = job.rules.tables
    setup = {"players": n, "first_player": 0, "faces": t.faces, "bust": t.bust,
             "target": t.target, "max_turns": t.max_turns, "end": job.rules.end}  # fmt: skip
    return {"setup": setup, "events": events, "final": final}
