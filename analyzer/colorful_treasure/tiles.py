"""The advanced rules' action tiles: a turn with tiles, and the players' tile decisions.

Section "Advanced rules: action tiles" of ``docs/games/colorful_treasure.md``.
Played only when the ruling ``tiles`` is ``"a"`` or ``"b"`` (``t.n_tiles > 0``):
the game loop (:mod:`.engine`) then plays :func:`play_turn_tiles` instead of
``engine.play_turn``, so a game without tiles runs exactly the code it ran
before. Tile ``i`` shows the side of effect ``t.tile_effect[i]``
(:class:`~analyzer.colorful_treasure.codes.Effect`); ``s.tile_owner[i]`` is the
seat holding it, -1 while it lies beside the rewards, -2 once a x1 tile is used.

A turn with tiles, in order: the peeks the seat uses (at the start of its turn,
a simplification: a peek after the first reveals could be aimed better), the
reveals (a fourth card after the third), the take (ignore treasure, two kinds),
the cards turned back, the pairs and steals (truce, guarded), the tiles taken
(one for each colour whose count has reached 3 since the seat was last offered
one for it; ruling ``tile_offers = "per_turn"``: one offer a turn at most), the
wild marker (then a steal, and a tile again if the steal brought a third gem
card of a colour), the rewards (a sixth colour tile is one more colour). With the
ruling ``tile_timing = "after_rewards"`` the rewards are checked before the tiles
taken and the wild marker.

Decisions (``docs/games/colorful_treasure.md``, "Players and memory"):
``RANDOM`` seats choose uniformly among the legal choices (use a tile or not: a
coin; which tile: uniform among those left and taking none). ``EXPECT`` seats
follow stated rules: take the tile of most worth (``players.tile_worth``), use a
peek at once on the wonders with most cards they do not know, a fourth card when
:func:`~.strategies.choose_extra` wants one more, two kinds when the second best
kind face up is worth more than 0, ignore treasure when the best gem or diamond
kind is worth more than the forced take, the wild marker when a steal is worth
more than 0. A peeked card goes into that seat's memory only.
"""

import numpy as np

from analyzer.colorful_treasure.bits import kth_bit, lowest, popcount
from analyzer.colorful_treasure.codes import (
    BAR_STEAL,
    BAR_TILES,
    FORCE_TILES,
    MAX_REVEALS,
    P_DENY,
    P_RECALL,
    P_REWARD,
    P_TREASURE,
    Effect,
    Kind,
    Plan,
)
from analyzer.colorful_treasure.luck import luck_reveal, luck_seen
from analyzer.colorful_treasure.state import (
    ALWAYS,
    EV_KIND,
    EV_NO_VICTIM,
    EV_NOTHING,
    EV_PEEK,
    EV_STOP,
    EV_TILE_DECLINE,
    EV_TILE_PASS,
    EV_TILE_TAKE,
    EV_TILE_USE,
    EV_TRUCE,
    EV_WILD,
    H_CARDS,
    H_CHESTS,
    H_DIAMOND,
    H_KEYS,
    H_PLASTIC,
    H_TREASURE,
    S_DISCARDED,
    S_GRID_CARDS,
    S_N_UP,
    S_TURN,
    S_UP_CARDS,
    ST_NO_VICTIM,
    ST_NOTHING,
    ST_THIRD,
    ST_TILES_TAKEN,
    ST_TILES_USED,
    ST_TREASURE_TURNS,
    ST_TURNS,
    trace,
    trace_opts,
    tracing,
)
from analyzer.colorful_treasure.strategies import (
    chain_steal,
    choose_extra,
    choose_first,
    choose_kind,
    column_mask,
    group_value,
    pick_unknown,
    seat_memory,
    steal_card,
    treasure_value,
)
from analyzer.colorful_treasure.turn import (
    check_rewards,
    counted_holdings,
    discard_pair,
    face_down_count,
    face_down_places,
    gem_open,
    holds_effect,
    is_treasure,
    must_take_treasure,
    pairs_ready,
    random_index,
    reveal,
    spend_card,
    steal,
    take_from_grid,
    turn_back,
    up_kinds,
)
from analyzer.kernels.jit import njit
from analyzer.kernels.rng import rng_float

#: how a steal may touch a seat: a plastic diamond, a wonder card
MAY_PLASTIC = 1
MAY_CARDS = 2

# ------------------------------------------------------------------ tiles held


@njit
def tiles_setup(s, t, n):
    """Every tile beside the rewards, no seat has had a tile yet."""
    for i in range(t.n_tiles):
        s.tile_owner[i] = -1
        s.tile_turn[i] = -1
    for q in range(n):
        s.tclaim[q] = 0
        s.tiles_took[q] = 0


@njit
def usable(s, t, seat, effect):
    """The first tile of ``effect`` that ``seat`` may use now (held; a permanent one
    not used yet this turn), or -1."""
    turn = s.sc[S_TURN]
    for i in range(t.n_tiles):
        if s.tile_owner[i] == seat and t.tile_effect[i] == effect:
            if t.tile_once[i] == 1 or s.tile_turn[i] != turn:
                return i
    return -1


@njit
def use_tile(s, t, seat, i):
    """``seat`` uses tile ``i``: a x1 tile is discarded, a permanent one marked used
    this turn."""
    trace(s, EV_TILE_USE, seat, i, t.tile_effect[i], 0)
    s.stats[seat, ST_TILES_USED] += 1
    if t.tile_once[i] == 1:
        s.tile_owner[i] = -2
    else:
        s.tile_turn[i] = s.sc[S_TURN]


@njit
def pass_tile(s, t, seat, i):
    """``seat`` may use tile ``i`` now and does not (a choice, for the trace only)."""
    trace(s, EV_TILE_PASS, seat, i, t.tile_effect[i], 0)


@njit
def steal_access(s, t, v):
    """What a steal may take from seat ``v``: nothing under a truce, only a plastic
    diamond from a guarded seat (bits :data:`MAY_PLASTIC`, :data:`MAY_CARDS`)."""
    if holds_effect(s, t, v, Effect.TRUCE) > 0:
        return 0
    if holds_effect(s, t, v, Effect.GUARDED) > 0:
        return MAY_PLASTIC
    return MAY_PLASTIC | MAY_CARDS


# ------------------------------------------------------------------ peeks


@njit
def remember_one(s, seat, card):
    """``seat`` alone has looked at ``card``: it knows it now and keeps it as
    :func:`~.turn.remember` keeps a card (``recall ** k`` for ``k`` more turns)."""
    r = s.prm[seat, P_RECALL]
    turn = s.sc[S_TURN]
    if r >= 1.0:
        s.mem[seat, card] = ALWAYS
    elif r <= 0.0:
        s.mem[seat, card] = turn
    else:
        u = 1.0 - rng_float(s.rng)
        s.mem[seat, card] = turn + np.int64(np.log(u) / np.log(r))
    s.kn[seat] |= np.int64(1) << card


@njit
def _peek(s, seat, p, options):
    """``seat`` looks at place ``p``, one of the place mask ``options`` (for the trace)."""
    c = s.grid[p]
    remember_one(s, seat, c)
    luck_seen(s, c)
    trace_opts(s, EV_PEEK, seat, p, c, 0, options, 0)


@njit
def _wonders_places(t, wonders):
    """Mask of the places of the wonders in the wonder mask ``wonders``."""
    m = np.int64(0)
    for w in range(t.n_wonders):
        if (wonders >> w) & 1 == 1:
            m |= column_mask(t, w)
    return m


@njit
def _unknown(s, t, seat):
    """``(kf, unk)``: the face-down cards ``seat`` remembers, those it does not know."""
    known = seat_memory(s, t, seat)
    upc = s.sc[S_UP_CARDS]
    return known & ~upc, s.sc[S_GRID_CARDS] & ~known & ~upc


@njit
def _most_unknown(t, unk, excl):
    """The wonder not in the wonder mask ``excl`` with the most unknown cards (the
    first of equal ones), or -1 if none has any."""
    best = 0
    arg = -1
    for w in range(t.n_wonders):
        k = popcount(unk & column_mask(t, w)) if (excl >> w) & 1 == 0 else 0
        if k > best:  # the first of equal ones
            best, arg = k, w
    return arg


@njit
def _random_wonder(s, t, excl):
    """A wonder not in ``excl`` with a face-down place, uniform, or -1."""
    fd = face_down_places(s)
    m = 0
    for w in range(t.n_wonders):
        if (excl >> w) & 1 == 0 and fd & column_mask(t, w) != 0:
            m |= 1 << w
    if m == 0:
        return -1
    return kth_bit(m, random_index(s, popcount(m)))


@njit
def _random_place(s, t, w, excl):
    """A face-down place of wonder ``w`` not in the place mask ``excl``, uniform, or -1."""
    pm = face_down_places(s) & column_mask(t, w) & ~excl
    if pm == 0:
        return -1
    return kth_bit(pm, random_index(s, popcount(pm)))


@njit
def peek_two(s, t, seat, amount):
    """One face-down card of each of ``amount`` different wonders."""
    done = 0
    for _ in range(amount):
        if s.plan[seat] == Plan.RANDOM:
            w = _random_wonder(s, t, done)
            if w < 0:
                return
            p = _random_place(s, t, w, 0)
        else:
            kf, unk = _unknown(s, t, seat)
            w = _most_unknown(t, unk, done)
            if w < 0:
                return
            p = pick_unknown(s, t, w, kf, 0)
        options = face_down_places(s) & ~_wonders_places(t, done) if tracing(s) else 0
        done |= 1 << w
        _peek(s, seat, p, options)


@njit
def peek_three(s, t, seat, amount):
    """Up to ``amount`` face-down cards of one wonder."""
    if s.plan[seat] == Plan.RANDOM:
        w = _random_wonder(s, t, 0)
        if w < 0:
            return
        seen = 0
        for _ in range(amount):
            p = _random_place(s, t, w, seen)
            if p < 0:
                return
            options = face_down_places(s)
            if seen != 0:  # after the first: the other places of its wonder
                options &= column_mask(t, w) & ~seen
            seen |= np.int64(1) << p
            _peek(s, seat, p, options)
        return
    _, unk = _unknown(s, t, seat)
    w = _most_unknown(t, unk, 0)
    if w < 0:
        return
    seen = np.int64(0)
    for _ in range(amount):
        kf, unk = _unknown(s, t, seat)
        if unk & column_mask(t, w) == 0:
            return
        p = pick_unknown(s, t, w, kf, 0)
        options = face_down_places(s)
        if seen != 0:  # after the first: the other places of its wonder
            options &= column_mask(t, w) & ~seen
        seen |= np.int64(1) << p
        _peek(s, seat, p, options)


@njit
def start_peeks(s, t, seat):
    """At the start of ``seat``'s turn: the peek tiles it uses (EXPECT: every one,
    while it does not know some face-down card; RANDOM: a coin each)."""
    for i in range(t.n_tiles):
        e = t.tile_effect[i]
        if e != Effect.PEEK_TWO and e != Effect.PEEK_THREE:
            continue
        if usable(s, t, seat, e) != i:
            continue
        if s.plan[seat] == Plan.RANDOM:
            if random_index(s, 2) == 0:
                pass_tile(s, t, seat, i)
                continue
        else:
            _, unk = _unknown(s, t, seat)
            if unk == 0:
                pass_tile(s, t, seat, i)
                continue
        use_tile(s, t, seat, i)
        if e == Effect.PEEK_TWO:
            peek_two(s, t, seat, t.tile_amount[i])
        else:
            peek_three(s, t, seat, t.tile_amount[i])


# ------------------------------------------------------------------ the take


@njit
def _kind_of(t, c):
    """``card_key`` of a gem or diamond card (a key or chest: -1)."""
    k = t.card_kind[c]
    if k == Kind.KEY or k == Kind.CHEST:
        return -1
    return t.card_key[c]


@njit
def up_kind_value(s, t, seat, n, kk):
    """Value for ``seat`` of taking every face-up card of kind ``kk`` (gem colour or
    diamond), by :func:`~.strategies.group_value`."""
    cnt = 0
    new_w = 0
    for i in range(s.sc[S_N_UP]):
        c = s.grid[s.up[i]]
        if c >= 0 and t.card_key[c] == kk:
            cnt += 1
            if s.wcards[seat, t.card_wonder[c]] == 0:
                new_w += 1
    return group_value(s, t, seat, n, kk, cnt, new_w)


@njit
def _first_index(s, t, kk):
    for i in range(s.sc[S_N_UP]):
        c = s.grid[s.up[i]]
        if c >= 0 and _kind_of(t, c) == kk:
            return i
    return -1


@njit
def _up_kinds(s, t, skip):
    """Mask of the gem and diamond kinds face up (bit = ``card_key``), less ``skip``."""
    m = 0
    for i in range(s.sc[S_N_UP]):
        c = s.grid[s.up[i]]
        if c >= 0:
            kk = _kind_of(t, c)
            if kk >= 0 and kk != skip:
                m |= 1 << kk
    return m


@njit
def take_kind(s, t, seat, idx):
    """``seat`` takes every face-up card of the kind of face-up card ``idx``."""
    c0 = s.grid[s.up[idx]]
    for i in range(s.sc[S_N_UP]):
        c = s.grid[s.up[i]]
        if c >= 0 and t.card_kind[c] == t.card_kind[c0] and t.card_colour[c] == t.card_colour[c0]:
            take_from_grid(s, t, seat, c)


@njit
def _best_kind(s, t, seat, n, kinds, floor):
    """The index of the first face-up card of the kind in the mask ``kinds`` worth
    most to ``seat`` (:func:`up_kind_value`; the first of equal ones), if worth
    more than ``floor``; else -1."""
    best = floor
    arg = -1
    x = kinds
    while x != 0:
        kk = lowest(x)
        x &= x - 1
        v = up_kind_value(s, t, seat, n, kk)
        if v > best:
            best = v
            arg = kk
    if arg < 0:
        return -1
    return _first_index(s, t, arg)


@njit
def choose_ignore(s, t, seat, n):
    """With a key or chest face up and an ignore-treasure tile: the index of a face-up
    card whose kind (gem or diamond) to take instead, or -1 to take the treasure.
    RANDOM: uniform among the treasure take and each kind; EXPECT: the kind of most
    value if it beats the treasure take's value."""
    kinds = _up_kinds(s, t, -1)
    if kinds == 0:
        return -1
    if s.plan[seat] == Plan.RANDOM:
        k = random_index(s, popcount(kinds) + 1)
        if k == 0:
            return -1
        return _first_index(s, t, kth_bit(kinds, k - 1))
    keys = 0
    chests = 0
    new_w = 0
    for i in range(s.sc[S_N_UP]):
        c = s.grid[s.up[i]]
        if c >= 0 and is_treasure(t, c):
            if t.card_kind[c] == Kind.KEY:
                keys += 1
            else:
                chests += 1
            if s.wcards[seat, t.card_wonder[c]] == 0:
                new_w += 1
    floor = treasure_value(s, t, seat, n, keys, chests, new_w, 0.0, True)
    return _best_kind(s, t, seat, n, kinds, floor)


@njit
def choose_second_kind(s, t, seat, n, idx):
    """With a two-kinds tile, after the kind of face-up card ``idx``: the index of a
    face-up card of a second kind to take too, or -1. RANDOM: a coin, then uniform
    among the other kinds; EXPECT: the best other kind if worth more than 0."""
    first = _kind_of(t, s.grid[s.up[idx]])
    others = _up_kinds(s, t, first)
    if others == 0:
        return -1
    if s.plan[seat] == Plan.RANDOM:
        if random_index(s, 2) == 0:
            return -1
        return _first_index(s, t, kth_bit(others, random_index(s, popcount(others))))
    return _best_kind(s, t, seat, n, others, 0.0)


# ------------------------------------------------------------------ steals


@njit
def best_steal_tiles(s, t, seat, n):
    """``(value, victim, what)`` as :func:`~.strategies.best_steal`, among what the
    truce and guarded tiles leave to take."""
    nc = t.n_colours
    gems = s.gems
    held = s.held
    points = t.gem_points
    top = points.shape[0] - 1
    deny = s.prm[seat, P_DENY]
    colour_open = gem_open(s, t)
    colours = counted_holdings(s, t, seat)[0] + holds_effect(s, t, seat, Effect.SIXTH_COLOUR)
    best = 0.0
    bv = -1
    bw = -2
    cards_ok = 0  # the victims whose cards may be taken
    for d in range(1, n):
        v = seat + d
        if v >= n:
            v -= n
        acc = steal_access(s, t, v)
        if acc & MAY_PLASTIC != 0 and held[v, H_PLASTIC] > 0:
            val = t.plastic_diamond * (1.0 + deny)
            if bv < 0 or val > best:
                best = val
                bv = v
                bw = -1
        if acc & MAY_CARDS == 0:
            continue
        cards_ok |= 1 << v
        for g in range(nc):
            hv = gems[v, g]
            if hv > 0:
                have = gems[seat, g]
                val = float(points[min(have + 1, top)] - points[min(have, top)])
                if have == 0 and colour_open:
                    val += s.prm[seat, P_REWARD]
                    if colours + 1 >= t.gem_goal[n]:
                        val += t.gem_reward[n]
                val += deny * float(points[min(hv, top)] - points[min(hv - 1, top)])
                if bv < 0 or val > best:
                    best = val
                    bv = v
                    bw = g
        if held[v, H_DIAMOND] > 0:
            val = t.diamond_card * (1.0 + deny)
            if bv < 0 or val > best:
                best = val
                bv = v
                bw = nc
        if held[v, H_TREASURE] > 0:
            val = s.prm[seat, P_TREASURE] * (1.0 + deny)
            if bv < 0 or val > best:
                best = val
                bv = v
                bw = nc + 1
    if t.pair_cards == 1 and bv >= 0:
        return chain_steal(s, t, seat, n, best, bv, bw, cards_ok)
    return best, bv, bw


@njit
def choose_steal_tiles(s, t, seat, n):
    """``(victim, card)`` of a steal (card -1: a plastic diamond) among what the
    truce and guarded tiles allow; victim -1 if there is nothing to take. RANDOM:
    uniform among the items; EXPECT: :func:`best_steal_tiles`, then the card of
    that kind whose wonder the thief holds fewest of (lowest id). Nothing for a
    seat restricted play bars from stealing."""
    if t.seat_bar[seat, BAR_STEAL] == 1:
        return -1, -1
    if s.plan[seat] == Plan.RANDOM:
        count = 0
        for v in range(n):
            if v != seat:
                acc = steal_access(s, t, v)
                if acc & MAY_PLASTIC != 0 and s.held[v, H_PLASTIC] > 0:
                    count += 1
                if acc & MAY_CARDS != 0:
                    count += s.held[v, H_CARDS]
        if count == 0:
            return -1, -1
        k = random_index(s, count)
        for v in range(n):
            if v == seat:
                continue
            acc = steal_access(s, t, v)
            if acc & MAY_PLASTIC != 0 and s.held[v, H_PLASTIC] > 0:
                if k == 0:
                    return v, -1
                k -= 1
            if acc & MAY_CARDS != 0:
                for c in range(t.n_cards):
                    if s.owner[c] == v:
                        if k == 0:
                            return v, c
                        k -= 1
        return -1, -1
    _, v, what = best_steal_tiles(s, t, seat, n)
    if v < 0:
        return -1, -1
    if what < 0:
        return v, -1
    return v, steal_card(s, t, seat, v, what)


@njit
def steal_tiles(s, t, seat, n, game):
    """A pair (or a wild marker with a marker) lets ``seat`` steal: nothing under its
    own truce; else :func:`choose_steal_tiles`. A victim's colour that drops below 3
    cards may bring it a tile again."""
    if holds_effect(s, t, seat, Effect.TRUCE) > 0:
        s.stats[seat, ST_NO_VICTIM] += 1
        trace(s, EV_TRUCE, seat, 1, 0, 0)
        return
    victim, card = choose_steal_tiles(s, t, seat, n)
    if victim < 0:
        s.stats[seat, ST_NO_VICTIM] += 1
        trace(s, EV_NO_VICTIM, seat, 0, 0, 0)
        return
    steal(s, t, seat, victim, card, game)
    if card >= 0 and t.card_kind[card] == Kind.GEM:
        g = t.card_colour[card]
        if s.gems[victim, g] < 3:
            s.tclaim[victim] &= ~(np.int64(1) << g)


@njit
def want_wild(s, t, seat, n):
    """Whether ``seat`` uses a wild marker now (it holds one unpaired marker): RANDOM a
    coin, EXPECT if its best steal is worth more than 0; never without a steal to make."""
    if holds_effect(s, t, seat, Effect.TRUCE) > 0:
        return False
    value, victim, _ = best_steal_tiles(s, t, seat, n)
    if victim < 0:
        return False
    if s.plan[seat] == Plan.RANDOM:
        return random_index(s, 2) == 1
    return value > 0.0


# ------------------------------------------------------------------ taking tiles


@njit
def choose_tile(s, t, seat, n):
    """The tile ``seat`` takes (one lies beside the rewards), or -1 for none. RANDOM:
    uniform among those left and none; EXPECT: the most worth
    (``t.tile_worth``; a sixth colour that would complete the gem reward now also
    its points), if more than 0, the first of equal ones. Never a tile restricted
    play bars the seat from (``t.seat_bar``); a seat it forces to take tiles takes the
    most worth whatever its worth."""
    barred = t.seat_bar[seat, BAR_TILES]
    forced = t.seat_bar[seat, FORCE_TILES] == 1  # restricted play: it takes one if any is left
    if s.plan[seat] == Plan.RANDOM:
        left = 0
        for i in range(t.n_tiles):
            if s.tile_owner[i] == -1 and ((barred >> i) & 1) == 0:
                left |= 1 << i
        if forced:
            return kth_bit(left, random_index(s, popcount(left))) if left != 0 else -1
        k = random_index(s, popcount(left) + 1)
        if k == 0:
            return -1
        return kth_bit(left, k - 1)
    best = -1e300 if forced else 0.0
    arg = -1
    for i in range(t.n_tiles):
        if s.tile_owner[i] != -1 or ((barred >> i) & 1) == 1:
            continue
        # baseline's worth is its own, frozen (codes.Plan.BASELINE)
        v = t.tile_worth_base[i] if s.plan[seat] == Plan.BASELINE else t.tile_worth[i]
        if t.tile_effect[i] == Effect.SIXTH_COLOUR and gem_open(s, t):
            colours = counted_holdings(s, t, seat)[0] + holds_effect(
                s, t, seat, Effect.SIXTH_COLOUR
            )
            if colours + 1 >= t.gem_goal[n]:
                v += t.gem_reward[n]
        if v > best:
            best = v
            arg = i
    return arg


@njit
def take_tiles(s, t, seat, n, offered):
    """End of ``seat``'s turn: the offer of a tile for each colour of 3 or more gem
    cards that has not had one since it last reached 3 (a tile declined, or none
    left, is an offer made). With the ruling ``tile_offers = "per_turn"`` one offer
    at most a turn: once ``offered`` (an offer made earlier this turn), the colours
    that reach 3 count as offered and bring none. Returns whether an offer was made
    this turn."""
    for g in range(t.n_colours):
        bit = np.int64(1) << g
        if s.gems[seat, g] < 3:
            s.tclaim[seat] &= ~bit
            continue
        if s.tclaim[seat] & bit != 0:
            continue
        s.tclaim[seat] |= bit
        if offered and t.tile_per_turn == 1:
            continue
        offered = True
        left = False
        for i in range(t.n_tiles):
            if s.tile_owner[i] == -1:
                left = True
        if not left:
            continue
        i = choose_tile(s, t, seat, n)
        left_mask = np.int64(0)  # the options, for the trace
        for j in range(t.n_tiles if tracing(s) else 0):
            if s.tile_owner[j] == -1:
                left_mask |= np.int64(1) << j
        if i >= 0:
            s.tile_owner[i] = seat
            s.tiles_took[seat] |= np.int64(1) << i
            s.stats[seat, ST_TILES_TAKEN] += 1
            trace_opts(s, EV_TILE_TAKE, seat, i, t.tile_effect[i], g, left_mask, 0)
        else:
            trace_opts(s, EV_TILE_DECLINE, seat, -1, 0, g, left_mask, 0)
    return offered


# ------------------------------------------------------------------ the turn


@njit
def take_treasure_or_kind(s, t, seat, n):
    """The reveals and the take of a turn with tiles (a fourth card, ignore treasure,
    two kinds)."""
    k = min(t.first_reveals, face_down_count(s))
    choose_first(s, t, seat, n, k)
    for i in range(k):
        reveal(s, seat, s.pick[i])
        luck_reveal(s, t, seat, s.pick[i], s.pick[i + 1] if i + 1 < k else -1)
    extra = 0
    for _ in range(t.extra_reveals):
        p = choose_extra(s, t, seat, n)
        if p < 0:
            trace_opts(s, EV_STOP, seat, 0, 0, s.sc[S_N_UP], face_down_places(s), 0)
            break
        reveal(s, seat, p)
        luck_reveal(s, t, seat, p, -1)
        extra += 1
    if extra > 0:
        s.stats[seat, ST_THIRD] += 1
    if extra == t.extra_reveals and s.sc[S_N_UP] < MAX_REVEALS:
        i = usable(s, t, seat, Effect.FOURTH_CARD)
        if i >= 0:
            p = choose_extra(s, t, seat, n)
            if p >= 0:
                use_tile(s, t, seat, i)
                reveal(s, seat, p)
                luck_reveal(s, t, seat, p, -1)
            else:
                pass_tile(s, t, seat, i)
    treasure = must_take_treasure(s, t)
    if treasure:
        s.stats[seat, ST_TREASURE_TURNS] += 1
        i = usable(s, t, seat, Effect.IGNORE_TREASURE)
        idx = -1
        if i >= 0:
            idx = choose_ignore(s, t, seat, n)
            if idx < 0:
                pass_tile(s, t, seat, i)
        if idx >= 0:
            use_tile(s, t, seat, i)
            kinds = up_kinds(s, t, -1) if tracing(s) else 0
            trace(s, EV_KIND, seat, t.card_key[s.grid[s.up[idx]]], kinds, 3)
            take_kind(s, t, seat, idx)
        else:
            for j in range(s.sc[S_N_UP]):
                c = s.grid[s.up[j]]
                if c >= 0 and is_treasure(t, c):
                    take_from_grid(s, t, seat, c)
    else:
        idx = choose_kind(s, t, seat, n)
        kinds = up_kinds(s, t, -1) if tracing(s) else 0  # the options, for the trace
        if idx < 0:
            s.stats[seat, ST_NOTHING] += 1
            trace(s, EV_NOTHING, seat, 0, kinds, 0)
        else:
            idx2 = -1
            i = usable(s, t, seat, Effect.TWO_KINDS)
            if i >= 0:
                idx2 = choose_second_kind(s, t, seat, n, idx)
            trace(s, EV_KIND, seat, t.card_key[s.grid[s.up[idx]]], kinds, 1)
            take_kind(s, t, seat, idx)
            if idx2 >= 0:
                use_tile(s, t, seat, i)
                kinds = up_kinds(s, t, -1) if tracing(s) else 0
                trace(s, EV_KIND, seat, t.card_key[s.grid[s.up[idx2]]], kinds, 2)
                take_kind(s, t, seat, idx2)
            elif i >= 0:
                pass_tile(s, t, seat, i)


@njit
def tiles_step(s, t, seat, n, game):
    """The end of a turn's tiles: the offers (:func:`take_tiles`), then the wild
    markers ``seat`` uses, each a steal and the offers it may bring. Returns whether
    an offer was made this turn."""
    offered = take_tiles(s, t, seat, n, False)
    while True:
        i = usable(s, t, seat, Effect.WILD_MARKER)
        if i < 0:
            break
        hk = s.held[seat, H_KEYS]
        hc = s.held[seat, H_CHESTS]
        if hk + hc == 0:
            break
        if not want_wild(s, t, seat, n):
            pass_tile(s, t, seat, i)
            break
        use_tile(s, t, seat, i)
        if hk > 0:
            s.held[seat, H_KEYS] = hk - 1
        else:
            s.held[seat, H_CHESTS] = hc - 1
        s.sc[S_DISCARDED] += 1
        spent = -1
        if t.pair_cards == 1:  # steal_pairs = cards: the wild's partner card is spent
            spent = spend_card(s, t, seat, Kind.KEY if hk > 0 else Kind.CHEST)
        trace(s, EV_WILD, seat, Kind.KEY if hk > 0 else Kind.CHEST, spent, 0)
        steal_tiles(s, t, seat, n, game)
        while pairs_ready(s, seat):  # (steal_pairs = cards: a stolen card may pair)
            discard_pair(s, t, seat)
            steal_tiles(s, t, seat, n, game)
        offered = take_tiles(s, t, seat, n, offered)
    return offered


@njit
def play_turn_tiles(s, t, seat, n, game):
    """One turn of ``seat`` with the action tiles (module docstring for the order)."""
    start_peeks(s, t, seat)
    take_treasure_or_kind(s, t, seat, n)
    turn_back(s, n, seat)
    while pairs_ready(s, seat):
        discard_pair(s, t, seat)
        steal_tiles(s, t, seat, n, game)
    if t.tiles_after == 1:  # ruling tile_timing = after_rewards
        check_rewards(s, t, seat, n)
        tiles_step(s, t, seat, n, game)
    else:
        tiles_step(s, t, seat, n, game)
        check_rewards(s, t, seat, n)
    s.stats[seat, ST_TURNS] += 1


@njit
def check_tiles(s, t, n):
    """True if the tiles are consistent after a game: each lies beside the rewards,
    is held by one seat that took it, or (a x1 tile only) was used; a seat's
    count of tiles taken matches the tiles it took."""
    for i in range(t.n_tiles):
        o = s.tile_owner[i]
        if o == -2:
            if t.tile_once[i] != 1:
                return False
        elif o >= 0:
            if o >= n or (s.tiles_took[o] >> i) & 1 == 0:
                return False
        elif o != -1:
            return False
        took = 0
        for q in range(n):
            took += (s.tiles_took[q] >> i) & 1
        if took != (0 if o == -1 else 1):
            return False
    for q in range(n):
        if popcount(s.tiles_took[q]) != s.stats[q, ST_TILES_TAKEN]:
            return False
    return True
