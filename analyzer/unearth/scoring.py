"""Final scoring and the tied-game rule (``docs/games/unearth.md``, "Scoring").

1. Ruin sets: for each colour, ``set_points[count]``.
2. ``five_colour_set`` points per complete set of all ruin colours.
3. Wonders: token values, named-wonder points and end-game effects; cities' points.
4. Wonder-count bonus: ``bonus_points`` once for ``bonus_threshold`` or more wonders
   (English) or for every ``bonus_threshold`` wonders (German).

Tied game: most ruins of the highest claim value wins, then the next highest, and
so on; players still equal share the win. This is the lexicographic comparison
of each player's claim values sorted high to low (a longer list beats its prefix).
"""

from analyzer.kernels.jit import njit
from analyzer.unearth.codes import CardKind, TombMode, WonderBonus, WonderEffect

#: indices into a score-parts row
PART_RUIN_SETS = 0
PART_FIVE_COLOUR = 1
PART_TOKENS = 2
PART_NAMED = 3
PART_BONUS = 4
PART_CITIES = 5
N_PARTS = 6
PART_NAMES = ("ruin_sets", "five_colour", "tokens", "named", "bonus", "cities")


@njit(inline="always")
def named_wonder_points(t, w, stones_by_colour, ruin_colour_count):
    """Points of named wonder ``w`` for its owner: printed points + end-game effect.

    ``stones_by_colour``: int[n_stone_colours] stones in the owner's tableau;
    ``ruin_colour_count``: int[n_ruin_colours] ruins held by colour.
    """
    pts = int(t.wonder_points[w])
    eff = t.wonder_effect[w]
    if (
        eff == WonderEffect.TEMPLE_BLACK
        or eff == WonderEffect.TEMPLE_RED
        or eff == WonderEffect.TEMPLE_BLUE
        or eff == WonderEffect.TEMPLE_YELLOW
    ):
        # a temple scores +1 per stone of the colour its formula names
        pts += stones_by_colour[t.wonder_colour[w]]
    elif eff == WonderEffect.TOMB:
        n = 0
        if t.tomb_mode == TombMode.STONE_COLOURS:
            for c in range(t.n_stone_colours):
                if stones_by_colour[c] > 0:
                    n += 1
        else:
            for c in range(t.n_ruin_colours):
                if ruin_colour_count[c] > 0:
                    n += 1
        pts += n
    elif eff == WonderEffect.FOUNTAIN:
        lo = stones_by_colour[0]
        for c in range(1, t.n_stone_colours):
            lo = min(lo, stones_by_colour[c])
        pts += 2 * lo
    return pts


@njit
def score_player(s, t, p):
    """Score seat ``p`` of the game ``s``; write the parts into ``s.parts[p]``
    (int[N_PARTS]); return the total.

    Reads the cards of the ruins deck ``p`` holds (``s.held[p]``, hidden ruin
    included), its stones by colour, its lesser and greater tokens (number and
    points) and the named wonders it built. Draws no random numbers.
    """
    held = s.held[p]
    stones_by_colour = s.n_stones[p]
    token_points = s.tokens[p, 2]
    n_tokens = s.tokens[p, 0] + s.tokens[p, 1]
    parts = s.parts[p]
    ruin_colour_count = s.ruin_n
    for c in range(t.n_ruin_colours):
        ruin_colour_count[c] = 0
    cities = 0
    for card in range(held.shape[0]):
        if held[card] == 0:
            continue
        if t.card_kind[card] == CardKind.RUIN:
            ruin_colour_count[t.card_colour[card]] += 1
        elif t.card_kind[card] == CardKind.CITY:
            cities += t.card_points[card]
    sets = 0
    full = 1 << 30
    for c in range(t.n_ruin_colours):
        k = ruin_colour_count[c]
        k = min(k, t.set_points.shape[0] - 1)
        sets += t.set_points[k]
        full = min(full, ruin_colour_count[c])
    named = 0
    n_named = 0
    for w in range(s.named_state.shape[0]):
        if s.named_state[w] == p:
            n_named += 1
            named += named_wonder_points(t, w, stones_by_colour, ruin_colour_count)
    n_wonders = n_tokens + n_named
    if t.bonus_mode == WonderBonus.ONCE:
        bonus = t.bonus_points if n_wonders >= t.bonus_threshold else 0
    else:
        bonus = t.bonus_points * (n_wonders // t.bonus_threshold)
    parts[PART_RUIN_SETS] = sets
    parts[PART_FIVE_COLOUR] = full * t.five_colour_set
    parts[PART_TOKENS] = token_points
    parts[PART_NAMED] = named
    parts[PART_BONUS] = bonus
    parts[PART_CITIES] = cities
    total = 0
    for i in range(N_PARTS):
        total += parts[i]
    return total


@njit
def tiebreak_better(s, t, a, b):
    """+1 if seat ``a``'s holdings beat seat ``b``'s under the tied-game rule, -1 if
    worse, 0 if equal.

    Compares counts of held ruins (cities included) claim value by claim value,
    from the highest value down.
    """
    held_a = s.held[a]
    held_b = s.held[b]
    top = 0
    for card in range(held_a.shape[0]):
        top = max(top, int(t.card_claim[card]))
    for v in range(top, 0, -1):
        ca = 0
        cb = 0
        for card in range(held_a.shape[0]):
            if t.card_claim[card] == v and t.card_kind[card] != CardKind.EVENT:
                ca += held_a[card]
                cb += held_b[card]
        if ca != cb:
            return 1 if ca > cb else -1
    return 0


@njit
def share_wins(s, t, n_players):
    """Fill ``s.win`` (float[n_players]) from the scores in ``s.scores``: 1 for the
    winner, 1/k for a k-way shared win."""
    scores = s.scores
    win_out = s.win
    best = scores[0]
    for p in range(1, n_players):
        best = max(best, scores[p])
    # players on the best score, then filtered by the tied-game rule
    winners = s.winners
    for p in range(n_players):
        winners[p] = 1 if scores[p] == best else 0
    for p in range(n_players):
        if not winners[p]:
            continue
        for q in range(n_players):
            if q != p and winners[q] and tiebreak_better(s, t, q, p) > 0:
                winners[p] = 0
                break
    k = 0
    for p in range(n_players):
        if winners[p]:
            k += 1
    for p in range(n_players):
        win_out[p] = 1.0 / k if winners[p] else 0.0
