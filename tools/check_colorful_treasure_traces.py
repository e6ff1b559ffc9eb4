"""Check Colorful Treasure's traces under every combination of rulings.

The suite (``tests/colorful_treasure/test_colorful_treasure_trace_check.py``) checks 300 games with
each ruling switched alone; this script runs the same independent checker (a
plain Python twin of the rules, importing nothing of the engine) over every
valid combination of the rulings ``analyzer games --rules colorful_treasure``
lists (1,024: the young-player variant has no tiles), ``--games`` games each,
cycling through the line-ups below (2 to 4 players), and prints per ruling value
the games checked and the events read. A trace the checker rejects is printed
with its command (``analyzer replay ... --json``) and the script exits 1.

    python tools/check_colorful_treasure_traces.py [--games 4] [--seed 1]
        [--only tiles=b ...]

About 7 ms of CPU a game: the default (1,024 x 4 games) takes about half a minute
(28 s CPU measured, 4,096 games, seed 1, none failed).
Counts, not timings: the same arguments give the same figures on any machine.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analyzer.games import load_game  # noqa: E402
from tests.colorful_treasure.test_colorful_treasure_trace_check import (  # noqa: E402
    LINE_UPS,
    TraceError,
    check_trace,
    make_trace,
    read_data,
)


def combinations(only: dict[str, str]) -> list[dict]:
    """Every valid combination of the rulings (``only`` fixes some)."""
    specs = load_game("colorful_treasure").ruling_specs()
    names = [s.name for s in specs]
    values = [[only[s.name]] if s.name in only else list(s.values) for s in specs]
    out = []
    for combo in itertools.product(*values):
        r = dict(zip(names, combo, strict=True))
        if r["variant"] == "young" and r["tiles"] != "none":
            continue  # the young-player variant has no tiles
        out.append(r)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4, help="games per combination")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", nargs="*", default=[], help="fix rulings: KEY=VALUE")
    args = ap.parse_args(argv)
    only = dict(x.split("=", 1) for x in args.only)
    data = read_data()
    combos = combinations(only)
    by_value: Counter = Counter()
    kinds: Counter = Counter()
    games = failed = 0
    t0 = time.process_time()
    for c, rulings in enumerate(combos):
        for k in range(args.games):
            index = c * args.games + k
            players, strategies = LINE_UPS[index % len(LINE_UPS)]
            trace = make_trace(players, strategies, args.seed, index, rulings)
            try:
                check_trace(trace, data)
            except TraceError as e:
                failed += 1
                rules = " ".join(f"--rule {a}={b}" for a, b in rulings.items())
                print(
                    f"FAILED: analyzer replay --game colorful_treasure --players {players} "
                    f"--strategy {strategies} --seed {args.seed} --index {index} {rules} "
                    f"--json\n  {e}"
                )
                continue
            games += 1
            for name, value in rulings.items():
                by_value[name, value] += 1
            kinds.update(ev["kind"] for ev in trace["events"])
    cpu = time.process_time() - t0
    print(f"{len(combos)} combinations of rulings, {games} games checked, {failed} failed")
    print(f"events read: {', '.join(f'{k} {v:,}' for k, v in sorted(kinds.items()))}")
    print(f"CPU {cpu:.1f} s ({1000 * cpu / max(games + failed, 1):.1f} ms a game)")
    print("games checked by ruling value:")
    for (name, value), n in sorted(by_value.items()):
        print(f"  {name} = {value}: {n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
