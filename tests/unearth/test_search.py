"""The ``search`` player and deep advice (analyzer/unearth/search.py, deep.py).

What must hold: a search that keeps one choice plays exactly as ``balanced``;
its rollouts never read what the seat cannot see (two games that differ only in
hidden cards give the same rollouts, and the deal of the unseen cards is
uniform); a dealt copy is a legal game; games with a ``search`` seat are the
same for any split into batches; bad settings get one-line errors.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from analyzer.core.errors import InputError
from analyzer.core.seeding import root_key
from analyzer.unearth import search
from analyzer.unearth.defaults import default_row
from analyzer.unearth.game import simulate
from analyzer.unearth.memo import new_memo
from analyzer.unearth.rules import default_rules
from analyzer.unearth.setup import setup
from analyzer.unearth.state import (
    S_DDECK_N,
    S_DECK_LEN,
    S_DECK_POS,
    S_EOA,
    S_GREATER_POS,
    S_LESSER_POS,
    S_OVER,
    S_REMOVED_N,
    S_TURN,
    new_state,
)
from analyzer.unearth.strategies import Strategy
from analyzer.unearth.structs import pack_memo, pack_state, pack_tables

RULES = default_rules()
T = RULES.tables


def _memo(n, first=Strategy.SEARCH):
    codes = np.full(n, int(Strategy.BALANCED), np.int64)
    codes[0] = int(first)
    return new_memo(T, n, codes, np.array([default_row("balanced", n)] * n, np.float64))


def midgame(n: int, game: int, turns: int):
    """A game of ``n`` balanced seats set up and played to the start of seat 0's
    turn ``turns`` (a multiple of ``n``), or None if it ended before."""
    s = new_state(T, n)
    m = _memo(n, Strategy.BALANCED)
    k0, k1 = root_key(11)
    setup(pack_state(s), pack_memo(m), pack_tables(T), n, k0, k1, game)
    s.sc[S_TURN] = -1  # play_out starts with the next seat: seat 0, turn 0
    search.play_out(pack_state(s), pack_memo(m), pack_tables(T), n - 1, True, turns)
    return None if s.sc[S_OVER] else s


def rank(s, n, budget=60, seed=5, own_hidden=0):
    """The rollout statistics of every choice of seat 0 in ``s``."""
    r = new_state(T, n)
    w = search.new_search(T, n, budget=budget, width=0, own_hidden=own_hidden, keep=budget)
    k = search.rank_all(
        pack_state(s),
        pack_memo(_memo(n)),
        pack_tables(T),
        pack_state(r),
        pack_memo(_memo(n, Strategy.BALANCED)),
        search.pack_search(w),
        0,
        np.uint64(seed),
        budget,
    )
    return k, w


def _copy(s):
    return type(s)(*(a.copy() for a in s))


def test_width_one_plays_exactly_as_balanced():
    a = simulate(2, ["search", "balanced"], 40, seed=3, strategy_params={"search": {"width": 1}})
    b = simulate(2, ["balanced", "balanced"], 40, seed=3)
    assert (a["score"].to_numpy() == b["score"].to_numpy()).all()
    assert (a["win"].to_numpy() == b["win"].to_numpy()).all()
    assert (a["game_turns"].to_numpy() == b["game_turns"].to_numpy()).all()


@pytest.mark.slow
def test_search_changes_play_and_keeps_invariants():
    """With a budget the search does decide (some game differs from balanced's),
    and every game ends with the engine's invariants holding (games_frame raises
    on a broken one)."""
    sp = {"search": {"budget": 24, "width": 3}}
    a = simulate(2, ["search", "balanced"], 12, seed=4, strategy_params=sp)
    b = simulate(2, ["balanced", "balanced"], 12, seed=4)
    assert (a["score"].to_numpy() != b["score"].to_numpy()).any()
    assert set(a["strategy"].astype(str)) == {"search", "balanced"}


@pytest.mark.slow
def test_same_games_for_any_batch_split():
    sp = {"search": {"budget": 16, "width": 3}}
    whole = simulate(3, ["balanced", "search", "baseline"], 6, seed=9, strategy_params=sp)
    parts = [
        simulate(3, ["balanced", "search", "baseline"], 3, seed=9, first_game=g, strategy_params=sp)
        for g in (0, 3)
    ]
    joined = np.concatenate([p["score"].to_numpy() for p in parts])
    assert (whole["score"].to_numpy() == joined).all()


def _hide_differently(s, n, rng):
    """A copy of ``s`` that seat 0 cannot tell from it: the unseen ruins (deck above
    its bottom card, set-aside pile, other seats' face-down ruins), the other
    seats' hands with the draw pile, and the token piles dealt again."""
    h = _copy(s)
    pos, top = int(h.sc[S_DECK_POS]), int(h.sc[S_DECK_LEN]) - 1
    k = int(h.sc[S_REMOVED_N])
    pool = (
        list(h.ruin_deck[pos:top]) + list(h.removed[:k]) + [int(h.hidden[q]) for q in range(1, n)]
    )
    for q in range(1, n):
        c = int(h.hidden[q])
        h.held[q, c] = 0
        h.held_colour[q, T.card_colour[c]] -= 1
    pool = list(rng.permutation(pool))
    h.ruin_deck[pos:top] = pool[: top - pos]
    h.removed[:k] = pool[top - pos : top - pos + k]
    for i, q in enumerate(range(1, n)):
        c = int(pool[top - pos + k + i])
        h.hidden[q] = c
        h.held[q, c] = 1
        h.held_colour[q, T.card_colour[c]] += 1
    nd = int(h.sc[S_DDECK_N])
    cards = list(h.ddeck[:nd])
    sizes = [int(h.hand[q].sum()) for q in range(n)]
    for q in range(1, n):
        for kind in range(h.hand.shape[1]):
            cards += [kind] * int(h.hand[q, kind])
        h.hand[q] = 0
    cards = list(rng.permutation(cards))
    h.ddeck[:nd] = cards[:nd]
    i = nd
    for q in range(1, n):
        for _ in range(sizes[q]):
            h.hand[q, cards[i]] += 1
            i += 1
    lp, gp = int(h.sc[S_LESSER_POS]), int(h.sc[S_GREATER_POS])
    h.lesser[lp:] = rng.permutation(h.lesser[lp:])
    h.greater[gp:] = rng.permutation(h.greater[gp:])
    # which end-of-age card lies under the deck: another one
    eoa = int(h.sc[S_EOA])
    other = T.n_ruins + (eoa - T.n_ruins + 1) % (T.card_kind.shape[0] - T.n_ruins)
    h.ruin_deck[top] = other
    h.sc[S_EOA] = other
    return h


@pytest.mark.parametrize("n,game", [(2, 1), (3, 2), (4, 3)])
def test_rollouts_never_read_hidden_cards(n, game):
    """Two games seat 0 cannot tell apart give exactly the same rollouts; a game
    that differs in something seat 0 sees (its own hidden ruin) does not."""
    s = midgame(n, game, 4 * n)
    assert s is not None and s.sc[S_DECK_POS] < s.sc[S_DECK_LEN] - 3
    rng = np.random.default_rng(game)
    h = _hide_differently(s, n, rng)
    assert (h.ruin_deck != s.ruin_deck).any() or (h.hidden != s.hidden).any()
    assert h.sc[S_EOA] != s.sc[S_EOA]
    k1, w1 = rank(s, n)
    k2, w2 = rank(h, n)
    assert k1 == k2 > 1
    assert (w1.wins_by[:k1] == w2.wins_by[:k2]).all()
    assert (w1.score[:k1] == w2.score[:k2]).all()
    # control: the seat's own face-down ruin is something it sees
    other = _copy(s)
    mine = int(other.hidden[0])
    swap = int(other.ruin_deck[other.sc[S_DECK_POS]])
    other.ruin_deck[other.sc[S_DECK_POS]] = mine
    other.hidden[0] = swap
    other.held[0, mine] = 0
    other.held[0, swap] = 1
    other.held_colour[0, T.card_colour[mine]] -= 1
    other.held_colour[0, T.card_colour[swap]] += 1
    k3, w3 = rank(other, n)
    assert not (w1.score[:k1] == w3.score[:k3]).all()


def test_deal_is_uniform_and_legal():
    """determinize deals the unseen ruins uniformly (each opponent's face-down ruin
    is each unseen ruin with chance 1/pool, within 4 standard errors), keeps hand
    sizes, seat 0's own cards and the ruin count, over many deals."""
    n = 3
    s = midgame(n, 5, 3 * n)
    assert s is not None
    pos, top = int(s.sc[S_DECK_POS]), int(s.sc[S_DECK_LEN]) - 1
    pool = sorted(
        list(s.ruin_deck[pos:top])
        + list(s.removed[: s.sc[S_REMOVED_N]])
        + [int(s.hidden[q]) for q in (1, 2)]
    )
    r = new_state(T, n)
    w = search.new_search(T, n)
    draws = 3000
    seen = Counter()
    from analyzer.kernels.rng import rng_seed

    # views made once: the arrays stay the same
    rv, sv, tv, wv = pack_state(r), pack_state(s), pack_tables(T), search.pack_search(w)
    for j in range(draws):
        search.copy_game(rv, sv)
        rng_seed(r.rng, np.uint64(77), 0, j)
        search.determinize(rv, tv, wv, 0)
        seen[int(r.hidden[1])] += 1
        dealt = sorted(
            list(r.ruin_deck[pos:top])
            + list(r.removed[: r.sc[S_REMOVED_N]])
            + [int(r.hidden[q]) for q in (1, 2)]
        )
        assert dealt == pool
        assert r.hidden[0] == s.hidden[0] and (r.hand[0] == s.hand[0]).all()
        assert [int(r.hand[q].sum()) for q in range(n)] == [int(s.hand[q].sum()) for q in range(n)]
        assert (
            r.hand.sum(0) + np.bincount(r.ddeck[: r.sc[S_DDECK_N]], minlength=r.hand.shape[1])
            == s.hand.sum(0) + np.bincount(s.ddeck[: s.sc[S_DDECK_N]], minlength=s.hand.shape[1])
        ).all()
        for q in range(n):
            assert r.held[q].sum() == s.held[q].sum()
            cols = np.bincount(T.card_colour[np.flatnonzero(r.held[q])], minlength=T.n_ruin_colours)
            assert (cols == r.held_colour[q]).all()
        assert r.ruin_deck[top] == r.sc[S_EOA]  # the end-of-age card stays at the bottom
    assert len(set(pool)) == len(pool)  # ruin cards are unique
    p = 1 / len(pool)
    se = np.sqrt(p * (1 - p) / draws)
    for card in pool:
        assert abs(seen[card] / draws - p) < 4 * se, (card, seen[card] / draws, p)


def test_bad_search_settings():
    with pytest.raises(InputError, match=r"strategy_params\.search\.budget: bad value 0"):
        simulate(2, ["search", "balanced"], 1, seed=1, strategy_params={"search": {"budget": 0}})
    with pytest.raises(InputError, match=r"strategy_params\.search\.width: bad value 2\.5"):
        simulate(2, ["search", "balanced"], 1, seed=1, strategy_params={"search": {"width": 2.5}})
    for v in (float("inf"), float("nan")):
        with pytest.raises(InputError, match=r"strategy_params\.search\.budget: bad value"):
            simulate(
                2, ["search", "balanced"], 1, seed=1, strategy_params={"search": {"budget": v}}
            )
    with pytest.raises(InputError, match=r"strategy_params\.search: bad value 'depth'"):
        simulate(2, ["search", "balanced"], 1, seed=1, strategy_params={"search": {"depth": 2}})


@pytest.mark.slow
def test_deep_advice_on_the_example(tmp_path):
    from analyzer.unearth import advise as lib
    from analyzer.unearth import deep

    path = tmp_path / "table.toml"
    path.write_text(lib.example_text())
    table = lib.load_state(path, RULES)
    raw = {"red": ["shattered_edifice"], "blue": ["college_of_the_overseers"]}
    a = deep.deep_advice(table, raw, RULES, budget=480, seed=1)
    b = deep.deep_advice(table, raw, RULES, budget=480, seed=1)
    assert [c.win for c in a.choices] == [c.win for c in b.choices]  # seeded
    assert a.seats == ("blue", "red", "yellow")
    # every (die, ruin) choice: three die sizes in my pool, four ruins
    assert len(a.choices) == 12 and all(c.rollouts == 40 for c in a.choices)
    assert {(c.die, c.ruin) for c in a.choices} == {
        (f"d{f}", r) for f in (8, 6, 4) for r in ("A13", "C9", "B15", "E17")
    }
    wins = [c.win for c in a.choices]
    assert wins == sorted(wins, reverse=True)
    assert all(0 <= c.win_ci[0] <= c.win <= c.win_ci[1] <= 1 for c in a.choices)
    out = json.loads(deep.to_json(a, {}))
    assert out["rollouts"] == 480 and len(out["choices"]) == 12
    assert any("named wonders still to build" in x for x in out["assumed"])
    with pytest.raises(InputError, match="^budget: bad value 0"):  # the Python name
        deep.deep_advice(table, raw, RULES, budget=0, seed=1)


@pytest.mark.slow
def test_advise_deep_via_cli(tmp_path, capsys):
    from analyzer.cli import run_cli
    from analyzer.unearth import advise as lib

    path = tmp_path / "table.toml"
    path.write_text(lib.example_text())
    args = ["advise", str(path), "--deep", "--budget", "240", "--seed", "2"]
    assert run_cli([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rollouts"] == 240 and out["seed"] == 2
    best = out["choices"][0]
    assert {"win", "win_ci95", "score", "score_ci95", "p_claim_exact", "rollouts"} <= set(best)
    # the exact claim odds beside: d8 onto A13 is 5/8 in the exact table
    exact = {(c["die"], c["ruin"]): c["p_claim_exact"] for c in out["choices"]}
    assert exact[("d8", "A13")] == pytest.approx(0.625)
    assert run_cli(args) == 0
    text = capsys.readouterr().out
    assert "win chance" in text and "Assumed:" in text and "Best:" in text
    assert run_cli(["advise", str(path), "--budget", "10"]) == 2
    assert "need --deep" in capsys.readouterr().err
    assert run_cli(["advise", str(path), "--deep", "--players", "red"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("analyzer: error: --players") and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_rollouts_leave_the_game_untouched():
    """A search that always keeps balanced's choice (z infinite) but plays its
    rollouts gives exactly balanced's games, claims log included: nothing of a
    rollout reaches the game's state, stream or memo."""
    from analyzer.kernels.kernel_view import results_view
    from analyzer.unearth import engine
    from analyzer.unearth.game import GameJob, _rollout_memo, play_raw, strategy_arrays

    n, count = 3, 6
    job = GameJob(players=n, strategies=("search", "balanced", "balanced"), seed=5)
    codes, prm = strategy_arrays(job.strategies, {})
    s = new_state(T, n, 0, count * engine.MAX_CLAIMS_PER_GAME)
    m = new_memo(T, n, codes, prm)
    o = engine.new_batch(T, n, count)
    k0, k1 = root_key(job.seed)
    w = search.new_search(T, n, budget=24, width=6, z=np.inf)
    search.play_batch_search(
        pack_state(s),
        pack_memo(m),
        pack_tables(T),
        results_view(o.results, o.wins),
        pack_state(new_state(T, n)),
        pack_memo(_rollout_memo(T, job, prm)),
        search.pack_search(w),
        n,
        k0,
        k1,
        0,
        count,
    )
    assert w.count[search.K_ROLLOUTS] > 100  # the rollouts were played
    plain = GameJob(players=n, strategies=("balanced",) * n, seed=5)
    results, _, claims, _ = play_raw(plain, 0, count)
    assert (o.results == results).all()
    assert (s.claims[: s.n_claims[0]] == claims).all()


def _example(tmp_path, **changes):
    from analyzer.unearth import advise as lib

    text = lib.example_text()
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def test_deep_players_as_the_help_says(tmp_path, capsys):
    """--players names the others in turn order after me (the help and
    docs/odds.md); each once, all of them."""
    from analyzer.cli import run_cli

    path = _example(tmp_path)
    base = ["advise", str(path), "--deep", "--budget", "24", "--seed", "1", "--json"]
    assert run_cli([*base, "--players", "yellow,red"]) == 0
    assert json.loads(capsys.readouterr().out)["seats"] == ["blue", "yellow", "red"]
    for bad in ("red", "red,yellow,red"):
        assert run_cli([*base, "--players", bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("analyzer: error: --players") and len(err.strip().splitlines()) == 1


def test_deep_owner_of_a_wonder_only_is_a_seat(tmp_path, capsys):
    """A player named only as the owner of a wonder that changes no roll is a seat."""
    from analyzer.cli import run_cli

    red = 'red = ["shattered_edifice"]'
    path = _example(tmp_path, **{red: red + '\ngreen = ["eternal_flame"]'})
    args = ["advise", str(path), "--deep", "--budget", "32", "--seed", "1", "--json"]
    assert run_cli(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seats"] == ["blue", "red", "yellow", "green"]


def test_deep_hand_beyond_the_deck_is_bad_input(tmp_path, capsys):
    from analyzer.cli import run_cli

    hand = 'hand = ["reading_the_stones", "a_new_discovery", "expedition"]'
    path = _example(tmp_path, **{hand: 'hand = ["restoration", "restoration", "restoration"]'})
    assert run_cli(["advise", str(path), "--deep", "--budget", "24", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("analyzer: error: hand: bad value") and len(err.strip().splitlines()) == 1


def test_deep_build_with_an_event_is_the_end_of_the_game(tmp_path):
    """With an end-of-age event in play the deck is used up: the strategies must
    see the game near its end (ruins_left well below 1), not at its start."""
    from analyzer.unearth import advise as lib
    from analyzer.unearth import deep
    from analyzer.unearth.strategies import ruins_left

    for event, low in (("none", False), ("gathering", True)):
        path = _example(tmp_path, **{'event = "none"': f'event = "{event}"'})
        table = lib.load_state(path, RULES)
        seats = deep._seats(table, None, RULES)
        s, _, _ = deep.build(table, RULES, seats, deep.BUILD_SEED, {})
        left = ruins_left(pack_state(s))
        assert (left < 0.5) if low else left == 1.0, (event, left)
        assert s.ruin_deck[s.sc[S_DECK_LEN] - 1] == s.sc[S_EOA]


def test_bad_search_settings_in_a_scenario_name_the_file():
    """Checked when the scenario is read, with a search seat or without one."""
    from analyzer.scenario import parse_scenario

    base = {"players": 2, "games": 2, "seed": 1}
    for strategies in (["search", "balanced"], ["balanced", "balanced"]):
        raw = {**base, "strategies": strategies, "strategy_params": {"search": {"width": 0}}}
        bad = r"^x\.toml: strategy_params\.search\.width: bad value 0 "
        with pytest.raises(InputError, match=bad):
            parse_scenario(raw, "x.toml")


def test_search_refuses_more_than_one_hidden_ruin():
    from analyzer.unearth.rules import load_rules

    rules = load_rules(overrides={"components.hidden_ruins_per_player": 2})
    with pytest.raises(InputError, match="search needs components.hidden_ruins_per_player = 1"):
        simulate(2, ["search", "balanced"], 1, seed=1, rules=rules)
    simulate(2, ["balanced", "balanced"], 1, seed=1, rules=rules)  # the others play it
