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
    .venv/bin/python benchmarks/bench_compile.py --by-kernel 25    # where the time goes

``--by-kernel N`` also prints the N kernels that took the most CPU time in the
cold child: each kernel's own compile (typing, lowering, LLVM), its callees'
compiles not counted, read from numba's documented event API
(``numba.core.event``, the ``numba:compile`` events).

Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
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

# numba's compile events, nested as the compiles are: a kernel's own CPU time is its
# event's minus the events inside it (its callees compiled for it)
_BY_KERNEL = """
import json, time
from numba.core import event

_stack, _rows = [], []


class _Own(event.Listener):
    def on_start(self, ev):
        _stack.append([time.process_time(), 0.0])

    def on_end(self, ev):
        t0, inner = _stack.pop()
        spent = time.process_time() - t0
        if _stack:
            _stack[-1][1] += spent
        f = ev.data["dispatcher"].py_func
        _rows.append((f"{f.__module__}.{f.__qualname__}", spent - inner))


event.register("numba:compile", _Own())
"""
_BY_KERNEL_REPORT = "\nprint('KERNELS', json.dumps(_rows))\n"


def measure(
    root: Path, code: str, cache: str, kernels: list | None = None
) -> tuple[float, float, float]:
    """``(cpu seconds, peak MB, wall seconds)`` of one child running ``code``,
    as the child's own ``getrusage`` reports them (imports included); with a
    list ``kernels``, the child's ``(kernel, own CPU-s)`` of each compile are
    appended to it."""
    t0 = time.perf_counter()
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    prog = f"import sys\nsys.path.insert(0, {str(root.resolve())!r})\n"
    if kernels is not None:
        prog += _BY_KERNEL + code + _BY_KERNEL_REPORT
    else:
        prog += code
    out = subprocess.run(
        [sys.executable, "-c", prog + _REPORT],
        check=True,
        env=env,
        cwd="/",
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - t0
    lines = out.stdout.splitlines()
    if kernels is not None:
        kernels.extend(json.loads(next(x for x in lines if x.startswith("KERNELS "))[8:]))
    cpu, peak = map(float, lines[-1].split())
    return cpu, peak, wall


def print_kernels(rows: list, top: int) -> None:
    """The ``top`` kernels by own compile CPU-s, and the rest summed."""
    own: dict[str, float] = {}
    for name, spent in rows:
        own[name] = own.get(name, 0.0) + spent
    ranked = sorted(own.items(), key=lambda kv: -kv[1])
    print(f"  {len(rows)} compiles of {len(own)} kernels, {sum(own.values()):.1f} CPU-s in all")
    for name, spent in ranked[:top]:
        print(f"  {spent:8.2f}  {name}")
    rest = ranked[top:]
    if rest:
        print(f"  {sum(v for _, v in rest):8.2f}  the other {len(rest)} kernels")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--other", type=Path, help="a second checkout to measure first")
    ap.add_argument("--targets", default="engine,odds", help=", ".join(TARGETS))
    ap.add_argument(
        "--by-kernel", type=int, default=0, metavar="N", help="the N costliest kernels too"
    )
    args = ap.parse_args(argv)
    roots = ([args.other] if args.other else []) + [Path(__file__).resolve().parents[1]]
    print(f"{'checkout':<28} {'target':<8} {'cold CPU-s':>10} {'peak MB':>8} "
          f"{'cold wall-s':>11} {'cached CPU-s':>12}")  # fmt: skip
    for root in roots:
        for name in args.targets.split(","):
            rows = [] if args.by_kernel else None
            with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
                cpu, peak, wall = measure(root, TARGETS[name], cache, rows)
                warm, _, _ = measure(root, TARGETS[name], cache)
            print(f"{str(root)[-28:]:<28} {name:<8} {cpu:>10.1f} {peak:>8.0f} "
                  f"{wall:>11.1f} {warm:>12.1f}")  # fmt: skip
            if rows is not None:
                print_kernels(rows, args.by_kernel)


if __name__ == "__main__":
    main()
