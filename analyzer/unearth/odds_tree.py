"""The exact odds in plain Python: the kernel's walk, each state solved once.

:func:`solve` answers a question prepared by :func:`analyzer.unearth.odds._prepare`
with the very integers :func:`analyzer.unearth.odds_kernel._odds_kernel` gives
(the same numerators over the same denominator), without numba, so that a
small question (``analyzer odds`` at the table) is answered before numba could
even be imported. It walks the same roll tree with the same choices and the
same tie-breaks (``docs/games/unearth.md``, rulings 3-9), recursively instead of with an
explicit stack, and remembers what it found:

- the future of a ruin depends on which dice are on it (their owners, faces and
  values: the claim check, the tiebreak, Sanctuary's "a die of that value"),
  not on the order they came in, nor on the stones given so far (they add the
  same amount to every option of a choice, so no choice changes). So a subtree
  is solved for a *state* (the die to roll next, its reroll flags, the weight,
  the stones left, and the dice on the ruin as a sorted tuple) with the stones
  gained inside it only, and reused wherever the same state comes again;
- the outcome of one kept value is computed once per natural, whichever owner
  choice reaches it.

Its time grows with the number of distinct states, not with the roll
sequences, but in Python; :func:`analyzer.unearth.odds.exact_odds` sends only
small questions here (:data:`analyzer.unearth.odds.TREE_MAX_WEIGHT`).
``tests/unearth/test_odds_tree.py`` checks that both engines agree exactly.
"""

from __future__ import annotations

import bisect

from analyzer.unearth.codes import ClaimResult

NO_CLAIM = int(ClaimResult.NO_CLAIM)
TIE = int(ClaimResult.TIE)
#: dice per player that count in a tiebreak (``analyzer.unearth.claims.RANK_DICE``)
RANK_DICE = 6
#: a die's tiebreak key is value * KEY_SHIFT + faces (``claims.die_key``)
KEY_SHIFT = 32


def solve(prep) -> list[int]:
    """The outcome vector of a prepared question (``odds._Prepared``), as
    :func:`analyzer.unearth.odds_kernel.run` returns it: for each seat the
    numerator of P(claims), then P(tie), P(no claim), E[stones] per seat and
    E[cards] per seat, all over ``prep.weight``. Draws no random numbers."""
    pb = prep.problem
    p_n, n_k, n_u = pb.n_players, pb.n_known, pb.n_unknown
    owner, faces = pb.owner.tolist(), pb.faces.tolist()
    masks, n_choice = pb.masks.tolist(), pb.n_choice.tolist()
    has_map, has_edifice = pb.has_map.tolist(), pb.has_edifice.tolist()
    has_sanctuary, force = pb.has_sanctuary.tolist(), pb.force.tolist()
    max_rest, no_reroll_from = pb.max_rest.tolist(), pb.no_reroll_from.tolist()
    claim, stone_max, me, my_goal = pb.claim_value, pb.stone_max, pb.me, pb.goal
    edifice_rolls, length = pb.edifice_rolls, prep.length
    values = list(prep.values)
    # the dice on the ruin, whatever the order they came in: for each seat its
    # dice's tiebreak keys (``claims.die_key``) negated, ascending (best first),
    # then a 0 (``ranks``); with the next die and its flags, a state
    memo: dict[tuple, list[int]] = {}

    def outcome(ranks: tuple[tuple[int, ...], ...]) -> tuple[int, list[int]]:
        """``claims.ruin_outcome`` of a ruin whose total reaches the claim value:
        the claiming seat or ``TIE``, and the cards each seat draws. A seat's first
        :data:`RANK_DICE` negated keys and the 0 after them compare as the kernel's
        packed ranks, reversed: the smaller tuple is the better rank (the 0 is the
        kernel's missing die, worse than any die)."""
        best = second = None
        best_seat = -1
        for p, rank in enumerate(ranks):
            if len(rank) == 1:  # no dice
                continue
            if len(rank) > RANK_DICE + 1:
                rank = (*rank[:RANK_DICE], 0)
            if best is None or rank < best:
                second, best, best_seat = best, rank, p
            elif second is None or rank < second:
                second = rank
        res = TIE if best == second else best_seat
        return res, [len(rank) - 1 if p != res else 0 for p, rank in enumerate(ranks)]

    def terminal(res: int, cards: list[int] | None, w: int) -> list[int]:
        """A resolved ruin of weight ``w`` (no stones: the caller adds its own)."""
        row = [0] * length
        row[p_n + 1 if res == NO_CLAIM else p_n if res == TIE else res] = w
        if cards is not None:
            for p in range(p_n):
                row[2 * p_n + 2 + p] = cards[p] * w
        return row

    def better(a: list[int], b: list[int], seat: int, goal: int) -> bool:
        """``odds_kernel._better``: is ``a`` strictly better than ``b`` for ``seat``?"""
        k1 = seat if goal == 0 else p_n + 2 + seat
        k2 = p_n + 2 + seat if goal == 0 else seat
        if a[k1] != b[k1]:
            return a[k1] > b[k1]
        if a[k2] != b[k2]:
            return a[k2] > b[k2]
        oa = sum(a[:p_n]) - a[seat]
        ob = sum(b[:p_n]) - b[seat]
        if oa != ob:
            return oa < ob
        kc = 2 * p_n + 2 + seat
        if a[kc] != b[kc]:
            return a[kc] > b[kc]
        return a > b

    def no_claim_rest(first_slot: int, left: int, w: int) -> list[int]:
        """``odds_kernel._no_claim_rest``: dice ``first_slot..`` rolled, nobody can claim."""
        row = terminal(NO_CLAIM, None, w)
        dist = [0] * (n_u + 2)
        dist[0] = w
        for slot in range(first_slot, n_k + n_u):
            f, o = faces[slot], owner[slot]
            sm = min(stone_max, f)
            if left < 0:
                row[p_n + 2 + o] += w // f * sm
                continue
            for k in range(min(slot - first_slot, left), -1, -1):
                if k < left:
                    give = dist[k] // f * sm
                    row[p_n + 2 + o] += give
                    dist[k + 1] += give
                    dist[k] -= give
        return row

    def frame(i, fresh, first, map_ok, edif_ok, w, left, ranks, total):
        """Unknown die ``i`` rolled once (``fresh``: not a reroll; ``first``: its card
        modifiers apply; ``map_ok``, ``edif_ok``: Ancient Map, the Edifice may still
        reroll it), weight ``w``, ``left`` stones to give, the dice on the ruin
        ``ranks`` (:func:`outcome`) totalling ``total``: the subtree's outcome
        vector with the stones given inside it."""
        key = (i, fresh, first, map_ok, edif_ok, w, left, ranks)
        found = memo.get(key)
        if found is not None:
            return found
        if i == n_u:
            row = terminal(NO_CLAIM, None, w)
        elif fresh and no_reroll_from[i] and force[i] == 0 and total + max_rest[i] < claim:
            row = no_claim_rest(n_k + i, left, w)
        else:
            row = roll(i, fresh, first, map_ok, edif_ok, w, left, ranks, total)
        memo[key] = row
        return row

    def keep(i, v, got, left, wc, ranks, total):
        """Die ``i`` shows ``v`` (weight ``wc``; ``got``: its natural gives a stone;
        ``ranks``, ``total``: the dice before it): the claim check, then the next
        die, with the stone."""
        slot = n_k + i
        o, key = owner[slot], -(v * KEY_SHIFT + faces[slot])
        rank = ranks[o]
        k = bisect.bisect_left(rank, key)
        ranks = (*ranks[:o], (*rank[:k], key, *rank[k:]), *ranks[o + 1 :])
        total += v
        values[slot] = v
        if total >= claim and (res := outcome(ranks))[0] != NO_CLAIM:
            row = terminal(res[0], res[1], wc)
        else:
            nleft = left - 1 if got and left > 0 else left
            row = frame(i + 1, True, 1, 1, 1, wc, nleft, ranks, total)
        values[slot] = 0
        if got:
            row = row.copy()
            row[p_n + 2 + owner[slot]] += wc
        return row

    def roll(i, fresh, first, map_ok, edif_ok, w, left, ranks, total):
        """Every natural of die ``i``, the best option of each for whoever chooses, summed."""
        slot = n_k + i
        n_faces, own = faces[slot], owner[slot]
        goal = my_goal if own == me else 0
        wc = w // n_faces
        lo, hi = (force[i], force[i]) if fresh and force[i] else (1, n_faces)
        tot = [0] * length
        for n in range(lo, hi + 1):
            s = 1 if has_sanctuary[i] and n in values[:slot] else 0
            got = n <= stone_max and left != 0
            kept: dict[int, list[int]] = {}

            best = None
            for mask in masks[i][1 - first][s][n][: n_choice[i]]:
                comb = None
                for v in range(1, n_faces + 1):
                    if (mask >> v) & 1:
                        if v not in kept:
                            kept[v] = keep(i, v, got, left, wc, ranks, total)
                        if comb is None or better(kept[v], comb, me, my_goal):
                            comb = kept[v]
                if comb is not None and (best is None or better(comb, best, own, goal)):
                    best = comb
            if edif_ok and has_edifice[i] and (edifice_rolls >> n) & 1:
                row = frame(i, False, 0, map_ok, 0, wc, left, ranks, total)
                if better(row, best, own, goal):
                    best = row
            if map_ok and has_map[i]:
                row = frame(i, False, 0, 0, 1, wc, left, ranks, total)
                if better(row, best, own, goal):
                    best = row
            for k in range(length):
                tot[k] += best[k]
        return tot

    known: list[list[int]] = [[] for _ in range(p_n)]
    for j in range(n_k):
        known[owner[j]].append(-(values[j] * KEY_SHIFT + faces[j]))
    ranks = tuple((*sorted(keys), 0) for keys in known)
    total = sum(values[:n_k])
    res, cards = outcome(ranks) if total >= claim else (NO_CLAIM, None)
    if res != NO_CLAIM:
        return terminal(res, cards, prep.weight)
    return frame(0, True, 1, 1, 1, prep.weight, prep.stones_left, ranks, total)
