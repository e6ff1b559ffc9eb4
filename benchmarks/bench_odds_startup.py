"""Benchmark of the first answer at the table: a one-shot ``analyzer odds``.

Runs ``python -m analyzer odds --claim 17 --dice a:d8,b:d6,a:d6,b:d4,a:d6,b:d6,a:d4
--json`` (or ``--args``) as a subprocess ``--runs`` times and prints the median
CPU seconds (user + system of the child, from ``resource.getrusage(RUSAGE_CHILDREN)``
deltas: less noisy than wall time on a shared machine) and the median wall seconds.
One run of each side first warms the numba cache (not counted).

With ``--old DIR`` (another checkout, e.g. ``git worktree add /tmp/odds-old main``)
the same command also runs from ``DIR`` (``PYTHONPATH=DIR``, with ``DIR/.venv``'s
Python if there is one, else ``--old-python`` or this one), the two sides
alternately (the order swapped every run), and the ratio old / new of the medians
is printed, with whether both printed the same bytes. ``--parts`` also prints
where the time goes: the median CPU seconds of Python snippets (:data:`PARTS`,
each a fresh process: starting Python, importing numpy, typer and rich, pandas,
numba, the CLI with its commands, the odds module, answering the question), so
that differences between rows are the costs. Figures are printed, never asserted.

Run: ``.venv/bin/python benchmarks/bench_odds_startup.py [--runs 9] [--old /tmp/odds-old]``
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARGS = "odds --claim 17 --dice a:d8,b:d6,a:d6,b:d4,a:d6,b:d6,a:d4 --json"


_Q = (
    "from analyzer.unearth.odds import OddsQuestion, exact_odds, parse_dice\n"
    "q = OddsQuestion(17, parse_dice('a:d8,b:d6,a:d6,b:d4,a:d6,b:d6,a:d4'))\n"
)
#: (what, Python snippet) whose CPU seconds ``--parts`` prints
PARTS = (
    ("start Python", "pass"),
    ("import numpy", "import numpy"),
    ("import typer, rich.console", "import typer, rich.console"),
    ("import pandas", "import pandas"),
    ("import numba", "import numba"),
    ("CLI with every command registered", "import analyzer.cli as c; c._register_commands()"),
    ("import analyzer.unearth.odds", "import analyzer.unearth.odds"),
    ("answer the question (engine: auto)", _Q + "exact_odds(q)"),
    ("answer it with the kernel (new only)", _Q + "exact_odds(q, engine='kernel')"),
)


class Side:
    """One checkout: the Python that runs it and the environment it runs with."""

    def __init__(self, name: str, root: Path, python: str):
        self.name, self.root, self.python = name, root, python
        self.env = {**os.environ, "PYTHONPATH": str(root)}  # and cwd: `-m` puts it first
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.out = b""

    def where(self) -> str:
        """The ``analyzer`` package this side imports (to show the sides differ)."""
        code = "import analyzer; print(analyzer.__file__)"
        done = subprocess.run(
            [self.python, "-c", code], env=self.env, cwd=self.root, capture_output=True, check=True
        )
        return done.stdout.decode().strip()

    def run(self, args: list[str], keep: bool = True) -> None:
        """Run the command once; record its CPU and wall seconds if ``keep``."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run(
            [self.python, "-m", "analyzer", *args], env=self.env, cwd=self.root, capture_output=True
        )
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            sys.exit(f"{self.name}: exit {done.returncode}: {done.stderr.decode().strip()}")
        self.out = done.stdout
        if keep:
            self.cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            self.wall.append(wall)

    def cpu_of(self, code: str, runs: int) -> float | None:
        """Median CPU seconds of ``python -c code`` (None: it fails on this side)."""
        cpu = []
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run(
                [self.python, "-c", code], env=self.env, cwd=self.root, capture_output=True
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if done.returncode != 0:
                return None
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        return statistics.median(cpu)

    def line(self) -> str:
        cpu, wall = statistics.median(self.cpu), statistics.median(self.wall)
        spread = f"{min(self.cpu):.2f}-{max(self.cpu):.2f}"
        return f"{self.name:>4}: median {cpu:.3f} CPU-s (range {spread}), {wall:.3f} s wall"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=9, help="counted runs of each side")
    ap.add_argument("--old", type=Path, help="another checkout to run alternately")
    ap.add_argument("--old-python", help="the Python of --old (default: DIR/.venv's)")
    ap.add_argument("--args", default=ARGS, help="the analyzer command line")
    ap.add_argument("--parts", action="store_true", help="also print where the time goes")
    opts = ap.parse_args()
    args = opts.args.split()
    sides = [Side("new", ROOT, sys.executable)]
    if opts.old is not None:
        venv = opts.old / ".venv" / "bin" / "python"
        python = opts.old_python or (str(venv) if venv.exists() else sys.executable)
        sides.append(Side("old", opts.old.resolve(), python))
    print(f"command: python -m analyzer {opts.args}")
    for side in sides:
        print(f"  {side.name}: {side.where()} ({side.python})")
        side.run(args, keep=False)  # warm the numba cache
    for k in range(opts.runs):
        for side in sides if k % 2 == 0 else sides[::-1]:
            side.run(args)
    for side in sides:
        print(side.line())
    if len(sides) == 2:
        new, old = sides
        cpu = statistics.median(old.cpu) / statistics.median(new.cpu)
        wall = statistics.median(old.wall) / statistics.median(new.wall)
        print(
            f"ratio old / new: {cpu:.2f}x CPU, {wall:.2f}x wall; same output: {old.out == new.out}"
        )
    if opts.parts:
        print("\nwhere the time goes, median CPU-s of a fresh process each:")
        print("| part | " + " | ".join(side.name for side in sides) + " |")
        print("|---|" + "---:|" * len(sides))
        for what, code in PARTS:
            cells = [side.cpu_of(code, max(3, opts.runs // 2)) for side in sides]
            shown = ["-" if c is None else f"{c:.3f}" for c in cells]
            print(f"| {what} | " + " | ".join(shown) + " |")


if __name__ == "__main__":
    main()
