"""Each game's barrable things, played: with nothing barred a job is today's job
(the same fingerprint, the same games: goldens and pinned hashes are the other
half of that check), and a seat barred from a thing never does it while the
others still do."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer.games import load_game

GAMES = ("unearth", "uruk", "colorful_treasure")


def _job(name, forbid=None, rulings=None, strategies="balanced", players=4):
    game = load_game(name)
    rules = game.load_rules(rulings or {}, {}, "x")
    if strategies == "balanced":
        strategies = {"colorful_treasure": "greedy"}.get(name, strategies)
    extra = {} if forbid is None else {"forbid": forbid}
    return game.make_job(players, (strategies,) * players, 11, rules, **extra)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("empty", [{}, {0: {}}])
def test_nothing_barred_is_today_s_job_game_for_game(name, empty):
    plain, barred = _job(name), _job(name, empty)
    assert repr(barred) == repr(plain)  # checkpoints' fingerprint unchanged
    a, b = plain(0, 30)["games"], barred(0, 30)["games"]
    pd.testing.assert_frame_equal(a, b)


def _played(name, forbid, rulings=None, games=120, strategies="balanced"):
    return _job(name, forbid, rulings, strategies)(0, games)["games"]


def _by_seat(g, col):
    return g.groupby("seat", observed=True)[col].sum().to_numpy()


def test_uruk_bars_bite():
    g = _played("uruk", {1: {"actions": ["trading", "god_auctions"]}, 2: {"inventions": ["leier"]}})
    free = _played("uruk", None)
    assert _by_seat(g, "traded")[1] == 0 and _by_seat(g, "auctions_won")[1] == 0
    # the bar is the barred seat's alone: the others still trade and win auctions
    # (balanced trades rarely since strategies version 4: the three seats together)
    assert _by_seat(g, "traded")[[0, 2, 3]].sum() > 0 and _by_seat(g, "auctions_won")[0] > 0
    assert _by_seat(g, "has_leier")[2] == 0 and _by_seat(free, "has_leier")[2] > 0
    assert _by_seat(free, "traded")[1] > 0 and _by_seat(free, "auctions_won")[1] > 0


def test_unearth_bars_bite():
    g = _played(
        "unearth", {0: {"delvers": ["forlorn", "restoration"]}, 3: {"wonders": ["eternal_flame"]}}
    )
    free = _played("unearth", None)
    for kind in ("forlorn", "restoration"):
        assert _by_seat(g, f"played_{kind}")[0] == 0
        assert (
            _by_seat(free, f"played_{kind}")[0] > 0 and _by_seat(g, f"played_{kind}")[1:].min() >= 0
        )
    assert _by_seat(g, "played_forlorn")[1:].sum() > 0
    assert _by_seat(g, "named_eternal_flame")[3] == 0


def test_colorful_treasure_bars_bite():
    forbid = {
        0: {"actions": ["stealing"]},
        1: {"rewards": ["gem_reward", "explorer_reward"]},
    }
    g = _played("colorful_treasure", forbid, games=200)
    free = _played("colorful_treasure", None, games=200)
    assert _by_seat(g, "steals")[0] == 0 and _by_seat(free, "steals")[0] > 0
    for reward in ("gem_reward", "explorer_reward"):
        assert _by_seat(g, reward)[1] == 0 and _by_seat(free, reward)[1] > 0
    assert _by_seat(g, "steals")[1:].sum() > 0


def test_colorful_treasure_treasure_bar_bites():
    """Barred from the treasure reward, a seat's key and chest cards count for nothing:
    the majority of the other seats takes it (shared by their ties). The players are
    not told (as with the other rewards), so the games are played card for card as
    without the bar and only the scores move; the score's recomputing twins (the
    games table's sweep and recompute_scores) agree with the kernel or the job raises."""
    forbid = {1: {"rewards": ["treasure_reward"]}}
    g = _played("colorful_treasure", forbid, games=200)
    free = _played("colorful_treasure", None, games=200)
    assert _by_seat(g, "treasure_reward")[1] == 0 and _by_seat(free, "treasure_reward")[1] > 0
    assert (g["treasure_cards"].to_numpy() == free["treasure_cards"].to_numpy()).all()
    cards = g.pivot(index="game", columns="seat", values="treasure_cards").to_numpy()
    pts = g.pivot(index="game", columns="seat", values="pts_treasure").to_numpy()
    others = cards[:, [0, 2, 3]]
    best = others.max(axis=1, keepdims=True)
    top = others == best
    want = np.where(top, 7.0 / top.sum(axis=1, keepdims=True), 0.0)
    np.testing.assert_allclose(pts[:, [0, 2, 3]], want)
    assert (pts[:, 1] == 0).all()
    # where seat 1 held the most alone, the reward went elsewhere: its bar moves points
    alone = cards[:, 1] > best[:, 0]
    assert alone.any()
    free_pts = free.pivot(index="game", columns="seat", values="pts_treasure").to_numpy()
    assert (free_pts[alone, 1] == 7.0).all() and (pts[alone][:, [0, 2, 3]].sum(axis=1) == 7).all()


def test_colorful_treasure_tile_bar_bites():
    game = load_game("colorful_treasure")
    rules = game.load_rules({"tiles": "a"}, {}, "x")
    sides = game.intervention_ids(rules, "tiles")
    g = _played("colorful_treasure", {2: {"tiles": list(sides)}}, {"tiles": "a"}, games=200)
    free = _played("colorful_treasure", None, {"tiles": "a"}, games=200)
    assert _by_seat(g, "tiles_taken")[2] == 0 and _by_seat(free, "tiles_taken")[2] > 0
    assert _by_seat(g, "tiles_taken")[[0, 1, 3]].sum() > 0
    # forced: a seat takes a tile whenever one is offered and any is left (greedy
    # always does; random declines now and then)
    forced = _played(
        "colorful_treasure", {2: {"force": ["take_tiles"]}}, {"tiles": "a"}, 200, "random"
    )
    rand = _played("colorful_treasure", None, {"tiles": "a"}, 200, "random")
    assert _by_seat(forced, "tiles_taken")[2] > _by_seat(rand, "tiles_taken")[2]
    assert (_by_seat(forced, "tiles_taken") >= 0).all()


@pytest.mark.parametrize(
    ("name", "forbid", "text"),
    [
        ("uruk", {4: {"inventions": ["leier"]}}, "forbid: seat: bad value 4"),
        ("uruk", {0: {"inventions": ["lehmhaus"]}}, "forbid: inventions: bad value 'lehmhaus'"),
        ("uruk", {0: {"gods": ["x"]}}, "forbid: kind: bad value 'gods'"),
        ("colorful_treasure", {0: {"tiles": ["x"]}}, "forbid: kind: bad value 'tiles'"),
        ("colorful_treasure", {0: {"rewards": ["x"]}}, "forbid: rewards: bad value 'x'"),
        ("unearth", {0: {"delvers": ["x"]}}, "forbid: delver: bad value 'x'"),
    ],
)
def test_a_bad_bar_is_named(name, forbid, text):
    from analyzer.core.errors import InputError

    with pytest.raises(InputError, match=text):
        _job(name, forbid)
