"""Experiment (context, no bound): Unearth's delver cards kept through a seat's last turn.

A delver card scores nothing at the end; its play is free. Per seat, the cards
it held when its last turn began (after the end-of-age card was revealed) and
never played, by kind, and how often that turn began with a single ruin on the
table. Which of them had a use is not in the trace (an Expedition with one ruin
left does nothing; an Ancient Map's reroll or Reading the Stones' +1/-1 always
may help, and the seat does not know the turn is its last: another seat's roll
may or may not claim the last ruin before its next turn).

    python studies/2026-11-29-end-game/kept_cards.py --games 1000 --seed 39

Prints one JSON line per (strategy, players). Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json


def kept(rows, players: int, kinds: int):
    """Per seat: (cards by kind held at the start of its last turn and never
    played, the last turn began after the end was certain, with one ruin left)."""
    from analyzer.unearth import state as S

    last = [-1] * players
    for r in rows:
        if r[0] == S.EV_DECLARE:
            last[r[2]] = r[1]
    eoa, ended, table = None, False, set()
    hand = [[0] * kinds for _ in range(players)]
    at_start = [None] * players
    played_after = [[0] * kinds for _ in range(players)]
    seen_turns = set()
    for ev, turn, seat, a, b, *_ in rows:
        if ev == S.EV_EOA_CARD:
            eoa = a
            continue
        if turn not in seen_turns and turn > 0:
            seen_turns.add(turn)
            for p in range(players):
                if turn == last[p]:
                    at_start[p] = (list(hand[p]), ended, len(table) == 1)
        if ev == S.EV_DRAW and seat >= 0:
            hand[seat][a] += 1
        elif ev == S.EV_PLAY:
            hand[seat][a] -= 1
            if last[seat] >= 0 and turn >= last[seat]:
                played_after[seat][a] += 1
        elif ev == S.EV_EVENT:
            ended = True
        elif ev == S.EV_REVEAL:
            table.add(a)
            ended = ended or b == eoa
        elif ev == S.EV_CLAIM:
            table.discard(a)
    out = []
    for p in range(players):
        if at_start[p] is None or not at_start[p][1]:
            out.append(None)
            continue
        start, _, alone = at_start[p]
        left = [max(0, start[k] - played_after[p][k]) for k in range(kinds)]
        out.append((left, alone))
    return out


def main(argv=None) -> None:
    from analyzer.unearth import state as S
    from analyzer.unearth.game import make_job, play_raw
    from analyzer.unearth.replay import DEFAULT_TRACE_ROWS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=39)
    a = ap.parse_args(argv)
    for name in ("balanced", "baseline"):
        for n in (2, 3, 4):
            job = make_job(n, [name] * n, seed=a.seed)
            ids = job.rules.delver_ids
            seats = with_card = alone = 0
            by_kind = [0] * len(ids)
            sure = 0  # seats keeping an Ancient Map or Reading the Stones with one ruin left
            for g in range(a.games):
                _r, _w, _c, s = play_raw(job, g, 1, trace_rows=DEFAULT_TRACE_ROWS)
                rows = s.trace[: int(s.sc[S.S_TRACE_N])].tolist()
                for x in kept(rows, n, len(ids)):
                    seats += 1
                    if x is None or sum(x[0]) == 0:
                        continue
                    with_card += 1
                    alone += x[1]
                    by_kind = [u + v for u, v in zip(by_kind, x[0], strict=True)]
                    free = x[0][ids.index("ancient_map")] + x[0][ids.index("reading_the_stones")]
                    sure += bool(x[1] and free)
            print(
                json.dumps(
                    {
                        "strategy": name,
                        "players": n,
                        "games": a.games,
                        "seed": a.seed,
                        "seats": seats,
                        "share_keeping_a_card": round(with_card / seats, 4),
                        "share_keeping_a_card_with_one_ruin_left": round(alone / seats, 4),
                        "share_keeping_map_or_reading_with_one_ruin_left": round(sure / seats, 4),
                        "kept_by_kind": dict(zip(ids, by_kind, strict=True)),
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
