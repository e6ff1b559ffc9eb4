"""Decisions of the simulated players (``docs/rules/colorful-treasure.md``,
"Players and memory").

A strategy sees what a person at the table sees: which positions still hold a
card, the cards face up now, every card taken (so what is left of each wonder),
and what it remembers (``s.mem``). :func:`build_view` turns that into
``s.known`` (cards in the grid the seat knows the place of) and ``s.unk``
(cards of each wonder it does not know); no decision reads the card at a
face-down position it does not know. To reveal an unknown card of a wonder it
picks uniformly among that column's unknown positions (:func:`pick_unknown`).

Two plans (:class:`~analyzer.colorful_treasure.codes.Plan`):

- ``RANDOM``: uniform among the legal choices at every decision;
- ``EXPECT``: expected value of each choice, from its knowledge: a known card
  is certain, an unknown place of a wonder holds each of the wonder's unknown
  cards with equal chance (exact for perfect memory, and for any memory that
  forgets independently of what the card is). Values are points gained now
  (cards, rewards completed, a steal's own gain) plus the strategy's weights:
  ``treasure`` per key or chest card, ``reward`` per step towards an open
  reward, ``deny`` times what a steal takes from the victim. ``third`` is the
  least gain for an extra reveal. ``greedy``, ``perfect`` and ``hunter`` are
  ``EXPECT`` rows of ``data/players.toml``.

Slots: a candidate reveal is a known card (``slot >= 0``, the card id) or "an
unknown place of wonder ``w``" (``slot = -1 - w``).
"""

from analyzer.colorful_treasure.codes import (
    P_DENY,
    P_REWARD,
    P_THIRD,
    P_TREASURE,
    Kind,
    Plan,
)
from analyzer.colorful_treasure.state import (
    H_CARDS,
    H_CHESTS,
    H_COLOURS,
    H_DIAMOND,
    H_KEYS,
    H_PLASTIC,
    H_TREASURE,
    H_WONDERS,
    S_N_UP,
    S_TURN,
)
from analyzer.colorful_treasure.turn import (
    explorer_open,
    face_down,
    face_down_count,
    gem_open,
    gem_points,
    random_index,
)
from analyzer.jit import njit

#: weight of a new wonder towards the explorer reward, relative to ``reward``
EXPLORER_STEP = 0.5
NEG = -1.0e18

# ------------------------------------------------------------------ what a seat knows


@njit
def build_view(s, t, seat):
    """Fill ``s.known``, ``s.unk``, ``s.n_unk`` for ``seat`` from public facts and its memory."""
    turn = s.sc[S_TURN]
    rows = t.rows
    for w in range(t.n_wonders):
        s.n_unk[w] = 0
        for k in range(rows):
            c = w * rows + k
            s.known[c] = 0
            if s.owner[c] >= 0:
                continue  # taken: public, not in the grid
            if s.mem[seat, c] >= turn:
                s.known[c] = 1
    for i in range(s.sc[S_N_UP]):
        s.known[s.grid[s.up[i]]] = 1  # face up: everyone sees it
    for w in range(t.n_wonders):
        for k in range(rows):
            c = w * rows + k
            if s.owner[c] < 0 and s.known[c] == 0:
                s.unk[w, s.n_unk[w]] = c
                s.n_unk[w] += 1


@njit
def pick_unknown(s, t, w):
    """A position of column ``w``, face down, whose card the deciding seat does not
    know (view of :func:`build_view`), uniform among them. Reads only which places
    are empty and where the known cards lie."""
    rows = t.rows
    count = 0
    for r in range(rows):
        p = w * rows + r
        if _unknown_place(s, t, w, p):
            count += 1
    k = random_index(s, count)
    for r in range(rows):
        p = w * rows + r
        if _unknown_place(s, t, w, p):
            if k == 0:
                return p
            k -= 1
    return -1


@njit
def _unknown_place(s, t, w, p):
    if not face_down(s, p):
        return False
    for k in range(t.rows):
        c = w * t.rows + k
        if s.owner[c] < 0 and s.known[c] == 1 and s.pos_of[c] == p:
            return False
    return True


@njit
def slot_position(s, t, slot):
    """The position to reveal for ``slot`` (a known card, or an unknown place of a wonder)."""
    if slot >= 0:
        return s.pos_of[slot]
    return pick_unknown(s, t, -1 - slot)


@njit
def _kind_key(t, card):
    """0 .. n_colours + 2: the card's gem colour, or diamond, key, chest after them."""
    kind = t.card_kind[card]
    if kind == Kind.GEM:
        return t.card_colour[card]
    return t.n_colours + kind - Kind.DIAMOND


@njit
def card_class(s, t, seat, card):
    """The card's kind (gem colour, diamond, key, chest) and whether its wonder is new
    to ``seat``, as one int: all a take's value depends on (a wonder holds one card
    of each kind, so two cards of one kind are of different wonders)."""
    return 2 * _kind_key(t, card) + (s.wcards[seat, t.card_wonder[card]] == 0)


@njit
def list_slots(s, t, seat):
    """Candidate reveals into ``s.slots``: known face-down cards, at most two of each
    class (kind, and whether the wonder is new to ``seat``: cards of one class are
    worth the same, and two of one kind lie in different wonders), then every
    wonder with unknown cards. Returns how many."""
    for j in range(s.class_n.shape[0]):
        s.class_n[j] = 0
    m = 0
    for c in range(t.n_cards):
        if s.known[c] == 1 and face_down(s, s.pos_of[c]):
            key = card_class(s, t, seat, c)
            if s.class_n[key] < 2:
                s.class_n[key] += 1
                s.slots[m] = c
                m += 1
    for w in range(t.n_wonders):
        if s.n_unk[w] > 0:
            s.slots[m] = -1 - w
            m += 1
    return m


# ------------------------------------------------------------------ values


@njit
def _set_value(s, t, seat, n, m, first):
    """Value for ``seat`` of taking the cards of ``s.hyp[:m]`` of the same kind as
    ``s.hyp[first]`` (a gem colour or diamond)."""
    prm = s.prm
    c0 = s.hyp[first]
    kind = t.card_kind[c0]
    cnt = 0
    new_w = 0
    for i in range(first, m):
        c = s.hyp[i]
        if t.card_kind[c] != kind or (kind == Kind.GEM and t.card_colour[c] != t.card_colour[c0]):
            continue
        cnt += 1
        w = t.card_wonder[c]
        if s.wcards[seat, w] == 0:
            dup = False
            for j in range(first, i):
                cj = s.hyp[j]
                same = t.card_kind[cj] == kind and (
                    kind != Kind.GEM or t.card_colour[cj] == t.card_colour[c0]
                )
                if same and t.card_wonder[cj] == w:
                    dup = True
            if not dup:
                new_w += 1
    val = 0.0
    if kind == Kind.GEM:
        g = t.card_colour[c0]
        have = s.gems[seat, g]
        val = float(gem_points(t, have + cnt) - gem_points(t, have))
        if have == 0 and gem_open(s, t):
            val += prm[seat, P_REWARD]
            if s.held[seat, H_COLOURS] + 1 >= t.gem_goal[n]:
                val += t.gem_reward[n]
    else:
        val = float(cnt * (t.diamond_card + t.plastic_diamond))
    if new_w > 0 and explorer_open(s, t):
        val += EXPLORER_STEP * prm[seat, P_REWARD] * new_w
        if s.held[seat, H_WONDERS] + new_w >= t.explorer_goal:
            val += t.explorer_points
    return val


@njit
def take_value(s, t, seat, n, m, sv):
    """Best value for ``seat`` of the take the rules allow with ``s.hyp[:m]`` face up.

    Keys or chests among them: they are taken (their weight, new wonders, and
    ``sv`` for every pair of markers completed). Otherwise the best kind.
    Returns ``(value, kind)``: kind -2 for the treasure take, else the index
    in ``s.hyp`` of a card of the best kind (-1 if nothing is worth taking).
    """
    prm = s.prm
    keys = 0
    chests = 0
    for i in range(m):
        kind = t.card_kind[s.hyp[i]]
        if kind == Kind.KEY:
            keys += 1
        elif kind == Kind.CHEST:
            chests += 1
    if keys + chests > 0:
        val = prm[seat, P_TREASURE] * (keys + chests)
        hk = s.held[seat, H_KEYS]
        hc = s.held[seat, H_CHESTS]
        val += sv * (min(hk + keys, hc + chests) - min(hk, hc))
        if explorer_open(s, t):
            new_w = 0
            for i in range(m):
                c = s.hyp[i]
                kind = t.card_kind[c]
                if (kind == Kind.KEY or kind == Kind.CHEST) and s.wcards[
                    seat, t.card_wonder[c]
                ] == 0:
                    new_w += 1  # one treasure card per wonder: no duplicates
            if new_w > 0:
                val += EXPLORER_STEP * prm[seat, P_REWARD] * new_w
                if s.held[seat, H_WONDERS] + new_w >= t.explorer_goal:
                    val += t.explorer_points
        return val, -2
    best = NEG
    arg = -1
    for i in range(m):
        seen = False
        ci = s.hyp[i]
        for j in range(i):
            cj = s.hyp[j]
            if t.card_kind[cj] == t.card_kind[ci] and t.card_colour[cj] == t.card_colour[ci]:
                seen = True
        if seen:
            continue
        v = _set_value(s, t, seat, n, m, i)
        if v > best:
            best = v
            arg = i
    if t.take_optional == 1 and best <= 0.0:
        return 0.0, -1
    return best, arg


@njit
def steal_gain(s, t, seat, n, victim, what):
    """Value to ``seat`` of stealing from ``victim``: ``what`` is -1 (plastic diamond),
    a gem colour ``g`` (0..), or ``n_colours`` (a diamond card), ``n_colours + 1``
    (a key or chest card). Own gain plus ``deny`` times the victim's loss."""
    prm = s.prm
    deny = prm[seat, P_DENY]
    if what < 0:
        return t.plastic_diamond * (1.0 + deny)
    if what == t.n_colours:
        return t.diamond_card * (1.0 + deny)
    if what == t.n_colours + 1:
        return prm[seat, P_TREASURE] * (1.0 + deny)
    have = s.gems[seat, what]
    gain = float(gem_points(t, have + 1) - gem_points(t, have))
    if have == 0 and gem_open(s, t):
        gain += prm[seat, P_REWARD]
        if s.held[seat, H_COLOURS] + 1 >= t.gem_goal[n]:
            gain += t.gem_reward[n]
    hv = s.gems[victim, what]
    loss = float(gem_points(t, hv) - gem_points(t, hv - 1))
    return gain + deny * loss


@njit
def _victim_has(s, t, victim, what):
    if what < 0:
        return s.held[victim, H_PLASTIC] > 0
    if what == t.n_colours:
        return s.held[victim, H_DIAMOND] > 0
    if what == t.n_colours + 1:
        return s.held[victim, H_TREASURE] > 0
    return s.gems[victim, what] > 0


@njit
def best_steal(s, t, seat, n):
    """``(value, victim, what)`` of the best steal for ``seat`` (victim -1 if none);
    victims are tried clockwise from the next seat (ties: the first)."""
    best = 0.0
    bv = -1
    bw = -2
    for d in range(1, n):
        v = (seat + d) % n
        for what in range(-1, t.n_colours + 2):
            if _victim_has(s, t, v, what):
                val = steal_gain(s, t, seat, n, v, what)
                if bv < 0 or val > best:
                    best = val
                    bv = v
                    bw = what
    return best, bv, bw


@njit
def _slot_outcome(s, slot, i):
    """The ``i``-th possible card of ``slot`` (a known card has one)."""
    if slot >= 0:
        return slot
    return s.unk[-1 - slot, i]


@njit
def _slot_size(s, slot):
    if slot >= 0:
        return 1
    return s.n_unk[-1 - slot]


@njit
def ev_one(s, t, seat, n, slot, m0, sv):
    """Expected :func:`take_value` of revealing ``slot`` with ``s.hyp[:m0]`` face up."""
    k = _slot_size(s, slot)
    tot = 0.0
    for i in range(k):
        s.hyp[m0] = _slot_outcome(s, slot, i)
        v, _ = take_value(s, t, seat, n, m0 + 1, sv)
        tot += v
    return tot / k


@njit
def _one_value(s, t, seat, n, card, key, sv):
    """:func:`take_value` of ``card`` alone, memoised in ``s.memo[key]`` (its class);
    leaves ``s.hyp[0]`` as it was."""
    if s.memo[key] == NEG:
        keep = s.hyp[0]
        s.hyp[0] = card
        s.memo[key], _ = take_value(s, t, seat, n, 1, sv)
        s.hyp[0] = keep
    return s.memo[key]


@njit
def _pair_value(s, t, seat, n, ka, kb, sv):
    """:func:`take_value` of the two cards in ``s.hyp[:2]`` (classes ``ka``, ``kb``).

    Two gem or diamond cards of different kinds are worth the better of the two
    alone (only one kind is taken), built from the one-card values of
    :func:`_one_value`; the other pairs are computed."""
    tk = t.n_colours + 1  # kind key of a key card (a chest's is one more)
    if ka // 2 != kb // 2 and ka // 2 < tk and kb // 2 < tk:
        a = s.hyp[0]
        b = s.hyp[1]
        return max(_one_value(s, t, seat, n, a, ka, sv), _one_value(s, t, seat, n, b, kb, sv))
    v, _ = take_value(s, t, seat, n, 2, sv)
    return v


@njit
def ev_two(s, t, seat, n, a, b, sv):
    """Expected :func:`take_value` of revealing slots ``a`` and ``b`` at once (an
    unknown wonder twice: two different unknown cards of it, all pairs alike)."""
    ka = _slot_size(s, a)
    kb = _slot_size(s, b)
    same = a < 0 and a == b
    tot = 0.0
    cnt = 0
    for i in range(ka):
        s.hyp[0] = _slot_outcome(s, a, i)
        for j in range(kb):
            if same and i == j:
                continue
            s.hyp[1] = _slot_outcome(s, b, j)
            # the value of two cards depends only on their classes (see card_class)
            ka_ = card_class(s, t, seat, s.hyp[0])
            kb_ = card_class(s, t, seat, s.hyp[1])
            v = s.memo2[ka_, kb_]
            if v == NEG:
                v = _pair_value(s, t, seat, n, ka_, kb_, sv)
                s.memo2[ka_, kb_] = v
                s.memo2[kb_, ka_] = v
            tot += v
            cnt += 1
    return tot / cnt


@njit
def fill_aims(s, t, m):
    """``s.aim[i, target]``: how well slot ``s.slots[i]`` serves ``target`` (a gem
    colour, ``n_colours`` = diamond, ``n_colours + 1`` = key or chest): chance of
    the target kind, less the chance of a key or chest when the target is not one."""
    nt = t.n_colours + 2
    for i in range(m):
        slot = s.slots[i]
        k = _slot_size(s, slot)
        for j in range(nt):
            s.aim[i, j] = 0.0
        tre = 0.0
        for o in range(k):
            c = _slot_outcome(s, slot, o)
            kind = t.card_kind[c]
            if kind == Kind.KEY or kind == Kind.CHEST:
                tre += 1.0
            elif kind == Kind.DIAMOND:
                s.aim[i, t.n_colours] += 1.0
            else:
                s.aim[i, t.card_colour[c]] += 1.0
        for j in range(nt - 1):
            s.aim[i, j] = (s.aim[i, j] - tre) / k
        s.aim[i, nt - 1] = tre / k


# ------------------------------------------------------------------ decisions


@njit
def choose_first(s, t, seat, n, k):
    """Positions of the ``k`` cards ``seat`` reveals at once, into ``s.pick[:k]``.

    Draws random numbers (uniform choices, and the place among a wonder's
    unknown places). The positions are chosen before any is revealed."""
    plan = s.plan
    out = s.pick
    if plan[seat] == Plan.RANDOM:
        for i in range(k):
            out[i] = _random_face_down(s, t, True, i)
        return
    build_view(s, t, seat)
    m = list_slots(s, t, seat)
    fill_aims(s, t, m)
    sv, _, _ = best_steal(s, t, seat, n)
    s.memo2[:, :] = NEG
    s.memo[:] = NEG
    best = NEG
    chosen0 = -1
    chosen1 = -1
    for target in range(t.n_colours + 2):
        s.pairs[target, 0] = -(2**62)
        s.pairs[target, 1] = -(2**62)
        a = _top_slot(s, t, m, target, 2**62, 0)
        if a == 2**62:
            continue
        if k == 1:
            b = a
        else:
            b = _top_slot(s, t, m, target, a, 1)
            if b == 2**62:
                continue
        seen = False  # the same pair for an earlier target: same value
        for j in range(target):
            if s.pairs[j, 0] == a and s.pairs[j, 1] == b:
                seen = True
        s.pairs[target, 0] = a
        s.pairs[target, 1] = b
        if seen:
            continue
        if k == 1:
            val = ev_one(s, t, seat, n, a, 0, sv)
        else:
            val = ev_two(s, t, seat, n, a, b, sv)
        if val > best:
            best = val
            chosen0 = a
            chosen1 = b
    out[0] = slot_position(s, t, chosen0)
    if k >= 2:
        # the second place is picked before the first card is seen
        s.up[s.sc[S_N_UP]] = out[0]
        s.sc[S_N_UP] += 1
        out[1] = slot_position(s, t, chosen1)
        for i in range(2, k):  # more than two at once (a designer's override): uniform
            s.up[s.sc[S_N_UP]] = out[i - 1]
            s.sc[S_N_UP] += 1
            out[i] = _random_face_down(s, t, True, i)
        s.sc[S_N_UP] -= k - 1
        for i in range(k - 1):
            s.up[s.sc[S_N_UP] + i] = -1


@njit
def _slot_wonder(t, slot):
    if slot >= 0:
        return t.card_wonder[slot]
    return -1 - slot


@njit
def _top_slot(s, t, m, target, taken, second):
    """The slot of ``s.slots[:m]`` that best serves ``target``. With ``second``, a
    slot of another wonder than ``taken`` (a wonder has one card of each kind, so
    two of its cards never make a set), or if there is none, any other place.
    Returns 2**62 if there is none."""
    best = NEG
    arg = 2**62
    for rnd in range(1 + second):
        for i in range(m):
            slot = s.slots[i]
            if second == 1:
                if slot == taken and (slot >= 0 or s.n_unk[-1 - slot] < 2):
                    continue
                if rnd == 0 and _slot_wonder(t, slot) == _slot_wonder(t, taken):
                    continue
            v = s.aim[i, target]
            if v > best:
                best = v
                arg = slot
        if arg != 2**62:
            return arg
    return arg


@njit
def _random_face_down(s, t, in_pick, i):
    """A face-down position uniform among those not in ``out[:i]``, ``out`` being
    ``s.pick`` if ``in_pick`` else ``s.up``."""
    out = s.pick if in_pick else s.up
    count = 0
    for p in range(t.n_cards):
        if face_down(s, p) and not _in(out, i, p):
            count += 1
    k = random_index(s, count)
    for p in range(t.n_cards):
        if face_down(s, p) and not _in(out, i, p):
            if k == 0:
                return p
            k -= 1
    return -1


@njit
def _in(arr, m, v):
    for i in range(m):
        if arr[i] == v:
            return True
    return False


@njit
def choose_extra(s, t, seat, n):
    """Position of one more card to reveal, or -1 to stop. Draws random numbers."""
    plan = s.plan
    prm = s.prm
    if face_down_count(s) == 0:
        return -1
    if plan[seat] == Plan.RANDOM:
        if random_index(s, 2) == 0:
            return -1
        return _random_face_down(s, t, False, 0)
    build_view(s, t, seat)
    m0 = s.sc[S_N_UP]
    for i in range(m0):
        s.hyp[i] = s.grid[s.up[i]]
    sv, _, _ = best_steal(s, t, seat, n)
    cur, _ = take_value(s, t, seat, n, m0, sv)
    m = list_slots(s, t, seat)
    best = NEG
    arg = 0
    for j in range(s.memo.shape[0]):
        s.memo[j] = NEG
    for i in range(m):
        slot = s.slots[i]
        # with the face-up cards fixed, a third card's value depends only on its class
        k = _slot_size(s, slot)
        v = 0.0
        for o in range(k):
            c = _slot_outcome(s, slot, o)
            key = card_class(s, t, seat, c)
            if s.memo[key] == NEG:
                s.hyp[m0] = c
                s.memo[key], _ = take_value(s, t, seat, n, m0 + 1, sv)
            v += s.memo[key]
        v /= k
        if v > best:
            best = v
            arg = slot
    if best > cur + prm[seat, P_THIRD] + 1e-9:
        return slot_position(s, t, arg)
    return -1


@njit
def choose_kind(s, t, seat, n):
    """With no key or chest face up: the card (its kind) to take, as an index into
    the face-up cards, or -1 to take nothing (only if the ruling allows)."""
    plan = s.plan
    m = s.sc[S_N_UP]
    for i in range(m):
        s.hyp[i] = s.grid[s.up[i]]
    if plan[seat] == Plan.RANDOM:
        kinds = 0
        for i in range(m):
            if _first_of_kind(s, t, i):
                kinds += 1
        k = random_index(s, kinds + t.take_optional)
        for i in range(m):
            if _first_of_kind(s, t, i):
                if k == 0:
                    return i
                k -= 1
        return -1
    _, arg = take_value(s, t, seat, n, m, 0.0)
    return arg


@njit
def _first_of_kind(s, t, i):
    ci = s.hyp[i]
    for j in range(i):
        cj = s.hyp[j]
        if t.card_kind[cj] == t.card_kind[ci] and t.card_colour[cj] == t.card_colour[ci]:
            return False
    return True


@njit
def choose_steal(s, t, seat, n):
    """``(victim, card)`` of a steal (card -1: a plastic diamond); victim -1 if no
    other seat holds anything. Draws random numbers for the random plan."""
    plan = s.plan
    if plan[seat] == Plan.RANDOM:
        count = 0
        for v in range(n):
            if v != seat:
                count += (s.held[v, H_PLASTIC] > 0) + s.held[v, H_CARDS]
        if count == 0:
            return -1, -1
        k = random_index(s, count)
        for v in range(n):
            if v == seat:
                continue
            if s.held[v, H_PLASTIC] > 0:
                if k == 0:
                    return v, -1
                k -= 1
            for c in range(t.n_cards):
                if s.owner[c] == v:
                    if k == 0:
                        return v, c
                    k -= 1
        return -1, -1
    _, v, what = best_steal(s, t, seat, n)
    if v < 0:
        return -1, -1
    if what < 0:
        return v, -1
    # the card of that kind whose wonder the thief holds fewest of (explorer), lowest id
    best = -1
    fewest = 1 << 30
    for c in range(t.n_cards):
        if s.owner[c] != v:
            continue
        kind = t.card_kind[c]
        if what < t.n_colours:
            ok = kind == Kind.GEM and t.card_colour[c] == what
        elif what == t.n_colours:
            ok = kind == Kind.DIAMOND
        else:
            ok = kind == Kind.KEY or kind == Kind.CHEST
        if ok and s.wcards[seat, t.card_wonder[c]] < fewest:
            fewest = s.wcards[seat, t.card_wonder[c]]
            best = c
    return v, best
