"""A scenario's ``[ladder]`` and ``[tune]`` sections, and the strategies version.

``analyzer run`` on a scenario with ``[ladder]``/``[tune]`` plays them through
the same code as ``analyzer ladder``/``analyzer tune`` (same numbers for the
same seed), writes their files and pages; bad values in the sections are one
line naming the file, key, value and what is allowed. Every manifest and report
says the strategies version beside the rules version. On the stand-in coin
game, so that nothing compiles.
"""

from __future__ import annotations

import json
import tomllib

import pandas as pd
import pytest

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.games import load_game
from analyzer.scenario import load_scenario, parse_scenario, run_scenario, with_overrides
from analyzer.studies.ratings import format_ladder, ladder
from analyzer.studies.sections import ladder_sentences
from analyzer.studies.tuning import format_result, read_result, tune

LADDER_ONLY = """
game = "coin"
name = "coin_ladder"
description = "the two coins rated"
seed = 3
[ladder]
players = 2
games = 150
bootstrap = 60
"""

MIXED = """
game = "coin"
name = "coin_mixed"
players = 3
strategies = ["fair", "lucky", "fair"]
games = 90
seed = 4
[rules]
rounds = 4
[ladder]
games = 40
bootstrap = 30
[tune]
strategy = "lucky"
trials = 3
games = 30
confirm_games = 60
bounds = { p = [0.2, 0.9] }
"""


def _run(tmp_path, text: str, name: str = "s", *extra: str):
    src = tmp_path / f"{name}.toml"
    src.write_text(text)
    out = tmp_path / f"{name}_out"
    args = ["run", str(src), "--out", str(out), "--workers", "1", "--quiet", *extra]
    return run_cli(args), out


# --------------------------------------------------------------------------- parsing


HEAD = 'game = "coin"\nplayers = 2\n'

BAD = [
    ("[ladder]\ngames = 1\n", "ladder.games: bad value 1 (allowed: an integer from 2 to"),
    ('[ladder]\ngames = "many"\n', "ladder.games: bad value 'many'"),
    ('[ladder]\nstrategies = ["fair", "king"]\n',
     "ladder.strategies: bad value 'king' (allowed: fair, lucky)"),
    ('[ladder]\nstrategies = ["fair"]\n', "ladder.strategies: bad value ['fair'] (allowed: a list"),
    ('[ladder]\nstrategies = ["fair", "fair"]\n', "(allowed: a list naming each strategy once)"),
    ('[ladder]\nstrategies = "fair,lucky"\n', "ladder.strategies: bad value 'fair,lucky'"),
    ('[ladder]\nanchor = "king"\n',
     "ladder.anchor: bad value 'king' (allowed: one of the ladder's strategies: fair, lucky)"),
    ("[ladder]\nplayers = 9\n", "ladder.players: bad value 9 (allowed: an integer from 2 to 6)"),
    ("[ladder]\nbootstrap = -1\n", "ladder.bootstrap: bad value -1"),
    ("[ladder]\nrounds = 3\n", "unknown key 'ladder.rounds' (allowed: players, strategies,"),
    ("ladder = 3\n", "ladder: bad value 3 (allowed: a table of players, strategies,"),
    ('[tune]\nstrategy = "fair"\n', "tune.strategy: bad value 'fair' (allowed: lucky)"),
    ('[tune]\nstrategy = "lucky"\nfield = "lucky"\n',
     "tune.field: bad value 'lucky' (allowed: fair (not the tuned lucky: it would change too))"),
    ('[tune]\nstrategy = "lucky"\nfield = ["fair", "fair", "fair"]\n',
     "tune.field: bad value ['fair', 'fair', 'fair'] (allowed: a strategy, or a list of 1"),
    ('[tune]\nstrategy = "lucky"\nparams = ["q"]\n', "tune.params: bad value 'q' (allowed: p)"),
    ('[tune]\nstrategy = "lucky"\nbounds = { p = [1, 0] }\n',
     "tune.bounds.p: bad value [1, 0] (allowed: [low, high]: two finite numbers, low < high)"),
    ('[tune]\nstrategy = "lucky"\nbounds = { q = [0, 1] }\n',
     "tune.bounds: bad value 'q' (allowed: a searched parameter: p)"),
    ('[tune]\nstrategy = "lucky"\ntrials = 0\n', "tune.trials: bad value 0 (allowed: an integer"),
    ('[tune]\nstrategy = "lucky"\nconfirm_games = -1\n', "tune.confirm_games: bad value -1"),
    ('[tune]\nstrategy = "lucky"\nseed = 1\n', "unknown key 'tune.seed' (allowed: strategy,"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), BAD)
def test_bad_section_values_are_one_line_naming_file_and_key(tmp_path, text, message):
    src = tmp_path / "bad.toml"
    src.write_text(HEAD + text)
    with pytest.raises(InputError) as err:
        load_scenario(src)
    assert str(err.value).startswith(f"{src}: ")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('game = "coin"\n[ladder]\ngames = 10\n', "missing key 'ladder.players'"),
        ('game = "coin"\nplayers = 2\nstrategies = "fair"\n[ladder]\n', "missing key 'games'"),
        ('game = "coin"\nplayers = 2\n[ladder]\n[sweep]\nparam = "players"\nvalues = [2, 3]\n',
         "sweep: needs games of the scenario's own"),
        ('game = "coin"\nplayers = 2\nquestions = ["seats"]\n[ladder]\n',
         "questions: needs games of the scenario's own"),
        ('game = "coin"\nplayers = 2\n[rules]\nrounds = 0\n[ladder]\n',
         "rules.rounds: bad value 0 (allowed: a positive integer)"),
    ],
)  # fmt: skip
def test_scenario_shape_errors(tmp_path, capsys, text, message):
    code, out = _run(tmp_path, text)
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1
    assert not out.exists()


def test_unearth_refuses_tuning_the_frozen_baseline():
    raw = {"players": 2, "tune": {"strategy": "baseline"}}
    with pytest.raises(InputError, match=r"tune.strategy: bad value 'baseline' .*baseline is "):
        parse_scenario(raw, "x.toml")


def test_a_ladder_only_scenario_parses_and_plays_no_games_of_its_own(tmp_path):
    sc = parse_scenario(tomllib.loads(LADDER_ONLY), "l.toml")
    assert not sc.plays_games and sc.games == 0 and sc.tune is None
    assert sc.ladder.strategies == ("fair", "lucky") and sc.ladder.anchor == "fair"
    assert sc.as_dict()["ladder"] == {
        "players": 2,
        "strategies": ["fair", "lucky"],
        "games": 150,
        "anchor": "fair",
        "bootstrap": 60,
    }
    with pytest.raises(InputError, match="no games of its own"):
        run_scenario(sc, workers=1, progress=False)
    with pytest.raises(InputError, match=r"--games: l.toml has no games of its own"):
        with_overrides(sc, games=10)
    # a scenario with games: the sections take its players and (tune) defaults
    mixed = parse_scenario(tomllib.loads(MIXED), "m.toml")
    assert mixed.plays_games and mixed.ladder.players == 3 and mixed.tune.players == 3
    assert mixed.tune.field == ("fair", "fair") and mixed.tune.params == ("p",)


# --------------------------------------------------------------------------- running


@pytest.mark.slow
def test_ladder_scenario_writes_its_page_and_files(tmp_path):
    code, out = _run(tmp_path, LADDER_ONLY, "lad")
    assert code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["cells"] == [] and manifest["games"] == 0
    assert manifest["rules_version"] == "coin-1" and manifest["strategies_version"] == "1"
    for rel in manifest["files"]:
        assert (out / rel).is_file(), rel
    assert {
        "ladder/ratings.csv",
        "ladder/matrix.csv",
        "ladder/matrix_wide.csv",
        "ladder/ladder.json",
        "charts/ladder.png",
        "report.pdf",
        "report.html",
    } <= set(manifest["files"])
    # the same numbers as analyzer ladder with the same settings and seed
    direct = ladder("coin", 2, ["fair", "lucky"], 150, seed=3, bootstrap=60)
    ratings = pd.read_csv(out / "ladder" / "ratings.csv")
    pd.testing.assert_frame_equal(ratings, direct.ratings, check_dtype=False)
    saved = json.loads((out / "ladder" / "ladder.json").read_text())
    assert saved["strategies_version"] == "1" and saved["games_per_lineup"] == 150
    assert manifest["ladder"]["ratings"] == saved["ratings"]
    # the page: the chart, the sentence, the matrix with Wilson intervals
    pdf = (out / "report.pdf").read_bytes()
    assert pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") == 3  # page 1, ladder, tables
    html = (out / "report.html").read_text()
    sentence = ladder_sentences(manifest["ladder"])[0]
    assert (
        sentence.startswith("lucky rates +")
        and "Elo above fair over 300 2-player games" in sentence
    )
    assert sentence in html.replace("&#x27;", "'")
    assert "Ladder: head-to-head" in html and 'id="chart-ladder"' in html
    m = direct.matrix.set_index(["strategy", "opponent"]).loc[("lucky", "fair")]
    assert f"{m.win_share:.3f} [{m.low:.3f}, {m.high:.3f}]" in html
    summary = (out / "summary.md").read_text()
    assert "**Strategy ratings (ladder).** lucky rates +" in summary
    assert "No question has an answer" not in summary
    # analyzer report draws it again from the manifest, the files unchanged
    before = (out / "ladder" / "ratings.csv").read_text()
    (out / "ladder" / "ratings.csv").unlink()
    assert run_cli(["report", str(out)]) == 0
    assert (out / "ladder" / "ratings.csv").read_text() == before
    assert (out / "charts" / "ladder.png").is_file()


@pytest.mark.slow
def test_same_seed_same_ladder_whatever_the_workers(tmp_path):
    a = tmp_path / "a"
    a.mkdir()
    b = tmp_path / "b"
    b.mkdir()
    assert _run(a, LADDER_ONLY)[0] == 0
    assert _run(b, LADDER_ONLY, "s", "--workers", "2")[0] == 0
    for name in ("ratings.csv", "matrix.csv"):
        assert (a / "s_out" / "ladder" / name).read_text() == (
            b / "s_out" / "ladder" / name
        ).read_text()


@pytest.mark.slow
def test_mixed_scenario_with_games_ladder_and_tune(tmp_path, capsys):
    src = tmp_path / "m.toml"
    src.write_text(MIXED)
    out = tmp_path / "m_out"
    assert run_cli(["run", str(src), "--out", str(out), "--workers", "1"]) == 0
    captured = capsys.readouterr()
    assert "ladder: line-up 1/6 (fair, lucky, lucky)" in captured.err  # progress lines
    assert "tune: trial 3/3" in captured.err
    assert "Strategy ratings (ladder):" in captured.out and "Tuning:" in captured.out
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["games"] == 90 and len(manifest["cells"]) == 1
    assert manifest["ladder"]["players"] == 3
    assert manifest["ladder"]["rules"]["rulings"]["rounds"] == 4  # the scenario's [rules]
    # the tune: its result file, as analyzer tune writes it, and the same search
    doc = read_result(out / "tune" / "tune.toml")
    assert doc["tune"]["strategies_version"] == "1" and doc["tune"]["seed"] == 4
    assert doc["tune"]["bounds"] == {"p": [0.2, 0.9]}
    direct = tune("coin", 3, "lucky", ["fair", "fair"], trials=3, games=30, confirm_games=60,
                  seed=4, bounds={"p": (0.2, 0.9)}, rulings={"rounds": 4})  # fmt: skip
    assert [t["win_share"] for t in doc["trials"]] == [t.win_share for t in direct.trials]
    assert doc["confirm"]["win_share"] == direct.confirm["win_share"]
    trials = pd.read_csv(out / "tune" / "trials.csv")
    assert (
        trials["trial"].tolist() == [1, 2, 3]
        and (trials["win_share_low"] <= trials["win_share"]).all()
    )
    assert {"charts/ladder.png", "charts/tune.png", "charts/seats.png"} <= set(manifest["files"])
    html = (out / "report.html").read_text()
    assert "Tuning: the best row" in html and 'id="chart-tune"' in html
    assert "Is the first seat favoured?" in html  # the scenario's own findings stay


# --------------------------------------------------------------------------- strategies version


@pytest.mark.slow
def test_strategies_version_in_manifest_and_every_report_text(tmp_path, monkeypatch, capsys):
    game = load_game("coin")
    monkeypatch.setattr(game, "strategies_version", "7")
    text = 'game = "coin"\nname = "v"\nplayers = 2\nstrategies = "fair"\ngames = 20\nseed = 1\n'
    code, out = _run(tmp_path, text, "v")
    assert code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["strategies_version"] == "7" and manifest["rules_version"] == "coin-1"
    html = (out / "report.html").read_text()
    assert "rules coin-1 · strategies 7" in html  # the stamp of every page
    summary = (out / "summary.md").read_text()
    assert "versions        analyzer" in summary and "rules coin-1, strategies 7" in summary
    assert "rules version coin-1, strategies version 7." in summary  # whose play
    # the commands' own texts
    assert run_cli(["games"]) == 0
    assert "coin: Coin flip, 2-6 players, strategies fair*, lucky; rules coin-1, strategies 7" in (
        capsys.readouterr().out
    )
    assert run_cli(["simulate", "--game", "coin", "--players", "2", "--games", "20", "--seed",
                    "1", "--workers", "1", "--quiet"]) == 0  # fmt: skip
    assert "rules coin-1, strategies 7" in capsys.readouterr().out
    lad = ladder("coin", 2, None, 10, seed=1, bootstrap=0)
    assert lad.info["strategies_version"] == "7"
    assert "rules coin-1, strategies 7" in format_ladder(lad)
    tuned = tune("coin", 2, "lucky", "fair", trials=1, games=10, confirm_games=0, seed=1)
    assert tuned.settings["strategies_version"] == "7"
    assert "rules coin-1, strategies 7" in format_result(tuned)


def test_every_shipped_game_declares_its_strategies_version():
    from analyzer.unearth.defaults import version
    from analyzer.unearth.plugin import STRATEGIES_VERSION

    assert load_game("unearth").strategies_version == STRATEGIES_VERSION == version() == "2"
    assert load_game("uruk").strategies_version == "5"  # issue 39: 5 = trained the default
    assert load_game("colorful_treasure").strategies_version == "2"  # issue 27's players


@pytest.mark.slow
@pytest.mark.parametrize(
    "output, adjusted",
    [("", False), ("[output]\nluck = false\n", False), ("[output]\nluck = true\n", True)],
)
def test_a_scenarios_ladder_rates_adjusted_wins_only_with_luck_on(tmp_path, output, adjusted):
    """A scenario without an ``[output] luck`` key plays the game's default: the
    terms are off in every game, so its ladder rates plain wins, as ``analyzer
    ladder`` does; ``luck = true`` rates luck-adjusted wins."""
    text = (
        'game = "unearth"\nname = "u"\nseed = 2\n'
        + output
        + '[ladder]\nplayers = 2\nstrategies = ["random", "baseline"]\ngames = 8\nbootstrap = 5\n'
    )
    code, out = _run(tmp_path, text, "u")
    assert code == 0
    saved = json.loads((out / "ladder" / "ladder.json").read_text())
    assert bool(saved.get("luck_adjusted")) is adjusted
