"""Colorful Treasure with action tiles: how often the sixth colour tile completes the
gem reward, and how often one turn brings two tiles (``docs/games/colorful_treasure.md``,
"Advanced rules: action tiles", rulings ``tile_timing`` and ``tile_offers``).

Replays each game's trace (the engine's own record of every card taken, steal, tile
taken and reward) and counts, per line-up:

- ``gem rewards``: games whose gem reward was taken;
- ``by the sixth colour``: of those, the rewards taken while the seat held fewer
  gem colours than the reward asks (the sixth colour tile made up the difference),
  and ``in its turn``: of these, the ones taken in the very turn the seat took the
  tile (only ``tile_timing = before_rewards`` allows it);
- ``sixth colour one short``: sixth colour tiles taken by a seat one colour short of
  an open gem reward, and ``then rewarded``: how many of those seats took the gem
  reward later in the game (with ``tile_timing = after_rewards`` the tile counts
  from the seat's next turn on, so another seat may complete the reward first);
- ``two tiles in a turn``: seat-turns in which a seat took two tiles or more (only
  ``tile_offers = per_colour`` allows it).

    python studies/2026-11-25-rules-colorful-treasure/ct_tiles_counts.py \\
        [--games 2000] [--players 4] [--seed 1]
        [--tiles b] [--rule tile_timing=after_rewards ...]
        [--lineups random greedy perfect hunter random,greedy,perfect,hunter]

Counts, not timings: the same arguments give the same figures on any machine.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from analyzer.colorful_treasure.codes import Effect, Kind, Reward
from analyzer.colorful_treasure.game import make_job, play_raw
from analyzer.colorful_treasure.rules import load_rules
from analyzer.colorful_treasure.state import (
    EV_REWARD,
    EV_STEAL,
    EV_TAKE,
    EV_TILE_TAKE,
    S_TRACE_N,
)

TRACE_ROWS = 4000  #: room for one game's events


def count_game(rules, players: int, trace: np.ndarray, rows: int) -> Counter:
    """The counts of one game from its trace (module docstring)."""
    t = rules.tables
    goal = int(t.gem_goal[players])
    gems = np.zeros((players, t.n_colours), np.int64)
    sixth = np.zeros(players, np.int64)
    sixth_turn = np.full(players, -1, np.int64)
    one_short: list[int] = []  # seats that took a sixth colour one colour short
    took = Counter()
    out = Counter()
    gem_owner = -1
    for ev, turn, seat, a, b, *_ in trace[:rows]:
        if ev == EV_TAKE and t.card_kind[a] == Kind.GEM:
            gems[seat, t.card_colour[a]] += 1
        elif ev == EV_STEAL and b >= 0 and t.card_kind[b] == Kind.GEM:
            gems[a, t.card_colour[b]] -= 1
            gems[seat, t.card_colour[b]] += 1
        elif ev == EV_TILE_TAKE:
            took[turn, seat] += 1
            if b == Effect.SIXTH_COLOUR:
                if gem_owner < 0 and (gems[seat] > 0).sum() + sixth[seat] + 1 >= goal:
                    one_short.append(seat)
                sixth[seat] += 1
                sixth_turn[seat] = turn
        elif ev == EV_REWARD and a == Reward.GEM:
            gem_owner = seat
            out["gem rewards"] += 1
            if (gems[seat] > 0).sum() < goal:
                out["by the sixth colour"] += 1
                out["in its turn"] += int(sixth_turn[seat] == turn)
    out["sixth colour one short"] += len(one_short)
    out["then rewarded"] += sum(seat == gem_owner for seat in one_short)
    out["two tiles in a turn"] += sum(k >= 2 for k in took.values())
    return out


def count(lineup: str, rulings: dict, players: int, games: int, seed: int) -> Counter:
    rules = load_rules(rulings)
    job = make_job(players, lineup, seed=seed, rules=rules, steals=False)
    total = Counter()
    for g in range(games):
        _, _, _, s = play_raw(job, g, 1, trace_rows=TRACE_ROWS)
        rows = int(s.sc[S_TRACE_N])
        if rows > TRACE_ROWS:
            raise RuntimeError(f"game {g}: {rows} events, more than {TRACE_ROWS}")
        total += count_game(rules, players, s.trace, rows)
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tiles", default="b")
    ap.add_argument("--rule", action="append", default=[], help="NAME=VALUE, another ruling")
    ap.add_argument(
        "--lineups",
        nargs="+",
        default=["random", "greedy", "perfect", "hunter", "random,greedy,perfect,hunter"],
    )
    args = ap.parse_args()
    rulings = {"tiles": args.tiles} | dict(r.split("=", 1) for r in args.rule)
    keys = (
        "gem rewards",
        "by the sixth colour",
        "in its turn",
        "sixth colour one short",
        "then rewarded",
        "two tiles in a turn",
    )
    print(f"{args.games} games of {args.players} players, seed {args.seed}, rulings {rulings}\n")
    print("| line-up | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    for lineup in args.lineups:
        c = count(lineup, rulings, args.players, args.games, args.seed)
        print(f"| {lineup} | " + " | ".join(f"{c[k]:,}" for k in keys) + " |")


if __name__ == "__main__":
    main()
