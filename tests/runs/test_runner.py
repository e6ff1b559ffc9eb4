"""The batch runner on a game-agnostic toy job (no Unearth engine involved).

The toy plays seeded coin-flip "games": each seat flips ten coins, the highest
count wins (shared wins split 1/k). Game ``g`` draws only from its own
generator seeded by ``(seed, g)``, so any split into batches or workers must
give identical tables and aggregates.
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyzer.core import stats
from analyzer.core.errors import AnalyzerError, InputError
from analyzer.runs import runner
from analyzer.runs.runner import Headline, RunOptions, run

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- a reducer for tests
# An exact integer reducer (the kind the runner's bit-identity promise is about),
# kept here: the product reduces with analyzer.tables.aggregate.Reducer.

#: lcm(1..12): a shared win of 1/k (k <= 12) is an exact multiple of 1/WIN_SCALE,
#: so wins are summed as integers and the sum never depends on batch boundaries
WIN_SCALE = 27720

#: columns of a partial aggregate, all int64, indexed by (by, group)
AGGREGATE_COLUMNS = ("n", "wins_x", "score_sum", "score_sq")
_NEEDED = ("game", "seat", "strategy", "score", "win")


def reduce_games(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Partial aggregate of one batch's ``games`` table.

    Returns int64 columns ``n`` (seat-games), ``wins_x`` (wins times
    :data:`WIN_SCALE`), ``score_sum``, ``score_sq``, indexed by ``(by, group)``
    with ``by`` in ``{"games", "seat", "strategy"}`` (``group`` is the seat
    number or strategy name as text; the ``("games", "all")`` row counts games
    in ``n``). Draws no random numbers.
    """
    games = tables.get("games")
    if games is None:
        raise AnalyzerError("summary: the batch returned no 'games' table")
    missing = [c for c in _NEEDED if c not in games.columns]
    if missing:
        raise AnalyzerError(f"test reducer: games table lacks column {missing[0]!r}")
    win = games["win"].to_numpy(dtype=np.float64)
    scaled = win * WIN_SCALE
    wins_x = np.rint(scaled).astype(np.int64)
    if wins_x.size and np.abs(scaled - wins_x).max() > 1e-2:
        bad = win[np.argmax(np.abs(scaled - wins_x))]
        raise AnalyzerError(f"test reducer: win value {bad} is not a share 1/k with k <= 12")
    score = games["score"].to_numpy(dtype=np.int64)
    frame = pd.DataFrame(
        {
            "seat": games["seat"].to_numpy(dtype=np.int64),
            "strategy": games["strategy"].astype(str).to_numpy(dtype=object),
            "n": np.ones(len(games), dtype=np.int64),
            "wins_x": wins_x,
            "score_sum": score,
            "score_sq": score * score,
        }
    )
    parts = []
    for by in ("seat", "strategy"):
        grouped = frame.groupby(by, sort=True)[list(AGGREGATE_COLUMNS)].sum()
        grouped.index = pd.MultiIndex.from_arrays(
            [[by] * len(grouped), [str(k) for k in grouped.index]], names=["by", "group"]
        )
        parts.append(grouped)
    n_games = int(games["game"].nunique())
    parts.append(
        pd.DataFrame(
            {c: [n_games if c == "n" else 0] for c in AGGREGATE_COLUMNS},
            index=pd.MultiIndex.from_tuples([("games", "all")], names=["by", "group"]),
        )
    )
    return pd.concat(parts).astype(np.int64)


def summary_table(aggregate: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Estimates from a summed aggregate: one row per seat, then per strategy.

    Columns: ``by``, ``group``, ``n``, ``win_rate``, ``win_low``, ``win_high``
    (Wilson), ``mean_score``, ``score_low``, ``score_high`` (normal interval from
    the moments). Seats are in seat order, strategies in name order.
    """
    rows = []
    for by in ("seat", "strategy"):
        if by not in aggregate.index.get_level_values("by"):
            continue
        block = aggregate.xs(by, level="by")
        groups = sorted(block.index, key=int) if by == "seat" else sorted(block.index)
        for group in groups:
            r = block.loc[group]
            n = int(r["n"])
            wins = int(r["wins_x"]) / WIN_SCALE
            low, high = stats.wilson(wins, n, level)
            mean, s_low, s_high = stats.mean_ci_from_moments(
                n, float(r["score_sum"]), float(r["score_sq"]), level
            )
            rows.append(
                {
                    "by": by,
                    "group": group,
                    "n": n,
                    "win_rate": wins / n if n else math.nan,
                    "win_low": low,
                    "win_high": high,
                    "mean_score": mean,
                    "score_low": s_low,
                    "score_high": s_high,
                }
            )
    return pd.DataFrame(rows)


def headline(aggregate: pd.DataFrame) -> Headline:
    """The seat win rate with the widest 95% Wilson interval (ties: lowest seat).

    Judging precision on the widest seat interval means every seat's win rate
    is at least that precise when the run stops.
    """
    table = summary_table(aggregate)
    seats = table[table["by"] == "seat"]
    if seats.empty:
        return Headline("win rate", math.nan, 0.0, 1.0, 0.5)
    half = (seats["win_high"] - seats["win_low"]) / 2
    row = seats.loc[half.idxmax()]
    return Headline(
        label=f"seat {row['group']} win rate",
        value=float(row["win_rate"]),
        low=float(row["win_low"]),
        high=float(row["win_high"]),
        half_width=float((row["win_high"] - row["win_low"]) / 2),
    )


@dataclass(frozen=True)
class CoinJob:
    """Toy batch function: ``(start, count) -> {"games": ..., "flips": ...}``."""

    seed: int
    seats: int = 3
    delay: float = 0.0  # seconds to sleep per batch (for kill-and-resume)

    def __call__(self, start: int, count: int) -> dict[str, pd.DataFrame]:
        if self.delay:
            time.sleep(self.delay)
        scores = np.empty((count, self.seats), dtype=np.int16)
        for k in range(count):
            rng = np.random.default_rng([self.seed, start + k])
            scores[k] = rng.binomial(10, 0.5 + 0.05 * np.arange(self.seats))
        best = scores.max(axis=1, keepdims=True)
        winners = scores == best
        win = (winners / winners.sum(axis=1, keepdims=True)).astype(np.float32)
        games = pd.DataFrame(
            {
                "game": np.repeat(np.arange(start, start + count, dtype=np.int64), self.seats),
                "seat": np.tile(np.arange(self.seats, dtype=np.int8), count),
                "strategy": pd.Categorical(
                    np.tile(["even" if s % 2 == 0 else "odd" for s in range(self.seats)], count),
                    categories=["even", "odd", "unused"],
                ),
                "score": scores.reshape(-1),
                "win": win.reshape(-1),
            }
        )
        flips = pd.DataFrame(
            {
                "game": np.arange(start, start + count, dtype=np.int64),
                "total": scores.sum(axis=1).astype(np.int16),
            }
        )
        return {"games": games, "flips": flips}


def options(**kw) -> RunOptions:
    base = {"games": 600, "seed": 1, "batch_size": 100, "workers": 1, "progress": False}
    base.update(kw)
    return RunOptions(**base)


def same(a, b) -> None:
    """Bit-identical tables, aggregate and stopping point."""
    assert a.games == b.games and a.batches == b.batches and a.stopped_by == b.stopped_by
    pd.testing.assert_frame_equal(a.aggregate, b.aggregate, check_exact=True)
    assert sorted(a.tables) == sorted(b.tables)
    for name in a.tables:
        pd.testing.assert_frame_equal(a.tables[name], b.tables[name], check_exact=True)
    assert (a.headline is None) == (b.headline is None)
    if a.headline is not None:
        assert a.headline == b.headline


@pytest.fixture(scope="module")
def reference():
    """One uninterrupted in-process run of 600 games (batches of 100)."""
    return run(CoinJob(seed=5), options(), reduce_games, headline)


# --------------------------------------------------------------------------- basics


def test_reference_run_is_complete_and_in_game_order(reference):
    games = reference.tables["games"]
    assert reference.games == 600 and reference.batches == 6
    assert reference.stopped_by == "games"
    assert games["game"].tolist() == list(np.repeat(np.arange(600), 3))
    assert reference.tables["flips"]["game"].tolist() == list(range(600))
    # the aggregate equals a direct count of the whole table
    agg = reference.aggregate
    assert agg.loc[("games", "all"), "n"] == 600
    for seat in range(3):
        rows = games[games["seat"] == seat]
        assert agg.loc[("seat", str(seat)), "n"] == len(rows)
        assert agg.loc[("seat", str(seat)), "score_sum"] == int(rows["score"].astype(int).sum())
        wins = sum(Fraction(float(w)).limit_denominator(12) for w in rows["win"])
        assert Fraction(int(agg.loc[("seat", str(seat)), "wins_x"]), WIN_SCALE) == wins
    table = summary_table(agg)
    assert list(table["group"]) == ["0", "1", "2", "even", "odd"]
    assert abs(table["win_rate"][:3].sum() - 1.0) < 1e-12  # seat win shares add up to one


@pytest.mark.slow
def test_two_workers_and_other_batch_sizes_are_bit_identical(reference):
    job = CoinJob(seed=5)
    two = run(job, options(workers=2), reduce_games, headline)
    same(reference, two)
    for size in (7, 250, 600, 1000):
        same_games = run(job, options(batch_size=size), reduce_games, headline)
        pd.testing.assert_frame_equal(reference.aggregate, same_games.aggregate, check_exact=True)
        for name in reference.tables:
            pd.testing.assert_frame_equal(reference.tables[name], same_games.tables[name])
        assert reference.headline == same_games.headline


def test_aggregate_only_run_keeps_no_tables(reference):
    lean = run(CoinJob(seed=5), options(keep_tables=False), reduce_games, headline)
    assert lean.tables == {}
    pd.testing.assert_frame_equal(reference.aggregate, lean.aggregate, check_exact=True)


def test_float_partials_are_summed_exactly_whatever_the_grouping():
    tiny = 2.0**-53  # half an ulp of 1.0
    index = pd.Index(["x"], name="group")

    def total(partials):
        acc = runner._ExactSum()
        for value in partials:
            acc.add(pd.DataFrame({"s": [value], "n": [1]}, index=index))
        return acc.value()

    exact = 1.0 + 2 * tiny  # representable; naive left-to-right float addition loses it
    assert (1.0 + tiny) + tiny == 1.0
    for order in ([1.0, tiny, tiny], [tiny, 1.0, tiny], [tiny, tiny, 1.0], [1.0, 2 * tiny]):
        out = total(order)
        assert out["s"].iloc[0] == exact
        assert out["n"].dtype == np.int64 and out["n"].iloc[0] == len(order)


def test_exact_sum_of_many_float_partials_does_not_depend_on_order():
    rng = np.random.default_rng(3)
    keys = pd.MultiIndex.from_tuples([("a", "x"), ("a", "y"), ("b", "x")], names=["g", "k"])
    values = rng.standard_normal((40, 3)) * 10.0 ** rng.integers(-20, 20, (40, 3))
    exact = [float(sum(Fraction(v) for v in values[:, j])) for j in range(3)]
    for trial in range(3):
        acc = runner._ExactSum()
        for i in rng.permutation(40) if trial else range(40):
            rows = rng.permutation(3)[: 1 + i % 3]  # partials hold a varying subset of keys
            acc.add(pd.DataFrame({"v": values[i, rows]}, index=keys[rows]))
            rest = [r for r in range(3) if r not in rows]
            acc.add(pd.DataFrame({"v": values[i, rest]}, index=keys[rest]))
        out = acc.value()
        assert list(out.index) == sorted(keys)
        assert out["v"].tolist() == [exact[list(keys).index(k)] for k in out.index]


# --------------------------------------------------------------------------- precision


@pytest.mark.slow
def test_precision_stops_at_the_first_batch_meeting_the_target():
    job = CoinJob(seed=9)
    target = 0.04
    opts = options(games=400, precision=target, max_games=4000)
    res = run(job, opts, reduce_games, headline)
    assert res.stopped_by == "precision"
    assert res.headline.half_width < target
    assert res.games % 100 == 0 and 100 <= res.games < 4000
    # one batch fewer did not meet the target
    shorter = run(job, options(games=res.games - 100), reduce_games, headline)
    assert shorter.headline.half_width >= target
    # same stopping point with two workers
    same(res, run(job, options(games=400, precision=target, max_games=4000, workers=2),
                  reduce_games, headline))  # fmt: skip
    capped = run(job, options(games=400, precision=0.001, max_games=450), reduce_games, headline)
    assert capped.stopped_by == "cap" and capped.games == 450 and capped.batches == 5
    default_cap = run(job, options(games=30, batch_size=50, precision=1e-6), reduce_games, headline)
    assert default_cap.stopped_by == "cap" and default_cap.games == 300


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kw", "needle"),
    [
        ({"games": 0}, "games: bad value 0"),
        ({"batch_size": -1}, "batch_size"),
        ({"workers": 0}, "workers"),
        ({"precision": -0.1}, "precision"),
        ({"max_games": 10}, "max_games"),
        ({"resume": True}, "resume"),
    ],
)
def test_bad_options_are_one_line_input_errors(kw, needle):
    with pytest.raises(InputError, match=needle) as info:
        run(CoinJob(seed=1), options(**kw), reduce_games, headline)
    assert "\n" not in str(info.value)


def test_precision_needs_a_headline():
    with pytest.raises(InputError, match="headline"):
        run(CoinJob(seed=1), options(precision=0.1), reduce_games)


def test_unreachable_scheduler_fails_quickly_with_a_clear_error():
    t0 = time.monotonic()
    with pytest.raises(AnalyzerError, match="scheduler: cannot connect to 'tcp://127.0.0.1:9'"):
        run(CoinJob(seed=1), options(scheduler="tcp://127.0.0.1:9"), reduce_games, headline)
    assert time.monotonic() - t0 < 30  # generous: a hang would be minutes


# --------------------------------------------------------------------------- Dask


@pytest.mark.slow
def test_dask_local_cluster_gives_identical_results(reference):
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        res = run(CoinJob(seed=5), options(scheduler=address), reduce_games, headline)
        same(reference, res)
        # the environment variable is used when no scheduler is given
        os.environ["DASK_SCHEDULER_ADDRESS"] = address
        try:
            env = run(CoinJob(seed=5), options(keep_tables=False), reduce_games, headline)
        finally:
            del os.environ["DASK_SCHEDULER_ADDRESS"]
        pd.testing.assert_frame_equal(reference.aggregate, env.aggregate, check_exact=True)


# --------------------------------------------------------------------------- checkpoints


def test_resume_skips_finished_batches_and_ignores_temp_files(tmp_path, reference):
    ckpt = tmp_path / "ckpt"
    job = CoinJob(seed=5)
    first = run(job, options(checkpoint_dir=ckpt), reduce_games, headline)
    same(reference, first)
    assert (ckpt / "run.json").exists()
    assert len(list(ckpt.glob("batch-*.partial.parquet"))) == 6
    # simulate a crash: batch 3 lost, a half-written temp file of it left behind
    for f in ckpt.glob("batch-000003.*"):
        f.unlink()
    (ckpt / ".batch-000003.partial.parquet.x1y2.tmp").write_bytes(b"PAR1 half written")

    @dataclass(frozen=True)
    class Other(CoinJob):
        pass

    # a different job is refused ...
    with pytest.raises(InputError, match="different run"):
        run(Other(seed=5), options(checkpoint_dir=ckpt, resume=True), reduce_games, headline)
    # ... as is another batch size, or starting over without resume
    with pytest.raises(InputError, match="--batch-size: 100 in the checkpoint, 50 now"):
        run(job, options(checkpoint_dir=ckpt, resume=True, batch_size=50), reduce_games)
    with pytest.raises(InputError, match="already holds a run"):
        run(job, options(checkpoint_dir=ckpt), reduce_games, headline)

    resumed = run(job, options(checkpoint_dir=ckpt, resume=True), reduce_games, headline)
    same(reference, resumed)
    assert not list(ckpt.glob(".*.tmp"))
    assert len(list(ckpt.glob("batch-*.partial.parquet"))) == 6
    assert resumed.games_per_second > 0  # batch 3 was recomputed


def test_aggregate_only_checkpoint_holds_only_partials(tmp_path, reference):
    ckpt = tmp_path / "lean"
    opts = options(checkpoint_dir=ckpt, keep_tables=False)
    run(CoinJob(seed=5), opts, reduce_games, headline)
    names = sorted(p.name for p in ckpt.iterdir())
    assert names == [f"batch-{i:06d}.partial.parquet" for i in range(6)] + ["run.json"]
    again = run(
        CoinJob(seed=5), options(checkpoint_dir=ckpt, keep_tables=False, resume=True),
        reduce_games, headline,
    )  # fmt: skip
    assert again.games_per_second == 0.0  # everything came from disk
    pd.testing.assert_frame_equal(reference.aggregate, again.aggregate, check_exact=True)


KILL_SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    import pandas as pd
    from analyzer.runs.runner import RunOptions, run
    from tests.runs.test_runner import CoinJob, headline, reduce_games

    if __name__ == "__main__":
        ckpt, resume, out = Path(sys.argv[1]), sys.argv[2] == "1", Path(sys.argv[3])
        opts = RunOptions(games=600, seed=1, batch_size=100, workers=1, progress=False,
                          checkpoint_dir=ckpt, resume=resume)
        res = run(CoinJob(seed=5, delay=0.3), opts, reduce_games, headline)
        res.aggregate.to_pickle(out / "aggregate.pkl")
        pd.to_pickle(res.tables, out / "tables.pkl")
    """
)


@pytest.mark.slow
def test_sigkill_then_resume_equals_an_uninterrupted_run(tmp_path, reference):
    script = tmp_path / "job.py"
    script.write_text(KILL_SCRIPT)
    ckpt = tmp_path / "ckpt"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, str(script), str(ckpt), "0", str(tmp_path)]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not list(ckpt.glob("batch-*.partial.parquet")):
            assert proc.poll() is None, "the run ended before any batch was written"
            assert time.monotonic() < deadline, "no batch written within 60 s"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)  # the run and its worker processes
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    done = len(list(ckpt.glob("batch-*.partial.parquet")))
    assert 1 <= done < 6
    assert not (tmp_path / "aggregate.pkl").exists()
    cmd[3] = "1"
    subprocess.run(cmd, env=env, cwd=ROOT, check=True, timeout=120)
    pd.testing.assert_frame_equal(
        reference.aggregate, pd.read_pickle(tmp_path / "aggregate.pkl"), check_exact=True
    )
    tables = pd.read_pickle(tmp_path / "tables.pkl")
    for name in reference.tables:
        pd.testing.assert_frame_equal(reference.tables[name], tables[name], check_exact=True)


def _key_partials(seed: int, nan: bool = False) -> list[pd.DataFrame]:
    """Partials over a varying subset of (cell, group, key, metric) keys, some new in
    each batch (as score histograms are), with integer and float columns."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(6):
        keys = [
            (c, g, str(k), m)
            for c in (0, 1)
            for g in ("all", "score_hist")
            for k in sorted(rng.choice(30, 6, replace=False))
            for m in ("count", "score")
        ]
        idx = pd.MultiIndex.from_tuples(keys, names=["cell", "group", "key", "metric"])
        if nan:
            idx = pd.Index([float(i % 7) if i % 5 else np.nan for i in rng.permutation(len(keys))])
            idx = idx[~idx.duplicated()]
        out.append(
            pd.DataFrame(
                {"n": rng.integers(0, 9, len(idx)), "sum": rng.standard_normal(len(idx))},
                index=idx,
            )
        )
    return out


@pytest.mark.parametrize("nan", [False, True])
def test_exact_sum_key_lookup_matches_pandas_index_twin(nan):
    """The sum's own key lookup (a dict) against pandas' index operations
    (``_grow_pandas``, used for keys with missing values): the same rows, bits and
    dtypes."""
    fast, slow = runner._ExactSum(), runner._ExactSum()
    slow._where = None  # pandas' index operations throughout
    for part in _key_partials(5, nan):
        fast.add(part)
        slow.add(part)
    a, b = fast.value(), slow.value()
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert a.index.equals(b.index) and len(a) > (5 if nan else 30)


def test_exact_sum_key_lookup_twin_fails_on_a_planted_bug(monkeypatch):
    """The twin test above can fail: a lookup that puts a new key one row off."""
    parts = _key_partials(5)
    slow = runner._ExactSum()
    slow._where = None
    for part in parts:
        slow.add(part)
    real = runner._ExactSum._grow

    def planted(self, index):
        pos = real(self, index)
        return np.where(pos == len(self._index) - 1, 0, pos)  # the newest key lands on row 0

    monkeypatch.setattr(runner._ExactSum, "_grow", planted)
    fast = runner._ExactSum()
    for part in parts:
        fast.add(part)
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(fast.value(), slow.value(), check_exact=True)


@pytest.mark.parametrize("game", ["colorful_treasure", "unearth"])
def test_concat_of_same_shaped_batches_is_pandas_concat(game):
    """The runner's own join of same-shaped batch tables (``_concat_same``) against
    ``pd.concat``: the same frame, dtypes, categories and index; frames that differ
    in a dtype or in categories go to pandas."""
    from analyzer.games import load_game
    from analyzer.runs.driver import ScenarioJob

    g = load_game(game)
    job = g.make_job(3, ["random", "random", g.default_strategy], 4, g.load_rules({}, {}, "r"))
    sj = ScenarioJob(jobs=((job,),), per_order=10**9)
    frames = [sj(i * 50, 50)["games"] for i in range(3)]
    fast = runner._concat_same(frames)
    slow = pd.concat(frames, ignore_index=True)
    pd.testing.assert_frame_equal(fast, slow, check_exact=True)
    assert fast.columns.dtype == slow.columns.dtype and fast.index.equals(slow.index)
    assert runner.concat_tables(frames).equals(slow)
    other = frames[1].assign(seat=frames[1]["seat"].astype(np.int16))
    assert runner._concat_same([frames[0], other]) is None
    cats = frames[1].assign(strategy=frames[1]["strategy"].cat.add_categories(["zzz"]))
    assert runner._concat_same([frames[0], cats]) is None
    turned = frames[1]["strategy"].cat.reorder_categories(
        frames[1]["strategy"].cat.categories[::-1]
    )  # equal dtypes for pandas (unordered), other codes
    assert runner._concat_same([frames[0], frames[1].assign(strategy=turned)]) is None
    # a planted bug (a frame's rows twice) is seen by the comparison above
    with pytest.raises(AssertionError):
        pd.testing.assert_frame_equal(runner._concat_same([frames[0], frames[0]]), slow)
