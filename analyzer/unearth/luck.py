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
  ruin, and a natural 1-3 promises its owner a stone;
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
claiming it times the points that ruin would add to its sets, plus a pending
stone's worth; the win values are a softmax of the score values whose
temperature shrinks as the ruins run out; a finished game is valued by its
outcome. The parameters are fitted (:mod:`analyzer.unearth.luck_fit`) on games
of other seeds and shipped in ``data/luck_value.toml``.
"""

from __future__ import annotations

import tomllib
from importlib import resources

import numpy as np

from analyzer.jit import njit
from analyzer.luck import ACC_SHARE, event_begin, event_end, event_outcome
from analyzer.unearth.claims import claim_winner
from analyzer.unearth.codes import CardKind, WonderBonus
from analyzer.unearth.scoring import named_wonder_points, tiebreak_better
from analyzer.unearth.state import (
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
N_KINDS = 4
KIND_NAMES = ("dice", "reveals", "tokens", "cenotaph")

#: the value estimate's parameters, in ``State.luck_par``
LP_PROGRESS = 0  #: exponent of a ruin's progress (dice total / claim value)
LP_LEAD = 1  #: exponent sharpening the seats' shares of a ruin by their best dice
LP_STONE = 2  #: points a promised stone is worth
LP_TAU0 = 3  #: win temperature (points) with no ruin left
LP_TAU1 = 4  #: ... plus this per ruin left (in the deck and on the table)
N_LUCK_PAR = 5
#: tests only: a ``luck_par`` one longer plants a known bias (``tests/test_luck.py``
#: shows the checks catch it): 1, a die's expectation taken in the state after its
#: outcome (the actual roll already on the ruin, each face on top); 2, ``V`` after a reveal
#: reads the hidden deck order (a bonus when the card matches the next one's colour)
LP_PLANT = N_LUCK_PAR
PAR_NAMES = ("progress", "lead", "stone", "tau0", "tau1")


def load_value_params() -> np.ndarray:
    """The shipped parameters of ``V`` (``data/luck_value.toml``), float64[N_LUCK_PAR]."""
    text = resources.files("analyzer.unearth").joinpath("data/luck_value.toml").read_text()
    par = tomllib.loads(text)["value"]
    return np.array([float(par[name]) for name in PAR_NAMES], np.float64)


@njit(inline="always")
def luck_on(s):
    return s.luck_par.shape[0] >= N_LUCK_PAR


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
    set it completes, a city's points)."""
    kind = t.card_kind[card]
    if kind == CardKind.CITY:
        return float(t.card_points[card])
    if kind != CardKind.RUIN:
        return 0.0
    colours = s.held_colour[p]
    col = t.card_colour[card]
    top = t.set_points.shape[0] - 1
    k = colours[col]
    g = t.set_points[min(k + 1, top)] - t.set_points[min(k, top)]
    low = 1 << 30
    n_low = 0
    for c in range(t.n_ruin_colours):
        if colours[c] < low:
            low = colours[c]
            n_low = 1
        elif colours[c] == low:
            n_low += 1
    if k == low and n_low == 1:
        g += t.five_colour_set
    return float(g)


@njit
def slot_value(s, t, slot, n, into_base):
    """Add to ``s.luck_vs[p]`` (``s.luck_base[p]`` if ``into_base``) seat ``p``'s
    share of the ruin in ``slot``: its chance of claiming it times
    :func:`ruin_gain`. A ruin whose total reaches its claim value goes to the
    tiebreak's winner; below, a seat's chance is
    ``(1 - x**a) / n + x**a * share``, ``x`` the total over the claim value,
    ``share`` its best die (value, then faces, as the tiebreak ranks) to the
    power ``lead`` over the seats' sum."""
    card = s.slot_card[slot]
    if card < 0:
        return
    out = s.luck_base if into_base else s.luck_vs
    own = s.luck_own
    fac = s.luck_fac
    val = s.luck_val
    sums = s.luck_sum
    for p in range(n):
        sums[p] = 0.0
    k = 0
    total = 0
    for p in range(n):
        for d in range(s.die_slot.shape[1]):
            if s.die_slot[p, d] == slot:
                own[k] = p
                fac[k] = t.dice_faces[d]
                val[k] = s.die_value[p, d]
                # a seat's strength there: its best die (value, then faces), as the tiebreak
                key = s.die_value[p, d] + t.dice_faces[d] / 32.0
                if key > sums[p]:
                    sums[p] = key
                total += s.die_value[p, d]
                k += 1
    claim = t.card_claim[card]
    if total >= claim:
        w = claim_winner(own, fac, val, k, n)
        if w >= 0:
            out[w] += ruin_gain(s, t, w, card)
        return
    par = s.luck_par
    xa = (total / claim) ** par[LP_PROGRESS] if total > 0 else 0.0
    den = 0.0
    for p in range(n):
        if sums[p] > 0:
            sums[p] = sums[p] ** par[LP_LEAD]
            den += sums[p]
    for p in range(n):
        chance = (1.0 - xa) / n
        if den > 0:
            chance += xa * sums[p] / den
        out[p] += chance * ruin_gain(s, t, p, card)


@njit
def base_values(s, t, n, skip):
    """``s.luck_base[p]``: seat ``p``'s current score plus its shares of the ruins
    on the table, slot ``skip`` left out (-1: none)."""
    base = s.luck_base
    for p in range(n):
        base[p] = current_score(s, t, p)
    for slot in range(s.sc[S_N_SLOTS]):
        if slot != skip:
            slot_value(s, t, slot, n, True)


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
    if not luck_on(s) or slot < 0:
        return
    n = s.sc[S_N_PLAYERS]
    base_values(s, t, n, slot)
    acc = s.luck_acc
    vs = s.luck_vs
    event_begin(acc, n)
    old_slot = s.die_slot[q, d]
    old_value = s.die_value[q, d]
    s.die_slot[q, d] = slot
    tau = temperature(s)
    prob = 1.0 / faces
    plant = _plant(s) == 1
    for i in range(1, faces + 2 if plant else faces + 1):
        face = natural if i > faces else i
        value = clamp(face + s.sc[S_ROLL_MOD], faces)
        if plant and i <= faces:
            value += natural  # planted: the actual roll already on the ruin
        s.die_value[q, d] = value
        for p in range(n):
            vs[p] = s.luck_base[p]
        slot_value(s, t, slot, n, False)
        if face <= t.stone_faces_max:
            vs[q] += s.luck_par[LP_STONE]
        actual = i > faces if plant else face == natural
        event_outcome(acc, vs, n, tau, 0.0 if i > faces else prob, actual)
    s.die_slot[q, d] = old_slot
    s.die_value[q, d] = old_value
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
        if t.card_kind[card] == CardKind.EVENT:
            if empty:  # the game ends: valued by its outcome
                final_shares(s, t, n)
                event_outcome(acc, vs, n, -1.0, prob, card == actual)
                continue
        else:
            s.slot_card[slot] = card
            slot_value(s, t, slot, n, False)
            s.slot_card[slot] = -1
        if _plant(s) == 2 and pos + 1 < last:
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
        vs[p] += pile[i]
        event_outcome(acc, vs, n, tau, 1.0 / left, i == pos)
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
        vs[p] += ruin_gain(s, t, p, s.removed[i])
        event_outcome(acc, vs, n, tau, 1.0 / n_rem, i == actual)
    event_end(acc, s.luck[KIND_RUIN, 0], s.luck[KIND_RUIN, 1], n)


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
