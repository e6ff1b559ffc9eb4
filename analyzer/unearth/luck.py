"""Luck terms of Unearth's chance events (``docs/statistics.md``, "Luck-adjusted
estimates"; the accounting itself is :mod:`analyzer.luck`).

At each chance event below, every seat gets ``V(after the outcome) - sum_o P(o)
V(after o)``, with the exact distribution of the outcome, taken right after the
outcome and before any decision. The terms only observe: they draw no random
numbers and leave the game as it is (a hypothetical outcome is written into the
state, valued and taken back). They are summed per kind of event in ``s.luck``
(float64[N_KINDS, 2, P]: win, score) when ``s.luck_par`` holds the value
estimate's parameters (shape ``(1,)``: off, as in the search's rollouts).

Events with a term (``docs/rules/unearth.md``):

- **a die's roll** (every roll and reroll, "A turn"): its faces, equally likely;
  after the outcome the die shows the face (with the event's modifier) on its
  ruin, and a natural 1-3 promises its owner a stone (worth ``stone`` points,
  ``tableau`` points once in its tableau);
- **a ruin revealed** ("End of age"): the next card of the ruins deck, uniform
  over the ruins still in the deck (its order is a uniform shuffle of them given
  everything that has happened), or, last, uniform over the end-of-age cards;
- **a wonder token** ("Stones, rings and wonders"): uniform over the tokens left
  in its pile; **The Blackened Cenotaph's** ruin: uniform over the removed pile.

Without a term (unbiased either way; ``V`` does not tell their outcomes apart):
the set-up's shuffles and deal, stones drawn from the bag, delver draws.

``V``, from what is revealed (the table, the tableaux, each seat's own holdings
including its face-down ruin, the counts left): a seat's score value is its
score if the game ended now, plus for each ruin on the table its chance of
claiming it (by its best die there, the seat to move next favoured) times the
points that ruin would add to its sets, plus a promised stone's worth, its
delver cards' and tableau stones' worth and, for every seat alike, the game's
pace (pips the ruins left still need); the win values are a softmax of the
score values whose temperature shrinks as the ruins run out; a finished game is
valued by its outcome. The parameters are fitted per player count
(:mod:`analyzer.unearth.luck_fit`) on games of other seeds and shipped in
``data/luck_value.toml``.
"""

from __future__ import annotations

import math
import tomllib
from importlib import resources

import numpy as np

from analyzer.jit import njit
from analyzer.luck import ACC_SHARE, event_begin, event_end, event_outcome, win_values
from analyzer.unearth.claims import claim_winner
from analyzer.unearth.codes import CardKind, WonderBonus
from analyzer.unearth.hexgrid import GRID
from analyzer.unearth.scoring import named_wonder_points, tiebreak_better
from analyzer.unearth.state import (
    LUCK_KINDS,
    S_CUR,
    S_DDECK_N,
    S_DECK_LEN,
    S_DECK_POS,
    S_GAME,
    S_N_PLAYERS,
    S_N_SLOTS,
    S_ROLL_MOD,
    clamp,
)

#: kinds of chance event, the first axis of ``State.luck``
KIND_DICE = 0
KIND_REVEAL = 1
KIND_TOKEN = 2
KIND_RUIN = 3
KIND_DRAW = 4
N_KINDS = LUCK_KINDS
KIND_NAMES = ("dice", "reveals", "tokens", "cenotaph", "draws")

#: the value estimate's parameters, in ``State.luck_par``
LP_PROGRESS = 0  #: exponent of a ruin's progress (dice total / claim value)
LP_LEAD = 1  #: exponent sharpening the seats' shares of a ruin by their best dice
LP_STONE = 2  #: points a promised stone is worth
LP_TAU0 = 3  #: win temperature (points) with no ruin left
LP_TAU1 = 4  #: ... plus this per ruin left (in the deck and on the table)
LP_CLAIMED = 5  #: weight of a ruin's gain when the dice on it reach its claim value
LP_PENDING = 6  #: weight of a ruin's gain times a seat's chance below its claim value
LP_CARD = 7  #: points a delver card in hand is worth (consolation cards included)
LP_PACE = 8  #: points every seat still makes per pip of dice the ruins left still need
LP_TEMPO = 9  #: strength a ruin gives the seat to move next (it may finish it first)
LP_TABLEAU = 10  #: points a stone in a seat's tableau is worth (rings and wonders to come)
LP_MODEL = 11  #: win values: 0 softmax; normal finals: 1 pairwise, 2 by quadrature
LP_VAR0 = 12  #: final-score variance (points^2) of every seat while the game runs
LP_VAR_RUIN = 13  #: ... plus this per ruin left (in the deck and on the table)
LP_VAR_CLAIM = 14  #: ... plus this times the Bernoulli variances of its pending claims' gains
LP_GH = 15  #: Gauss-Hermite nodes of the quadrature (model 2)
LP_RACE = 16  #: pips a future die adds to a ruin (0: a seat's chance by ``share``, else the race)
LP_RACE_POW = 17  #: how much better than a random die a future contesting die is (power of its CDF)
LP_RING5 = 18  #: points a promised stone adds when it would close a ring (5 stones round a cell)
LP_RING4 = 19  #: ... when a ring is two stones away (4 stones round, the two others free)
LP_TAB = 20  #: 1: claim chances from the table after the plant slot (luck_par[N_LUCK_PAR + 1:])
LP_LOG = 21  #: experiments: rows of the roll log (luck_log)
LP_DRAW = 22  #: 1: a term at every delver card drawn in play, a kind worth ``LP_KIND + k`` points
LP_KIND = 23  #: first of the delver kinds' worths (in the order of ``delvers.toml``)
N_DELVER_KINDS = 10
LP_SUBST = (
    LP_KIND + N_DELVER_KINDS
)  #: share of a seat's mean gain over the table a pending claim displaces
N_LUCK_PAR = LP_SUBST + 1
#: the claim table's shape: ranks (no die, then each die's), need buckets, turn order
N_NEED = 8
N_ORDER = 4
#: tests only: a ``luck_par`` one longer plants a known bias (``tests/test_luck.py``
#: shows the checks catch it): 1, a die's expectation taken in the state after its
#: outcome (the actual roll already on the ruin, each face on top); 2, ``V`` after a reveal
#: reads the hidden deck order (a bonus when the card matches the next one's colour)
LP_PLANT = N_LUCK_PAR
PAR_NAMES = (
    (
        "progress",
        "lead",
        "stone",
        "tau0",
        "tau1",
        "claimed",
        "pending",
        "card",
        "pace",
        "tempo",
        "tableau",
        "model",
        "var0",
        "var_ruin",
        "var_claim",
        "gh",
        "race",
        "race_pow",
        "ring5",
        "ring4",
        "tab",
        "log",
        "draw",
    )
    + tuple(f"kind{k}" for k in range(N_DELVER_KINDS))
    + ("subst",)
)


def load_value_params(players: int | None = None) -> np.ndarray:
    """The shipped parameters of ``V`` (``data/luck_value.toml``), float64[N_LUCK_PAR]:
    table ``[value]``, overridden by ``[players.N]`` for ``players`` = N when the
    file fits that player count apart (a parameter missing from both is 0)."""
    text = resources.files("analyzer.unearth").joinpath("data/luck_value.toml").read_text()
    data = tomllib.loads(text)
    par = dict(data["value"])
    if players is not None:
        par.update(data.get("players", {}).get(str(players), {}))
    return np.array([float(par.get(name, 0.0)) for name in PAR_NAMES], np.float64)


@njit(inline="always")
def luck_on(s):
    return s.luck_par.shape[0] >= N_LUCK_PAR


def value_tables(t, par):
    """``(par, lead, progress)`` for :func:`analyzer.unearth.state.new_state`: the
    parameters (float64[N_LUCK_PAR], more for a planted test bias) and the powers
    ``slot_value`` needs, tabled once per batch: ``lead[v, f] =
    (v + f / 32) ** par[LP_LEAD]`` for a die of ``f`` faces showing ``v``, and
    ``progress[total, claim] = (total / claim) ** par[LP_PROGRESS]`` (0 for no dice)."""
    top = int(t.dice_faces.max())
    v = np.arange(top + 1, dtype=np.float64)[:, None]
    f = np.arange(top + 1, dtype=np.float64)[None, :]
    lead = np.where(v > 0, (v + f / 32.0) ** par[LP_LEAD], 0.0)
    c = int(t.card_claim.max())
    total = np.arange(c + 1, dtype=np.float64)[:, None]
    claim = np.arange(c + 1, dtype=np.float64)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        progress = np.where(claim > 0, (total / np.maximum(claim, 1)) ** par[LP_PROGRESS], 0.0)
    progress[0, :] = 0.0
    k = max(int(par[LP_GH]), 1) if len(par) > LP_GH else 1
    x, w = np.polynomial.hermite_e.hermegauss(k)
    gh = np.array([x, w / w.sum()], np.float64)
    rank, race = race_tables(t, par[LP_RACE_POW] if len(par) > LP_RACE_POW else 1.0)
    if len(par) > LP_TAB and par[LP_TAB] > 0:
        r1 = int(rank.max()) + 1
        tab = np.array(par[N_LUCK_PAR + 1 :], np.float64).reshape(r1, r1, N_NEED, N_ORDER)
        par = par[: N_LUCK_PAR + 1]
    else:
        tab = np.zeros((1, 1, 1, 1))
    rows = int(par[LP_LOG]) if len(par) > LP_LOG else 0
    log = np.zeros((max(rows, 1), 4), np.int64)
    return np.array(par, np.float64), lead, progress, gh, rank, race, tab, log


def race_tables(t, power):
    """``rank[v, f]``: the tiebreak rank of a die of ``f`` faces showing ``v`` (1 the
    worst, 0 no die), and ``race[r, m]``: the chance that ``m`` future dice all rank
    at most ``r``, a future die being one of a seat's dice picked uniformly with a
    uniform face, its CDF raised to ``power``."""
    faces = t.dice_faces
    top = int(faces.max())
    keys = sorted({(v, int(f)) for f in faces for v in range(1, int(f) + 1)})
    rank = np.zeros((top + 1, top + 1), np.int64)
    for i, (v, f) in enumerate(keys):
        rank[v, f] = i + 1
    cdf = np.zeros(len(keys) + 1)
    for i, (v, f) in enumerate(keys):
        cdf[i + 1] = np.mean([min(v if g >= f else v - 1, g) / g for g in faces])
    cdf[-1] = 1.0
    cdf = cdf ** max(power, 1e-9)
    m = np.arange(int(t.card_claim.max()) + 2, dtype=np.float64)
    race = cdf[:, None] ** m[None, :]
    race[0, 0] = 1.0
    return rank, race


@njit(inline="always")
def _plant(s):
    return int(s.luck_par[LP_PLANT]) if s.luck_par.shape[0] > LP_PLANT else 0


@njit
def luck_reset(s):
    """A new game: no luck yet."""
    s.luck[:] = 0.0


# ------------------------------------------------------------------ the value estimate


@njit
def current_score(s, t, p):
    """Seat ``p``'s score if the game ended now (``scoring.score_player``'s
    count, writing nothing). Draws no random numbers."""
    colours = s.held_colour[p]
    sets = 0
    full = 1 << 30
    top = t.set_points.shape[0] - 1
    for c in range(t.n_ruin_colours):
        sets += t.set_points[min(colours[c], top)]
        full = min(full, colours[c])
    cities = 0
    for card in range(t.n_ruins, s.held.shape[1]):
        if s.held[p, card] and t.card_kind[card] == CardKind.CITY:
            cities += t.card_points[card]
    named = 0
    n_named = 0
    for w in range(s.named_state.shape[0]):
        if s.named_state[w] == p:
            n_named += 1
            named += named_wonder_points(t, w, s.n_stones[p], colours)
    n_wonders = s.tokens[p, 0] + s.tokens[p, 1] + n_named
    if t.bonus_mode == WonderBonus.ONCE:
        bonus = t.bonus_points if n_wonders >= t.bonus_threshold else 0
    else:
        bonus = t.bonus_points * (n_wonders // t.bonus_threshold)
    return sets + full * t.five_colour_set + s.tokens[p, 2] + named + bonus + cities


@njit
def ruin_gain(s, t, p, card):
    """Points ``card`` would add to seat ``p``'s score now (its set, a five-colour
    set it completes, a city's points); reads ``s.luck_low`` (:func:`scarcest_colours`,
    as :func:`base_values` leaves it)."""
    kind = t.card_kind[card]
    if kind == CardKind.CITY:
        return float(t.card_points[card])
    if kind != CardKind.RUIN:
        return 0.0
    col = t.card_colour[card]
    top = t.set_points.shape[0] - 1
    k = s.held_colour[p, col]
    g = t.set_points[min(k + 1, top)] - t.set_points[min(k, top)]
    # s.luck_low[p]: (fewest ruins of a colour, how many colours have that few)
    if k == s.luck_low[p, 0] and s.luck_low[p, 1] == 1:
        g += t.five_colour_set
    return float(g)


@njit
def scarcest_colours(s, t, n):
    """``s.luck_low[p]``: seat ``p``'s fewest ruins of a colour and how many colours
    have that few (what :func:`ruin_gain` reads for a five-colour set)."""
    for p in range(n):
        low = 1 << 30
        n_low = 0
        for c in range(t.n_ruin_colours):
            k = s.held_colour[p, c]
            if k < low:
                low = k
                n_low = 1
            elif k == low:
                n_low += 1
        s.luck_low[p, 0] = low
        s.luck_low[p, 1] = n_low


@njit
def gather(s, t, slot, n):
    """The dice on ``slot`` into ``s.luck_own/fac/val``, each seat's strength there
    into ``s.luck_sum`` (its best die, value then faces as the tiebreak ranks
    them, to the power ``lead``: ``s.luck_lead``), each seat's :func:`ruin_gain`
    of its card into ``s.luck_gain``. Returns (dice, their total)."""
    sums = s.luck_sum
    card = s.slot_card[slot]
    for p in range(n):
        sums[p] = 0.0
        s.luck_rk[p] = 0
        s.luck_gain[p] = ruin_gain(s, t, p, card)
    k = 0
    total = 0
    for p in range(n):
        for d in range(s.die_slot.shape[1]):
            if s.die_slot[p, d] == slot:
                s.luck_own[k] = p
                s.luck_fac[k] = t.dice_faces[d]
                s.luck_val[k] = s.die_value[p, d]
                key = s.luck_lead[s.die_value[p, d], t.dice_faces[d]]
                if key > sums[p]:
                    sums[p] = key
                r = s.luck_rank[s.die_value[p, d], t.dice_faces[d]]
                if r > s.luck_rk[p]:
                    s.luck_rk[p] = r
                total += s.die_value[p, d]
                k += 1
    return k, total


@njit
def add_shares(s, t, claim, n, k, total, into_base, q, key_q, rank_q):
    """Add to ``s.luck_vs`` (``s.luck_base`` if ``into_base``) each seat's chance of
    claiming the ruin :func:`gather` read times its gain there, with seat ``q``'s
    strength raised to ``key_q`` (``q = -1``: as gathered). A ruin whose total
    reaches its claim value goes to the tiebreak's winner; below, a seat's chance
    is ``(1 - x**a) / n + x**a * share``, ``x`` the total over the claim value
    (``s.luck_progress``), ``share`` its strength over the seats' sum."""
    out = s.luck_base if into_base else s.luck_vs
    var = s.luck_var[0] if into_base else s.luck_var[1]
    gain = s.luck_gain
    if total >= claim:
        w = claim_winner(s.luck_own, s.luck_fac, s.luck_val, k, n)
        if w >= 0:
            out[w] += s.luck_par[LP_CLAIMED] * gain[w]
        for i in range(k):  # a consolation card per die of the others
            if s.luck_own[i] != w:
                out[s.luck_own[i]] += s.luck_par[LP_CARD]
        return
    nxt = (s.sc[S_CUR] + 1) % n
    if s.luck_par[LP_RACE] > 0.0 or s.luck_par[LP_TAB] > 0.0:
        if s.luck_par[LP_TAB] > 0.0:
            table_shares(s, n, claim - total, nxt, q, rank_q)
        else:
            race_shares(s, n, claim - total, nxt, q, rank_q)
        for p in range(n):
            chance = s.luck_cdf[1, p]
            out[p] += s.luck_par[LP_PENDING] * chance * gain[p]
            var[p] += chance * (1.0 - chance) * gain[p] * gain[p]
        return
    sums = s.luck_sum
    xa = s.luck_progress[total, claim]
    den = 0.0
    for p in range(n):
        den += max(sums[p], key_q) if p == q else sums[p]
    den += s.luck_par[LP_TEMPO]
    for p in range(n):
        chance = (1.0 - xa) / n
        if den > 0:
            mine = max(sums[p], key_q) if p == q else sums[p]
            if p == nxt:
                mine += s.luck_par[LP_TEMPO]
            chance += xa * mine / den
        out[p] += s.luck_par[LP_PENDING] * chance * (gain[p] - s.luck_gbar[p])
        var[p] += chance * (1.0 - chance) * gain[p] * gain[p]


@njit(inline="always")
def need_bucket(need):
    """The claim table's bucket of the pips a ruin still needs: 1, 2, 3, 4, 5-6,
    7-9, 10-13, 14 or more."""
    if need <= 4:
        return max(need, 1) - 1
    if need <= 6:
        return 4
    if need <= 9:
        return 5
    if need <= 13:
        return 6
    return 7


@njit
def table_shares(s, n, need, nxt, q, rank_q):
    """Each seat's chance of taking a ruin from the claim table (its best rank there,
    the best of the others', the need, its turn order from seat ``nxt``), normalised
    over the seats, into ``s.luck_cdf[1]``."""
    out = s.luck_cdf[1]
    best = s.luck_cdf[0]
    for p in range(n):
        best[p] = max(s.luck_rk[p], rank_q) if p == q else s.luck_rk[p]
    nb = need_bucket(need)
    total = 0.0
    for p in range(n):
        other = 0.0
        for o in range(n):
            if o != p and best[o] > other:
                other = best[o]
        j = min((p - nxt) % n, N_ORDER - 1)
        out[p] = s.luck_tab[int(best[p]), int(other), nb, j]
        total += out[p]
    for p in range(n):
        out[p] = out[p] / total if total > 0.0 else 1.0 / n


@njit
def log_rolls(s, t, n):
    """Experiments: a row per ruin on the table and seat into ``s.luck_log``."""
    nxt = (s.sc[S_CUR] + 1) % n
    for slot in range(s.sc[S_N_SLOTS]):
        card = s.slot_card[slot]
        if card < 0:
            continue
        k, total = gather(s, t, slot, n)
        nb = need_bucket(t.card_claim[card] - total)
        for p in range(n):
            other = 0
            for o in range(n):
                if o != p and s.luck_rk[o] > other:
                    other = s.luck_rk[o]
            j = min((p - nxt) % n, N_ORDER - 1)
            row = s.luck_nlog[0]
            if row >= s.luck_log.shape[0]:
                return
            r1 = s.luck_race.shape[0]
            s.luck_log[row, 0] = s.sc[S_GAME]
            s.luck_log[row, 1] = card
            s.luck_log[row, 2] = p
            s.luck_log[row, 3] = ((s.luck_rk[p] * r1 + other) * N_NEED + nb) * N_ORDER + j
            s.luck_nlog[0] = row + 1


@njit
def race_shares(s, n, need, nxt, q, rank_q):
    """Each seat's chance of taking a ruin whose dice still need ``need`` pips, into
    ``s.luck_cdf[1]``: ``m = ceil(need / race)`` more dice come, in turn order from
    seat ``nxt``, each a random die (``s.luck_race``); the seat whose best die (its
    best there so far, ``s.luck_rk``, seat ``q``'s raised to ``rank_q``) ranks first
    takes it (equal ranks share)."""
    race = s.luck_race
    m = int(math.ceil(need / s.luck_par[LP_RACE]))
    m = min(max(m, 1), race.shape[1] - 1)
    lo = s.luck_cdf[0]
    out = s.luck_cdf[1]
    hi = s.luck_sum  # scratch: the seats' strengths are not needed by the race
    for p in range(n):
        out[p] = 0.0
    for r in range(1, race.shape[0]):
        # C_p(r) = P(seat p's best die ranks <= r) = [best so far <= r] * race[r, m_p]
        for p in range(n):
            j = (p - nxt) % n
            m_p = (m - j + n - 1) // n
            b = max(s.luck_rk[p], rank_q) if p == q else s.luck_rk[p]
            hi[p] = race[r, m_p] if b <= r else 0.0
            lo[p] = race[r - 1, m_p] if b <= r - 1 else 0.0
        for p in range(n):
            mass = hi[p] - lo[p]
            if mass <= 0.0:
                continue
            for o in range(n):
                if o != p:
                    mass *= lo[o]
            out[p] += mass
    total = 0.0
    for p in range(n):
        total += out[p]
    for p in range(n):
        out[p] = out[p] / total if total > 0.0 else 1.0 / n


@njit
def slot_value(s, t, slot, n, into_base):
    """Add to ``s.luck_vs[p]`` (``s.luck_base[p]`` if ``into_base``) seat ``p``'s
    share of the ruin in ``slot`` (:func:`add_shares`); returns the pips its dice
    still need (0 for an empty slot)."""
    card = s.slot_card[slot]
    if card < 0:
        return 0
    k, total = gather(s, t, slot, n)
    add_shares(s, t, t.card_claim[card], n, k, total, into_base, -1, 0.0, 0)
    return max(t.card_claim[card] - total, 0)


@njit(inline="always")
def mean_claim(t):
    """The average claim value of a ruin."""
    total = 0.0
    for card in range(t.n_ruins):
        total += t.card_claim[card]
    return total / t.n_ruins


@njit
def base_values(s, t, n, skip):
    """``s.luck_base[p]``: seat ``p``'s current score plus its shares of the ruins
    on the table, slot ``skip`` left out (-1: none)."""
    base = s.luck_base
    scarcest_colours(s, t, n)
    for p in range(n):
        s.luck_var[0, p] = 0.0
        s.luck_gbar[p] = 0.0
    if s.luck_par[LP_SUBST] > 0.0:
        m = 0
        for slot in range(s.sc[S_N_SLOTS]):
            card = s.slot_card[slot]
            if card >= 0:
                m += 1
                for p in range(n):
                    s.luck_gbar[p] += ruin_gain(s, t, p, card)
        for p in range(n):
            s.luck_gbar[p] = s.luck_par[LP_SUBST] * s.luck_gbar[p] / max(m, 1)
    for p in range(n):
        cards = 0
        for kind in range(s.hand.shape[1]):
            cards += s.hand[p, kind]
        stones = 0
        for c in range(s.n_stones.shape[1]):
            stones += s.n_stones[p, c]
        base[p] = (
            current_score(s, t, p) + s.luck_par[LP_CARD] * cards + s.luck_par[LP_TABLEAU] * stones
        )
    need = 0.0
    for slot in range(s.sc[S_N_SLOTS]):
        if slot != skip:
            need += slot_value(s, t, slot, n, True)
    # the game's pace: what the ruins in the deck will need (the average claim
    # value of a ruin each; which ones is hidden) and the table's needs
    left = s.sc[S_DECK_LEN] - 1 - s.sc[S_DECK_POS]
    if left > 0:
        need += left * mean_claim(t)
    for p in range(n):
        base[p] += s.luck_par[LP_PACE] * need / n


@njit
def ruins_left(s):
    """Ruins left, in the deck and on the table."""
    left = s.sc[S_DECK_LEN] - s.sc[S_DECK_POS]
    for slot in range(s.sc[S_N_SLOTS]):
        if s.slot_card[slot] >= 0:
            left += 1
    return left


@njit
def temperature(s):
    """Win temperature: ``tau0 + tau1 * ruins left`` (in the deck and on the table)."""
    return s.luck_par[LP_TAU0] + s.luck_par[LP_TAU1] * ruins_left(s)


@njit(inline="always")
def _phi(x):
    return 0.5 * math.erfc(-x * 0.7071067811865476)


@njit
def win_shares(s, n, tau):
    """The win values of the score values ``s.luck_vs`` into ``s.luck_acc[ACC_SHARE]``:
    model 0, a softmax at temperature ``tau``; else each seat's final score is
    normal around its score value with variance ``var0 + var_ruin * ruins left
    + var_claim * s.luck_var[1]`` (the Bernoulli variances of its pending claims'
    gains) and its win value is the chance that it is the highest: model 1, the
    product of the pairwise chances, normalised; model 2, Gauss-Hermite quadrature
    (``s.luck_gh``), normalised."""
    out = s.luck_acc[ACC_SHARE]
    model = int(s.luck_par[LP_MODEL])
    if model == 0:
        win_values(s.luck_vs, n, tau, out)
        return
    mu = s.luck_vs
    var = s.luck_var[1]
    c0 = s.luck_par[LP_VAR0] + s.luck_par[LP_VAR_RUIN] * ruins_left(s)
    for p in range(n):
        var[p] = c0 + s.luck_par[LP_VAR_CLAIM] * var[p] + 1e-9
    total = 0.0
    if model == 1:
        for p in range(n):
            out[p] = 1.0
        for p in range(n):
            for q in range(p + 1, n):
                c = _phi((mu[p] - mu[q]) / math.sqrt(var[p] + var[q]))
                out[p] *= c
                out[q] *= 1.0 - c
    else:
        gh = s.luck_gh
        for p in range(n):
            sp = math.sqrt(var[p])
            acc = 0.0
            for k in range(gh.shape[1]):
                x = mu[p] + sp * gh[0, k]
                prod = gh[1, k]
                for q in range(n):
                    if q != p:
                        prod *= _phi((x - mu[q]) / math.sqrt(var[q]))
                acc += prod
            out[p] = acc
    for p in range(n):
        total += out[p]
    for p in range(n):
        out[p] /= total


@njit
def _outcome(s, n, tau, prob, actual):
    """One outcome of an event, its score values in ``s.luck_vs`` and its pending
    claims' variances in ``s.luck_var[1]``."""
    win_shares(s, n, tau)
    event_outcome(s.luck_acc, s.luck_vs, n, -1.0, prob, actual)


@njit
def final_shares(s, t, n):
    """A finished game's win shares (``scoring.share_wins`` on the scores
    ``s.luck_vs``) into ``s.luck_acc[ACC_SHARE]``."""
    scores = s.luck_vs
    out = s.luck_acc[ACC_SHARE]
    best = scores[0]
    for p in range(1, n):
        best = max(best, scores[p])
    k = 0
    for p in range(n):
        out[p] = 0.0
        if scores[p] != best:
            continue
        beaten = False
        for q in range(n):
            if q != p and scores[q] == best and tiebreak_better(s, t, q, p) > 0:
                beaten = True
                break
        if not beaten:
            out[p] = 1.0
            k += 1
    for p in range(n):
        out[p] /= k


# ------------------------------------------------------------------ chance events


@njit
def stone_worth(s, t, p):
    """Points a stone promised to seat ``p`` is worth: ``stone``, plus ``ring5`` when
    its tableau has a ring one stone from closing, else ``ring4`` for one two stones
    from it (a free cell whose other neighbours are free)."""
    worth = s.luck_par[LP_STONE]
    if s.luck_par.shape[0] <= LP_RING4 or s.box[p, 1] < 0:
        return worth
    stone = s.stone[p]
    centre = s.centre[p]
    best = 0
    for r in range(s.box[p, 0], s.box[p, 1] + 1):
        for c in range(s.box[p, 2], s.box[p, 3] + 1):
            cell = r * GRID + c
            if stone[cell] >= 0 or centre[cell] >= 0:
                continue
            k = 0
            ok = True
            for j in range(6):
                nb = t.neigh[cell, j]
                if nb < 0:
                    ok = False
                elif stone[nb] >= 0:
                    k += 1
                elif centre[nb] >= 0:
                    ok = False
            if ok and k > best:
                best = k
                if best == 5:
                    return worth + s.luck_par[LP_RING5]
    if best == 4:
        worth += s.luck_par[LP_RING4]
    return worth


@njit
def luck_roll(s, t, q, d, slot, faces, natural):
    """Seat ``q``'s die ``d`` (in the air, rolled for ``slot``) shows ``natural``."""
    if not luck_on(s) or slot < 0:
        return
    n = s.sc[S_N_PLAYERS]
    if s.luck_log.shape[0] > 1:
        log_rolls(s, t, n)
    base_values(s, t, n, slot)
    acc = s.luck_acc
    vs = s.luck_vs
    event_begin(acc, n)
    tau = temperature(s)
    prob = 1.0 / faces
    plant = _plant(s) == 1
    worth = stone_worth(s, t, q)
    # the die is in the air (off every ruin): the ruin's other dice, once
    card = s.slot_card[slot]
    k = 0
    total = 0
    if card >= 0:
        k, total = gather(s, t, slot, n)
        s.luck_own[k] = q
        s.luck_fac[k] = faces
    for i in range(1, faces + 2 if plant else faces + 1):
        face = natural if i > faces else i
        if plant and i <= faces:  # planted: the actual roll already on the ruin
            face = min(face + natural, faces)
        value = clamp(face + s.sc[S_ROLL_MOD], faces)
        for p in range(n):
            vs[p] = s.luck_base[p]
            s.luck_var[1, p] = s.luck_var[0, p]
        if card >= 0:
            s.luck_val[k] = value
            key = s.luck_lead[value, faces]
            rq = s.luck_rank[value, faces]
            add_shares(s, t, t.card_claim[card], n, k + 1, total + value, False, q, key, rq)
            need = max(t.card_claim[card] - total - value, 0)
            for p in range(n):
                vs[p] += s.luck_par[LP_PACE] * need / n
        if face <= t.stone_faces_max:
            vs[q] += worth
        actual = i > faces if plant else face == natural
        _outcome(s, n, tau, 0.0 if i > faces else prob, actual)
    event_end(acc, s.luck[KIND_DICE, 0], s.luck[KIND_DICE, 1], n)


@njit
def luck_reveal(s, t, slot):
    """The next card of the ruins deck is about to be revealed into the empty ``slot``."""
    if not luck_on(s):
        return
    n = s.sc[S_N_PLAYERS]
    pos = s.sc[S_DECK_POS]
    last = s.sc[S_DECK_LEN] - 1
    actual = s.ruin_deck[pos]
    base_values(s, t, n, slot)
    acc = s.luck_acc
    vs = s.luck_vs
    event_begin(acc, n)
    tau = temperature(s)
    empty = True  # would an event card leave the table empty (the game over)?
    for other in range(s.sc[S_N_SLOTS]):
        if other != slot and s.slot_card[other] >= 0:
            empty = False
    if pos < last:
        first = pos
        stop = last
    else:
        first = t.n_ruins
        stop = t.card_kind.shape[0]
    prob = 1.0 / (stop - first)
    for i in range(first, stop):
        card = s.ruin_deck[i] if pos < last else i
        for p in range(n):
            vs[p] = s.luck_base[p]
            s.luck_var[1, p] = s.luck_var[0, p]
        if t.card_kind[card] == CardKind.EVENT:
            if empty:  # the game ends: valued by its outcome
                for p in range(n):
                    vs[p] = current_score(s, t, p)
                final_shares(s, t, n)
                event_outcome(acc, vs, n, -1.0, prob, card == actual)
                continue
        else:  # no dice on it yet: every seat's chance is 1 / n (slot_value)
            for p in range(n):
                g = ruin_gain(s, t, p, card)
                vs[p] += s.luck_par[LP_PENDING] * g / n
                s.luck_var[1, p] += g * g * (n - 1.0) / (n * n)
        # the pace: this card's claim value on the table instead of an average one
        delta = 0.0 if t.card_kind[card] == CardKind.EVENT else float(t.card_claim[card])
        if pos < last:
            delta -= mean_claim(t)
        for p in range(n):
            vs[p] += s.luck_par[LP_PACE] * delta / n
        if _plant(s) == 2 and pos + 1 < last:
            nxt = s.ruin_deck[pos + 1]  # hidden: what a fair V never reads
            if t.card_colour[card] == t.card_colour[nxt]:
                for p in range(n):
                    vs[p] += 5.0
        _outcome(s, n, tau, prob, card == actual)
    event_end(acc, s.luck[KIND_REVEAL, 0], s.luck[KIND_REVEAL, 1], n)


@njit
def luck_token(s, t, p, greater, pos):
    """Seat ``p`` is about to take the token at ``pos`` of its pile (``s.greater``
    if ``greater``, else ``s.lesser``; shuffled values): uniform over the tokens left."""
    if not luck_on(s):
        return
    if greater:
        pile = s.greater[: t.greater_values.shape[0]]
    else:
        pile = s.lesser[: t.lesser_values.shape[0]]
    n = s.sc[S_N_PLAYERS]
    base_values(s, t, n, -1)
    acc = s.luck_acc
    vs = s.luck_vs
    event_begin(acc, n)
    tau = temperature(s)
    left = pile.shape[0] - pos
    for i in range(pos, pile.shape[0]):
        for r in range(n):
            vs[r] = s.luck_base[r]
            s.luck_var[1, r] = s.luck_var[0, r]
        vs[p] += pile[i]
        _outcome(s, n, tau, 1.0 / left, i == pos)
    event_end(acc, s.luck[KIND_TOKEN, 0], s.luck[KIND_TOKEN, 1], n)


@njit
def luck_removed_ruin(s, t, p, n_rem, actual):
    """The Blackened Cenotaph gives seat ``p`` the removed ruin at index ``actual``,
    uniform over the ``n_rem`` removed."""
    if not luck_on(s):
        return
    n = s.sc[S_N_PLAYERS]
    base_values(s, t, n, -1)
    acc = s.luck_acc
    vs = s.luck_vs
    event_begin(acc, n)
    tau = temperature(s)
    for i in range(n_rem):
        for r in range(n):
            vs[r] = s.luck_base[r]
            s.luck_var[1, r] = s.luck_var[0, r]
        vs[p] += ruin_gain(s, t, p, s.removed[i])
        _outcome(s, n, tau, 1.0 / n_rem, i == actual)
    event_end(acc, s.luck[KIND_RUIN, 0], s.luck[KIND_RUIN, 1], n)


@njit
def luck_draw(s, t, p, kind):
    """Seat ``p`` has just drawn a delver card of ``kind`` (-1: none was left): it was
    uniform over the draw pile (the cards left in it and this one; after a
    reshuffle, the discards that made it), counted by kind."""
    if not luck_on(s) or kind < 0 or s.luck_par[LP_DRAW] <= 0.0:
        return
    n = s.sc[S_N_PLAYERS]
    counts = s.luck_cnt
    for k in range(counts.shape[0]):
        counts[k] = 0
    left = s.sc[S_DDECK_N]
    for i in range(left):
        counts[s.ddeck[i]] += 1
    counts[kind] += 1
    base_values(s, t, n, -1)
    acc = s.luck_acc
    vs = s.luck_vs
    event_begin(acc, n)
    tau = temperature(s)
    for k in range(counts.shape[0]):
        if counts[k] == 0:
            continue
        for r in range(n):
            vs[r] = s.luck_base[r]
            s.luck_var[1, r] = s.luck_var[0, r]
        vs[p] += s.luck_par[LP_KIND + k]
        _outcome(s, n, tau, counts[k] / (left + 1.0), k == kind)
    event_end(acc, s.luck[KIND_DRAW, 0], s.luck[KIND_DRAW, 1], n)


@njit
def store_luck(s, n, row0):
    """Copy this game's luck (``s.luck``) into rows ``row0 ..`` of ``s.luck_out``
    (float64[rows, N_KINDS, 2]) when it has room."""
    if not luck_on(s) or s.luck_out.shape[0] < row0 + n:
        return
    for p in range(n):
        for k in range(N_KINDS):
            s.luck_out[row0 + p, k, 0] = s.luck[k, 0, p]
            s.luck_out[row0 + p, k, 1] = s.luck[k, 1, p]
