"""Uruk's ``search`` player: it never reads what its seat cannot see, its deal of
the hidden cards is uniform and keeps every count, its continuation of a game is
the engine's, and with no choice to make it plays balanced's games."""

import numpy as np
import pytest
from scipy.stats import chisquare

from analyzer.core.seeding import root_key
from analyzer.kernels.kernel_view import make_view
from analyzer.kernels.rng import rng_seed, rng_shuffle
from analyzer.uruk import engine, search
from analyzer.uruk.cards import setup
from analyzer.uruk.game import make_job, play_raw, rollout_rows
from analyzer.uruk.rules import default_rules
from analyzer.uruk.state import (
    S_DECK_N,
    S_N,
    S_RESHUFFLES,
    S_TRIGGER,
    S_TRIGGER_SEAT,
    S_TURN,
    new_state,
)

RULES = default_rules()
T = RULES.tables
TV = make_view(T, "UrukTables")


def V(s):
    return make_view(s, "UrukState")


def _game_at(turns, seed=11, n=2, until_reshuffle=False):
    """A game of tuned balanced seats after ``turns`` turns (or, with
    ``until_reshuffle``, at the first turn after the deck was rebuilt)."""
    s = new_state(T)
    rows = rollout_rows(T, n)
    s.prm[:] = rows
    key0, key1 = root_key(seed)
    rng_seed(s.rng, key0, key1, 0)
    sv = V(s)
    setup(sv, TV, n)
    p = 0
    done = 0
    while done < turns or (until_reshuffle and s.sc[S_RESHUFFLES] == 0):
        k = search._turn_start(sv, TV, p)
        search._actions(sv, TV, p, k)
        search._turn_end(sv, TV)
        p = (p + 1) % n
        done += 1
    return s, p


def _work(s, n=2, keep=64, **kw):
    return search.new_search(T, rollout_rows(T, n), keep=keep, **kw)


def _copy(s):
    return type(s)(*[x.copy() for x in s])


def _hidden_counts(s, p):
    """The multiset of the cards ``p`` cannot see, by code, and the sizes kept."""
    n = int(s.sc[S_N])
    counts = np.zeros(T.n_inv + T.n_gods, np.int64)
    for i in range(int(s.sc[S_DECK_N])):
        counts[s.deck[i]] += 1
    for q in range(n):
        if q != p:
            counts[: T.n_inv] += s.hand[q]
    if s.sc[S_TRIGGER] >= 0 and s.sc[S_TRIGGER_SEAT] != p:
        counts[s.sc[S_TRIGGER]] += 1
    sizes = tuple(int(s.hand[q].sum()) for q in range(n))
    top = 0
    if s.sc[S_RESHUFFLES] == 0:
        for i in range(int(s.sc[S_DECK_N]) - 1, -1, -1):
            if s.deck[i] < T.n_inv and T.inv_level[s.deck[i]] == 2:
                top += 1
            else:
                break
    return counts, sizes, int(s.sc[S_DECK_N]), top


def _same_hidden(a, b):
    return np.array_equal(a[0], b[0]) and a[1:] == b[1:]


def _rearranged(s, p, seed):
    """``s`` with what seat ``p`` cannot see dealt differently, consistently with
    what it knows (the level-2 cards still on top of a deck never rebuilt)."""
    r = _copy(s)
    rng = np.random.default_rng(seed)
    n = int(s.sc[S_N])
    other = [q for q in range(n) if q != p]
    layered = s.sc[S_RESHUFFLES] == 0
    deck = list(r.deck[: int(s.sc[S_DECK_N])])
    hands = {q: [x for x in range(T.n_inv) for _ in range(int(r.hand[q, x]))] for q in other}
    cls = (lambda c: c < T.n_inv and T.inv_level[c] == 2) if layered else (lambda c: c < T.n_inv)
    # swap hand cards with deck cards of the same class, then shuffle within classes
    for q in other:
        for i, x in enumerate(hands[q]):
            same = [j for j, c in enumerate(deck) if cls(c) == cls(x) and c < T.n_inv]
            if same:
                j = int(rng.choice(same))
                hands[q][i], deck[j] = deck[j], hands[q][i]
    if layered:
        top = [c for c in deck if cls(c)]
        bottom = [c for c in deck if not cls(c)]
        assert deck == bottom + top  # the layers as set-up stacks them
        rng.shuffle(top)
        rng.shuffle(bottom)
        deck = bottom + top
    else:
        rng.shuffle(deck)
    r.deck[: len(deck)] = deck
    for q in other:
        r.hand[q] = 0
        for x in hands[q]:
            r.hand[q, x] += 1
    return r


@pytest.mark.parametrize("reshuffled", [False, True])
def test_games_the_seat_cannot_tell_apart_give_identical_rollouts(reshuffled):
    s, p = _game_at(12, until_reshuffle=reshuffled)
    assert (s.sc[S_RESHUFFLES] > 0) == reshuffled
    s2 = _rearranged(s, p, 5)
    assert not np.array_equal(s.deck, s2.deck) or not np.array_equal(s.hand, s2.hand)
    assert _same_hidden(_hidden_counts(s, p), _hidden_counts(s2, p))
    out = []
    for state in (s, s2):
        w = _work(state)
        r = new_state(T)
        # a uint64 key, as deep advice passes it: the version compiled for the product
        key0 = np.uint64(1234)
        k = search.rank_all(
            V(state), TV, V(r), search.pack_search(w), p, key0, 120, search.MODE_ACTION, 2, 0, -1
        )
        assert k > 1
        out.append((w.n[:k].copy(), w.win[:k].copy(), w.score[:k].copy(), w.wins_by[:k].copy()))
    for a, b in zip(out[0], out[1], strict=True):
        assert np.array_equal(a, b)
    if reshuffled:
        return
    # a planted leak: the same rollouts read the deck as it lies -> they differ
    w1, w2 = _work(s), _work(s2)
    res = []
    for state, w in ((s, w1), (s2, w2)):
        r = new_state(T)
        wv = search.pack_search(w)
        search.list_actions(V(state), TV, wv, p, 0)
        tally = []
        for j in range(20):
            search.copy_game(V(r), V(state), wv)
            rng_seed(r.rng, np.uint64(3), 0, j)
            search.play_on(V(r), TV, p, 0)  # no determinize: reads the real hidden cards
            tally.append(search._outcome(V(r), TV, wv, p))
        res.append(tally)
    assert res[0] != res[1]


def _determinize_twin(s, p, rng_state):
    """Plain Python: the deal of ``search.determinize``, step by step, drawing
    from ``rng_state`` in the same order (a slow twin of the kernel)."""
    n = int(s.sc[S_N])
    layered = s.sc[S_RESHUFFLES] == 0
    deck = [int(c) for c in s.deck[: int(s.sc[S_DECK_N])]]
    is2 = (lambda c: c < T.n_inv and T.inv_level[c] == 2) if layered else (lambda c: c < T.n_inv)
    gods = [c for c in deck if c >= T.n_inv]
    pool2 = [c for c in deck if c < T.n_inv and is2(c)]
    pool = [c for c in deck if c < T.n_inv and not is2(c)]
    top = len(pool2)
    sizes = {}
    for q in range(n):
        if q == p:
            continue
        cards = [x for x in range(T.n_inv) for _ in range(int(s.hand[q, x]))]
        sizes[q] = len(cards)
        pool2 += [x for x in cards if is2(x)]
        pool += [x for x in cards if not is2(x)]
    trig = s.sc[S_TRIGGER] >= 0 and s.sc[S_TRIGGER_SEAT] != p
    if trig:
        gods.append(int(s.sc[S_TRIGGER]))

    def shuffled(xs):
        a = np.array(sorted(xs) + [0], np.int64)
        rng_shuffle(rng_state, a, len(xs))
        return list(a[: len(xs)])

    pool2, pool, gods = shuffled(pool2), shuffled(pool), shuffled(gods)
    hidden = sum(sizes.values())
    h2 = len(pool2) - top if layered else hidden
    labels = [1] * h2 + [0] * (hidden - h2)
    if layered:
        labels = shuffled(labels)
    hands = {}
    k = 0
    for q in sorted(sizes):
        hands[q] = []
        for _ in range(sizes[q]):
            hands[q].append(pool2.pop(0) if labels[k] == 1 else pool.pop(0))
            k += 1
    trigger = gods.pop(0) if trig else None
    if layered:
        deck = shuffled_in_place(pool + gods, rng_state) + pool2
    else:
        deck = shuffled_in_place(pool + gods + pool2, rng_state)
    return hands, trigger, deck


def shuffled_in_place(xs, rng_state):
    a = np.array(xs + [0], np.int64)
    rng_shuffle(rng_state, a, len(xs))
    return list(a[: len(xs)])


@pytest.mark.parametrize("turns, reshuffled", [(5, False), (20, False), (0, True)])
def test_determinize_matches_its_plain_twin_and_keeps_every_count(turns, reshuffled):
    s, p = _game_at(turns, seed=3, until_reshuffle=reshuffled)
    before = _hidden_counts(s, p)
    w = _work(s)
    for j in range(5):
        r = _copy(s)
        rng_seed(r.rng, np.uint64(9), 0, j)
        twin_rng = r.rng.copy()
        search.determinize(V(r), TV, search.pack_search(w), p)
        hands, trigger, deck = _determinize_twin(s, p, twin_rng)
        assert list(r.deck[: int(r.sc[S_DECK_N])]) == deck
        for q, cards in hands.items():
            assert sorted(x for x in range(T.n_inv) for _ in range(int(r.hand[q, x]))) == sorted(
                cards
            )
        assert _same_hidden(_hidden_counts(r, p), before)
        assert np.array_equal(r.hand[p], s.hand[p])  # my hand stays
        assert engine.check_invariants(V(r), TV, int(s.sc[S_N])) == 0


def test_the_redeal_is_uniform():
    """Chi-square: the deck's top card and the other hand's cards, over many
    deals, against the frequencies of a uniform deal of the hidden multiset."""
    s, p = _game_at(8, seed=21)
    q = 1 - p
    # a level-3 or 4 card from the deck's lower part into the other hand (as if
    # taken from the display): the hand holds cards of both classes
    i = next(
        i for i in range(int(s.sc[S_DECK_N])) if s.deck[i] < T.n_inv and T.inv_level[s.deck[i]] > 2
    )
    s.hand[q, s.deck[i]] += 1
    s.deck[i : int(s.sc[S_DECK_N]) - 1] = s.deck[i + 1 : int(s.sc[S_DECK_N])].copy()
    s.sc[S_DECK_N] -= 1
    counts, sizes, _, top = _hidden_counts(s, p)
    levels = {int(T.inv_level[x]) for x in range(T.n_inv) if s.hand[q, x]}
    assert top > 0 and 2 in levels and len(levels) > 1 and sizes[q] >= 3
    w = _work(s)
    wv = search.pack_search(w)
    trials = 4000
    top_card = np.zeros(T.n_inv, np.int64)
    in_hand = np.zeros(T.n_inv, np.int64)
    r = _copy(s)
    rv = V(r)  # made once: the arrays stay the same
    for j in range(trials):
        r.deck[:] = s.deck
        r.hand[:] = s.hand
        r.sc[:] = s.sc
        rng_seed(r.rng, np.uint64(77), 1, j)
        search.determinize(rv, TV, wv, p)
        top_card[r.deck[int(r.sc[S_DECK_N]) - 1]] += 1
        in_hand += r.hand[q]
    is2 = np.array([T.inv_level[x] == 2 for x in range(T.n_inv)])
    c2 = np.where(is2, counts[: T.n_inv], 0)
    c_other = np.where(~is2, counts[: T.n_inv], 0)
    exp_top = trials * c2 / c2.sum()
    keep = exp_top > 0
    assert chisquare(top_card[keep], exp_top[keep]).pvalue > 1e-3
    h = sizes[q]
    h2 = int(c2.sum()) - top
    per = h2 * c2 / c2.sum() + (h - h2) * c_other / max(c_other.sum(), 1)
    exp_hand = trials * per
    keep = exp_hand > 0
    assert in_hand.sum() == trials * h
    assert np.all(in_hand[~keep] == 0)
    assert (
        chisquare(in_hand[keep], exp_hand[keep] * in_hand[keep].sum() / exp_hand[keep].sum()).pvalue
        > 1e-3
    )
    # a planted bias fails the same test: never dealing the first hidden kind on top
    biased = top_card.copy()
    first = int(np.flatnonzero(keep & (exp_top > 0))[0]) if (keep & (exp_top > 0)).any() else None
    if first is not None:
        biased[first] = 0
        kk = exp_top > 0
        assert (
            chisquare(biased[kk], exp_top[kk] * biased[kk].sum() / exp_top[kk].sum()).pvalue < 1e-3
        )


def test_play_on_finishes_the_game_the_engine_plays():
    """The continuation of the rollouts is the engine's game loop: stopped after
    any turn and finished by ``play_on``, a seeded game ends as ``play_batch`` ends it."""
    job = make_job(2, ("balanced", "balanced"), seed=11)
    results, wins, _ = play_raw(job, 0, 1)
    for turns in (1, 9, 30):
        s, p = _game_at(turns, seed=11)
        last = (p - 1) % 2
        r = new_state(T)
        w = _work(s)
        search.copy_game(V(r), V(s), search.pack_search(w))
        r.rng[:] = s.rng
        search.play_on(V(r), TV, last, search.final_left_now(s, last))
        win, score, _ = search._outcome(V(r), TV, search.pack_search(w), 0)
        assert score == results[0, engine.R_SCORE] and win == wins[0]
        assert r.sc[S_TURN] == results[0, engine.R_GAME_TURNS]


@pytest.mark.parametrize("bids", [0, 2])
def test_a_search_seat_without_choices_plays_balanceds_games(bids):
    """width 1: every decision is balanced's (its actions; its secret bids and
    auction limits by its own rule), so the games (and the game's random
    stream) are exactly those of balanced against balanced."""
    a = make_job(
        2, ("balanced", "search"), seed=5, strategy_params={"search": {"width": 1, "bids": bids}}
    )
    b = make_job(2, ("balanced", "balanced"), seed=5)
    ra, wa, _ = play_raw(a, 0, 8)
    rb, wb, _ = play_raw(b, 0, 8)
    assert ra[:, engine.R_ACTIVATIONS].sum() > 0  # gods and disasters were decided
    assert np.array_equal(ra, rb) and np.array_equal(wa, wb)


def test_search_games_are_reproducible_and_batch_independent():
    sp = {"search": {"budget": 16, "bids": 2}}
    job = make_job(2, ("balanced", "search"), seed=8, strategy_params=sp)
    r1, w1, _ = play_raw(job, 0, 3)
    r2, w2, _ = play_raw(job, 1, 2)
    assert np.array_equal(r1[2:], r2) and np.array_equal(w1[2:], w2)
    assert not r1[:, engine.R_INVARIANTS].any()


def test_search_settings_are_checked():
    from analyzer.core.errors import InputError

    with pytest.raises(InputError, match="strategy_params.search.budget: bad value 0"):
        make_job(2, "search", seed=1, strategy_params={"search": {"budget": 0}})
    with pytest.raises(InputError, match="strategy_params.search"):
        make_job(2, "search", seed=1, strategy_params={"search": {"depth": 3}})
