"""Pinned outputs of the three games' ``search`` players and deep advice.

The search players and ``advise --deep`` share their schedule and tables with
:mod:`analyzer.kernels.search` and :mod:`analyzer.games.deep`; a refactor of either must play
the same games (the same rollouts, the same random numbers) and print the same
answers. These hashes were taken before the games' copies were made one:

    .venv/bin/python -m tests.games.test_search_pinned --print

- each game's small seeded run with a ``search`` seat: the games table's hash
  (without the luck columns, as :mod:`tests.games.test_pinned` takes them);
- ``analyzer advise --game G --example`` answered with ``--deep --seed 7``
  at a small budget: the ``--json`` output (its ``seconds`` removed) and the
  text (at 100 columns, its running time masked), hashed.

A change meant to alter a search player or a deep answer takes them again on
purpose, with the reason in the commit.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys

import pytest

import analyzer
from tests.games.test_pinned import table_hash, without_luck

#: (game, players, strategies, games, seed, search params) -> games table hash
SEARCH_RUNS = {
    ("unearth", 2, "search,balanced", 4, 31, (("budget", 24), ("width", 3))): (
        "327a22fabca4a6960618bd56b5fae2c9671125e080b01855c02e5808e40b662c"
    ),
    ("colorful_treasure", 3, "greedy,search,random", 6, 32, (("budget", 24), ("width", 4))): (
        "5ed8cd8b6c927ffbcae6c351cb7a6b0596ec6db4edb912a1c77bb9b2b87d358e"
    ),
    ("uruk", 2, "balanced,search", 2, 33, (("budget", 12), ("width", 3))): (
        "bf83019a2f0c4c05f0db57c352c261847abdf655c55081456656d4524fb3e7ea"
    ),
}

#: (game, budget) -> (hash of the --json output, hash of the text output), seed 7
DEEP = {
    ("unearth", 240): (
        "3144d72e06a0ca15e1cce313a8058cdfded6e2c4e52d3b6f04a11d5a7a979ba6",
        "c3ef9ab992f8a25f28d592d587620dcb412ebc1091fc1ab32d2d74850324ac94",
    ),
    ("colorful_treasure", 400): (
        "481820b66d78d2a0f5ff5a2639c2dff4b7bcda5cd7f87f593b699d5c5a044cf9",
        "127054189cb74fbea5d227b36e3462e38bc689c2baf8faf59d9c9f72bf5a5137",
    ),
    ("uruk", 120): (
        "281bc13fc03ff31fbe255d5635d35823ddfd9ea635e64958ec2655d7ddbc8863",
        "4b66994ba62c3fd7ab270d75a86295c79f295575110039d7669f10dc86076105",
    ),
}


def search_hash(game, players, strategies, games, seed, params) -> str:
    table = analyzer.simulate(
        players,
        strategies,
        games,
        seed,
        game=game,
        strategy_params={"search": dict(params)},
    )
    return table_hash(without_luck(table))


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def deep_hashes(game: str, budget: int, tmp_path, capsys) -> tuple[str, str]:
    """Hashes of the deep answer on the game's example: JSON without its
    ``seconds``, text with its running time masked."""
    from analyzer.cli import run_cli

    assert run_cli(["advise", "--game", game, "--example"]) == 0
    path = tmp_path / f"{game}.toml"
    path.write_text(capsys.readouterr().out)
    args = ["advise", "--game", game, str(path), "--deep", "--budget", str(budget), "--seed", "7"]
    assert run_cli([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # the run's own time varies: taken out of what is pinned (its type checked only)
    took = out.pop("seconds")
    assert isinstance(took, float)
    # which ranking to follow (issue 38): added beside the rollouts' answer, not pinned
    added = [out.pop(k) for k in ("quick_best", "quick_ranking", "quick_agrees", "follow")]
    assert isinstance(added[-1], str) and added[-1]
    assert run_cli(args) == 0
    text = re.sub(r" in [0-9.,]+ s\b", " in ? s", capsys.readouterr().out)
    text = re.sub(
        r"(?ms)^(Both rankings agree|The rankings differ|First by ).*?(?=^[0-9,]+ rollouts in )",
        "",
        text,
    )
    return _sha(json.dumps(out, sort_keys=True)), _sha(text)


@pytest.mark.parametrize("run", list(SEARCH_RUNS), ids=lambda r: f"{r[0]}-{r[1]}p")
def test_search_games_are_unchanged(run):
    assert search_hash(*run) == SEARCH_RUNS[run]


@pytest.mark.parametrize("case", list(DEEP), ids=lambda c: c[0])
def test_deep_answers_are_unchanged(case, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert deep_hashes(*case, tmp_path, capsys) == DEEP[case]


if __name__ == "__main__":  # pragma: no cover - regeneration helper
    if "--print" in sys.argv:
        for run in SEARCH_RUNS:
            print(f"    {run!r}: (\n        {search_hash(*run)!r}\n    ),")
