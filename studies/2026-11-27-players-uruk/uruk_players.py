"""Uruk: one strategy against a field, seats rotated, on common random numbers.

The measured effect of a player change (``docs/strategies.md``, "Uruk"): strategy
``--strategy`` (with ``--param NAME=VALUE`` overrides) in one seat against
``--field`` (default ``baseline``) in every other seat, the tuned seat rotated
through every seat on the same game seeds (2 players: seats swapped). Per game,
the strategy's win share averaged over its seatings; the mean over games with a
95% interval (1.96 standard errors over games), beside the fair share 1/players.

Also, over the strategy's seats: score, trades (hand cards traded, and the share
of seat-games with a trade), card actions, resources left, and, from the traces
of the first ``--trace-games`` games, the share of seats that spend an action of
their last turn taking a card that stays in hand (taken, and no invention made
after it in that turn).

``--save FILE`` keeps the per-game win shares; ``--against FILE`` (same
players, games and seed, saved by another version of the code) prints the
paired difference, this run minus that one, with its 95% interval: the effect
of a code change on the same games.

    python studies/2026-11-27-players-uruk/uruk_players.py \\
        --players 2 --strategy balanced --games 4000 \\
        --seed 1 [--field baseline] [--param w_card=0.5] [--rule NAME=VALUE]
        [--trace-games 500] [--save a.npy] [--against b.npy]

Counts, not timings: the same arguments give the same figures on any machine.
"""

from __future__ import annotations

import argparse

import numpy as np

from analyzer.uruk import state as S
from analyzer.uruk.game import make_job, play_raw, simulate
from analyzer.uruk.replay import DEFAULT_TRACE_ROWS
from analyzer.uruk.rules import load_rules


def lineups(strategy: str, field: str, players: int) -> list[tuple[str, ...]]:
    """The strategy in each seat in turn, the field everywhere else."""
    return [tuple(strategy if i == k else field for i in range(players)) for k in range(players)]


def last_turn_waste(job, games: int, seat: int) -> float:
    """Share of games in which ``seat`` takes a card in its last turn that it
    does not use in a make later in that turn."""
    wasted = 0
    state = None
    for g in range(games):
        _, _, state = play_raw(job, g, 1, trace_rows=DEFAULT_TRACE_ROWS, state=state)
        rows = state.trace[: int(state.sc[S.S_TRACE_N])]
        if int(state.sc[S.S_CAPPED]):
            continue
        turns = np.flatnonzero((rows[:, 0] == S.EV_TURN) & (rows[:, 2] == seat))
        if len(turns) == 0:
            continue
        last = rows[turns[-1] :]
        last = last[(last[:, 1] == last[0, 1])]  # the rows of that turn
        taken = []
        for ev, _, p, a, _, _ in last:
            if p != seat:
                continue
            if ev == S.EV_TAKE_CARD:
                taken.append(a)
            elif ev == S.EV_MAKE and a in taken:
                taken.remove(a)
        wasted += 1 if taken else 0
    return wasted / games


def measure(args) -> dict:
    rules = load_rules({}, rulings=dict(r.split("=", 1) for r in args.rule))
    params = {k: float(v) for k, v in (p.split("=", 1) for p in args.param)}
    sp = {args.strategy: params} if params else None
    n = args.players
    win = np.zeros(args.games)
    cols = {"score": 0.0, "traded": 0.0, "trade_share": 0.0, "card_actions": 0.0}
    cols["resources_left"] = 0.0
    waste = []
    for k, lineup in enumerate(lineups(args.strategy, args.field, n)):
        t = simulate(n, list(lineup), args.games, seed=args.seed, rules=rules, strategy_params=sp)
        mine = t[t["seat"] == k]
        win += mine["win"].to_numpy() / n
        for c in ("score", "traded", "card_actions", "resources_left"):
            cols[c] += mine[c].mean() / n
        cols["trade_share"] += (mine["traded"] > 0).mean() / n
        if args.trace_games:
            job = make_job(n, list(lineup), args.seed, rules, strategy_params=sp)
            waste.append(last_turn_waste(job, args.trace_games, k))
    out = {"win": win, **cols}
    if waste:
        out["last_turn_waste"] = float(np.mean(waste))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--strategy", default="balanced")
    ap.add_argument("--field", default="baseline")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--param", action="append", default=[])
    ap.add_argument("--rule", action="append", default=[])
    ap.add_argument("--trace-games", type=int, default=0)
    ap.add_argument("--save")
    ap.add_argument("--against")
    args = ap.parse_args(argv)
    m = measure(args)
    w = m["win"]
    half = 1.96 * w.std(ddof=1) / np.sqrt(len(w))
    print(
        f"{args.strategy} {' '.join(args.param)} vs {args.field} x{args.players - 1}, "
        f"{args.players} players, {args.games} games x {args.players} seatings, seed {args.seed}"
        + (f", rules {' '.join(args.rule)}" if args.rule else "")
    )
    print(
        f"  win share {w.mean():.3f} [{w.mean() - half:.3f}, {w.mean() + half:.3f}] "
        f"(fair {1 / args.players:.3f}); score {m['score']:.2f}; traded {m['traded']:.3f} "
        f"cards/game (in {m['trade_share']:.3f} of seat-games); card actions "
        f"{m['card_actions']:.3f}/game; resources left {m['resources_left']:.2f}"
    )
    if "last_turn_waste" in m:
        print(
            f"  last turn: {m['last_turn_waste']:.3f} of seats take a card that stays in hand "
            f"({args.trace_games} games per seating)"
        )
    if args.against:
        old = np.load(args.against)
        if old.shape != w.shape:
            raise SystemExit(f"--against {args.against}: {old.shape[0]} games, not {len(w)}")
        d = w - old
        h = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
        print(
            f"  against {args.against} (same games): {old.mean():.3f} -> {w.mean():.3f}, "
            f"difference {d.mean():+.3f} [{d.mean() - h:+.3f}, {d.mean() + h:+.3f}]"
        )
    if args.save:
        np.save(args.save, w)


if __name__ == "__main__":
    main()
