"""Luck terms of Unearth's chance events (``docs/statistics.md``, "Luck-adjusted
estimates"; the accounting itself is :mod:`analyzer.kernels.luck`).

At each chance event below, every seat gets ``V(after the outcome) - sum_o P(o)
V(after o)``, with the exact distribution of the outcome, taken right after the
outcome and before any decision. The terms only observe: they draw no random
numbers and leave the game as it is (a hypothetical outcome is written into the
state, valued and taken back). They are summed per kind of event in ``s.luck``
(float64[N_KINDS, 2, P]: win, score) when ``s.luck_par`` holds the value
estimate's parameters (shape ``(1,)``: off, as in the search's rollouts).

Events with a term (``docs/games/unearth.md``):

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

import numpy as np

import analyzer.kernels.luck as shared
from analyzer.kernels.jit import njit
from analyzer.kernels.luck import ACC_SHARE, event_begin, event_end, event_outcome, luck_on
from analyzer.unearth.claims import claim_winner
from analyzer.unearth.codes import CardKind, WonderBonus
from analyzer.unearth.scoring import named_wonder_points, tiebreak_better
from analyzer.unearth.state import (
    LUCK_KINDS,
    S_CUR,
    S_DECK_LEN,
    S_DECK_POS,
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
N_KINDS = LUCK_KINDS
KIND_NAMES = ("dice", "reveals", "tokens", "cenotaph")

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
N_LUCK_PAR = 11
#: tests only: a ``luck_par`` one longer plants a known bias (``tests/unearth/test_luck.py``
#: shows the checks catch it): 1, a die's expectation taken in the state after its
#: outcome (the actual roll already on the ruin, each face on top); 2, ``V`` after a reveal
#: reads the hidden deck order (a bonus when the card matches the next one's colour)
LP_PLANT = N_LUCK_PAR
PAR_NAMES = (
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
)


def load_value_params(players: int | None = None) -> np.ndarray:
    """The shipped parameters of ``V`` (``data/luck_value.toml``), float64[N_LUCK_PAR]:
    table ``[value]``, overridden by ``[players.N]`` for ``players`` = N when the
    file fits that player count apart (a parameter missing from both is 0)."""
    return shared.value_row(shared.shipped_values("analyzer.unearth"), PAR_NAMES, players)


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
    return np.array(par, np.float64), lead, progress


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
                total += s.die_value[p, d]
                k += 1
    return k, total


@njit
def add_shares(s, t, claim, n, k, total, into_base, q, key_q):
    """Add to ``s.luck_vs`` (``s.luck_base`` if ``into_base``) each seat's chance of
    claiming the ruin :func:`gather` read times its gain there, with seat ``q``'s
    strength raised to ``key_q`` (``q = -1``: as gathered). A ruin whose total
    reaches its claim value goes to the tiebreak's winner; below, a seat's chance
    is ``(1 - x**a) / n + x**a * share``, ``x`` the total over the claim value
    (``s.luck_progress``), ``share`` its strength over the seats' sum."""
    out = s.luck_base if into_base else s.luck_vs
    gain = s.luck_gain
    if total >= claim:
        w = claim_winner(s.luck_own, s.luck_fac, s.luck_val, k, n)
        if w >= 0:
            out[w] += s.luck_par[LP_CLAIMED] * gain[w]
        for i in range(k):  # a consolation card per die of the others
            if s.luck_own[i] != w:
                out[s.luck_own[i]] += s.luck_par[LP_CARD]
        return
    sums = s.luck_sum
    xa = s.luck_progress[total, claim]
    nxt = (s.sc[S_CUR] + 1) % n
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
        out[p] += s.luck_par[LP_PENDING] * chance * gain[p]


@njit
def slot_value(s, t, slot, n, into_base):
    """Add to ``s.luck_vs[p]`` (``s.luck_base[p]`` if ``into_base``) seat ``p``'s
    share of the ruin in ``slot`` (:func:`add_shares`); returns the pips its dice
    still need (0 for an empty slot)."""
    card = s.slot_card[slot]
    if card < 0:
        return 0
    k, total = gather(s, t, slot, n)
    add_shares(s, t, t.card_claim[card], n, k, total, into_base, -1, 0.0)
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
def temperature(s):
    """Win temperature: ``tau0 + tau1 * ruins left`` (in the deck and on the table)."""
    left = s.sc[S_DECK_LEN] - s.sc[S_DECK_POS]
    for slot in range(s.sc[S_N_SLOTS]):
        if s.slot_card[slot] >= 0:
            left += 1
    return s.luck_par[LP_TAU0] + s.luck_par[LP_TAU1] * left


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
def luck_roll(s, t, q, d, slot, faces, natural):
    """Seat ``q``'s die ``d`` (in the air, rolled for ``slot``) shows ``natural``."""
    if not luck_on(s, N_LUCK_PAR) or slot < 0:
        return
    n = s.sc[S_N_PLAYERS]
    base_values(s, t, n, slot)
    acc = s.luck_acc
    vs = s.luck_vs
    event_begin(acc, n)
    tau = temperature(s)
    prob = 1.0 / faces
    plant = shared.planted(s, N_LUCK_PAR) == 1
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
        if card >= 0:
            s.luck_val[k] = value
            key = s.luck_lead[value, faces]
            add_shares(s, t, t.card_claim[card], n, k + 1, total + value, False, q, key)
            need = max(t.card_claim[card] - total - value, 0)
            for p in range(n):
                vs[p] += s.luck_par[LP_PACE] * need / n
        if face <= t.stone_faces_max:
            vs[q] += s.luck_par[LP_STONE]
        actual = i > faces if plant else face == natural
        event_outcome(acc, vs, n, tau, 0.0 if i > faces else prob, actual)
    event_end(acc, s.luck[KIND_DICE, 0], s.luck[KIND_DICE, 1], n)


@njit
def luck_reveal(s, t, slot):
    """The next card of the ruins deck is about to be revealed into the empty ``slot``."""
    if not luck_on(s, N_LUCK_PAR):
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
        if t.card_kind[card] == CardKind.EVENT:
            if empty:  # the game ends: valued by its outcome
                for p in range(n):
                    vs[p] = current_score(s, t, p)
                final_shares(s, t, n)
                event_outcome(acc, vs, n, -1.0, prob, card == actual)
                continue
        else:  # no dice on it yet: every seat's chance is 1 / n (slot_value)
            for p in range(n):
                vs[p] += s.luck_par[LP_PENDING] * ruin_gain(s, t, p, card) / n
        # the pace: this card's claim value on the table instead of an average one
        delta = 0.0 if t.card_kind[card] == CardKind.EVENT else float(t.card_claim[card])
        if pos < last:
            delta -= mean_claim(t)
        for p in range(n):
            vs[p] += s.luck_par[LP_PACE] * delta / n
        if shared.planted(s, N_LUCK_PAR) == 2 and pos + 1 < last:
            nxt = s.ruin_deck[pos + 1]  # hidden: what a fair V never reads
            if t.card_colour[card] == t.card_colour[nxt]:
                for p in range(n):
                    vs[p] += 5.0
        event_outcome(acc, vs, n, tau, prob, card == actual)
    event_end(acc, s.luck[KIND_REVEAL, 0], s.luck[KIND_REVEAL, 1], n)


@njit
def luck_token(s, t, p, greater, pos):
    """Seat ``p`` is about to take the token at ``pos`` of its pile (``s.greater``
    if ``greater``, else ``s.lesser``; shuffled values): uniform over the tokens left."""
    if not luck_on(s, N_LUCK_PAR):
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
        vs[p] += pile[i]
        event_outcome(acc, vs, n, tau, 1.0 / left, i == pos)
    event_end(acc, s.luck[KIND_TOKEN, 0], s.luck[KIND_TOKEN, 1], n)


@njit
def luck_removed_ruin(s, t, p, n_rem, actual):
    """The Blackened Cenotaph gives seat ``p`` the removed ruin at index ``actual``,
    uniform over the ``n_rem`` removed."""
    if not luck_on(s, N_LUCK_PAR):
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
        vs[p] += ruin_gain(s, t, p, s.removed[i])
        event_outcome(acc, vs, n, tau, 1.0 / n_rem, i == actual)
    event_end(acc, s.luck[KIND_RUIN, 0], s.luck[KIND_RUIN, 1], n)


@njit
def store_luck(s, n, row0):
    """Copy this game's luck into rows ``row0 ..`` of ``s.luck_out``
    (:func:`analyzer.kernels.luck.store_luck`)."""
    shared.store_luck(s, n, row0, N_LUCK_PAR)
