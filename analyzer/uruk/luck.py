"""Luck terms of Uruk's chance events (``docs/statistics.md``, "Luck-adjusted
estimates"; the accounting itself is :mod:`analyzer.kernels.luck`).

Uruk's chance is its shuffled cards: every card drawn from the deck is a chance
event, and each seat gets ``V(after the outcome) - sum_o P(o) V(after o)`` for
it. Given everything seen by anyone (the table, every hand, the discard pile),
the deck's order is a uniform shuffle of its cards within its two piles: until
the first reshuffle the undealt level-2 cards lie on top of the shuffled level-3,
level-4, god and disaster cards (set-up, step 5), so a draw is uniform over the
cards left in the top pile, counted by kind; after a reshuffle, over the whole
deck. A god or disaster card drawn is an outcome like any other (the drawing
goes on with a further event). The terms only observe: they draw no random
numbers and change nothing the game reads (``s.luck*`` fields only), summed per
kind of draw in ``s.luck`` (float64[N_KINDS, 2, P]: win, score) when
``s.luck_par`` holds the value estimate's parameters (shape ``(1,)``: off).

Kinds: a card drawn to a hand (the deck's top taken, a god's or a card action's
draw) and a card drawn to the central display (the set-up's and each turn's
refill; it is valued for the seat that picks next). The set-up's deal (the
level-1 cards and the hands) has no term, and neither do the set-up's discards:
``V`` values every discarded card alike, so their terms are zero.

``V`` reads only what is public or in a hand: a seat's score value is its score
if the game ended now plus its hand's worth: each card of an invention it does
not display ``card`` points plus ``level`` per level of the invention, and
``match`` more for each copy up to the invention's level (the cards that make
it); a card of an invention it displays ``trade`` points. A god or disaster card
drawn is worth, to the seat that is drawing, the mean worth of the inventions
left in the pile (it draws again). A display card is worth ``display`` times its
worth to the seat that picks next. Win values are a softmax of the score values
at temperature ``tau0 + tau1 * stones left on the epoch cards``. Parameters
fitted by :mod:`analyzer.uruk.luck_fit` on games of other seeds, shipped in
``data/luck_value.toml``.
"""

from __future__ import annotations

import numpy as np

import analyzer.kernels.luck as shared
from analyzer.kernels.jit import njit
from analyzer.kernels.luck import event_begin, event_end, event_outcome, luck_on
from analyzer.uruk.scoring import score_parts
from analyzer.uruk.state import (
    LUCK_KINDS,
    LUCK_SC_PILE,
    N_DEAL_F,
    S_DECK_N,
    S_N,
    S_RESHUFFLES,
)

#: kinds of chance event, the first axis of ``State.luck``
KIND_HAND = 0
KIND_DISPLAY = 1
KIND_DEAL = 2
N_KINDS = LUCK_KINDS
KIND_NAMES = ("draws to a hand", "display refills", "the set-up deal")

#: the deal's features of a seat (``State.luck_f``): its level-1 invention (one of
#: the first DEAL_L1 level-1 inventions, one-hot), then its hand's cards of that
#: invention's colour, its cards counted up to two per invention, its pairs
DEAL_L1 = 5
F_OWN = DEAL_L1
F_UPTO2 = DEAL_L1 + 1
F_PAIRS = DEAL_L1 + 2

#: where the next card drawn goes (``State.luck_to``): nowhere valued (set-up discards)
TO_NONE = -1

#: the value estimate's parameters, in ``State.luck_par``
LP_CARD = 0  #: points a hand card of an invention not displayed is worth
LP_LEVEL = 1  #: ... plus this per level of its invention
LP_MATCH = 2  #: ... plus this for each copy up to the invention's level
LP_TRADE = 3  #: points a hand card of an invention the seat displays is worth
LP_DISPLAY = 4  #: weight of a display card's worth to the seat that picks next
LP_TAU0 = 5  #: win temperature (points) with no stone left on the epoch cards
LP_TAU1 = 6  #: ... plus this per stone left
N_LUCK_PAR = 7
#: tests only: a ``luck_par`` one longer plants a known bias
#: (``tests/uruk/test_uruk_luck.py`` shows the checks catch it): 1, the expectation
#: taken in the state after the outcome (each card valued with the card drawn
#: already held); 2, ``V`` reads the hidden deck (a bonus to the seat credited when the
#: card valued is the one really drawn); 3, a wrong enumeration (uniform over the
#: whole deck, its two piles ignored); 4, the deal's term without its expectation
#: (each seat's features not centred on the table's)
LP_PLANT = N_LUCK_PAR
PAR_NAMES = ("card", "level", "match", "trade", "display", "tau0", "tau1")

# ``State.luck_sc`` slots
SC_TO = 0  #: the seat the next card drawn is valued for, TO_NONE: none
SC_KIND = 1  #: its kind (KIND_*)
SC_PILE = LUCK_SC_PILE  #: cards of the bottom pile (level 3 and 4, gods, disasters)


def _shipped() -> dict:
    return shared.shipped_values("analyzer.uruk")


def load_value_params() -> np.ndarray:
    """The shipped parameters of ``V`` (``data/luck_value.toml``), float64[N_LUCK_PAR]."""
    return shared.value_row(_shipped(), PAR_NAMES)


def load_deal_params(players: int) -> np.ndarray:
    """The shipped weights of the deal's term at ``players`` seats (float64[2,
    N_DEAL_F]: win, score; zeros if none are shipped for that count)."""
    deal = _shipped().get("deal", {}).get(str(players))
    out = np.zeros((2, N_DEAL_F))
    if deal:
        out[0] = np.asarray(deal["win"], float)
        out[1] = np.asarray(deal["score"], float)
    return out


@njit
def luck_reset(s):
    """A new game: no luck yet, no draw valued."""
    s.luck[:] = 0.0
    s.luck_sc[SC_TO] = TO_NONE
    s.luck_sc[SC_KIND] = KIND_HAND


@njit
def luck_to(s, seat, kind):
    """The next cards drawn go to (are valued for) ``seat`` (TO_NONE: none), of ``kind``."""
    s.luck_sc[SC_TO] = seat
    s.luck_sc[SC_KIND] = kind


# ------------------------------------------------------------------ the value estimate


@njit
def displays(s, t, q, x):
    """Whether seat ``q`` displays invention ``x``."""
    for i in range(t.max_inventions):
        if s.inv[q, i] == x:
            return True
    return False


@njit
def hand_worth(s, t, q, x, k):
    """Points ``k`` hand cards of invention ``x`` are worth to seat ``q``."""
    if displays(s, t, q, x):
        return k * s.luck_par[LP_TRADE]
    lv = t.inv_level[x]
    w = k * (s.luck_par[LP_CARD] + s.luck_par[LP_LEVEL] * lv)
    return w + s.luck_par[LP_MATCH] * min(k, lv)


@njit
def gain(s, t, q, x, extra):
    """What one more card of invention ``x`` adds to seat ``q``'s hand worth,
    with ``extra`` more copies of it in the hand than it holds."""
    k = s.hand[q, x] + extra
    return hand_worth(s, t, q, x, k + 1) - hand_worth(s, t, q, x, k)


@njit
def base_values(s, t, n):
    """``s.luck_base[q]``: seat ``q``'s score if the game ended now plus its hand's worth."""
    for q in range(n):
        a, b, c, d = score_parts(s, t, q)
        v = float(a + b + c + d)
        for x in range(t.n_inv):
            if s.hand[q, x] > 0:
                v += hand_worth(s, t, q, x, s.hand[q, x])
        s.luck_base[q] = v


# ------------------------------------------------------------------ chance events


@njit
def pile_bounds(s, top):
    """``lo``: the lowest deck index of the pile whose top card is ``deck[top]``."""
    pile = s.luck_sc[SC_PILE]
    if s.sc[S_RESHUFFLES] == 0 and top >= pile:
        return pile
    return 0


@njit
def count_pile(s, t, lo, hi):
    """``s.luck_cnt[c]``: copies of card code ``c`` in ``deck[lo:hi]``; the number of
    invention cards among them."""
    s.luck_cnt[:] = 0
    inv = 0
    for i in range(lo, hi):
        c = s.deck[i]
        s.luck_cnt[c] += 1
        if c < t.n_inv:
            inv += 1
    return inv


@njit
def luck_draw(s, t):
    """The card ``deck[S_DECK_N]`` has just been drawn (the deck's top a moment
    ago): the event's terms, for the seat and kind :func:`luck_to` set. Outcomes
    that ``V`` values alike are valued once, their probabilities summed."""
    if not luck_on(s, N_LUCK_PAR):
        return
    q = s.luck_sc[SC_TO]
    if q < 0:
        return  # V values every outcome alike: the term is zero
    kind = s.luck_sc[SC_KIND]
    top = s.sc[S_DECK_N]
    actual = s.deck[top]
    plant = shared.planted(s, N_LUCK_PAR)
    lo = 0 if plant == 3 else pile_bounds(s, top)
    m = top + 1 - lo
    if m <= 1:
        return  # the pile's last card: no chance
    inv = count_pile(s, t, lo, top + 1)
    n = s.sc[S_N]
    base_values(s, t, n)
    w = 1.0 if kind == KIND_HAND else s.luck_par[LP_DISPLAY]
    cnt = s.luck_cnt
    # each invention's gain to seat q; a god or disaster card: their mean (drawn next)
    god = 0.0
    for x in range(t.n_inv):
        if cnt[x] > 0:
            s.luck_gain[x] = gain(s, t, q, x, 0)
            god += cnt[x] * s.luck_gain[x]
    if inv > 0:
        god /= inv
    got = god if actual >= t.n_inv else s.luck_gain[actual]
    # group the outcomes by their value to seat q
    gv = s.luck_gv
    gp = s.luck_gp
    ng = 0
    hit = -1
    for c in range(cnt.shape[0]):
        k = cnt[c]
        if k == 0:
            continue
        if c >= t.n_inv:
            v = w * god
        else:
            v = w * s.luck_gain[c]
        if plant == 1:  # planted: valued in the state after the outcome (the card drawn held)
            extra = 1 if c == actual and kind == KIND_HAND else 0
            v = w * ((god if c >= t.n_inv else gain(s, t, q, c, extra)) + got)
        if plant == 2 and c == actual:
            v += 5.0  # planted: V reads the hidden deck
        g = -1
        for j in range(ng):
            if gv[j] == v:
                g = j
                break
        if g < 0:
            g = ng
            gv[g] = v
            gp[g] = 0.0
            ng += 1
        gp[g] += k / m
        if c == actual:
            hit = g
    if plant == 1:  # the actual card valued right, with no weight
        gv[ng] = w * got
        gp[ng] = 0.0
        hit = ng
        ng += 1
    stones = 0
    for e in range(s.epoch.shape[0]):
        stones += s.epoch[e]
    tau = s.luck_par[LP_TAU0] + s.luck_par[LP_TAU1] * stones
    acc = s.luck_acc
    vs = s.luck_vs
    event_begin(acc, n)
    for j in range(ng):
        for r in range(n):
            vs[r] = s.luck_base[r]
        vs[q] += gv[j]
        event_outcome(acc, vs, n, tau, gp[j], j == hit)
    event_end(acc, s.luck[kind, 0], s.luck[kind, 1], n)


@njit
def deal_features(s, t, p):
    """Seat ``p``'s deal features into ``s.luck_f[p]`` (see ``DEAL_L1``)."""
    f = s.luck_f[p]
    f[:] = 0.0
    x1 = s.inv[p, 0]
    j = 0
    for x in range(x1):
        if t.inv_level[x] == 1:
            j += 1
    if j < DEAL_L1:
        f[j] = 1.0
    colour = t.inv_colour[x1]
    for x in range(t.n_inv):
        h = s.hand[p, x]
        if h > 0:
            if t.inv_colour[x] == colour:
                f[F_OWN] += h
            f[F_UPTO2] += min(h, 2)
            if h >= 2:
                f[F_PAIRS] += 1


@njit
def luck_deal(s, t, n):
    """The set-up deal's terms (after the set-up; the deal's features do not
    change before the first turn): ``V_p = c + w . (f_p - mean_q f_q)`` for the
    win (``c = 1/n``) and the score, with ``w`` the weights ``s.luck_deal`` at
    this player count. The deal is exchangeable between the seats (each seat's
    level-1 card and hand are a uniform shuffle's), so ``E[V_p]`` is ``c``
    exactly: the term is ``w . (f_p - mean f)``, and the win terms sum to zero."""
    if not luck_on(s, N_LUCK_PAR):
        return
    f = s.luck_f
    for p in range(n):
        deal_features(s, t, p)
    plant = shared.planted(s, N_LUCK_PAR)
    for j in range(N_DEAL_F):
        m = 0.0
        if plant != 4:
            for p in range(n):
                m += f[p, j]
            m /= n
        for p in range(n):
            d = f[p, j] - m
            s.luck[KIND_DEAL, 0, p] += s.luck_deal[0, j] * d
            s.luck[KIND_DEAL, 1, p] += s.luck_deal[1, j] * d


@njit
def store_luck(s, n, row0):
    """Copy this game's luck into rows ``row0 ..`` of ``s.luck_out``
    (:func:`analyzer.kernels.luck.store_luck`)."""
    shared.store_luck(s, n, row0, N_LUCK_PAR)
