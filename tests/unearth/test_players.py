"""The evaluation's newer parts (issue 12) against slow twins, and the claimer's
rule: the pile a Memorial or Cenotaph draws from, how close a seat's best ring is,
the cells a claimer refuses, a kept card's falling worth, and the share floor
``analyzer tune`` keeps for the collector."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.games import Strategy as SeamStrategy
from analyzer.games import load_game
from analyzer.unearth.game import simulate
from analyzer.unearth.memo import new_memo
from analyzer.unearth.state import S_N_SLOTS, new_state
from analyzer.unearth.strategies import (
    N_PARAMS,
    P_PLACE,
    Strategy,
    choose_cell,
    claimer_cells,
    pile_worth,
    ring_closeness,
)
from analyzer.unearth.structs import pack_memo, pack_state, pack_tables
from analyzer.unearth.tableau import NEIGHBOURS, legal_cells_boxed
from tests.naive import (
    naive_hex_neighbours,
    naive_open_centre,
    naive_pile_worth,
    naive_ring_closeness,
)
from tests.unearth.test_tableau import T, box_of, tableaux, to_arrays, to_cell, to_qr

# ------------------------------------------------------------------ the removed pile


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.integers(0, 4), min_size=2, max_size=5),
    st.lists(st.sampled_from([0, 2, 4, 5, 6, 8, 10]), min_size=5, max_size=5),
    st.integers(0, 6),
)
def test_pile_worth_matches_enumeration(count, worth, k):
    worth = worth[: len(count)]
    best, mean = pile_worth(np.array(count, np.int64), np.array(worth, np.float64), k)
    want_best, want_mean = naive_pile_worth(count, worth, k)
    assert best == pytest.approx(float(want_best), abs=1e-12)
    assert mean == pytest.approx(float(want_mean), abs=1e-12)


def test_pile_worth_small_case_by_hand():
    # two cards worth 10 among five (the rest 2): a pile of two holds one with
    # chance 1 - C(3,2)/C(5,2) = 7/10; best = 2 + 8 * 7/10, mean = (2*10 + 3*2)/5
    best, mean = pile_worth(np.array([2, 3]), np.array([10.0, 2.0]), 2)
    assert best == pytest.approx(2 + 8 * 0.7)
    assert mean == pytest.approx(26 / 5)


# ------------------------------------------------------------------ tableau


def _state(stones, centres):
    s = new_state(T, 1)
    s.stone[0], s.centre[0] = to_arrays(stones, centres)
    s.box[0] = box_of(stones)
    for colour in stones.values():
        s.n_stones[0, colour] += 1
    return s


@settings(max_examples=150, deadline=None)
@given(tableaux())
def test_ring_closeness_matches_twin(case):
    stones, centres, _ = case
    s = _state(stones, centres)
    m = new_memo(T, 1, np.zeros(1, np.int64), np.zeros((1, N_PARAMS)))
    got = ring_closeness(pack_state(s), pack_memo(m), pack_tables(T), 0)
    assert got == pytest.approx(naive_ring_closeness(stones, centres))
    # kept until the tableau grows, unless a closed ring still waits for its wonder
    pending = any(
        c not in stones
        and c not in centres
        and all(nb in stones for nb in naive_hex_neighbours(c))
        and not any(nb in centres for nb in naive_hex_neighbours(c))
        for c in {nb for cell in stones for nb in naive_hex_neighbours(cell)}
    )
    assert m.ring_n[0] == (-1 if pending else len(stones))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(tableaux(), st.booleans(), st.integers(0, 3))
def test_claimer_never_fills_a_centre_it_could_close(case, plan, colour):
    stones, centres, _ = case
    s = _state(stones, centres)
    prm = np.zeros((1, N_PARAMS))
    prm[0, P_PLACE] = 1.0 if plan else 0.0
    m = new_memo(T, 1, np.array([Strategy.CLAIMER]), prm)
    n = legal_cells_boxed(s.stone[0], s.centre[0], NEIGHBOURS, s.box[0], m.cells)
    cells = [to_qr(c) for c in m.cells[:n]]
    ok = claimer_cells(pack_state(s), pack_memo(m), pack_tables(T), 0, n)
    refused = {c for c in cells if naive_open_centre(stones, centres, c)}
    if len(refused) == n:
        refused = set()  # every cell is one: a stone must go somewhere
    assert ok == n - len(refused)
    assert {c for i, c in enumerate(cells) if m.cellok[i] == 0} == refused
    cell = choose_cell(pack_state(s), pack_memo(m), pack_tables(T), 0, colour)
    assert to_qr(cell) in set(cells) - refused


# ------------------------------------------------------------------ cards


def test_a_falling_card_worth_spends_the_hand():
    """With ``card_end = 1`` a kept card is worth nothing at the end: balanced plays
    far more of its cards and ends holding far fewer (the same 300 games)."""
    held = {}
    for end in (0.0, 1.0):
        g = simulate(2, "balanced", 300, seed=5, strategy_params={"balanced": {"card_end": end}})
        held[end] = (g.delvers_drawn - g.delvers_played).mean()
    assert held[1.0] < held[0.0] - 2.0, held


# ------------------------------------------------------------------ seam and tuning


def test_params_for_takes_the_nearest_smaller_count():
    s = SeamStrategy(
        "x",
        "",
        (("a", 1.0),),
        by_players=((2, (("a", 2.0),)), (4, (("a", 4.0),))),
    )
    assert [s.params_for(n)["a"] for n in (2, 3, 4, 5)] == [2.0, 2.0, 4.0, 4.0]
    assert SeamStrategy("y", "", (("a", 1.0),)).params_for(3) == {"a": 1.0}


def test_shipped_rows_are_full_and_baseline_is_frozen():
    g = load_game("unearth")
    names = [p for p, _ in g.strategies[0].params]
    assert len(names) == N_PARAMS
    from analyzer.unearth.defaults import SEARCH_PARAMS

    for strat in g.strategies:
        own = [p for p, _, _ in SEARCH_PARAMS] if strat.name == "search" else []
        for n in range(g.min_players, g.max_players + 1):
            assert list(strat.params_for(n)) == names + own
    search = {s.name: s for s in g.strategies}["search"]
    balanced = {s.name: s for s in g.strategies}["balanced"]
    for n in (2, 3, 4, 5):  # the search's heuristic is balanced's row
        assert {k: search.params_for(n)[k] for k in names} == balanced.params_for(n)
    base = {s.name: s for s in g.strategies}["baseline"]
    assert all(base.params_for(n) == dict(base.params) for n in (2, 3, 4, 5))


def test_tune_keeps_the_collectors_share_floor():
    from analyzer.studies.tuning import tune

    r = tune("unearth", 2, "collector", trials=2, games=40, confirm_games=20, seed=3, command=["t"])
    cols, floor = r.settings["share_columns"], r.settings["share_floor"]
    assert cols == ["pts_tokens", "pts_named", "pts_bonus"] and floor == pytest.approx(1 / 3)
    for t in r.trials:
        assert 0.0 <= t.share <= 1.0
        assert t.objective == pytest.approx(t.win_share - 10 * max(0.0, floor - t.share))
    assert "share" in r.confirm and "shipped_share" in r.confirm


def test_tune_scores_a_row_whose_games_never_end_as_losing(monkeypatch):
    import analyzer.runs.driver as driver
    from analyzer.core.errors import StalledGameError
    from analyzer.studies.tuning import tune

    real = driver.run_scenario
    calls = []

    def stall_second(sc, **kw):
        calls.append(1)
        if len(calls) == 2:
            raise StalledGameError("game 0 of this run hit the engine's turn cap")
        return real(sc, **kw)

    monkeypatch.setattr(driver, "run_scenario", stall_second)
    r = tune("unearth", 2, "balanced", trials=3, games=20, confirm_games=0, seed=1, command=["t"])
    assert r.trials[1].win_share == 0.0 and r.trials[1].games == 20
    assert r.trials[0].win_share > 0.0


# ------------------------------------------------------------------ stalemates

#: the claimer's row before issue 12: at 2 players against baseline, game 2065 of
#: seed 2026 was a stalemate (both seats took their d8 back and rolled it onto
#: the same ruin for ever, under The Gathering's -1) until strategies broke it
CLASSIC_CLAIMER = dict(
    zip(
        [p for p, _ in load_game("unearth").strategies[0].params],
        (1.0, 0.4, 1.0, 0.5, 0.5, 1.5, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0),
        strict=True,
    )
)


def test_a_stalemate_is_broken_and_the_game_ends():
    g = simulate(
        2,
        "claimer,baseline",
        1,
        seed=2026,
        first_game=2065,
        strategy_params={"claimer": CLASSIC_CLAIMER},
    )
    assert (g.game_turns > 100).all()  # it was a long one: the stall breaker acted
    assert g.claims_won.sum() > 0


def test_break_stall_moves_the_biggest_die_to_the_ruin_nearest_its_claim():
    from analyzer.unearth.strategies import break_stall

    s = new_state(T, 2)
    s.sc[S_N_SLOTS] = 2
    s.slot_card[:2] = [0, 1]  # two ruins
    faces = list(T.dice_faces)
    big = faces.index(max(faces))
    s.die_slot[0, :] = 0  # all of seat 0's dice on ruin 0 ...
    s.die_slot[0, big] = 1  # ... but the biggest, on ruin 1
    s.die_value[0, :] = 1
    s.die_value[0, big] = 1
    s.die_slot[1, :] = 0
    s.die_value[1, :] = 2
    die, slot = break_stall(pack_state(s), pack_tables(T), 0)
    # ruin 0 is nearest its claim: the biggest die not on it goes there
    assert slot == 0 and die == big


# ------------------------------------------------------------------ shipping rows


def _doc(gain_low, share=None, shipped_share=None, floor=None):
    settings = {
        "command": "analyzer tune x",
        "strategy": "balanced",
        "players": 3,
        "field": ["baseline", "baseline"],
        "shipped": {"a": 1.0, "b": 2.0},
    }
    confirm = {
        "games": 100,
        "win_share": 0.6,
        "low": 0.5,
        "high": 0.7,
        "shipped_win_share": 0.4,
        "shipped_low": 0.3,
        "shipped_high": 0.5,
        "gain": 0.2,
        "gain_low": gain_low,
        "gain_high": 0.3,
    }
    if floor is not None:
        settings |= {"share_floor": floor, "share_columns": ["pts_x"]}
        confirm |= {"share": share, "shipped_share": shipped_share}
    return settings, confirm


def test_recommend_ships_the_best_row_only_when_shown_better():
    from analyzer.studies.tuning import recommend

    s, c = _doc(0.01)
    assert recommend(s, c, {"a": 3.0})["row"] == {"a": 3.0, "b": 2.0}
    s, c = _doc(-0.01)
    assert recommend(s, c, {"a": 3.0})["which"] == "shipped"
    # with a floor: a better row below it is not shipped; a shipped row below it gives way
    s, c = _doc(0.05, share=0.30, shipped_share=0.40, floor=1 / 3)
    assert recommend(s, c, {"a": 3.0})["which"] == "shipped"
    s, c = _doc(-0.05, share=0.35, shipped_share=0.30, floor=1 / 3)
    assert recommend(s, c, {"a": 3.0})["which"] == "best"
    # both below it: the one nearer to it
    s, c = _doc(0.05, share=0.25, shipped_share=0.30, floor=1 / 3)
    assert recommend(s, c, {"a": 3.0})["which"] == "shipped"
    s, c = _doc(-0.05, share=0.31, shipped_share=0.30, floor=1 / 3)
    assert recommend(s, c, {"a": 3.0})["which"] == "best"


def test_ship_rows_writes_a_data_file_the_loader_reads(tmp_path):
    import tomllib

    from analyzer.unearth.defaults import PARAM_NAMES
    from analyzer.unearth.ship_rows import render

    row = {p: float(i) for i, p in enumerate(PARAM_NAMES)}
    s, c = _doc(0.01)
    s["shipped"] = dict.fromkeys(PARAM_NAMES, 0.5)
    doc = {"tune": s, "confirm": c, "best": {"params": row, "row": row}}
    text = render(9, [doc])
    data = tomllib.loads(text)
    assert data["version"] == 9
    table = data["strategies"]["balanced"]["3"]
    assert table["params"] == row and table["command"] == "analyzer tune x"
    assert "0.600 (95% CI 0.500 to 0.700)" in table["confirm"]
    # a later result that finds nothing better keeps the row and adds its check
    s2, c2 = _doc(-0.01)
    s2["shipped"] = row
    later = {"tune": s2 | {"command": "analyzer tune y"}, "confirm": c2, "best": {"params": {}}}
    kept = tomllib.loads(render(9, [later], data["strategies"]))["strategies"]["balanced"]["3"]
    assert kept["params"] == row and kept["command"] == "analyzer tune x"
    assert kept["checks"][0].startswith("analyzer tune y")


def test_ring_closeness_is_not_kept_while_a_closed_ring_waits_for_its_wonder():
    """choose_named asks for the seat's stone worth after the sixth stone and before
    the wonder fills the centre: that moment's answer must not stay in the memo."""
    ring = dict.fromkeys(naive_hex_neighbours((0, 0)), 1)  # one colour, around the middle
    s = _state(ring, {})
    m = new_memo(T, 1, np.zeros(1, np.int64), np.zeros((1, N_PARAMS)))
    S, M, TT = pack_state(s), pack_memo(m), pack_tables(T)
    ring_closeness(S, M, TT, 0)  # the ring is closed, its wonder not yet placed
    s.centre[0, to_cell((0, 0))] = 0  # the wonder fills the centre
    warm = ring_closeness(S, M, TT, 0)
    cold = ring_closeness(S, pack_memo(new_memo(T, 1, np.zeros(1, np.int64), m.given)), TT, 0)
    assert warm == cold == naive_ring_closeness(ring, {(0, 0): 0})


@pytest.mark.parametrize("game", ["unearth", "uruk"])
def test_ship_rows_rewrites_each_games_data_file_unchanged_from_no_results(game):
    # the one writer (analyzer.studies.ship_rows) serves every game: with no result it
    # writes back exactly the file the game reads (header, version, every table)
    import importlib

    defaults = importlib.import_module(f"analyzer.{game}.defaults")
    ship = importlib.import_module(f"analyzer.{game}.ship_rows")
    doc = defaults.data()
    text = ship.render(doc["version"], [], doc["strategies"])
    assert text == defaults.ROWS.resource().read_text("utf-8")
