"""Whole games: invariants after every game, checked by the kernel and again in Python.

- The kernel's own invariant bitmask (``engine.R_INVARIANTS``) is zero over a few
  thousand seeded games per player count (random strategy, the fastest) and some
  games of every other strategy.
- Independently, from the final state (and replay log) of individually played
  games: 60 stones conserved across bag, ruins and tableaux; 38 delver cards
  across deck, discards and hands (kind by kind); every ruin accounted for
  exactly once; every stone touching another; every wonder centre a full ring;
  each reported score equal to the score recomputed by ``tests.naive.naive_score``
  and the win shares equal to ``naive_share_wins``.
- Determinism: the same seed gives identical tables whatever the batch split;
  different seeds differ; win shares sum to 1 per game.
"""

from collections import Counter

import numba
import numpy as np
import pandas as pd
import pytest

from analyzer.unearth import engine
from analyzer.unearth.codes import CardKind, WonderKind
from analyzer.unearth.game import make_job, play_raw, simulate
from analyzer.unearth.rules import default_rules
from analyzer.unearth.scoring import N_PARTS, PART_NAMES
from analyzer.unearth.state import (
    EV_CLAIM,
    EV_EVENT,
    EV_ROLL,
    EV_STONE,
    EV_TAKE_RUIN,
    EV_WONDER,
    S_ABORTED,
    S_DDECK_N,
    S_DECK_LEN,
    S_DECK_POS,
    S_EOA,
    S_N_SLOTS,
    S_OVER,
    S_REMOVED_N,
    S_TRACE_N,
)
from analyzer.unearth.tableau import NEIGHBOURS, NO_WONDER
from tests.naive import naive_score, naive_share_wins

RULES = default_rules()
T = RULES.tables
SEED = 8675309
#: with NUMBA_DISABLE_JIT=1 (coverage runs) the kernels are plain Python: fewer games
JIT = not numba.config.DISABLE_JIT
RANDOM_GAMES = 2000 if JIT else 10  #: kernel-checked random games per player count
SMART_GAMES = 12 if JIT else 1  #: kernel-checked games per other strategy and player count
PY_RANDOM_GAMES = 100 if JIT else 3  #: random games per mix checked in Python
PY_SMART_GAMES = 6 if JIT else 1
TRACE_ROWS = 8000
MIXES = {
    2: ["random", "claimer,collector", "balanced,random"],
    3: ["random", "collector,balanced,claimer", "random,balanced,random"],
    4: ["random", "claimer,random,collector,balanced", "balanced"],
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_invariants_hold_over_thousands_of_random_games(players):
    job = make_job(players, "random", SEED, claims=False)
    results, wins, _, _ = play_raw(job, 0, RANDOM_GAMES)
    assert not results[:, engine.R_INVARIANTS].any(), np.unique(results[:, engine.R_INVARIANTS])
    assert not results[:, engine.R_ABORTED].any()
    assert np.allclose(wins.reshape(RANDOM_GAMES, players).sum(axis=1), 1.0)
    parts = results[:, engine.R_PARTS : engine.R_PARTS + N_PARTS].sum(axis=1)
    assert (parts == results[:, engine.R_SCORE]).all()


@pytest.mark.parametrize("strategy", ["claimer", "collector", "balanced"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_invariants_hold_for_every_strategy(players, strategy):
    job = make_job(players, strategy, SEED + 1, claims=False)
    results, wins, _, _ = play_raw(job, 0, SMART_GAMES)
    assert not results[:, engine.R_INVARIANTS].any()
    assert not results[:, engine.R_ABORTED].any()
    assert np.allclose(wins.reshape(SMART_GAMES, players).sum(axis=1), 1.0)


# --------------------------------------------------------------------------- Python checks


def events(s, code):
    rows = s.trace[: s.sc[S_TRACE_N]]
    return rows[rows[:, 0] == code]


def check_final_state(job, g):
    """Play game ``g`` alone and check the final state in plain Python."""
    results, wins, _, s = play_raw(job, g, 1, trace_rows=TRACE_ROWS)
    n = job.players
    assert s.sc[S_TRACE_N] < TRACE_ROWS, "trace truncated"
    assert s.sc[S_OVER] == 1 and s.sc[S_ABORTED] == 0
    n_col = T.n_stone_colours
    cells = [np.flatnonzero(s.stone[p] >= 0) for p in range(n)]

    # stones: 15 of each colour across bag, ruins and tableaux
    for c in range(n_col):
        in_tableaux = sum(int((s.stone[p] == c).sum()) for p in range(n))
        assert s.bag[c] + s.slot_stones[:, c].sum() + in_tableaux == T.stones_per_colour
        for p in range(n):
            assert s.n_stones[p, c] == (s.stone[p] == c).sum()
    # every stone in the tableau came with a logged stone event, on that cell
    stone_ev = events(s, EV_STONE)
    for p in range(n):
        mine = stone_ev[stone_ev[:, 2] == p]
        assert len(mine) == len(cells[p])
        for ev in mine:
            assert s.stone[p, ev[4]] == ev[3]

    # delver cards, kind by kind, across deck, discards and hands
    deck = Counter(s.ddeck[: s.sc[S_DDECK_N]].tolist())
    for k in range(T.delver_copies.shape[0]):
        assert deck[k] + s.ddisc[k] + s.hand[:n, k].sum() == T.delver_copies[k]

    # every card of the ruins deck accounted for exactly once
    claims = events(s, EV_CLAIM)
    boxed = [int(ev[4]) for ev in claims if ev[5] == -2]
    places = []
    for p in range(n):
        places += np.flatnonzero(s.held[p]).tolist()
    places += s.removed[: s.sc[S_REMOVED_N]].tolist()
    places += boxed
    places += [int(c) for c in s.slot_card[: s.sc[S_N_SLOTS]] if c >= 0]
    places += s.ruin_deck[s.sc[S_DECK_POS] : s.sc[S_DECK_LEN]].tolist()
    eoa = int(s.sc[S_EOA])
    if T.card_kind[eoa] == CardKind.EVENT:
        assert [int(ev[3]) for ev in events(s, EV_EVENT)] == [eoa]
        places.append(eoa)
    counts = Counter(places)
    assert sorted(counts) == list(range(T.n_ruins)) + [eoa]
    assert set(counts.values()) == {1}
    # what each seat holds: its hidden ruin, the ruins it claimed, and Cenotaph /
    # Memorial picks from the removed pile
    named_ev = events(s, EV_WONDER)
    for p in range(n):
        claimed = {int(ev[4]) for ev in claims if ev[5] == p}
        held = set(np.flatnonzero(s.held[p]).tolist())
        assert claimed | {int(s.hidden[p])} <= held
        extra = held - claimed - {int(s.hidden[p])}
        picks = sum(
            1
            for ev in named_ev
            if ev[2] == p
            and ev[4] == WonderKind.NAMED
            and RULES.wonder_ids[ev[5]] in ("blackened_cenotaph", "crumbling_memorial")
        )
        assert len(extra) <= picks
        assert all(T.card_kind[c] == CardKind.RUIN for c in extra)
        # and the replay log names each of them
        taken = [int(ev[3]) for ev in events(s, EV_TAKE_RUIN) if ev[2] == p]
        assert sorted(taken) == sorted(extra)

    # every stone touches another; wonder centres are full rings
    for p in range(n):
        stones = set(cells[p].tolist())
        if len(stones) >= 2:
            for cell in stones:
                assert any(nb in stones for nb in NEIGHBOURS[cell] if nb >= 0)
        for cell in np.flatnonzero(s.centre[p] >= 0):
            assert s.stone[p, cell] < 0
            assert all(nb >= 0 and s.stone[p, nb] >= 0 for nb in NEIGHBOURS[cell])
        kinds = Counter(s.centre[p][s.centre[p] >= 0].tolist())
        assert kinds[WonderKind.LESSER] == s.tokens[p, 0]
        assert kinds[WonderKind.GREATER] == s.tokens[p, 1]
        assert kinds[WonderKind.NAMED] == (s.named_state == p).sum()
        assert set(kinds) <= {WonderKind.LESSER, WonderKind.GREATER, WonderKind.NAMED, NO_WONDER}

    # dice values shown are within their faces
    for ev in events(s, EV_ROLL):
        faces = T.dice_faces[ev[3]]
        assert 1 <= ev[5] <= faces
        if ev[7] in (2, 3):  # a reroll offered (Ancient Map, Edifice): 1 taken, 0 kept
            assert ev[6] in (0, 1)
        else:
            assert 1 <= ev[6] <= faces

    # scores recomputed from the final state by the twin
    held_ids, scores = [], []
    for p in range(n):
        ids = [RULES.card_ids[c] for c in np.flatnonzero(s.held[p])]
        stones = {RULES.stone_colours[c]: int((s.stone[p] == c).sum()) for c in range(n_col)}
        tokens = [
            int(ev[5])
            for ev in named_ev
            if ev[2] == p and ev[4] in (WonderKind.LESSER, WonderKind.GREATER)
        ]
        named = [RULES.wonder_ids[w] for w in np.flatnonzero(s.named_state == p)]
        want = naive_score(RULES, ids, stones, tokens, named)
        row = results[p]
        got = {name: int(row[engine.R_PARTS + i]) for i, name in enumerate(PART_NAMES)}
        got["total"] = int(row[engine.R_SCORE])
        assert got == want, (g, p)
        held_ids.append(ids)
        scores.append(want["total"])
    shares = naive_share_wins(RULES, scores, held_ids)
    assert wins.tolist() == pytest.approx([float(x) for x in shares])
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_final_states_checked_in_python(players):
    eoa_seen = set()
    for i, mix in enumerate(MIXES[players]):
        job = make_job(players, mix, SEED + 10 * players + i)
        n_games = PY_RANDOM_GAMES if mix == "random" else PY_SMART_GAMES
        for g in range(n_games):
            s = check_final_state(job, g)
            eoa_seen.add(int(s.sc[S_EOA]))
    if JIT:
        assert len(eoa_seen) >= 3  # several end-of-age cards were exercised


# --------------------------------------------------------------------------- determinism


def test_same_seed_same_tables_whatever_the_batch_split():
    job = make_job(3, "random", SEED)
    whole = job(0, 40)
    a, b = job(0, 20), job(20, 20)
    for name in ("games", "claims"):
        joined = pd.concat([a[name], b[name]], ignore_index=True)
        pd.testing.assert_frame_equal(whole[name], joined)
    smart = make_job(2, "balanced,collector", SEED)
    pd.testing.assert_frame_equal(
        smart(0, 4)["games"],
        pd.concat([smart(0, 1)["games"], smart(1, 3)["games"]], ignore_index=True),
    )


def test_different_seeds_give_different_games():
    a = simulate(2, "random", 20, seed=1)
    b = simulate(2, "random", 20, seed=2)
    assert not a["score"].equals(b["score"])
    again = simulate(2, "random", 20, seed=1)
    assert a.equals(again)


def test_win_shares_sum_to_one_per_game_and_scores_add_up():
    df = simulate(4, "random,claimer,random,balanced", 30, seed=SEED)
    assert np.allclose(df.groupby("game")["win"].sum(), 1.0)
    parts = df[[f"pts_{name}" for name in PART_NAMES]].sum(axis=1)
    assert (parts == df["score"]).all()
    assert set(df["seat"]) == {0, 1, 2, 3}
