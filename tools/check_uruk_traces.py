"""Check Uruk traces over every combination of rulings (outside the test suite).

Plays ``--games`` games for each of the 64 combinations of the six Uruk rulings
(``analyzer games --rules uruk``), 2 to 4 players and mixed line-ups, takes each
game's checkable trace (what ``analyzer replay --game uruk --json`` prints) and
runs the independent checker of ``tests/uruk/test_uruk_trace_check.py`` on it (a
plain Python twin of the rules that imports nothing of the engine). Prints one
line per combination (games, events, failures, seconds) and the totals; the
exit status is 1 if any trace failed, with the first failures named (seed, game
index, players, strategies, rulings: ``analyzer replay`` shows that game again).

    python tools/check_uruk_traces.py                # 50 games per combination
    python tools/check_uruk_traces.py --games 200 --seed 7
    python tools/check_uruk_traces.py --only settlement_on_replace=to_pool

Seconds are printed for orientation only; nothing here is a speed test.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.uruk.test_uruk_trace_check import RULING_VALUES, TraceError, check_trace, games  # noqa: E402


def combinations(only: list[str]) -> list[dict]:
    bad = [x for x in only if "=" not in x]
    if bad:
        sys.exit(f"--only: {bad[0]!r} is not NAME=VALUE (e.g. settlement_on_replace=to_pool)")
    fixed = dict(x.split("=", 1) for x in only)
    for k, v in fixed.items():
        if k not in RULING_VALUES or v not in RULING_VALUES[k]:
            allowed = ", ".join(f"{r}={'|'.join(vs)}" for r, vs in RULING_VALUES.items())
            sys.exit(f"--only: {k}={v} is not a ruling value (allowed: {allowed})")
    names = list(RULING_VALUES)
    out = []
    for values in itertools.product(*RULING_VALUES.values()):
        combo = dict(zip(names, values, strict=True))
        if all(combo[k] == v for k, v in fixed.items()):
            out.append(combo)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=50, help="games per combination (default 50)")
    ap.add_argument("--seed", type=int, default=20260127, help="seed of the runs")
    ap.add_argument("--only", action="append", default=[], help="fix a ruling NAME=VALUE")
    args = ap.parse_args()
    if args.games < 1:
        sys.exit("--games: must be at least 1")
    total = events = 0
    failures = []
    t_all = time.perf_counter()
    for combo in combinations(args.only):
        t0 = time.perf_counter()
        bad = 0
        for g, tr in enumerate(games(combo, args.games, args.seed)):
            events += len(tr["events"])
            total += 1
            try:
                check_trace(tr)
            except TraceError as e:
                bad += 1
                failures.append((g, tr["players"], tr["strategies"], combo, str(e)[:300]))
        label = ",".join(f"{k}={v}" for k, v in combo.items() if v != RULING_VALUES[k][0])
        print(
            f"{label or 'defaults':<90} {args.games:5d} games  {bad:3d} failed"
            f"  {time.perf_counter() - t0:6.1f} s"
        )
    print(
        f"total: {total} games, {events:,} events, {len(failures)} failed, "
        f"{time.perf_counter() - t_all:.0f} s (seed {args.seed})"
    )
    for g, n, strategies, combo, why in failures[:10]:
        print(f"FAILED game {g} ({n} players, {','.join(strategies)}, {combo}): {why}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
