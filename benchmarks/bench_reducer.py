"""Why the reducer keeps a hand-written groupby: it against pandas' groupby, per batch.

For each game, one batch of games (the game's own batch size, four players of its
default strategy, the tables a ``simulate`` keeps) is summed into its partial two
ways: :class:`analyzer.tables.aggregate.Reducer` (the hand-written groupby of
:mod:`analyzer.tables.groupby` with the kernels of :mod:`analyzer.kernels.groupsum`)
and its pandas twin (``tests/pandas_twins.py``: the same rows with pandas'
``groupby`` throughout, the code as first written). Both give the same partial to
the bit (checked here, and by ``tests/tables/test_reducer_twins.py``). Prints the median
CPU milliseconds of each over ``--rounds`` rounds (CPU time of this process: other
jobs on a shared machine disturb it less than wall clock) and the kernel's time
for the same games, the scale the reducer is measured against. Asserts nothing.

    .venv/bin/python benchmarks/bench_reducer.py
    .venv/bin/python benchmarks/bench_reducer.py --games 2000 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the twins live in tests/

#: each game and the strategy its four seats play
GAMES = (("unearth", "random"), ("colorful_treasure", "random"), ("uruk", "random"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=0, help="games per batch (0: the game's)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20251125)
    args = parser.parse_args()

    import pandas as pd

    from analyzer.games import load_game
    from analyzer.runs.driver import ScenarioJob
    from analyzer.tables.aggregate import Reducer
    from tests import pandas_twins as twins

    clock = time.process_time
    print(f"{'game':<18} {'games':>7} {'kernel ms':>10} {'reducer ms':>11} {'pandas ms':>10} ratio")
    for name, strategy in GAMES:
        g = load_game(name)
        rules = g.load_rules({}, {}, "rules")
        job = ScenarioJob(
            jobs=((g.make_job(4, [strategy] * 4, args.seed, rules),),), per_order=10**12
        )
        reducer = Reducer((), game=name, columns=tuple(g.columns(rules)))
        own = twins.GAME_REDUCE_PANDAS[name]
        games = args.games or g.batch_size
        job(0, 50)  # compile / load the game's kernels first
        reducer(job(0, 50))
        kernel, fast, slow = [], [], []
        for r in range(args.rounds):
            t = clock()
            tables = job(r * games, games)
            kernel.append(clock() - t)
            t = clock()
            a = reducer(tables)
            fast.append(clock() - t)
            t = clock()
            b = twins.reduce_pandas(reducer, tables, own)
            slow.append(clock() - t)
            pd.testing.assert_frame_equal(a, b, check_exact=True)
        k, f, s = (1000 * statistics.median(x) for x in (kernel, fast, slow))
        print(f"{name:<18} {games:>7,} {k:>10.1f} {f:>11.1f} {s:>10.1f} {s / f:5.1f}x")


if __name__ == "__main__":
    main()
