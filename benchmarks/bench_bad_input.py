"""Benchmark of bad input: how long ``analyzer`` takes to say what is wrong.

Each case (:data:`CASES`: a missing file, an unknown option, an unknown key, a
bad value, for the commands people type most) runs ``python -m analyzer ...`` as
a subprocess ``--runs`` times (one unmeasured run first: a warm disk) and prints
the median wall seconds, the exit code and the error line, and whether the
engine (numba) and the report's libraries (matplotlib) were imported before the
answer (``-X importtime`` of one more run). Target (issue 38): every answer
≤ 0.5 s wall, median of 10, warm disk. Figures are printed, never asserted
(``tests/cli/test_bad_input_fast.py`` checks the behaviour: no engine import).

Run: ``.venv/bin/python benchmarks/bench_bad_input.py [--runs 10] [--only run:]
[--root CHECKOUT] [--other OLD_CHECKOUT]`` (``--root``: time another checkout, e.g.
main, the same way; ``--other``: time a second checkout too, its runs alternating
with ``--root``'s, both medians side by side: before/after on the same load).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_UNKNOWN_KEY = 'game = "unearth"\nplayers = 4\ngamez = 100\nstrategies = "balanced"\n'
_BAD_SEARCH = (
    'game = "unearth"\nplayers = 2\ngames = 10\nstrategies = "search"\n'
    "[strategy_params]\nsearch = { budget = 0 }\n"
)
_BAD_OVERRIDE = (
    'game = "unearth"\nplayers = 4\ngames = 100\nstrategies = "balanced"\n'
    '[overrides]\n"wonder_tokens.lesser" = [[2, 2], [3]]\n'
)

#: (name, arguments; ``{unknown_key}``/``{bad_override}`` are scenario files written here)
CASES = (
    ("run: missing file", "run nope/missing.toml"),
    ("run: unknown key", "run {unknown_key}"),
    ("run: override of another shape", "run {bad_override}"),
    ("run: bad search budget", "run {bad_search}"),
    ("run: bad --games", "run scenarios/default.toml --games 0"),
    ("run: unknown option", "run scenarios/default.toml --gamez 10"),
    ("simulate: unknown option", "simulate --bogus"),
    ("simulate: bad --games", "simulate --games -3"),
    ("simulate: unknown strategy", "simulate --strategy nosuch --games 10"),
    ("simulate: unknown --rule", "simulate --rule nosuch=1 --games 10"),
    ("simulate: bad --workers", "simulate --workers 0 --games 10"),
    ("ladder: unknown strategy", "ladder --strategies balanced,nosuch"),
    ("tune: unknown strategy", "tune --strategy nosuch"),
    ("advise: missing state file", "advise nope/table.toml"),
    ("odds: bad dice", "odds --claim 13 --dice blue:d7"),
    ("report: missing folder", "report nope/report"),
)


def _files(tmp: Path) -> dict[str, str]:
    out = {}
    named = (("unknown_key", _UNKNOWN_KEY), ("bad_override", _BAD_OVERRIDE))
    for name, text in (*named, ("bad_search", _BAD_SEARCH)):
        path = tmp / f"{name}.toml"
        path.write_text(text, "utf-8")
        out[name] = str(path)
    return out


def _once(args: list[str], env: dict) -> tuple[float, int, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "analyzer", *args],
        cwd=env["PYTHONPATH"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - t0
    lines = (proc.stderr or proc.stdout).strip().splitlines()
    return wall, proc.returncode, lines[-1] if lines else ""


def _imported(args: list[str], env: dict) -> str:
    """Which heavy libraries the answer imported (``-X importtime``)."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "analyzer", *args],
        cwd=env["PYTHONPATH"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    names = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    heavy = [m for m in ("numba", "pandas", "matplotlib") if m in names]
    return ", ".join(heavy) or "none of numba, pandas, matplotlib"


def _env(root: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "200"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10, help="measured runs per case (median)")
    ap.add_argument("--only", default="", help="run only cases whose name contains this")
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to time")
    ap.add_argument(
        "--other", type=Path, default=None, help="a second checkout, alternated with --root"
    )
    opts = ap.parse_args()
    roots = [opts.root.resolve()] + ([opts.other.resolve()] if opts.other else [])
    envs = [_env(r) for r in roots]
    with tempfile.TemporaryDirectory() as tmp:
        files = _files(Path(tmp))
        print(f"python -m analyzer ... median of {opts.runs} runs, wall seconds")
        for i, root in enumerate(roots):
            print(f"  {'AB'[i]}: {root}")
        heads = " ".join(f"{'AB'[i] + ' median':>8} {'max':>5}" for i in range(len(roots)))
        print(f"{'case':<34} {heads} {'exit':>4}  A imported; A error line")
        medians: list[list[float]] = [[] for _ in roots]
        for name, line in CASES:
            if opts.only and opts.only not in name:
                continue
            args = line.format(**files).split()
            for env in envs:
                _once(args, env)  # a warm disk
            walls: list[list[float]] = [[] for _ in roots]
            code, text = 0, ""
            for _ in range(opts.runs):
                for i, env in enumerate(envs):  # alternated: the same load for both
                    wall, c, t = _once(args, env)
                    walls[i].append(wall)
                    if i == 0:
                        code, text = c, t
            cols = []
            for i in range(len(roots)):
                med = statistics.median(walls[i])
                medians[i].append(med)
                cols.append(f"{med:8.3f} {max(walls[i]):5.2f}")
            heavy = _imported(args, envs[0])
            print(f"{name:<34} {' '.join(cols)} {code:>4}  {heavy}; {text[:100]}")
        for i, meds in enumerate(medians):
            if meds:
                over = sum(m > 0.5 for m in meds)
                print(
                    f"{'AB'[i]}: slowest median {max(meds):.3f} s, median of medians "
                    f"{statistics.median(meds):.3f} s, {over} of {len(meds)} over 0.5 s "
                    "(target: every one <= 0.5 s)"
                )


if __name__ == "__main__":
    main()
