"""Experiment: where Colorful Treasure's chosen wasted last turns come from, at 2
players (the game's last turn is then the only turn after the end): for each
game with one, which reveal of the turn first showed a key or chest (1, 2 or 3,
the optional one) and how many cards the turn revealed.

    python studies/2026-11-29-end-game/third_reveal.py --games 600 --seed 39

Prints one JSON line per strategy. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import collections
import json


def main(argv=None) -> None:
    from analyzer.colorful_treasure import state as S
    from analyzer.colorful_treasure.codes import Kind
    from analyzer.colorful_treasure.end_game import late_turns_from_trace
    from analyzer.colorful_treasure.game import make_job, play_raw

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--seed", type=int, default=39)
    a = ap.parse_args(argv)
    for name in ("greedy", "random"):
        job = make_job(2, [name] * 2, seed=a.seed)
        t = job.rules.tables
        why: collections.Counter = collections.Counter()
        for g in range(a.games):
            _r, _w, _s, s = play_raw(job, g, 1, trace_rows=5000)
            rows = s.trace[: int(s.sc[S.S_TRACE_N])].tolist()
            if late_turns_from_trace(rows, 2, t)[1].sum() == 0:
                continue
            last = max(r[1] for r in rows if r[0] == S.EV_REVEAL)
            shown = [
                (r[5], int(t.card_kind[r[4]])) for r in rows if r[0] == S.EV_REVEAL and r[1] == last
            ]
            first = next(k for k, kind in shown if kind in (Kind.KEY, Kind.CHEST))
            why[f"first key or chest at reveal {first} of {len(shown)}"] += 1
        print(json.dumps({"strategy": name, "games": a.games, "seed": a.seed, **dict(why)}))


if __name__ == "__main__":
    main()
