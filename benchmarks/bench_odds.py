"""Benchmark of the exact odds engine (printed, never asserted).

1. Seven unknown dice on one ruin (claim 40; d8, d8, d8, d8, d6, d6, d6 of two
   players, alternating): the numba kernel after warm-up against the plain
   Python brute force of ``tests/naive.py`` (Fractions), median of several runs
   each, and the ratio. Targets: kernel under 50 ms, at least 100x faster. The
   plain-Python engine (``odds_tree``, which ``exact_odds`` uses for a question
   this small) is timed beside them.
2. ``analyzer odds ...`` as a subprocess, twice (the second call loads the
   numba cache). Target: under 2 s wall. ``bench_odds_startup.py`` measures the
   one-shot command in CPU seconds, side by side with another checkout.

Run: ``.venv/bin/python benchmarks/bench_odds.py [--naive-runs N] [--kernel-runs N]``
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyzer.unearth.odds import OddsQuestion, exact_odds, parse_dice  # noqa: E402
from analyzer.unearth.rules import default_rules  # noqa: E402
from tests.naive import naive_odds  # noqa: E402

DICE = "a:d8,b:d8,a:d8,b:d8,a:d6,b:d6,a:d6"


def _median_time(fn, runs: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--claim", type=int, default=40)
    ap.add_argument("--kernel-runs", type=int, default=7)
    ap.add_argument("--naive-runs", type=int, default=3)
    args = ap.parse_args()
    rules = default_rules()
    q = OddsQuestion(args.claim, parse_dice(DICE, rules))
    t0 = time.perf_counter()
    exact_odds(q, rules, engine="kernel")  # warm-up (compiles or loads the numba cache)
    warm = time.perf_counter() - t0
    k_time, res = _median_time(lambda: exact_odds(q, rules, engine="kernel"), args.kernel_runs)
    t_time, tree = _median_time(lambda: exact_odds(q, rules, engine="tree"), args.kernel_runs)
    dice = [(d.owner, d.faces, d.value) for d in q.dice]
    n_time, naive = _median_time(lambda: naive_odds(args.claim, dice, "a"), args.naive_runs)
    same = naive["p_win"] == res.p_win and naive["stones"] == res.expected_stones
    print(f"question: claim {args.claim}, dice {DICE} (7 unknown, 2 players)")
    print(f"  warm-up call (compile or cache load): {warm:.3f} s")
    print(f"  kernel (exact_odds, median of {args.kernel_runs}): {k_time * 1000:.1f} ms")
    print(f"  naive twin (Fractions, median of {args.naive_runs}): {n_time:.2f} s")
    print(f"  ratio naive / kernel: {n_time / k_time:.0f}x   same answer: {same}")
    print(
        f"  plain-Python tree (odds_tree, median of {args.kernel_runs}): "
        f"{t_time * 1000:.1f} ms   same answer as the kernel: {tree == res}"
    )
    print(f"  P(claim) = {res.p_claim} = {float(res.p_claim):.6f}")
    cmd = [
        str(ROOT / ".venv" / "bin" / "analyzer"),
        "odds",
        "--claim",
        "13",
        "--dice",
        "blue:d6=5,blue:d6=3,red:d8",
        "--reading-the-stones",
    ]
    for k in (1, 2):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        print(f"  subprocess `analyzer odds ...` call {k}: {time.perf_counter() - t:.2f} s wall")


if __name__ == "__main__":
    main()
