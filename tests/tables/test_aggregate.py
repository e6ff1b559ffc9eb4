"""Aggregation of known small per-game tables into hand-computed numbers."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest

from analyzer.core.stats import wilson
from analyzer.tables.aggregate import Reducer, build_tables, combine
from analyzer.unearth.rules import default_rules

RULES = default_rules()
PTS = ["pts_ruin_sets", "pts_five_colour", "pts_tokens", "pts_named", "pts_bonus", "pts_cities"]
CLAIM_COLUMNS = [
    "game", "turn", "card", "claim_value", "n_dice", "n_seats", "total", "winner",
    "winner_faces", "decided_by",
]  # fmt: skip


def games_columns() -> list[str]:
    """Every column of the documented ``games`` table (docs/CONTRACTS.md), in order."""
    return [
        "game", "seat", "n_players", "strategy", "end_of_age", "score", "win", "turns",
        "game_turns", *PTS, *[f"ruins_{c}" for c in RULES.ruin_colours], "ruins_city",
        *[f"stones_{c}" for c in RULES.stone_colours], "wonders_lesser", "wonders_greater",
        "wonders_named", *[f"named_{w}" for w in RULES.wonder_ids], "delvers_drawn",
        "delvers_played", *[f"played_{d}" for d in RULES.delver_ids], "claims_won",
    ]  # fmt: skip


def games_table(rows: list[dict]) -> pd.DataFrame:
    """A games table with the documented columns; unspecified numbers are 0."""
    full = []
    for r in rows:
        row = dict.fromkeys(games_columns(), 0)
        row.update(strategy="balanced", end_of_age="day_of_rest")
        row.update(r)
        row["score"] = sum(row[p] for p in PTS)
        full.append(row)
    return pd.DataFrame(full, columns=games_columns())


def with_cell(tables: dict[str, pd.DataFrame], cell: int) -> dict[str, pd.DataFrame]:
    out = {}
    for name, df in tables.items():
        df = df.copy()
        df.insert(0, "order", np.int16(0))
        df.insert(0, "cell", np.int16(cell))
        out[name] = df
    return out


def known_tables() -> dict[str, pd.DataFrame]:
    """Three 2-player games with hand-checked outcomes (see test docstrings)."""
    g = games_table(
        [
            # game 0 (Day of Rest, 20 turns): seat 0 wins 10-6, built Palace, played 2 Bands
            dict(game=0, seat=0, n_players=2, win=1.0, game_turns=20, pts_ruin_sets=10,
                 named_palace_of_relics=1, wonders_named=1, played_band_of_delvers=2),
            dict(game=0, seat=1, n_players=2, win=0.0, game_turns=20, pts_ruin_sets=6),
            # game 1 (City of Gold, 24 turns): seat 1 wins 12-5 and built Palace
            dict(game=1, seat=0, n_players=2, win=0.0, game_turns=24, pts_ruin_sets=5,
                 end_of_age="city_of_gold"),
            dict(game=1, seat=1, n_players=2, win=1.0, game_turns=24, pts_ruin_sets=6,
                 pts_named=6, named_palace_of_relics=1, wonders_named=1,
                 end_of_age="city_of_gold"),
            # game 2 (Day of Rest, 22 turns): shared win 8-8, seat 0 played 1 Band
            dict(game=2, seat=0, n_players=2, win=0.5, game_turns=22, pts_ruin_sets=8,
                 played_band_of_delvers=1, wonders_lesser=2),
            dict(game=2, seat=1, n_players=2, win=0.5, game_turns=22, pts_ruin_sets=8),
        ]
    )  # fmt: skip
    c = pd.DataFrame(
        [
            (0, 3, "A9", 9, 2, 1, 9, 0, 6, 0),
            (1, 5, "B9", 9, 3, 2, 10, 1, 8, 2),
            (1, 8, "C9", 9, 2, 2, 10, -1, -1, -1),
            (2, 4, "A13", 13, 4, 2, 14, 1, 6, 1),
        ],
        columns=CLAIM_COLUMNS,
    )
    return {"games": g, "claims": c}


def info(cells=1, pairs=()):
    return {
        "cells": [{"index": i, "label": f"c{i}", "params": {}, "players": 2} for i in range(cells)],
        "pairs": [list(p) for p in pairs],
        "labels": RULES_LABELS,
        "wonder_points": {"palace_of_relics": 6},
    }


RULES_LABELS = {"palace_of_relics": "Palace of Relics", "band_of_delvers": "Band of Delvers"}


@pytest.fixture(scope="module")
def tables():
    agg = Reducer()(with_cell(known_tables(), 0))
    return build_tables(agg, info())


def test_seats_win_rate_and_score(tables):
    """Seat 0: wins 1 + 0 + 0.5 of 3, scores 10, 5, 8; seat 1: 1.5 of 3, scores 6, 12, 8."""
    s = tables["seats"].set_index("seat")
    assert s.loc[0, "win_rate"] == pytest.approx(0.5)
    assert s.loc[1, "score"] == pytest.approx(26 / 3)
    assert s.loc[0, "score"] == pytest.approx(23 / 3)
    lo, hi = wilson(1.5, 3)
    assert (s.loc[0, "win_rate_low"], s.loc[0, "win_rate_high"]) == pytest.approx((lo, hi))
    sd = np.std([10, 5, 8], ddof=1)
    assert s.loc[0, "score_high"] - s.loc[0, "score"] == pytest.approx(1.959964 * sd / np.sqrt(3))
    fp = tables["first_player"].iloc[0]
    assert fp["seat0_win"] == pytest.approx(0.5) and fp["fair"] == 0.5
    assert not fp["significant"]


def test_games_summary_and_distributions(tables):
    gs = tables["games_summary"].set_index("metric")
    assert gs.loc["shared_win", "estimate"] == pytest.approx(1 / 3)
    assert gs.loc["game_turns", "estimate"] == pytest.approx(22)
    assert gs.loc["game_turns", "games"] == 3
    dist = tables["score_distribution"].set_index("score")
    assert dist.loc[8, "count"] == 2 and dist.loc[8, "share"] == pytest.approx(2 / 6)
    gl = tables["game_length"].set_index("game_turns")
    assert list(gl.index) == [20, 22, 24] and gl["games"].tolist() == [1, 1, 1]
    parts = tables["score_parts"].set_index("part")
    assert parts.loc["pts_named", "mean"] == pytest.approx(1.0)
    assert parts.loc["score", "mean"] == pytest.approx(49 / 6)
    w = tables["wonders"].set_index("kind")
    assert w.loc["total", "mean"] == pytest.approx(4 / 6)
    assert w.loc["lesser", "mean"] == pytest.approx(2 / 6)


def test_named_wonders_and_delvers(tables):
    """Palace built by 2 of 6 seat-games, both won; the other 4 won 1 in all.
    Band of Delvers played by 2 seat-games (wins 1 + 0.5), the other 4 won 1.5."""
    nw = tables["named_wonders"].set_index("wonder")
    palace = nw.loc["palace_of_relics"]
    assert palace["builds"] == 2 and palace["build_rate"] == pytest.approx(2 / 6)
    assert palace["win_builders"] == pytest.approx(1.0)
    assert palace["win_others"] == pytest.approx(1 / 4)
    assert palace["builder_pts_named"] == pytest.approx(3.0)
    assert palace["name"] == "Palace of Relics" and palace["printed_points"] == 6
    assert nw.loc["temple_of_fate", "builds"] == 0
    d = tables["delvers"].set_index("card").loc["band_of_delvers"]
    assert d["played_mean"] == pytest.approx(3 / 6)
    assert d["seats_played"] == 2
    assert d["win_played"] == pytest.approx(0.75)
    assert d["win_not_played"] == pytest.approx(1.5 / 4)
    assert d["win_difference"] == pytest.approx(0.375)


def test_end_of_age(tables):
    e = tables["end_of_age"].set_index("card")
    assert e.loc["day_of_rest", "games"] == 2
    assert e.loc["day_of_rest", "share"] == pytest.approx(2 / 3)
    assert e.loc["day_of_rest", "seat0_win"] == pytest.approx(0.75)
    assert e.loc["day_of_rest", "score"] == pytest.approx(8.0)
    assert e.loc["day_of_rest", "game_turns"] == pytest.approx(21.0)
    assert e.loc["city_of_gold", "score"] == pytest.approx(8.5)


def test_claims(tables):
    """Claim value 9: three ruins with 2, 3 and 2 dice; one decided on the second die,
    one unbreakable tie. Claim value 13: one ruin, 4 dice, decided on top-die faces."""
    t = tables["claims_tiebreak"].set_index("claim_value")
    assert t.loc[9, "resolved"] == 3
    assert t.loc[9, "mean_dice"] == pytest.approx(7 / 3)
    assert t.loc[9, "second_die"] == pytest.approx(1 / 3)
    assert t.loc[9, "unbreakable"] == pytest.approx(1 / 3)
    assert t.loc[13, "second_die"] == 0 and t.loc[13, "mean_dice"] == 4
    d = tables["claims_dice"].set_index(["claim_value", "n_dice"])
    assert d.loc[(9, 2), "share"] == pytest.approx(2 / 3)
    f = tables["claims_faces"].set_index(["claim_value", "winner_faces"])
    assert f.loc[(9, -1), "count"] == 1 and f.loc[(9, 8), "share"] == pytest.approx(1 / 3)


def test_partials_add_up_over_batches():
    t = known_tables()
    whole = Reducer()(with_cell(t, 0))
    g, c = t["games"], t["claims"]
    parts = [
        Reducer()(with_cell({"games": g[g.game < 2], "claims": c[c.game < 2]}, 0)),
        Reducer()(with_cell({"games": g[g.game >= 2], "claims": c[c.game >= 2]}, 0)),
    ]
    summed = combine(parts)
    pd.testing.assert_frame_equal(summed, whole.sort_index(), check_exact=False)


def test_paired_differences():
    """Variant b adds 1 point to seat 0 and 2 turns to every game: the paired
    differences are exactly +1 (seat 0 score), 0 (seat 1), +2 (turns)."""
    a = with_cell(known_tables(), 0)
    b = known_tables()
    g = b["games"]
    g.loc[g.seat == 0, "pts_tokens"] += 1
    g.loc[g.seat == 0, "score"] += 1
    g["game_turns"] += 2
    b = with_cell(b, 1)
    both = {k: pd.concat([a[k], b[k]], ignore_index=True) for k in a}
    agg = Reducer(pairs=((0, 1),))(both)
    comp = build_tables(agg, info(cells=2, pairs=((0, 1),)))["comparison"]
    comp = comp.set_index(["scope", "metric"])
    assert comp.loc[("seat=0", "score"), "diff"] == pytest.approx(1.0)
    assert comp.loc[("seat=0", "score"), "significant"]
    assert comp.loc[("seat=0", "score"), "mean_b"] == pytest.approx(23 / 3 + 1)
    assert comp.loc[("seat=1", "score"), "diff"] == pytest.approx(0.0)
    assert not comp.loc[("seat=1", "score"), "significant"]
    assert comp.loc[("game", "game_turns"), "diff"] == pytest.approx(2.0)
    assert comp.loc[("seat=0", "win"), "pairs"] == 3
    assert comp.loc[("all seats", "score"), "diff"] == pytest.approx(0.5)


@dataclass(frozen=True)
class SyntheticJob:
    """A stand-in for ``GameJob``: random tables with exactly the documented columns.

    Deterministic in (seed, game index), like the engine.
    """

    players: int
    strategies: tuple
    seed: int
    rules: object = None
    claims: bool = True

    def __call__(self, start: int, count: int) -> dict[str, pd.DataFrame]:
        rows, crows = [], []
        for g in range(start, start + count):
            r = np.random.default_rng([self.seed, g])
            eoa = ["day_of_rest", "city_of_gold", "the_gathering"][r.integers(3)]
            turns = int(r.integers(20, 40))
            pts = r.integers(0, 12, size=(self.players, len(PTS)))
            score = pts.sum(1)
            best = score == score.max()
            for s in range(self.players):
                row = {p: int(v) for p, v in zip(PTS, pts[s], strict=True)}
                row.update(game=g, seat=s, n_players=self.players, end_of_age=eoa,
                           strategy=self.strategies[s], win=float(best[s] / best.sum()),
                           turns=turns // self.players, game_turns=turns,
                           wonders_lesser=int(r.integers(0, 3)), delvers_played=2)  # fmt: skip
                for w in RULES.wonder_ids[:4]:
                    row[f"named_{w}"] = int(r.random() < 0.2)
                for d in RULES.delver_ids[:4]:
                    row[f"played_{d}"] = int(r.integers(0, 2))
                rows.append(row)
            if self.claims:
                for t in range(4):
                    dec = int(r.choice([-1, 0, 1, 2]))
                    cv = int(r.choice([9, 11, 13, 15, 17]))
                    crows.append((g, t, "A9", cv, int(r.integers(1, 5)), 2, cv + 1,
                                  -1 if dec < 0 else 0, -1 if dec < 0 else 6, dec))  # fmt: skip
        out = {"games": games_table(rows)}
        if self.claims:
            out["claims"] = pd.DataFrame(crows, columns=CLAIM_COLUMNS)
        return out


def test_synthetic_job_has_documented_columns():
    out = SyntheticJob(3, ("random",) * 3, 1)(5, 2)
    assert list(out["games"].columns) == games_columns()
    assert list(out["claims"].columns) == CLAIM_COLUMNS
    assert out["games"]["game"].tolist() == [5, 5, 5, 6, 6, 6]


def _sorted_codes(values: np.ndarray):
    """Plain twin of :func:`analyzer.tables.aggregate.key_codes` for float keys: the distinct
    values sorted, each row's place among them (-1 for NaN), pandas' texts."""
    ok = ~np.isnan(values)
    uniq = np.unique(values[ok])
    codes = np.where(ok, np.searchsorted(uniq, np.where(ok, values, 0.0)), -1)
    return codes, pd.Series(uniq).astype(str).tolist()


@pytest.mark.parametrize("planted", [False, True])
def test_float_key_codes_match_a_sorted_twin(planted, monkeypatch):
    """Float key columns (a score histogram's) are coded by hashing: the codes and
    texts are those of sorting the distinct values; a planted bug (codes in order of
    first appearance) is caught."""
    from analyzer.tables import groupby

    rng = np.random.default_rng(4)
    values = rng.integers(-40, 400, 5000) / 60.0
    values[rng.choice(5000, 50, replace=False)] = np.nan
    values[:3] = [0.0, 1 / 3, np.nan]
    if planted:

        def first_seen(arr):
            codes, uniq = pd.factorize(arr)
            return codes.astype(np.int64), uniq

        monkeypatch.setattr(groupby, "_number_codes", first_seen)
    codes, texts = groupby.key_codes(pd.Series(values))
    want_codes, want_texts = _sorted_codes(values)
    same = np.array_equal(codes, want_codes) and list(texts) == want_texts
    assert same != planted
    assert codes.dtype == np.int64
