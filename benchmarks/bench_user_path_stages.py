"""Where a Colorful Treasure ``simulate`` batch spends its time, stage by stage.

Complements ``bench_user_path.py`` (which gives the totals): per batch of
``--batch-size`` games (4 players, ``random`` unless ``--strategy``, one core), the
CPU time of

- ``kernel``: ``play_raw`` (state set-up and the compiled kernel);
- ``check``: ``check_results``, the numpy twin of the checks (the invariants and
  the score recomputation, with its own transposed copy of the results); not on
  the user path, which makes the same checks inside ``games_frame``'s sweep;
- ``games_frame``: the games table from the kernel's rows (the checks included);
- ``scenario_job``: the driver's batch function (kernel, tables and its ``cell`` /
  ``order`` columns), minus ``kernel`` and ``games_frame``;
- ``reduce``: the generic reducer (:class:`analyzer.tables.aggregate.Reducer`) with the
  game's own reduce.

Sums over all batches and medians per batch are printed, with the budget the
``0.8`` target of issue #25 leaves (a quarter of the kernel's time). CPU time of
this process (other jobs on a shared machine disturb it less than wall clock).
Prints figures, asserts nothing.

    .venv/bin/python benchmarks/bench_user_path_stages.py
    .venv/bin/python benchmarks/bench_user_path_stages.py --strategy greedy --games 20000
"""

from __future__ import annotations

import argparse
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--batch-size", type=int, default=0, help="0: the game's (20,000)")
    parser.add_argument("--strategy", default="random")
    parser.add_argument("--seed", type=int, default=20251125)
    args = parser.parse_args()

    import analyzer.colorful_treasure.game as ct
    from analyzer.games import load_game
    from analyzer.runs.driver import ScenarioJob
    from analyzer.tables.aggregate import Reducer

    g = load_game("colorful_treasure")
    rules = g.load_rules({}, {}, "rules")
    job = g.make_job(4, [args.strategy] * 4, args.seed, rules)
    args.batch_size = args.batch_size or g.batch_size
    scenario_job = ScenarioJob(jobs=((job,),), per_order=10**12)
    # the run's declared columns, as the driver hands them (else each batch loads the rules)
    reducer = Reducer((), game="colorful_treasure", columns=tuple(g.columns(rules)))
    reducer(scenario_job(0, 100))  # compile / load every kernel first

    clock = time.process_time
    stages: dict[str, list[float]] = {
        k: [] for k in ("kernel", "check", "games_frame", "scenario_job", "reduce")
    }
    for start in range(0, args.games, args.batch_size):
        count = min(args.batch_size, args.games - start)
        t = clock()
        results, wins, _, _ = ct.play_raw(job, start, count)
        stages["kernel"].append(clock() - t)
        t = clock()
        ct.check_results(job, start, results)
        stages["check"].append(clock() - t)
        t = clock()
        ct.games_frame(job, start, count, results, wins)
        stages["games_frame"].append(clock() - t)
        t = clock()
        tables = scenario_job(start, count)
        whole = clock() - t
        stages["scenario_job"].append(whole - stages["kernel"][-1] - stages["games_frame"][-1])
        t = clock()
        reducer(tables)
        stages["reduce"].append(clock() - t)

    kernel = sum(stages["kernel"])
    print(f"colorful_treasure {args.strategy}, 4 players, {args.games:,} games, CPU ms")
    for name, values in stages.items():
        print(
            f"{name:13s} total {sum(values) * 1000:8.1f}  "
            f"median/batch {statistics.median(values) * 1000:7.2f}"
        )
    around = sum(sum(v) for k, v in stages.items() if k not in ("kernel", "check"))
    print(f"around the kernel (before concat and summary) {around * 1000:.1f} ms")
    print(f"budget at ratio 0.8: {kernel / 4 * 1000:.1f} ms")


if __name__ == "__main__":
    main()
