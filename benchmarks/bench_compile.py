"""Cold compile of the engine: CPU-seconds and peak memory, then the cached start.

A child process plays one game of each target with an empty numba cache
(``NUMBA_CACHE_DIR`` in a fresh temporary directory), which compiles every
kernel the game needs; a second child does the same with that cache, which only
loads machine code. CPU time (user + system) and peak resident memory come from
the operating system's accounting of the child (``getrusage``), so they count
the compile whatever else the machine is doing; wall time does not and is
printed for information only. Both include starting Python and importing
numpy, pandas and numba (about 2 CPU-seconds and 150 MB).

    .venv/bin/python benchmarks/bench_compile.py                 # this checkout
    .venv/bin/python benchmarks/bench_compile.py --other /tmp/old  # side by side

Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGETS = {
    # every strategy is one kernel branch, so one balanced game compiles the engine
    "engine": "from analyzer.unearth.game import make_job\n"
    "make_job(4, 'balanced', 1, claims=True)(0, 1)\n",
    "odds": "from analyzer.unearth.odds import dice_to_claim_table\n"
    "from analyzer.unearth.rules import default_rules\n"
    "dice_to_claim_table(default_rules())\n",
}
# the other games, through the registry: one game of the default strategy
for _name in ("colorful_treasure", "uruk"):
    TARGETS[_name] = (
        "from analyzer.games import load_game\n"
        f"g = load_game({_name!r})\n"
        "rules = g.load_rules({}, {}, 'rules')\n"
        "g.make_job(g.max_players, [g.default_strategy] * g.max_players, 1, rules)(0, 1)\n"
    )


_REPORT = (
    "\nimport resource\nr = resource.getrusage(resource.RUSAGE_SELF)\n"
    "print(r.ru_utime + r.ru_stime, r.ru_maxrss / 1024)\n"
)


def measure(root: Path, code: str, cache: str) -> tuple[float, float, float]:
    """``(cpu seconds, peak MB, wall seconds)`` of one child running ``code``,
    as the child's own ``getrusage`` reports them (imports included)."""
    t0 = time.perf_counter()
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    prog = f"import sys\nsys.path.insert(0, {str(root.resolve())!r})\n{code}{_REPORT}"
    out = subprocess.run(
        [sys.executable, "-c", prog], check=True, env=env, cwd="/", capture_output=True, text=True
    )
    wall = time.perf_counter() - t0
    cpu, peak = map(float, out.stdout.split()[-2:])
    return cpu, peak, wall


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--other", type=Path, help="a second checkout to measure first")
    ap.add_argument("--targets", default="engine,odds", help=", ".join(TARGETS))
    args = ap.parse_args(argv)
    roots = ([args.other] if args.other else []) + [Path(__file__).resolve().parents[1]]
    print(f"{'checkout':<28} {'target':<8} {'cold CPU-s':>10} {'peak MB':>8} "
          f"{'cold wall-s':>11} {'cached CPU-s':>12}")  # fmt: skip
    for root in roots:
        for name in args.targets.split(","):
            with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
                cpu, peak, wall = measure(root, TARGETS[name], cache)
                warm, _, _ = measure(root, TARGETS[name], cache)
            print(f"{str(root)[-28:]:<28} {name:<8} {cpu:>10.1f} {peak:>8.0f} "
                  f"{wall:>11.1f} {warm:>12.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
