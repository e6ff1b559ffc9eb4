"""The compiled engine of the exact odds: :func:`_odds_kernel` (numba).

Split from :mod:`analyzer.unearth.odds` so that asking a small question needs
neither numba nor this module (:mod:`.odds_tree` answers it in plain Python);
a question too big for that runs here. :func:`run` takes the question as
:func:`analyzer.unearth.odds._prepare` made it and returns the kernel's integer
outcome vector. The walk is described in ``docs/games/unearth.md`` ("How it is computed").
"""

from typing import NamedTuple

import numpy as np

from analyzer.kernels.jit import njit
from analyzer.unearth.claims import NO_CLAIM, TIE, ruin_outcome


class _Work(NamedTuple):
    """Scratch the kernel mutates; rows of the 2-D buffers are stack depths."""

    value: np.ndarray  #: int64[n_dice] values on the ruin (0 = not rolled yet)
    stones: np.ndarray  #: int64[n_players] stones gained along the current path
    left: np.ndarray  #: int64[1] stones left to give, -1 = unlimited
    cards: np.ndarray  #: int64[n_players]
    dist: np.ndarray  #: int64[n_unknown + 2] stone-count distribution (fast path)
    frame: np.ndarray  #: int64[depth, _NF] the explicit stack (fields _I .. _DEC)
    acc: np.ndarray  #: int64[depth, L] result of the frame at that depth
    tot: np.ndarray  #: int64[depth, L] running sum over naturals
    best: np.ndarray  #: int64[depth, L] best option for the chooser
    comb: np.ndarray  #: int64[depth, L] best value within one owner choice


# stack frame fields: die, rolls so far, card modifiers apply, map / edifice
# available, weight, natural, choice, value, phase, flags, keep bookkeeping
_I, _U, _FIRST, _MAP, _EDIF, _W, _N, _C, _V, _PH, _HAVE, _HAVEC, _S, _GOT, _DEC, _HI = range(16)
_NF = 16
_PH_VAL, _PH_EDIF, _PH_MAP, _PH_NEXT, _PH_ENTER, _PH_BEGIN = 0, 1, 2, 3, 4, 5


@njit
def _better(a, ra, b, rb, seat, goal, n_players):
    """Is row ``ra`` of ``a`` a strictly better outcome than row ``rb`` of ``b`` for ``seat``?

    In order: the seat's goal measure (claim numerator for goal 0, stones for
    goal 1); the other of the two; fewer claims by the other seats; more
    consolation cards for the seat; then the whole vector lexicographically
    (a fixed tie-break so that results are unique). Draws no random numbers.
    """
    k1 = seat if goal == 0 else n_players + 2 + seat
    k2 = n_players + 2 + seat if goal == 0 else seat
    if a[ra, k1] != b[rb, k1]:
        return a[ra, k1] > b[rb, k1]
    if a[ra, k2] != b[rb, k2]:
        return a[ra, k2] > b[rb, k2]
    oa = 0
    ob = 0
    for p in range(n_players):
        if p != seat:
            oa += a[ra, p]
            ob += b[rb, p]
    if oa != ob:
        return oa < ob
    kc = 2 * n_players + 2 + seat
    if a[ra, kc] != b[rb, kc]:
        return a[ra, kc] > b[rb, kc]
    for k in range(a.shape[1]):
        if a[ra, k] != b[rb, k]:
            return a[ra, k] > b[rb, k]
    return False


@njit
def _copy_row(src, rs, dst, rd):
    for k in range(src.shape[1]):
        dst[rd, k] = src[rs, k]


@njit
def _terminal(res, with_cards, w, stones, cards, dst, rd):
    """Write row ``rd`` of ``dst``: the outcome vector of a resolved ruin, weight ``w``.

    ``res``: a seat, ``TIE`` or ``NO_CLAIM``; ``stones`` / ``cards``: int64[n_players].
    """
    p_n = stones.shape[0]
    for k in range(dst.shape[1]):
        dst[rd, k] = 0
    if res == NO_CLAIM:
        dst[rd, p_n + 1] = w
    elif res == TIE:
        dst[rd, p_n] = w
    else:
        dst[rd, res] = w
    for p in range(p_n):
        dst[rd, p_n + 2 + p] = stones[p] * w
        if with_cards:
            dst[rd, 2 * p_n + 2 + p] = cards[p] * w


@njit
def _no_claim_rest(owner, faces, first_slot, stone_max, left, w, stones, dist, dst, rd):
    """Row ``rd`` of ``dst``: dice ``first_slot..`` are rolled but nobody can claim.

    Used only when none of those dice can be rerolled, so no choice changes
    anything: each die gives its owner a stone on a natural 1..stone_max while
    stones last (``left``, -1 = unlimited). Exact integer arithmetic: ``w`` is
    divisible by the product of the remaining faces. Draws no random numbers.
    """
    _terminal(NO_CLAIM, False, w, stones, stones, dst, rd)
    p_n = stones.shape[0]
    for k in range(dist.shape[0]):
        dist[k] = 0
    dist[0] = w
    for slot in range(first_slot, faces.shape[0]):
        f = faces[slot]
        sm = min(stone_max, f)
        o = owner[slot]
        if left < 0:
            dst[rd, p_n + 2 + o] += w // f * sm
            continue
        # dist[k]: weight of paths on which k stones were given so far
        for k in range(min(slot - first_slot, left), -1, -1):
            if k < left:
                give = dist[k] // f * sm
                dst[rd, p_n + 2 + o] += give
                dist[k + 1] += give
                dist[k] -= give


@njit
def _odds_kernel(pb, ws, weight, out):
    """Exact outcome vector of a question, as integers over ``weight``.

    A depth-first walk over the roll tree with an explicit stack: frame ``d``
    rolls one die once, its children are the next die or a reroll of the same
    die; choices keep the best child for whoever makes them. ``out``
    (int64[3 * n_players + 2], written): numerators of P(seat claims) for each
    seat, P(tie), P(no claim), E[stones] per seat, E[cards] per seat.
    ``weight`` is the common denominator (product of faces ** max rolls).
    Draws no random numbers.
    """
    # unpack once: reading arrays out of the tuples inside the loop is costly
    owner = pb.owner
    faces = pb.faces
    masks = pb.masks
    n_choice = pb.n_choice
    has_map = pb.has_map
    has_edifice = pb.has_edifice
    has_sanctuary = pb.has_sanctuary
    force = pb.force
    max_rest = pb.max_rest
    no_reroll_from = pb.no_reroll_from
    value = ws.value
    stones = ws.stones
    left = ws.left
    cards = ws.cards
    dist = ws.dist
    fr = ws.frame
    acc = ws.acc
    tot = ws.tot
    best = ws.best
    comb = ws.comb
    p_n = pb.n_players
    n_known = pb.n_known
    n_unknown = pb.n_unknown
    claim_value = pb.claim_value
    stone_max = pb.stone_max
    me = pb.me
    my_goal = pb.goal
    width = acc.shape[1]

    res = ruin_outcome(owner, faces, value, n_known, claim_value, p_n, cards)
    if res != NO_CLAIM:
        _terminal(res, True, weight, stones, cards, acc, 0)
        for k in range(out.shape[0]):
            out[k] = acc[0, k]
        return
    d = 0
    fr[0, _I] = 0
    fr[0, _U] = 0
    fr[0, _FIRST] = 1
    fr[0, _MAP] = 1
    fr[0, _EDIF] = 1
    fr[0, _W] = weight
    fr[0, _PH] = _PH_ENTER
    resume = False
    while d >= 0:
        i = fr[d, _I]
        ph = fr[d, _PH]
        if ph == _PH_ENTER:
            # a new frame: prune if the claim is out of reach, else start at natural lo
            finished = False
            if i == n_unknown:
                _terminal(NO_CLAIM, False, fr[d, _W], stones, cards, acc, d)
                finished = True
            elif fr[d, _U] == 0 and no_reroll_from[i] and force[i] == 0:
                total = 0
                for j in range(n_known + i):
                    total += value[j]
                if total + max_rest[i] < claim_value:
                    _no_claim_rest(
                        owner,
                        faces,
                        n_known + i,
                        stone_max,
                        left[0],
                        fr[d, _W],
                        stones,
                        dist,
                        acc,
                        d,
                    )
                    finished = True
            if finished:
                d -= 1
                resume = True
                continue
            lo = 1
            hi = faces[n_known + i]
            if fr[d, _U] == 0 and force[i] != 0:
                lo = force[i]
                hi = force[i]
            for k in range(width):
                tot[d, k] = 0
            fr[d, _HI] = hi
            fr[d, _N] = lo
            ph = _PH_BEGIN
        slot = n_known + i
        n_faces = faces[slot]
        own = owner[slot]
        goal = my_goal if own == me else 0
        wc = fr[d, _W] // n_faces
        if ph == _PH_BEGIN:
            n = fr[d, _N]
            s = 0
            if has_sanctuary[i]:
                for j in range(slot):
                    if value[j] == n:
                        s = 1
                        break
            fr[d, _S] = s
            fr[d, _C] = 0
            fr[d, _V] = 1
            fr[d, _HAVE] = 0
            fr[d, _HAVEC] = 0
            fr[d, _PH] = _PH_VAL
            ph = _PH_VAL
        n = fr[d, _N]
        if resume:
            resume = False
            if ph == _PH_VAL:
                # back from the next die after keeping value V: undo the keep
                if fr[d, _GOT]:
                    stones[own] -= 1
                if fr[d, _DEC]:
                    left[0] += 1
                value[slot] = 0
                # the asking player picks the value (the order of the modifiers)
                if fr[d, _HAVEC] == 0 or _better(acc, d + 1, comb, d, me, my_goal, p_n):
                    _copy_row(acc, d + 1, comb, d)
                    fr[d, _HAVEC] = 1
                fr[d, _V] += 1
            else:
                # back from a reroll (Edifice or Ancient Map): the owner decides
                if _better(acc, d + 1, best, d, own, goal, p_n):
                    _copy_row(acc, d + 1, best, d)
                ph = _PH_MAP if ph == _PH_EDIF else _PH_NEXT
                fr[d, _PH] = ph
        if ph == _PH_VAL:
            c = fr[d, _C]
            v = fr[d, _V]
            r = 1 - fr[d, _FIRST]
            s = fr[d, _S]
            found = False
            while c < n_choice[i]:
                mask = masks[i, r, s, n, c]
                while v <= n_faces and not (mask >> v) & 1:
                    v += 1
                if v <= n_faces:
                    found = True
                    break
                # this owner choice is done: the owner keeps the better one
                if fr[d, _HAVEC] and (
                    fr[d, _HAVE] == 0 or _better(comb, d, best, d, own, goal, p_n)
                ):
                    _copy_row(comb, d, best, d)
                    fr[d, _HAVE] = 1
                fr[d, _HAVEC] = 0
                c += 1
                v = 1
            fr[d, _C] = c
            fr[d, _V] = v
            if found:
                # keep: the die shows v (natural n); a stone from the natural face
                value[slot] = v
                fr[d, _GOT] = 0
                fr[d, _DEC] = 0
                if n <= stone_max and left[0] != 0:
                    fr[d, _GOT] = 1
                    stones[own] += 1
                    if left[0] > 0:
                        left[0] -= 1
                        fr[d, _DEC] = 1
                # the claim kernel decides; the running total only spares calling it
                total = 0
                for j in range(slot + 1):
                    total += value[j]
                res = NO_CLAIM
                if total >= claim_value:
                    res = ruin_outcome(owner, faces, value, slot + 1, claim_value, p_n, cards)
                if res == NO_CLAIM:
                    e = d + 1
                    fr[e, _I] = i + 1
                    fr[e, _U] = 0
                    fr[e, _FIRST] = 1
                    fr[e, _MAP] = 1
                    fr[e, _EDIF] = 1
                    fr[e, _W] = wc
                    fr[e, _PH] = _PH_ENTER
                    d = e
                    continue
                _terminal(res, True, wc, stones, cards, acc, d + 1)
                resume = True
                continue
            ph = _PH_EDIF
            fr[d, _PH] = ph
        if ph == _PH_EDIF:
            if fr[d, _EDIF] and has_edifice[i] and (pb.edifice_rolls >> n) & 1:
                e = d + 1
                fr[e, _I] = i
                fr[e, _U] = fr[d, _U] + 1
                fr[e, _FIRST] = 0
                fr[e, _MAP] = fr[d, _MAP]
                fr[e, _EDIF] = 0
                fr[e, _W] = wc
                fr[e, _PH] = _PH_ENTER
                d = e
                continue
            ph = _PH_MAP
            fr[d, _PH] = ph
        if ph == _PH_MAP:
            if fr[d, _MAP] and has_map[i]:
                e = d + 1
                fr[e, _I] = i
                fr[e, _U] = fr[d, _U] + 1
                fr[e, _FIRST] = 0
                fr[e, _MAP] = 0
                fr[e, _EDIF] = 1
                fr[e, _W] = wc
                fr[e, _PH] = _PH_ENTER
                d = e
                continue
            fr[d, _PH] = _PH_NEXT
        # every option for natural n seen: add the chosen one, go to the next natural
        for k in range(width):
            tot[d, k] += best[d, k]
        if n < fr[d, _HI]:
            fr[d, _N] = n + 1
            fr[d, _PH] = _PH_BEGIN
            continue
        _copy_row(tot, d, acc, d)
        d -= 1
        resume = True
    for k in range(out.shape[0]):
        out[k] = acc[0, k]


def run(prep) -> list[int]:
    """The outcome vector of a prepared question (``odds._Prepared``): numerators
    over ``prep.weight``, laid out as :func:`_odds_kernel`'s ``out``."""
    p_n = len(prep.players)
    depth, length = prep.depth, prep.length
    work = _Work(
        value=np.array(prep.values, np.int64),
        stones=np.zeros(p_n, np.int64),
        left=np.array([prep.stones_left], np.int64),
        cards=np.zeros(p_n, np.int64),
        dist=np.zeros(prep.problem.n_unknown + 2, np.int64),
        frame=np.zeros((depth, _NF), np.int64),
        acc=np.zeros((depth, length), np.int64),
        tot=np.zeros((depth, length), np.int64),
        best=np.zeros((depth, length), np.int64),
        comb=np.zeros((depth, length), np.int64),
    )
    out = np.zeros(length, np.int64)
    _odds_kernel(prep.problem, work, prep.weight, out)
    return [int(x) for x in out]
