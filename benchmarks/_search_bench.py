"""What the search benchmarks of every game share (``bench_search.py``,
``bench_ct_search.py``): a timed round of games with one ``search`` seat
against the game's base player, the base player's own rate timed in the same
rounds, and the medians over the rounds. Each benchmark keeps its own clock
(``time.perf_counter`` or ``time.process_time``) and its own lines.
"""

from __future__ import annotations

import importlib
import statistics


def search_round(
    game: str, base: str, players: int, games: int, budget: int, seed: int, clock
) -> dict:
    """One ``search`` seat (seat 0) against ``base`` seats: its decisions and
    rollouts per second, seconds per game and decisions per game (by ``clock``)."""
    search = importlib.import_module(f"analyzer.{game}.search")
    lib = importlib.import_module(f"analyzer.{game}.game")
    names = ["search"] + [base] * (players - 1)
    job = lib.make_job(players, names, seed, strategy_params={"search": {"budget": budget}})
    out: list = []
    t0 = clock()
    lib.play_raw(job, 0, games, search_out=out)
    sec = clock() - t0
    w = out[0]
    return {
        "decisions/s": w.count[search.K_DECISIONS] / sec,
        "rollouts/s": w.count[search.K_ROLLOUTS] / sec,
        "s/game": sec / games,
        "decisions/game": w.count[search.K_DECISIONS] / games,
    }


def base_rate(game: str, base: str, players: int, games: int, seed: int, clock) -> float:
    """Games per second (by ``clock``) with every seat ``base``."""
    lib = importlib.import_module(f"analyzer.{game}.game")
    t0 = clock()
    lib.simulate(players, base, games, seed=seed)
    return games / (clock() - t0)


def warm(game: str, base: str, counts, clock) -> None:
    """Compile or load every kernel the rounds use."""
    for n in counts:
        search_round(game, base, n, 1, 8, 0, clock)
        base_rate(game, base, n, 2, 0, clock)


def medians(game, base, players, games, base_games, budget, rounds, clock) -> tuple[dict, float]:
    """``rounds`` alternating rounds (seeds 100, 101, ...) of :func:`search_round`
    and :func:`base_rate`: the medians of the search's figures and of the base
    player's games per second."""
    rows: dict[str, list[float]] = {}
    plain = []
    for k in range(rounds):
        for key, v in search_round(game, base, players, games, budget, 100 + k, clock).items():
            rows.setdefault(key, []).append(v)
        plain.append(base_rate(game, base, players, base_games, 100 + k, clock))
    return {k: statistics.median(v) for k, v in rows.items()}, statistics.median(plain)
