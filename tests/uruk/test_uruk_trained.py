"""Uruk's ``trained`` player: its numba evaluation against a slow Python twin on
positions of real games, the identity weights playing exactly ``balanced``, and
the weights file's reader."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.games.trained_rows import TrainedFile
from analyzer.kernels.kernel_view import make_view
from analyzer.kernels.rng import rng_seed
from analyzer.uruk import cards, engine
from analyzer.uruk.actions import tradeable
from analyzer.uruk.choices import card_use, end_resource_points, settle_cost
from analyzer.uruk.codes import Action, CardAction, Effect
from analyzer.uruk.features import (
    FEATURE_NAMES,
    LEFT_OUT,
    N_FEATURES,
    W0,
    WIDTH,
    identity_weights,
    makes_with,
)
from analyzer.uruk.features import TRAINED as FEATURES_TRAINED
from analyzer.uruk.game import param_rows, simulate
from analyzer.uruk.rules import default_rules
from analyzer.uruk.scoring import invention_points, score_parts
from analyzer.uruk.state import MAX_PARAMS, S_END, new_state
from analyzer.uruk.strategies import BALANCED, P_STRATEGY, TRAINED, candidates

KIND = {
    Action.MAKE.value: 3,
    Action.TAKE_RESOURCES.value: 4,
    Action.TRADE.value: 5,
    Action.SETTLE.value: 6,
    Action.CARD_ACTION.value: 7,
}


def _twin_features(s, t, sv, tv, p, i, n):
    """The features of candidate ``i``, the slow and plain way (FEATURE_NAMES)."""
    f = dict.fromkeys(FEATURE_NAMES, 0.0)
    kind, a, b = (int(v) for v in s.cand[i])
    v = float(s.cand_val[i])
    total = sum(int(t.epoch_stones[e, n]) for e in range(4))
    prog = min(max(1.0 - int(s.epoch.sum()) / total, 0.0), 1.0)
    scores = [sum(score_parts(sv, tv, q)) for q in range(n)]
    lag = max(max(scores[q] for q in range(n) if q != p) - scores[p], 0)
    late = 1.0 if s.sc[S_END] == 1 else 0.0
    owned = {int(t.inv_colour[x]) for x in s.inv[p] if x >= 0}
    pts, gained = 0.0, 0
    if kind == Action.TAKE_CARD.value:
        f["hand_x_take"] = s.hand[p].sum() / 5.0
        if a < 3:
            name = "take_display"
            x = int(s.display[a])
            f["level"] = t.inv_level[x]
            f["card_use"] = card_use(sv, tv, p, x)
            f["makes_with"] = float(makes_with(sv, tv, p, x))
            f["colour_owned"] = float(int(t.inv_colour[x]) in owned)
        else:
            name = "take_deck"
    else:
        name = FEATURE_NAMES[KIND[kind]]
        if kind == Action.MAKE.value:
            if b < 0:
                pts = t.bare_points
                f["level"] = t.inv_level[a]
            else:
                y, st = int(s.inv[p, b]), int(s.stones[p, b])
                keep = 0 if t.stones_to_pool == 1 else st
                pts = invention_points(tv, a, keep) - invention_points(tv, y, st)
                f["level"] = t.inv_level[a] - t.inv_level[y]
            f["new_colour"] = float(int(t.inv_colour[a]) not in owned)
        elif kind == Action.TAKE_RESOURCES.value:
            x = int(s.inv[p, a])
            gained = 1
            if t.inv_effect[x] == Effect.TAKE_RESOURCES.value and s.fn_used[x] == 0:
                gained += int(t.inv_amount[x])
        elif kind == Action.TRADE.value:
            gained = tradeable(sv, tv, p, a)
        elif kind == Action.SETTLE.value:
            x, st = int(s.inv[p, a]), int(s.stones[p, a])
            pts = invention_points(tv, x, st + 1) - invention_points(tv, x, st)
            gained = -settle_cost(sv, tv, p, a)
            f["city"] = float(st == 1)
        else:
            x = int(s.inv[p, a])
            if t.inv_kind_param[x] != CardAction.DRAW.value:
                gained = int(t.inv_amount[x])
    f["value"] = v
    f[name] = 1.0
    f[name + "_x_progress"] = prog
    f["points_now"] = pts
    f["points_now_x_progress"] = pts * prog
    f["resources"] = gained
    f["resources_x_progress"] = gained * prog
    f["end_points"] = end_resource_points(sv, tv, p, gained)
    f["behind_x_points"] = lag / 10.0 * pts
    f["value_x_progress"] = v * prog
    f["value_x_end"] = v * late
    return np.array([f[k] for k in FEATURE_NAMES], float)


def _positions(n, games=6, seed=11):
    """Positions of real games (balanced seats), a seat to move in each."""
    t = default_rules().tables
    rng = np.random.default_rng(seed)
    for g in range(games):
        s = new_state(t)
        s.prm[:n, : param_rows(("balanced",) * n).shape[1]] = param_rows(("balanced",) * n)
        s.prm[:n, P_STRATEGY] = BALANCED
        sv, tv = make_view(s, "UrukState"), make_view(t, "UrukTables")
        rng_seed(s.rng, np.uint64(7), np.uint64(9), g)
        cards.setup(sv, tv, n)
        p, final_left = 0, 0
        for _ in range(int(rng.integers(0, 45))):
            engine.play_turn(sv, tv, p)
            p, final_left = engine.after_turn(sv, tv, n, p, final_left)
            if p < 0:
                break
        if p >= 0:
            yield s, t, sv, tv, p


@pytest.mark.slow  # compiles and plays the engine
@pytest.mark.parametrize("n", [2, 4])
def test_the_numba_evaluation_equals_its_python_twin(n):
    assert FEATURES_TRAINED == TRAINED and P_STRATEGY == MAX_PARAMS - 1
    rng = np.random.default_rng(n)
    seen = 0
    for s, t, sv, tv, p in _positions(n):
        m = candidates(sv, tv, p)
        twins = [_twin_features(s, t, sv, tv, p, i, n) for i in range(m)]
        v = s.cand_val[:m].tolist()
        # balanced's WIDTH best (the earlier first on ties) are the shortlist
        order = sorted(range(m), key=lambda i: (-v[i], i))
        short = set(order[:WIDTH])
        w = rng.normal(size=N_FEATURES)
        s.prm[p, W0 : W0 + N_FEATURES] = w
        s.prm[p, P_STRATEGY] = TRAINED
        assert candidates(sv, tv, p) == m
        got = s.cand_val[:m].copy()
        s.prm[p, P_STRATEGY] = BALANCED
        for i in range(m):
            assert np.allclose(s.feat[i, :N_FEATURES], twins[i]), FEATURE_NAMES
        want = [float(twins[i] @ w) if i in short else LEFT_OUT for i in range(m)]
        assert np.allclose(got, want)
        seen += m
    assert seen > 20


@pytest.mark.slow  # plays games
@pytest.mark.parametrize("as_balanced", [False, True], ids=["features", "balanced-code"])
def test_the_identity_weights_play_exactly_balanced(monkeypatch, as_balanced):
    from analyzer.uruk import game

    # both ways: the features' evaluation with the identity weights, and the seats
    # switched to balanced's code (game.play_trained), play balanced's games
    monkeypatch.setattr(game, "IDENTITY_AS_BALANCED", as_balanced)
    monkeypatch.setattr(game, "trained_weights", lambda n: identity_weights())
    a = simulate(2, ["trained", "balanced"], 40, seed=3).sort_values(["game", "seat"])
    b = simulate(2, ["balanced", "balanced"], 40, seed=3).sort_values(["game", "seat"])
    assert np.array_equal(a.score.to_numpy(), b.score.to_numpy())
    # the check bites: other weights play other games
    w = identity_weights()
    w[FEATURE_NAMES.index("make")] = 5.0
    monkeypatch.setattr(game, "trained_weights", lambda n: w)
    c = simulate(2, ["trained", "balanced"], 40, seed=3).sort_values(["game", "seat"])
    assert not np.array_equal(c.score.to_numpy(), b.score.to_numpy())


@pytest.mark.slow  # plays games
@pytest.mark.parametrize("players", [3, 4])
def test_the_default_plays_version_4s_games_at_3_and_4_players(players):
    # strategies version 5: no weights shipped at 3 and 4 players, so the default
    # (trained) plays exactly version 4's default (balanced) there
    from analyzer.uruk.game import trained_weights
    from analyzer.uruk.plugin import Uruk

    assert Uruk().default_strategy == "trained"
    assert np.array_equal(trained_weights(players), identity_weights())
    a = simulate(players, ["trained"] * players, 30, seed=5).sort_values(["game", "seat"])
    b = simulate(players, ["balanced"] * players, 30, seed=5).sort_values(["game", "seat"])
    assert np.array_equal(a.score.to_numpy(), b.score.to_numpy())
    assert np.array_equal(
        a.drop(columns="strategy").to_numpy(), b.drop(columns="strategy").to_numpy()
    )


def test_the_weights_file_reader(tmp_path, monkeypatch):
    names = ("a", "b")
    f = TrainedFile("analyzer.uruk", names)
    path = tmp_path / "trained.toml"
    monkeypatch.setattr(f, "resource", lambda: path)
    path.write_text(
        '[trained.3]\nfeatures = ["a", "b"]\nweights = [3, 1]\n'
        '[trained.2]\nfeatures = ["a", "b"]\nweights = [2, 1]\n'
    )
    assert f.weights(2, (1, 0)) == (2.0, 1.0)
    assert f.weights(3, (1, 0)) == (3.0, 1.0)
    assert f.weights(4, (1, 0)) == (1, 0)  # none fitted at 4: the identity
    path.write_text('[trained.2]\nfeatures = ["a", "c"]\nweights = [2, 1]\n')
    f._data = None
    with pytest.raises(ValueError, match="features are not the game's"):
        f.weights(2, (1, 0))
    path.unlink()
    f._data = None
    assert f.weights(2, (1, 0)) == (1, 0)
