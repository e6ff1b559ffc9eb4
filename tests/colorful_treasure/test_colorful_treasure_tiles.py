"""Colorful Treasure's action tiles (``docs/games/colorful_treasure.md``, "Advanced
rules: action tiles"): each effect on a forced game, the legality of whole games,
conservation, determinism, and that a game without tiles is untouched.

Forced games: random seats on the identity layout (card ``c`` at place ``c``:
each column holds gem, gem, gem, diamond, key or chest from row 0), every choice
forced with :func:`analyzer.kernels.rng.queue_outcomes` (a place is its index among the
face-down places not yet picked; a coin is 0 = no, 1 = yes).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer.colorful_treasure import engine
from analyzer.colorful_treasure.codes import SCALE, Effect, Kind
from analyzer.colorful_treasure.game import make_job, play_raw, simulate
from analyzer.colorful_treasure.replay import CHOICE_ROWS, render_trace
from analyzer.colorful_treasure.rules import assumed_values, load_rules
from analyzer.colorful_treasure.state import (
    ALWAYS,
    EV_STEAL,
    EV_TAKE,
    EV_TILE_TAKE,
    EV_TILE_USE,
    NEVER,
    S_TRACE_N,
    S_TURN,
    new_state,
)
from analyzer.colorful_treasure.tiles import remember_one
from analyzer.core.errors import InputError
from analyzer.kernels.kernel_view import make_view

IDENTITY = np.arange(50)
#: t0, seat 0: reveals the red gems of Pyramids, Great Wall and Taj Mahal (places 0, 5,
#: 10), takes them (3 red: a tile); the tile's outcome is appended by each test
THREE_REDS = [0, 4, 1, 8, 0]
#: t1, seat 1: reveals Pyramids yellow and green (places 1, 2), stops, takes the yellow
ONE_YELLOW = [0, 0, 0, 0]


def _play(forced, rulings, overrides=None, turns=3, players=2):
    rules = load_rules(rulings, overrides or {})
    job = make_job(players, "random", seed=3, rules=rules)
    results, _, _, s = play_raw(job, 0, 1, trace_rows=4000, deal=IDENTITY, forced=forced)
    lines = render_trace(job.rules, s.trace, int(s.sc[S_TRACE_N]), skip=CHOICE_ROWS)
    lines = [ln for ln in lines if int(ln.split(" ")[0][1:]) < turns]
    assert (results[:, engine.R_BAD] == 0).all()
    return lines, results, s


# ------------------------------------------------------------------ data and rulings


def test_tiles_are_off_by_default_and_their_sides_come_from_the_data():
    assert load_rules().tables.n_tiles == 0
    a = load_rules({"tiles": "a"})
    assert [side for _, side in a.tile_sides()] == [
        "peek_two",
        "fourth_card",
        "two_kinds",
        "truce",
        "peek_three",
    ]
    b = load_rules({"tiles": "b"})
    sides = [side for _, side in b.tile_sides()]
    assert sides == ["ignore_treasure", "sixth_colour", "guarded", "wild_marker", "peek_three"]
    t = b.tables
    assert t.tile_points.tolist() == [0, 1, 0, 0, 0]
    assert t.tile_once.tolist() == [0, 0, 0, 1, 1]
    assert a.tables.tile_points.tolist() == [0, 0, 0, 4, 0]
    keys = {r["key"] for r in assumed_values(a)}
    assert {"tiles.tile.*", "tiles.tile.t5.b"} <= keys
    assert not any(r["key"].startswith("tiles.") for r in assumed_values(load_rules()))
    swapped = load_rules({"tiles": "a"}, {"tiles.tile.t1.a": "guarded"})
    assert swapped.tables.tile_effect[0] == Effect.GUARDED


@pytest.mark.parametrize(
    ("rulings", "overrides", "message"),
    [
        ({"tiles": "c"}, {}, "f.toml: rules.tiles: bad value 'c' (allowed: none, a, b)"),
        ({"tiles": "a", "variant": "young"}, {}, "f.toml: rules.tiles: bad value 'a'"),
        ({}, {"tiles.tile.t1.a": "x-ray"}, "f.toml: tiles.tile.t1.a: bad value 'x-ray'"),
        ({}, {"tiles.side.truce.use": "once"}, "f.toml: tiles.side.truce.use: bad value 'once'"),
        ({}, {"tiles.side.truce.points": -1}, "f.toml: tiles.side.truce.points: bad value -1"),
        ({}, {"tiles.side.peek_two.amount": 0}, "tiles.side.peek_two.amount: bad value 0"),
        ({}, {"tiles.side.guarded.effect": "fly"}, "tiles.side.guarded.effect: bad value 'fly'"),
    ],
)
def test_bad_tile_values_give_one_line_errors(rulings, overrides, message):
    with pytest.raises(InputError) as err:
        load_rules(rulings, overrides, where="f.toml")
    assert message in str(err.value) and "\n" not in str(err.value)


# ------------------------------------------------------------------ each effect


def test_three_gem_cards_of_a_colour_take_a_tile_and_a_fourth_card_is_revealed():
    forced = THREE_REDS + [2]  # the second tile left: t2, fourth card
    forced += ONE_YELLOW
    # t2 seat 0: places 2, 3 (Pyramids green, diamond), a third: place 6, a fourth:
    # place 7 (Great Wall yellow, blue), takes the green
    forced += [0, 0, 1, 1, 1, 1, 0]
    lines, _, s = _play(forced, {"tiles": "a"})
    assert "t0 seat 0: takes the action tile t2 (fourth card)" in lines
    i = lines.index("t2 seat 0: uses the action tile t2 (fourth card)")
    assert (
        lines[i - 1]
        == "t2 seat 0: reveals Great Wall row 1: Great Wall yellow (card 3 of the turn)"
    )
    assert (
        lines[i + 1] == "t2 seat 0: reveals Great Wall row 2: Great Wall blue (card 4 of the turn)"
    )
    assert s.tile_owner[1] == -2  # x1: discarded


def test_no_tile_without_three_gem_cards_of_a_colour():
    forced = [0, 4, 0, 0]  # t0 seat 0: two reds, stops, takes them
    lines, _, _ = _play(forced, {"tiles": "a"}, turns=1)
    assert not any("action tile" in ln for ln in lines)


def test_two_kinds_takes_a_second_kind():
    forced = THREE_REDS + [3] + ONE_YELLOW  # t3, two kinds
    forced += [0, 0, 0, 0, 1, 0]  # t2: green and diamond, stop, green, then the diamond too
    lines, _, _ = _play(forced, {"tiles": "a"})
    t2 = [ln for ln in lines if ln.startswith("t2")]
    assert t2[2:] == [
        "t2 seat 0: takes Pyramids green",
        "t2 seat 0: uses the action tile t3 (two kinds)",
        "t2 seat 0: takes Pyramids diamond",
        "t2 seat 0: takes the plastic diamond above Pyramids",
    ]


def test_truce_keeps_its_holder_from_being_robbed_and_scores_4():
    # t1 seat 1: Pyramids key (place 4) and Great Wall chest (place 9): a pair
    forced = THREE_REDS + [4] + [3, 6, 0]
    lines, results, _ = _play(forced, {"tiles": "a"}, turns=2)
    assert "t0 seat 0: takes the action tile t4 (truce)" in lines
    assert lines[-1] == "t1 seat 1: has nobody to steal from"
    assert results[0, engine.R_PTS_TILES] == 4 * SCALE
    # the same turns without tiles: seat 1 steals a red gem from seat 0
    plain, _, _ = _play([0, 4, 1, 8, 0] + [3, 6, 0, 0], {}, turns=2)
    assert plain[-1].startswith("t1 seat 1: steals Pyramids red from seat 0")


def test_guarded_keeps_the_holders_cards():
    forced = THREE_REDS + [3] + [3, 6, 0]  # tiles b: t3 guarded; t1 seat 1 pairs
    lines, _, _ = _play(forced, {"tiles": "b"}, turns=2)
    assert "t0 seat 0: takes the action tile t3 (guarded)" in lines
    assert lines[-1] == "t1 seat 1: has nobody to steal from"


def test_ignore_treasure_takes_a_gem_instead_of_the_key():
    forced = THREE_REDS + [1] + ONE_YELLOW  # tiles b: t1 ignore treasure
    forced += [2, 0, 0, 1]  # t2: Pyramids key (place 4) and green (place 2), stop, the green
    lines, _, _ = _play(forced, {"tiles": "b"})
    t2 = [ln for ln in lines if ln.startswith("t2")]
    assert t2[2:] == [
        "t2 seat 0: uses the action tile t1 (ignore treasure)",
        "t2 seat 0: takes Pyramids green",
        "t2 seat 0: turns Pyramids key face down again at Pyramids row 4",
    ]


def test_a_wild_marker_pairs_with_one_marker_and_steals():
    forced = THREE_REDS + [4] + ONE_YELLOW  # tiles b: t4 wild marker
    forced += [2, 0, 0, 1, 0]  # t2: the key and the green, stop; the wild; steals the yellow
    lines, results, s = _play(forced, {"tiles": "b"})
    t2 = [ln for ln in lines if ln.startswith("t2")]
    assert t2[2:] == [
        "t2 seat 0: takes Pyramids key",
        "t2 seat 0: turns Pyramids green face down again at Pyramids row 2",
        "t2 seat 0: uses the action tile t4 (wild marker)",
        "t2 seat 0: pairs its key marker with the wild marker",
        "t2 seat 0: steals Pyramids yellow from seat 1",
    ]
    assert s.tile_owner[3] == -2


def test_the_sixth_colour_counts_for_the_gem_reward():
    over = {"rewards.gem.by_players.2.colours": 2}
    six, _, _ = _play(THREE_REDS + [2], {"tiles": "b"}, over, turns=1)
    assert six[-2:] == [
        "t0 seat 0: takes the action tile t2 (sixth colour)",
        "t0 seat 0: takes the gem reward (9 points)",
    ]
    other, _, _ = _play(THREE_REDS + [3], {"tiles": "b"}, over, turns=1)
    assert not any("reward" in ln for ln in other)


def test_a_peek_two_looks_at_one_card_of_two_wonders():
    forced = THREE_REDS + [1] + ONE_YELLOW  # t1 peek two
    forced += [1, 3, 0, 0, 0]  # t2: use it: Machu Picchu (place 15), Pyramids (place 2)
    lines, _, _ = _play(forced, {"tiles": "a"})
    t2 = [ln for ln in lines if ln.startswith("t2")]
    assert t2[:3] == [
        "t2 seat 0: uses the action tile t1 (peek two)",
        "t2 seat 0: looks at Machu Picchu row 0: Machu Picchu red (seen by this seat only)",
        "t2 seat 0: looks at Pyramids row 2: Pyramids green (seen by this seat only)",
    ]


def test_a_peek_three_looks_at_three_cards_of_one_wonder():
    forced = THREE_REDS + [5] + ONE_YELLOW  # t5 peek three
    forced += [1, 3, 0, 0, 0]  # t2: Machu Picchu, its places 15, 16, 17
    lines, _, _ = _play(forced, {"tiles": "a"})
    t2 = [ln for ln in lines if ln.startswith("t2")]
    assert [ln.split(":")[1].strip() for ln in t2[1:4]] == [
        "looks at Machu Picchu row 0",
        "looks at Machu Picchu row 1",
        "looks at Machu Picchu row 2",
    ]


def test_a_tile_again_after_a_theft_drops_the_colour_below_three():
    forced = THREE_REDS + [1]  # t0: t1 peek two
    forced += [3, 6, 0, 0]  # t1 seat 1: key and chest, steals seat 0's first card (a red)
    forced += [0, 10, 0, 0, 0, 1]  # t2: no peek; Machu Picchu red and Pyramids yellow, red
    lines, _, _ = _play(forced, {"tiles": "a"})
    assert "t1 seat 1: steals Pyramids red from seat 0" in lines
    assert lines[-1] == "t2 seat 0: takes the action tile t2 (fourth card)"


def test_no_second_tile_while_a_colour_stays_at_three_or_more():
    forced = THREE_REDS + [4] + ONE_YELLOW  # t0: t4 truce (nothing to use at t2)
    # t2 seat 0: Machu Picchu red (place 15) and Pyramids green, stop, the red: 4 reds;
    # then a 1 queued, which an offer of a tile would take as "t1"
    forced += [11, 0, 0, 0, 1]
    lines, _, _ = _play(forced, {"tiles": "a"})
    t2 = [ln for ln in lines if ln.startswith("t2")]
    assert "t2 seat 0: takes Machu Picchu red" in t2
    assert [ln for ln in lines if "action tile" in ln] == [
        "t0 seat 0: takes the action tile t4 (truce)"
    ]


def test_a_peeked_card_goes_into_that_seats_memory_only():
    t = load_rules({"tiles": "a"}).tables
    for recall, kept in ((1.0, ALWAYS), (0.0, 5)):
        s = new_state(t, 3)
        s.sc[S_TURN] = 5
        s.prm[:, 0] = recall
        remember_one(make_view(s, "CTState"), 1, 7)
        assert s.mem[1, 7] == kept and s.kn[1] == 1 << 7
        assert s.mem[0, 7] == NEVER and s.mem[2, 7] == NEVER and s.kn[0] == s.kn[2] == 0


# ------------------------------------------------------------------ whole games


def _legal(trace, rules, n_events, players):
    """Truce holders neither steal nor are robbed, guarded seats lose no card, a
    fourth card only after a fourth-card tile is used in that turn; a tile is used
    only by its owner, a x1 tile once; a tile is taken only by a seat with a colour
    of 3 or more gem cards that has not brought it one since it last reached 3
    (gem cards counted from the takes and steals in the trace)."""
    t = rules.tables
    effects = [rules.data["tiles"]["side"][side]["effect"] for _, side in rules.tile_sides()]

    def fresh():
        return set(), set(), -1, np.zeros((players, t.n_colours), int), {}, set()

    truce, guarded, fourth_turn, gems, owner, used = fresh()
    claimed: dict[int, set[int]] = {q: set() for q in range(players)}
    last = (-1, -1)  # (turn, seat) of the events read
    for ev, turn, seat, a, b, c, *_ in trace[:n_events].tolist():
        if ev == 9:  # a game ends: the next starts without tiles held
            truce, guarded, fourth_turn, gems, owner, used = fresh()
            claimed = {q: set() for q in range(players)}
            last = (-1, -1)
            continue
        if (turn, seat) != last and last[1] >= 0:  # the end of a turn: its offers made
            claimed[last[1]] = {g for g in range(t.n_colours) if gems[last[1], g] >= 3}
        last = (turn, seat)
        if ev == EV_TILE_TAKE:
            fresh_colours = [
                g for g in range(t.n_colours) if gems[seat, g] >= 3 and g not in claimed[seat]
            ]
            assert fresh_colours, (turn, seat)
            claimed[seat].add(fresh_colours[0])
            assert a not in owner
            owner[a] = seat
            if effects[a] == "truce":
                truce.add(seat)
            if effects[a] == "guarded":
                guarded.add(seat)
        elif ev == EV_TILE_USE:
            assert owner.get(a) == seat
            assert not (t.tile_once[a] == 1 and a in used)
            used.add(a)
            if effects[a] == "fourth_card":
                fourth_turn = turn
        elif ev == EV_TAKE and t.card_kind[a] == Kind.GEM:
            gems[seat, t.card_colour[a]] += 1
        elif ev == EV_STEAL:
            assert seat not in truce and a not in truce
            assert not (a in guarded and b >= 0)
            if b >= 0 and t.card_kind[b] == Kind.GEM:
                gems[seat, t.card_colour[b]] += 1
                gems[a, t.card_colour[b]] -= 1
                if gems[a, t.card_colour[b]] < 3:
                    claimed[a].discard(t.card_colour[b])
        elif ev == 1 and c == 4:
            assert fourth_turn == turn


@pytest.mark.parametrize("side", ["a", "b"])
@pytest.mark.parametrize("players", [2, 4])
def test_whole_games_with_tiles_are_legal_and_conserve_everything(side, players):
    rules = load_rules({"tiles": side, "scoring": "advanced"})
    lineup = ["random", "greedy", "perfect", "hunter"][:players]
    job = make_job(players, lineup, seed=40 + players, rules=rules)
    games = 150
    # the wrapper raises on a broken invariant (cards, diamonds, markers, tiles) or a
    # score that does not recompute
    df = job(0, games)["games"]
    assert (
        df.groupby("game")["cards_held"].sum() + df.groupby("game")["cards_left"].first() == 50
    ).all()
    assert df["tiles_taken"].sum() > 0 and df["tiles_used"].sum() > 0
    per_game = df.groupby("game")["tiles_taken"].sum()
    assert (per_game <= rules.tables.n_tiles).all()
    parts = df[[c for c in df if c.startswith("pts_")]].sum(axis=1)
    assert np.allclose(parts, df["score"])
    _, _, _, s = play_raw(job, 0, games, trace_rows=games * 400)
    n_events = int(s.sc[S_TRACE_N])
    assert n_events < games * 400
    _legal(s.trace, rules, n_events, players)


def test_tiles_games_do_not_depend_on_the_batch_split():
    job = make_job(4, "random,greedy,perfect,hunter", seed=11, rules=load_rules({"tiles": "b"}))
    whole = job(0, 30)
    parts = [job(0, 7), job(7, 13), job(20, 10)]
    for name in ("games", "steals"):
        joined = pd.concat([p[name] for p in parts], ignore_index=True)
        pd.testing.assert_frame_equal(whole[name], joined)


def test_games_without_tiles_have_no_tile_columns():
    df = simulate(2, "greedy", 20, seed=1)
    assert not any(c.startswith("tile") or c == "pts_tiles" for c in df)
    on = simulate(2, "greedy", 20, seed=1, rules=load_rules({"tiles": "a"}))
    assert {"pts_tiles", "tiles_taken", "tiles_used", "tile_truce"} <= set(on)


def test_two_tiles_showing_one_side_both_count_in_its_column():
    """A designer may show one side on two tiles ("tiles.tile.t2.a" = "peek_two"):
    the games table has one column for the side, 1 if the seat took either tile."""
    rules = load_rules({"tiles": "a"}, {"tiles.tile.t2.a": "peek_two"})
    job = make_job(4, "greedy", seed=2, rules=rules)
    df = job(0, 30)["games"]
    results, _, _, _ = play_raw(job, 0, 30)
    took = results[:, engine.R_TILES_TOOK]
    assert ((took & 1) != 0).any() and ((took & 2) != 0).any()
    assert (df["tile_peek_two"].to_numpy() == ((took & 3) != 0)).all()
    assert [c for c in df if c.startswith("tile_")] == [
        "tile_peek_two",
        "tile_two_kinds",
        "tile_truce",
        "tile_peek_three",
    ]


def test_a_broken_tile_state_is_caught():
    from analyzer.colorful_treasure.game import check_results

    rules = load_rules({"tiles": "a"})
    job = make_job(4, "greedy", seed=2, rules=rules)
    results, _, _, s = play_raw(job, 0, 20)
    check_results(job, 0, results)  # a real batch passes
    t = rules.tables
    views = (make_view(s, "CTState"), make_view(t, "CTTables"))
    assert engine.check_invariants(*views, 4) & engine.BAD_TILES == 0
    s.tile_owner[3] = -2  # the truce (permanent) discarded
    assert engine.check_invariants(*views, 4) & engine.BAD_TILES
    held = results[:, engine.R_TILES_HELD]
    bad = results.copy()
    bad[:, engine.R_TILES_HELD] = np.where(held == 0, 1 << 3, 0)  # the truce's 4 points moved
    with pytest.raises(RuntimeError, match="does not recompute"):
        check_results(job, 0, bad)
