"""What every game's replay does the same way: a game played alone with its
trace, and the lines that open and close its text.

A game's ``replay.py`` turns its trace rows into text (``analyzer replay``) and
into the checkable trace (``analyzer replay --json``, ``docs/CONTRACTS.md``);
the rows are the game's own, the frame around them is this.
"""

from __future__ import annotations

from analyzer.core.errors import AnalyzerError


def check_room(written: int, trace_rows: int, game: int) -> int:
    """``written``, the trace rows game ``game`` wrote, if the trace had room for
    every event (``trace_rows`` rows); else the one-line error naming ``trace_rows``."""
    if written >= trace_rows:
        raise AnalyzerError(
            f"replay: trace_rows: bad value {trace_rows} (allowed: more than the "
            f"{written} events of game {game})"
        )
    return written


def players_line(job) -> str:
    """``# players 3: seat 0 balanced, seat 1 random, ...``: who plays ``job``'s seats."""
    n = job.players
    return f"# players {n}: " + ", ".join(f"seat {p} {job.strategies[p]}" for p in range(n))


def seat_line(seat: int, score, parts: str, win: float) -> str:
    """``# seat 0: score 41 (ruin_sets 20, ...), win 1``: a seat's result, last in a replay."""
    return f"# seat {seat}: score {score} ({parts}), win {float(win):.4g}"
