"""The user path against the engine: ``analyzer.simulate`` games/s beside the kernel's.

Per game (unearth, colorful_treasure, uruk) and strategy (``random`` and the
game's default), 4 players, one core (``workers=1``), on the same games:

- **kernel**: the compiled game kernel alone, called as the game's job calls it
  (``analyzer.<game>.game.play_raw(job, start, count)``: state set-up and the
  kernel, no tables), in the batches ``simulate`` cuts (``--batch-size``);
- **simulate**: :func:`analyzer.simulate` (the Python API, returning the per-game
  table): the kernel plus everything around it (tables, invariant checks, the
  reducer, concatenation, the summary).

The two are measured alternately over ``--rounds`` rounds (this box changes
speed by up to 2x within minutes); the medians are printed with their ratio,
simulate / kernel games/s (``ratio``: wall clock, the figure the last line
``min ratio R`` gives; ``cpu ratio``: the same in this process's CPU time, which
other jobs on a shared machine disturb less). Everything is compiled (or loaded
from the numba cache) before the first timing.

With ``--old DIR`` (a checkout of an earlier commit, e.g. ``git worktree add
--detach /tmp/up-old main``) a child process importing ``analyzer`` from ``DIR``
times the same ``simulate`` call in each round too, between the other two, so the old and
new user paths are compared side by side (columns ``old simulate`` and
``old ratio``). The old checkout uses this interpreter and its installed
packages. Prints figures, asserts nothing.

    .venv/bin/python benchmarks/bench_user_path.py
    .venv/bin/python benchmarks/bench_user_path.py --rounds 5 --old /tmp/up-old
    .venv/bin/python benchmarks/bench_user_path.py --only colorful_treasure --scale 0.5
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

PLAYERS = 4
SEED = 20251125
#: (game, strategy or None for the game's default, games per measurement): about
#: 1-4 s each on the shared 2-core box
ROWS = (
    ("unearth", "random", 20_000),
    ("unearth", None, 1_500),
    ("colorful_treasure", "random", 40_000),
    ("colorful_treasure", None, 20_000),
    ("uruk", "random", 6_000),
    ("uruk", None, 6_000),
)


def _strategy(game: str, strategy: str | None) -> str:
    from analyzer.games import load_game

    return strategy or load_game(game).default_strategy


def _clocks() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    """``(wall, cpu)`` seconds since ``start`` (CPU time: this process's, all threads)."""
    wall, cpu = _clocks()
    return wall - start[0], cpu - start[1]


def time_simulate(game: str, strategy: str, games: int, batch_size: int) -> tuple[float, float]:
    """``(wall, cpu)`` seconds of one ``analyzer.simulate`` call (the Python API, one core)."""
    import analyzer

    kwargs = {"batch_size": batch_size} if batch_size else {}
    start = _clocks()
    analyzer.simulate(PLAYERS, strategy, games, SEED, game=game, workers=1, **kwargs)
    return _since(start)


def time_kernel(game: str, strategy: str, games: int, batch_size: int) -> tuple[float, float]:
    """``(wall, cpu)`` seconds of the game's kernel alone on the same games, in the
    same batches."""
    from analyzer.games import load_game

    g = load_game(game)
    job = g.make_job(PLAYERS, [strategy] * PLAYERS, SEED, g.load_rules({}, {}, "rules"))
    play_raw = importlib.import_module(f"analyzer.{game}.game").play_raw
    size = batch_size or g.batch_size  # the batches simulate cuts by default
    start = _clocks()
    for first in range(0, games, size):
        play_raw(job, first, min(size, games - first))
    return _since(start)


def serve() -> None:
    """Child mode (``--serve``): read ``game strategy games batch_size`` lines on
    stdin, answer each with the ``[wall, cpu]`` seconds of one ``simulate`` call."""
    for line in sys.stdin:
        game, strategy, games, batch = line.split()
        if games == "warm":
            time_simulate(game, strategy, 200, int(batch))
            print("ok", flush=True)
            continue
        print(json.dumps(time_simulate(game, strategy, int(games), int(batch))), flush=True)


class OldChild:
    """A process importing ``analyzer`` from an old checkout, timing ``simulate``."""

    def __init__(self, directory: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(directory))
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=directory,
        )

    def ask(self, *words) -> str:
        self.proc.stdin.write(" ".join(str(w) for w in words) + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline().strip()

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the game counts")
    parser.add_argument("--only", default="", help="comma list of games (default: all)")
    parser.add_argument("--batch-size", type=int, default=0, help="0: simulate's default")
    parser.add_argument("--old", type=Path, default=None, help="an old checkout to compare")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    only = {x for x in args.only.split(",") if x}
    rows = [
        (game, _strategy(game, strategy), max(1, int(games * args.scale)))
        for game, strategy, games in ROWS
        if not only or game in only
    ]
    old = OldChild(args.old) if args.old is not None else None
    import analyzer

    print(f"analyzer {analyzer.__version__} from {Path(analyzer.__file__).parent}")
    for game, strategy, _ in rows:  # compile or load every kernel first
        time_kernel(game, strategy, 50, args.batch_size)
        time_simulate(game, strategy, 200, args.batch_size)
        if old is not None:
            old.ask(game, strategy, "warm", args.batch_size)
    times: dict[tuple, dict[str, list[float]]] = {r: {} for r in rows}
    for _ in range(args.rounds):
        for row in rows:
            game, strategy, games = row
            t = times[row]
            t.setdefault("kernel", []).append(time_kernel(game, strategy, games, args.batch_size))
            if old is not None:
                answer = old.ask(game, strategy, games, args.batch_size)
                t.setdefault("old", []).append(tuple(json.loads(answer)))
            sim = time_simulate(game, strategy, games, args.batch_size)
            t.setdefault("simulate", []).append(sim)
    if old is not None:
        old.close()

    head = "| game | strategy | games | kernel games/s | simulate games/s | ratio | cpu ratio |"
    line = "|---|---|---|---|---|---|---|"
    if old is not None:
        head += " old simulate games/s | old ratio | old cpu ratio |"
        line += "---|---|---|"
    print(f"\n4 players, workers=1, medians of {args.rounds} alternating rounds")
    print("(ratio: simulate / kernel games/s, wall clock; cpu ratio: the same in CPU time)\n")
    print(head)
    print(line)
    ratios = []
    for row in rows:
        game, strategy, games = row
        wall = {k: games / statistics.median(w for w, _ in v) for k, v in times[row].items()}
        cpu = {k: games / statistics.median(c for _, c in v) for k, v in times[row].items()}
        ratio = wall["simulate"] / wall["kernel"]
        ratios.append(ratio)
        text = (
            f"| {game} | {strategy} | {games:,} | {wall['kernel']:,.0f} | "
            f"{wall['simulate']:,.0f} | {ratio:.2f} | {cpu['simulate'] / cpu['kernel']:.2f} |"
        )
        if old is not None:
            text += (
                f" {wall['old']:,.0f} | {wall['old'] / wall['kernel']:.2f} |"
                f" {cpu['old'] / cpu['kernel']:.2f} |"
            )
        print(text)
    print(f"\nmin ratio {min(ratios):.2f}")


if __name__ == "__main__":
    main()
