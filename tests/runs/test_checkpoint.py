"""A resume refused names what differs in the user's words (issue #41): the
option (``--games: 2,000 in the checkpoint, 4,000 now``), else the field of the
game job (``players``, a ruling), never the fingerprint's hash; and a
checkpoint folder is held by the run that writes it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass

import pytest

from analyzer.core.errors import EnvironmentFailure, InputError
from analyzer.runs.checkpoint import _Checkpoint, _manifest, difference
from analyzer.runs.options import RunOptions


@dataclass(frozen=True)
class Job:
    """A stand-in game job: its repr is its fingerprint, as analyzer's jobs'."""

    players: int = 2
    strategies: tuple = ("balanced", "balanced")
    rules: dict | None = None
    note: str = "a, b (c)"

    def __call__(self, start, count):  # pragma: no cover - never played here
        return {}


def reducer(tables):  # pragma: no cover - never called here
    return tables


RULES = {"version": "r-2", "rulings": {"on_replace": "moves", "half": "discard"}}


def manifest(job=None, **options) -> dict:
    base = {"games": 2000, "seed": 7, "batch_size": 500}
    return _manifest(job or Job(rules=RULES), reducer, RunOptions(**{**base, **options}))


def test_the_same_run_has_no_difference():
    assert difference(manifest(), manifest()) is None


@pytest.mark.parametrize(
    "changed, said",
    [
        ({"games": 4000}, "--games: 2,000 in the checkpoint, 4,000 now"),
        ({"seed": 8}, "--seed: 7 in the checkpoint, 8 now"),
        ({"batch_size": 250}, "--batch-size: 500 in the checkpoint, 250 now"),
        ({"precision": 0.01}, "--precision: none in the checkpoint, 0.01 now"),
        ({"keep_tables": False}, "--out: per-game tables kept in the checkpoint, not kept now"),
    ],
)
def test_an_option_is_named_as_the_user_gives_it(changed, said):
    # the job built for other options differs too (analyzer's holds the games per
    # seat order): the option is named, not the job
    job = Job(rules=RULES, note=str(changed))
    assert difference(manifest(), manifest(job, **changed)) == said


@pytest.mark.parametrize(
    "job, said",
    [
        (Job(players=3, rules=RULES), "players: 2 in the checkpoint, 3 now"),
        (
            Job(strategies=("balanced", "random"), rules=RULES),
            "strategies: ('balanced', 'balanced') in the checkpoint, ('balanced', 'random') now",
        ),
        (
            Job(rules={**RULES, "rulings": {"on_replace": "to_pool", "half": "discard"}}),
            "on_replace: 'moves' in the checkpoint, 'to_pool' now",
        ),
        (
            Job(rules={**RULES, "rulings": {"on_replace": "moves", "half": "keep"}}),
            "half: 'discard' in the checkpoint, 'keep' now",
        ),
        (Job(rules=RULES, note="a, b (d)"), "note: 'a, b (c)' in the checkpoint, 'a, b (d)' now"),
    ],
)
def test_the_field_of_the_job_that_differs_is_named(job, said):
    assert difference(manifest(), manifest(job)) == "the game job's " + said


def test_a_checkpoint_without_the_whole_job_says_the_job_differs():
    old = manifest()
    del old["job"]  # written before the manifest kept it
    assert difference(old, manifest()) is None
    said = difference(old, manifest(Job(players=3, rules=RULES)))
    assert said.startswith("the game job (players, strategies, rules")
    assert "sha256" not in said and "batch_fn" not in said


def test_the_refusal_is_one_line_naming_the_folder_and_option(tmp_path):
    ckpt = tmp_path / "big"
    _Checkpoint(ckpt, manifest(), resume=False).close()
    with pytest.raises(InputError) as err:
        _Checkpoint(ckpt, manifest(games=4000), resume=True)
    line = str(err.value)
    assert line == (
        f"checkpoint: {str(ckpt)!r} is a different run: --games: 2,000 in the checkpoint, "
        "4,000 now (allowed: resume with the same options and job, or use another folder)"
    )
    # refused, it left the folder to the next run
    _Checkpoint(ckpt, manifest(), resume=True).close()
    assert json.loads((ckpt / "run.json").read_text())["games"] == 2000


HOLD = textwrap.dedent(
    """
    import sys, time
    from analyzer.runs.checkpoint import _Checkpoint
    from tests.runs.test_checkpoint import manifest
    ckpt = _Checkpoint(sys.argv[1], manifest(), resume=False)
    print("held", flush=True)
    time.sleep(300)
    """
)


def test_a_second_run_to_a_held_folder_is_told_who_holds_it(tmp_path):
    from tests.runs.test_worker_lifetime import ROOT

    ckpt = tmp_path / "runs" / "big"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(ckpt)], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        before = (ckpt / "run.json").read_bytes()
        for resume in (False, True):
            with pytest.raises(EnvironmentFailure) as err:
                _Checkpoint(ckpt, manifest(seed=8), resume=resume)
            assert str(err.value) == (
                f"--checkpoint: {ckpt} is being written by another analyzer run "
                f"(pid {holder.pid}); wait for it or choose another folder"
            )
        assert (ckpt / "run.json").read_bytes() == before
        assert sorted(p.name for p in ckpt.parent.iterdir()) == [".big.lock", "big"]
    finally:
        holder.kill()
        holder.wait(timeout=60)
    # the killed holder's lock blocks nobody; a run's lock goes with it
    _Checkpoint(ckpt, manifest(), resume=True).close()
    assert sorted(p.name for p in ckpt.parent.iterdir()) == ["big"]


def test_a_run_that_finished_nothing_leaves_no_folder_and_no_lock(tmp_path):
    ckpt = tmp_path / "runs" / "big"
    _Checkpoint(ckpt, manifest(), resume=False).close(discard=True)
    assert not (tmp_path / "runs").exists()


def test_manifest_keeps_the_whole_job():
    job = Job(rules=RULES, note="x" * 500)
    m = manifest(job)
    assert m["job"] == repr(job) and len(m["batch_fn"]) == 200
