"""Game end and scoring (kernels): points of one seat, the winners and the tie rule.

Implements "Game end and scoring" of ``docs/games/uruk.md``. Draws no random numbers.
"""

from analyzer.kernels.jit import njit
from analyzer.uruk.codes import Counts, Effect

#: score parts, in the order of :func:`score_parts`
PART_NAMES = ("inventions", "resources", "effects", "gods")
N_PARTS = 4

_END_POINTS = Effect.END_POINTS.value
_INVENTIONS = Counts.INVENTIONS.value
_VILLAGES = Counts.VILLAGES.value
_CITIES = Counts.CITIES.value
_RESOURCES = Counts.RESOURCES.value


@njit
def invention_points(t, x, stones):
    """Points of displayed invention ``x`` with ``stones`` on it (0, 1 village, 2 city)."""
    if stones == 0:
        return t.bare_points
    if stones == 1:
        return t.inv_level[x] * t.village_factor
    return t.inv_level[x] * t.city_factor


@njit
def count_settlements(s, t, p, kind):
    """Seat ``p``'s villages (``kind`` 1) or cities (``kind`` 2)."""
    k = 0
    for i in range(t.max_inventions):
        if s.inv[p, i] >= 0 and s.stones[p, i] == kind:
            k += 1
    return k


@njit
def stones_of(s, t, p):
    """Settlement stones seat ``p`` has on its inventions (a city is two)."""
    k = 0
    for i in range(t.max_inventions):
        k += s.stones[p, i]
    return k


@njit
def end_points(s, t, p, x):
    """Points of the end_points invention ``x`` for seat ``p``."""
    what = t.inv_kind_param[x]
    k = 0
    if what == _INVENTIONS:
        for i in range(t.max_inventions):
            if s.inv[p, i] >= 0:
                k += 1
    elif what == _VILLAGES:
        k = count_settlements(s, t, p, 1)
    elif what == _CITIES:
        k = count_settlements(s, t, p, 2)
    elif what == _RESOURCES:
        for c in range(t.n_colours):
            k += s.supply[p, c]
    else:  # displayed inventions of the card's colour
        for i in range(t.max_inventions):
            y = s.inv[p, i]
            if y >= 0 and t.inv_colour[y] == t.inv_colour[x]:
                k += 1
    return t.inv_amount[x] * (k // t.inv_level_param[x])


@njit
def score_parts(s, t, p):
    """Seat ``p``'s score parts ``(inventions, resources, invention effects,
    gods)``; the score is their sum."""
    inv = 0
    eff = 0
    for i in range(t.max_inventions):
        x = s.inv[p, i]
        if x >= 0:
            inv += invention_points(t, x, s.stones[p, i])
            if t.inv_effect[x] == _END_POINTS:
                eff += end_points(s, t, p, x)
    res = 0
    for c in range(t.n_colours):
        res += s.supply[p, c]
    res //= t.resources_per_point
    gods = s.city_points[p] * count_settlements(s, t, p, 2)
    return inv, res, eff, gods


@njit
def win_shares(scores, cities, n, out):
    """Win shares of ``n`` seats: the highest score wins; on a tie, the most
    cities among them; still tied, the win is shared (1/k each)."""
    best = -1
    for p in range(n):
        if scores[p] > best:
            best = scores[p]
    most = -1
    for p in range(n):
        if scores[p] == best and cities[p] > most:
            most = cities[p]
    k = 0
    for p in range(n):
        if scores[p] == best and cities[p] == most:
            k += 1
    for p in range(n):
        out[p] = 1.0 / k if scores[p] == best and cities[p] == most else 0.0
