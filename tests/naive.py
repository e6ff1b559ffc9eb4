"""Slow, obviously correct twins of the kernels, written from the rules alone.

Each function here restates a rule of ``docs/games/unearth.md`` in plain
Python with no attempt at speed; tests compare kernels against them.
"""

import functools

NO_CLAIM = -1
TIE = -2


def naive_ruin_outcome(dice, claim_value, n_players):
    """``dice``: list of (seat, faces, value). Returns (result, cards per seat)."""
    cards = [0] * n_players
    if sum(v for _, _, v in dice) < claim_value:
        return NO_CLAIM, cards
    ranked = {}
    for seat, faces, value in dice:
        ranked.setdefault(seat, []).append((value, faces))
    for seat in ranked:
        ranked[seat].sort(reverse=True)
    width = max(len(v) for v in ranked.values())

    def padded(seat):
        return ranked[seat] + [(0, 0)] * (width - len(ranked[seat]))

    order = sorted(ranked, key=padded, reverse=True)
    if len(order) > 1 and padded(order[0]) == padded(order[1]):
        winner = TIE
    else:
        winner = order[0]
    for seat, _, _ in dice:
        if seat != winner:
            cards[seat] += 1
    return winner, cards


# --------------------------------------------------------------------------- exact odds twin


def naive_odds(
    claim_value,
    dice,
    me,
    *,
    players=None,
    reading_the_stones=False,
    ancestral_claim=False,
    ancient_map=False,
    event_amount=0,
    wonders=None,
    ruin_stones=None,
    bag=None,
    goal="claim",
    stone_max=3,
    rts_amount=1,
    ac_amount=2,
    ac_faces=6,
    college_faces=8,
    college_amount=1,
    columns_amount=-1,
    sanctuary_amount=1,
    edifice_rolls=(4, 5),
    force_first=0,
):
    """Exact odds of one ruin by brute force over every roll, with Fractions.

    ``dice``: list of (player, faces, value or None); unknown dice are rolled in
    order and the ruin checked after each roll. ``wonders``: {player: set of
    "college", "columns", "edifice", "sanctuary"}. Modifier orders are tried
    as explicit permutations, clamping after each. Choices: the asking player
    maximises ``goal``; another player's optional abilities maximise their own
    claim chance, the asking player then ordering the modifiers. Ties between
    options: the other measure (stones / claim), fewer claims by the others,
    more cards for the chooser, then the outcome vector (claims by seat, tie,
    no claim, stones by seat, cards by seat) compared as a tuple. Returns a
    dict of Fractions: p_win {player}, p_tie, p_no_claim, stones {player},
    cards {player}.
    """
    import itertools
    from fractions import Fraction

    wonders = wonders or {}
    if players is None:
        players = []
        for p, _, _ in dice:
            if p not in players:
                players.append(p)
        if me not in players:
            players.append(me)
    seat = {p: k for k, p in enumerate(players)}
    P = len(players)
    known = [(seat[p], f, v) for p, f, v in dice if v is not None]
    unknown = [(seat[p], f) for p, f, v in dice if v is None]
    my = seat[me]
    my_dice = [k for k, (o, _) in enumerate(unknown) if o == my]
    rts_die = my_dice[0] if reading_the_stones and my_dice else None
    map_die = my_dice[0] if ancient_map and my_dice else None
    ac_die = None
    if ancestral_claim:
        ac_die = next((k for k in my_dice if unknown[k][1] == ac_faces), None)
    limit = None if ruin_stones is None or bag is None else ruin_stones + bag

    def vec(result, cards, stones):
        claims = [Fraction(int(result == s)) for s in range(P)]
        return tuple(
            claims
            + [Fraction(int(result == TIE)), Fraction(int(result == NO_CLAIM))]
            + [Fraction(x) for x in stones]
            + [Fraction(x) for x in cards]
        )

    def key(v, s, g):
        c, st = v[s], v[P + 2 + s]
        others = -sum(v[t] for t in range(P) if t != s)
        head = (c, st) if g == "claim" else (st, c)
        return head + (others, v[2 * P + 2 + s], v)

    def pick(options, s, g):
        return max(options, key=lambda v: key(v, s, g))

    def finals(n, faces, mandatory, groups):
        """{choice of the optional groups: set of final values over all orders}."""
        out = {}
        for choice in itertools.product(*groups) if groups else [()]:
            mods = list(mandatory) + [a for a in choice if a != 0]
            vals = set()
            for order in itertools.permutations(mods):
                x = n
                for a in order:
                    x = min(max(x + a, 1), faces)
                vals.add(x)
            out[choice] = vals
        return out

    def after_keep(k, natural, shown, placed, stones, left):
        owner, faces = unknown[k]
        stones = list(stones)
        if natural <= stone_max and (left is None or left > 0):
            stones[owner] += 1
            left = None if left is None else left - 1
        placed = placed + [(owner, faces, shown)]
        res, cards = naive_ruin_outcome(placed, claim_value, P)
        if res != NO_CLAIM:
            return vec(res, cards, stones)
        return go(k + 1, placed, stones, left)

    def roll(k, first, map_left, edifice_left, placed, stones, left):
        owner, faces = unknown[k]
        g = goal if owner == my else "claim"
        total = [Fraction(0)] * (3 * P + 2)
        for n in range(1, faces + 1):
            if force_first and k == 0 and first and n != force_first:
                continue
            mandatory = [event_amount] if event_amount else []
            groups = []
            if first and k == ac_die:
                mandatory.append(ac_amount)
            if first and k == rts_die:
                groups.append((rts_amount, -rts_amount))
            owned = wonders.get(players[owner], set())
            if "college" in owned and faces == college_faces:
                groups.append((0, college_amount))
            if "columns" in owned:
                groups.append((0, columns_amount))
            if "sanctuary" in owned and any(v == n for _, _, v in placed):
                groups.append((0, sanctuary_amount, -sanctuary_amount))
            per_choice = finals(n, faces, mandatory, groups)
            options = []
            if owner == my:
                vals = set().union(*per_choice.values())
                options += [after_keep(k, n, x, placed, stones, left) for x in sorted(vals)]
            else:
                for vals in per_choice.values():
                    opts = [after_keep(k, n, x, placed, stones, left) for x in sorted(vals)]
                    options.append(pick(opts, my, goal))
            if edifice_left and "edifice" in owned and n in edifice_rolls:
                options.append(roll(k, False, map_left, False, placed, stones, left))
            if map_left and k == map_die:
                options.append(roll(k, False, False, True, placed, stones, left))
            best = pick(options, owner, g)
            total = [t + b / faces for t, b in zip(total, best, strict=True)]
        return tuple(total)

    def go(k, placed, stones, left):
        if k == len(unknown):
            return vec(NO_CLAIM, [0] * P, stones)
        return roll(k, True, k == map_die, True, placed, stones, left)

    res, cards = naive_ruin_outcome(known, claim_value, P) if known else (NO_CLAIM, [0] * P)
    if res != NO_CLAIM:
        v = vec(res, cards, [0] * P)
    else:
        v = go(0, known, [0] * P, limit)
    return {
        "p_win": {p: v[seat[p]] for p in players},
        "p_tie": v[P],
        "p_no_claim": v[P + 1],
        "stones": {p: v[P + 2 + seat[p]] for p in players},
        "cards": {p: v[2 * P + 2 + seat[p]] for p in players},
    }


# --------------------------------------------------------------------------- tableau twins
# Cells are axial hex coordinates (q, r); the six neighbours of (q, r) are
# (q±1, r), (q, r±1), (q+1, r-1) and (q-1, r+1). A tableau is a dict
# {cell: colour} of stones plus a set of wonder centres (filled ring centres).

HEX_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def naive_hex_neighbours(cell):
    """The six cells around ``cell``."""
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in HEX_STEPS]


def naive_rings(stones, centres):
    """Every empty cell (no stone, no wonder) with a stone on all six sides."""
    candidates = {nb for cell in stones for nb in naive_hex_neighbours(cell)}
    return {
        c
        for c in candidates
        if c not in stones
        and c not in centres
        and all(nb in stones for nb in naive_hex_neighbours(c))
    }


def naive_rings_closed(stones, centres, new_cell):
    """Ring centres completed by the stone just placed on ``new_cell``.

    By definition: the rings present now that were not present before the stone.
    """
    before = {c: v for c, v in stones.items() if c != new_cell}
    return naive_rings(stones, centres) - naive_rings(before, centres)


def naive_legal_cells(stones, centres):
    """Where the next stone may go: ``None`` (anywhere) for the first stone, else
    every cell with no stone and no wonder that touches a stone."""
    if not stones:
        return None
    return {
        nb
        for cell in stones
        for nb in naive_hex_neighbours(cell)
        if nb not in stones and nb not in centres
    }


def naive_cell_score(stones, centres, cell, colour):
    """Ring-planning score of a ``colour`` stone on the free ``cell`` (twin of
    ``strategies.score_cells``): for each free neighbour (a possible ring centre),
    ``f`` = its stones counting the new one and ``s`` = those of ``colour``: ``f²``,
    +30 if the ring closes, +0.6·s² if all one colour; then minus 1.5·a² if
    ``a >= 3`` stones already touch ``cell``. Neighbours in the kernel's order."""
    score = 0.0
    for c in naive_hex_neighbours(cell):
        if c in stones or c in centres:
            continue
        around = [nb for nb in naive_hex_neighbours(c) if nb != cell]
        filled = 1 + sum(nb in stones for nb in around)
        same = 1 + sum(stones.get(nb) == colour for nb in around)
        score += filled * filled
        if filled == 6:
            score += 30.0
        if same == filled:
            score += 0.6 * same * same
    touching = sum(nb in stones for nb in naive_hex_neighbours(cell))
    if touching >= 3:
        score -= touching * touching * 1.5
    return score


def naive_formula_ok(formula, ring, colours):
    """Does a ring (six colour names) satisfy a named-wonder ``formula`` (deck dict)?

    Formulas count colours, never positions. A named colour needs at least that
    many of it; the colourless formulas are exact.
    """
    from collections import Counter

    n = Counter(ring)
    kind = formula["kind"]
    if kind == "any":
        return len(ring) == 6
    if kind == "at_least":
        return n[formula["colour"]] >= formula["count"]
    if kind == "all_colours":
        return all(n[c] >= 1 for c in colours)
    shape = sorted(n.values())
    if kind == "two_threes":
        return shape == [3, 3]
    if kind == "three_twos":
        return shape == [2, 2, 2]
    if kind == "six_alike":
        return shape == [6]
    raise ValueError(kind)


# --------------------------------------------------------------------------- scoring twins


def naive_score(rules, held_ids, stones, tokens, named_ids):
    """Final score of one player, part by part, from ``docs/games/unearth.md``, "Scoring".

    ``rules``: an :class:`analyzer.unearth.rules.Rules` (its data dicts and rulings
    are read, never its kernel tables); ``held_ids``: card ids of every ruin and
    city the player holds (hidden ruin included); ``stones``: {stone colour name:
    count in the tableau}; ``tokens``: values of the wonder tokens built;
    ``named_ids``: ids of the named wonders built. Returns a dict of the parts
    (ruin_sets, five_colour, tokens, named, bonus, cities) and "total".
    """
    data = rules.data
    ruin_colour = {r["id"]: r["colour"] for r in data["ruins"]["ruin"]}
    city_points = {c["id"]: c.get("points", 0) for c in data["end_of_age"]["card"]}
    sc = data["scoring"]
    per_colour = {c: 0 for c in data["ruins"]["colours"]}
    cities = 0
    for cid in held_ids:
        if cid in ruin_colour:
            per_colour[ruin_colour[cid]] += 1
        else:
            cities += city_points[cid]  # cities: points, no colour
    table = sc["set_points"]
    ruin_sets = sum(table[min(k, len(table) - 1)] for k in per_colour.values())
    five = min(per_colour.values()) * sc["five_colour_set"]
    wonders = {w["id"]: w for w in data["named_wonders"]["wonder"]}
    named = 0
    for wid in named_ids:
        w = wonders[wid]
        named += w["points"]
        eff = w["effect"]
        if eff.startswith("temple_"):
            named += stones.get(eff.removeprefix("temple_"), 0)
        elif eff == "tomb":
            if rules.rulings.tomb == "stone_colours":
                named += sum(1 for v in stones.values() if v > 0)
            else:
                named += sum(1 for v in per_colour.values() if v > 0)
        elif eff == "fountain":
            all_colours = data["components"]["stone_colours"]
            named += 2 * min(stones.get(c, 0) for c in all_colours)
    n_wonders = len(tokens) + len(named_ids)
    threshold = sc["wonder_bonus_threshold"]
    if rules.rulings.wonder_bonus == "once":
        bonus = sc["wonder_bonus_points"] if n_wonders >= threshold else 0
    else:
        bonus = sc["wonder_bonus_points"] * (n_wonders // threshold)
    parts = {
        "ruin_sets": ruin_sets,
        "five_colour": five,
        "tokens": sum(tokens),
        "named": named,
        "bonus": bonus,
        "cities": cities,
    }
    parts["total"] = sum(parts.values())
    return parts


def naive_share_wins(rules, scores, held_ids):
    """Win shares of a finished game: the best score wins; among equal scores,
    most ruins of the highest claim value, then of the next highest, and so on;
    players still equal share the win. ``held_ids``: one list of card ids per seat."""
    from fractions import Fraction

    claim = {r["id"]: r["claim"] for r in rules.data["ruins"]["ruin"]}
    for c in rules.data["end_of_age"]["card"]:
        if c["kind"] == "ruin":
            claim[c["id"]] = c["claim"]
    values = sorted(set(claim.values()), reverse=True)

    def counts(seat):
        return [sum(1 for cid in held_ids[seat] if claim[cid] == v) for v in values]

    best = max(scores)
    tied = [p for p in range(len(scores)) if scores[p] == best]
    top = max(counts(p) for p in tied)
    winners = [p for p in tied if counts(p) == top]
    return [Fraction(1, len(winners)) if p in winners else Fraction(0) for p in range(len(scores))]


# --------------------------------------------------------------------------- RNG

MASK64 = (1 << 64) - 1


def _rotl64(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK64


def xoshiro_next(s):
    """One xoshiro256** step on a list of four Python ints (updated in place)."""
    result = (_rotl64((s[1] * 5) & MASK64, 7) * 9) & MASK64
    t = (s[1] << 17) & MASK64
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl64(s[3], 45)
    return result


def naive_reachable(natural, faces, modifiers):
    """Final values of a roll of ``natural`` on a ``faces`` die when every
    modifier in ``modifiers`` (``(delta, optional, signed)`` each) is applied
    once, in any order the player likes, each step clamped to 1..faces: an
    optional one may be skipped, a signed one applied as +delta or -delta.
    Tries every order (memoised on the value and the modifiers left)."""

    @functools.cache
    def go(value, left):
        if not left:
            return frozenset([value])
        out = set()
        for m in set(left):
            rest = list(left)
            rest.remove(m)
            rest = tuple(rest)
            delta, optional, signed = m
            steps = {min(max(value + delta, 1), faces)}
            if signed:
                steps.add(min(max(value - delta, 1), faces))
            if optional:
                steps.add(value)
            for v in steps:
                out |= go(v, rest)
        return frozenset(out)

    return set(go(natural, tuple(sorted(modifiers))))


def naive_pile_worth(count, worth, k):
    """Every pile of ``k`` cards drawn without replacement from a pool with
    ``count[c]`` cards worth ``worth[c]``, equally likely: the expected worth of
    the pile's best card and of a random card of it, as fractions (twin of
    ``strategies.pile_worth``)."""
    import itertools
    from fractions import Fraction

    cards = [Fraction(w) for c, w in zip(count, worth, strict=True) for _ in range(c)]
    if not cards or k <= 0:
        return Fraction(0), Fraction(0)
    k = min(k, len(cards))
    piles = list(itertools.combinations(range(len(cards)), k))
    best = sum(max(cards[i] for i in pile) for pile in piles) / len(piles)
    mean = sum(sum(cards[i] for i in pile) / k for pile in piles) / len(piles)
    return best, mean


def naive_open_centre(stones, centres, cell):
    """Is the free ``cell`` the centre of a ring that could still close (no
    wonder around it) with 3 or more stones around it already?"""
    around = naive_hex_neighbours(cell)
    if any(nb in centres for nb in around):
        return False
    return sum(nb in stones for nb in around) >= 3


def naive_ring_closeness(stones, centres):
    """Twin of ``strategies.ring_closeness``: over the free cells with no wonder
    around them, ``(f - 2) / 3`` for the most stones ``f`` around one (0 below
    3; a cell with 6 around is a closed ring awaiting its wonder, not an open
    one), times 1.5 when those stones are all one colour."""
    cand = {nb for cell in stones for nb in naive_hex_neighbours(cell)}
    best = 0.0
    for cell in cand:
        if cell in stones or cell in centres:
            continue
        around = naive_hex_neighbours(cell)
        if any(nb in centres for nb in around):
            continue
        colours = [stones[nb] for nb in around if nb in stones]
        if len(colours) < 3 or len(colours) == 6:  # 6: a closed ring awaiting its wonder
            continue
        v = (len(colours) - 2) / 3.0
        if len(set(colours)) == 1:
            v *= 1.5
        best = max(best, v)
    return best


# --------------------------------------------------------------------------- Colorful Treasure
# Twins of the players' decisions of docs/games/colorful_treasure.md ("Players and
# memory"), written the long way: what a seat knows is recounted from every card's
# memory, candidate reveals are listed and scored one by one, and values are exact
# fractions. ``s`` is a State (numpy arrays), ``t`` the rules' Tables.


def _ct_key(t, c):
    """A card's kind: its gem colour, or diamond, key, chest after the colours."""
    kind = int(t.card_kind[c])
    return int(t.card_colour[c]) if kind == 0 else int(t.n_colours) + kind - 1


def _ct_class(s, t, seat, c):
    return 2 * _ct_key(t, c) + int(s.wcards[seat, t.card_wonder[c]] == 0)


def naive_ct_view(s, t, seat):
    """``(known, unknown, up)``: the cards in the grid ``seat`` knows (remembered at
    this turn, or face up), each wonder's cards in the grid it does not know, and
    the places face up now."""
    from analyzer.colorful_treasure.state import S_N_UP, S_TURN

    turn = int(s.sc[S_TURN])
    up = [int(s.up[i]) for i in range(int(s.sc[S_N_UP]))]
    up_cards = {int(s.grid[p]) for p in up}
    in_grid = [c for c in range(t.n_cards) if s.owner[c] < 0]
    known = {c for c in in_grid if s.mem[seat, c] >= turn or c in up_cards}
    rows = int(t.rows)
    unknown = {
        w: [c for c in range(w * rows, (w + 1) * rows) if s.owner[c] < 0 and c not in known]
        for w in range(t.n_wonders)
    }
    return known, unknown, up


def naive_ct_majority(s, t, seat, n, k):
    """Exact value (a Fraction) of ``k`` more key or chest cards for the treasure
    majority ("Players and memory"): the treasure points times the change of a logistic
    of the seat's lead over the best other seat, scale 1/2 + 3/20 per key or chest left
    in the grid, rounded to 1/64 of a point; 0 for plan BASELINE (3) and without rewards."""
    import math
    from fractions import Fraction as F

    from analyzer.colorful_treasure.state import H_TREASURE

    if k == 0 or t.rewards == 0 or int(s.plan[seat]) == 3:
        return F(0)
    rival = max(int(s.held[q, H_TREASURE]) for q in range(n) if q != seat)
    d = int(s.held[seat, H_TREASURE]) - rival
    left = sum(1 for c in range(t.n_cards) if s.owner[c] < 0 and t.card_kind[c] >= 2)
    scale = 0.5 + 0.15 * left
    gain = 1 / (1 + math.exp(-(d + k) / scale)) - 1 / (1 + math.exp(-d / scale))
    return F(math.floor(int(t.treasure_points) * gain * 64 + 0.5), 64)


def naive_ct_take_value(s, t, seat, n, cards, sv):
    """Exact value (a Fraction) to ``seat`` of the take the rules force or allow with
    ``cards`` face up: keys and chests are taken (their weight, new wonders, ``sv``
    per pair of markers completed), else the best single kind."""
    from fractions import Fraction as F

    from analyzer.colorful_treasure.state import (
        H_CHESTS,
        H_COLOURS,
        H_KEYS,
        H_WONDERS,
        S_EXPLORER_OWNER,
        S_GEM_OWNER,
    )

    _recall, w_treasure, w_reward, _deny, _third = (F(float(x)) for x in s.prm[seat])
    gem_open = t.rewards == 1 and s.sc[S_GEM_OWNER] < 0
    explorer_open = t.rewards == 1 and s.sc[S_EXPLORER_OWNER] < 0

    def explorer(taken):
        new = {int(t.card_wonder[c]) for c in taken if s.wcards[seat, t.card_wonder[c]] == 0}
        if not new or not explorer_open:
            return F(0)
        v = F(1, 2) * w_reward * len(new)
        if s.held[seat, H_WONDERS] + len(new) >= t.explorer_goal:
            v += int(t.explorer_points)
        return v

    treasure = [c for c in cards if _ct_key(t, c) > t.n_colours]
    if treasure:
        keys = sum(_ct_key(t, c) == t.n_colours + 1 for c in treasure)
        chests = len(treasure) - keys
        hk, hc = int(s.held[seat, H_KEYS]), int(s.held[seat, H_CHESTS])
        pairs = min(hk + keys, hc + chests) - min(hk, hc)
        return (
            w_treasure * len(treasure)
            + naive_ct_majority(s, t, seat, n, len(treasure))
            + F(float(sv)) * pairs
            + explorer(treasure)
        )
    table = [int(x) for x in t.gem_points]
    best = None
    for key in {_ct_key(t, c) for c in cards}:
        taken = [c for c in cards if _ct_key(t, c) == key]
        if key < t.n_colours:
            have = int(s.gems[seat, key])
            top = len(table) - 1
            v = F(table[min(have + len(taken), top)] - table[min(have, top)])
            if have == 0 and gem_open:
                v += w_reward
                if s.held[seat, H_COLOURS] + 1 >= t.gem_goal[n]:
                    v += int(t.gem_reward[n])
        else:
            v = F(len(taken) * int(t.diamond_card + t.plastic_diamond))
        v += explorer(taken)
        best = v if best is None else max(best, v)
    if t.take_optional == 1 and best <= 0:
        return F(0)
    return best


def naive_ct_slots(s, t, seat, known, unknown, up):
    """Candidate reveals: the known face-down cards by id, at most two of each class
    (cards of one class are worth the same), then every wonder with unknown cards
    (as ``-1 - wonder``)."""
    slots = []
    listed = {}
    for c in sorted(known):
        if int(s.pos_of[c]) in up:
            continue
        k = _ct_class(s, t, seat, c)
        if listed.get(k, 0) < 2:
            listed[k] = listed.get(k, 0) + 1
            slots.append(c)
    return slots + [-1 - w for w in range(t.n_wonders) if unknown[w]]


def _ct_outcomes(slot, unknown):
    return [slot] if slot >= 0 else unknown[-1 - slot]


def _ct_wonder(t, slot):
    return int(t.card_wonder[slot]) if slot >= 0 else -1 - slot


def naive_ct_aim(t, slot, unknown, target):
    """How well ``slot`` serves ``target`` (a gem colour, diamond, then key-or-chest):
    the chance of the target kind, less the chance of a key or chest when the target
    is not one."""
    from fractions import Fraction as F

    cards = _ct_outcomes(slot, unknown)
    tre = F(sum(_ct_key(t, c) > t.n_colours for c in cards), len(cards))
    if target == t.n_colours + 1:
        return tre
    return F(sum(_ct_key(t, c) == target for c in cards), len(cards)) - tre


def naive_ct_top(t, slots, unknown, target, taken=None):
    """The first slot of the best aim; with ``taken``, among the slots of other
    wonders, or if there are none, among all but ``taken`` (which a wonder with two
    unknown places or more may be). None if there is none."""

    def first_best(cands):
        best = arg = None
        for sl in cands:
            v = naive_ct_aim(t, sl, unknown, target)
            if best is None or v > best:
                best, arg = v, sl
        return arg

    if taken is None:
        return first_best(slots)
    others = [sl for sl in slots if not (sl == taken and (sl >= 0 or len(unknown[-1 - sl]) < 2))]
    wa = _ct_wonder(t, taken)
    found = first_best([sl for sl in others if _ct_wonder(t, sl) != wa])
    return found if found is not None else first_best(others)


def _ct_place(s, t, slot, known, up, exclude, rng):
    """The place to reveal for ``slot``: a known card's, or uniform (the engine's
    draw) among the face-down places of the wonder that hold no known card."""
    from analyzer.kernels.rng import rng_below

    if slot >= 0:
        return int(s.pos_of[slot])
    w = -1 - slot
    rows = int(t.rows)
    taken_by_known = {int(s.pos_of[c]) for c in known}
    places = [
        p
        for p in range(w * rows, (w + 1) * rows)
        if s.grid[p] >= 0 and p not in up and p not in exclude and p not in taken_by_known
    ]
    k = rng_below(rng, len(places))
    return places[k] if places else -1


def _ct_uniform_place(s, t, up, exclude, rng):
    from analyzer.kernels.rng import rng_below

    places = [p for p in range(t.n_cards) if s.grid[p] >= 0 and p not in up and p not in exclude]
    k = rng_below(rng, len(places))
    return places[k] if places else -1


def naive_ct_choose_first(s, t, seat, n, k, sv, rng):
    """Places of the ``k`` cards an expected-value seat reveals at once: for each
    target, the slot that serves it best and the best one of another wonder; of
    those pairs the first of the best exact expected value. ``sv``: the seat's best
    steal value; ``rng``: a copy of the game's stream, drawn from as the engine does."""
    from fractions import Fraction as F

    known, unknown, up = naive_ct_view(s, t, seat)
    slots = naive_ct_slots(s, t, seat, known, unknown, up)
    seen = []
    best = chosen = None
    for target in range(t.n_colours + 2):
        a = naive_ct_top(t, slots, unknown, target)
        if a is None:
            continue
        b = a if k == 1 else naive_ct_top(t, slots, unknown, target, taken=a)
        if b is None or (a, b) in seen:
            continue
        seen.append((a, b))
        vals = []
        for x in _ct_outcomes(a, unknown):
            if k == 1:
                vals.append(naive_ct_take_value(s, t, seat, n, [x], sv))
                continue
            for y in _ct_outcomes(b, unknown):
                if not (a < 0 and a == b and x == y):
                    vals.append(naive_ct_take_value(s, t, seat, n, [x, y], sv))
        val = sum(vals, F(0)) / len(vals)
        if best is None or val > best:
            best, chosen = val, (a, b)
    picks = [_ct_place(s, t, chosen[0], known, up, set(), rng)]
    if k >= 2:
        picks.append(_ct_place(s, t, chosen[1], known, up, {picks[0]}, rng))
    for _ in range(2, k):
        picks.append(_ct_uniform_place(s, t, up, set(picks), rng))
    return picks


def naive_ct_choose_extra(s, t, seat, n, sv, rng):
    """Place of one more card for an expected-value seat, or -1: the first slot of
    the best expected value of the take with it face up, if that beats the take now
    by more than ``third``."""
    from fractions import Fraction as F

    known, unknown, up = naive_ct_view(s, t, seat)
    if not any(s.grid[p] >= 0 and p not in up for p in range(t.n_cards)):
        return -1
    face_up = [int(s.grid[p]) for p in up]
    cur = naive_ct_take_value(s, t, seat, n, face_up, sv)
    best = arg = None
    for sl in naive_ct_slots(s, t, seat, known, unknown, up):
        outs = _ct_outcomes(sl, unknown)
        v = sum((naive_ct_take_value(s, t, seat, n, face_up + [c], sv) for c in outs), F(0))
        v /= len(outs)
        if best is None or v > best:
            best, arg = v, sl
    if float(best) > float(cur) + float(s.prm[seat, 4]) + 1e-9:
        return _ct_place(s, t, arg, known, up, set(), rng)
    return -1
