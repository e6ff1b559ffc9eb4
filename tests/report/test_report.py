"""Reports end to end: `analyzer run` and `analyzer report` into temporary folders."""

from __future__ import annotations

import io
import json
from pathlib import Path

import matplotlib.image as mpimg
import pandas as pd
import pytest
from matplotlib.figure import Figure

from analyzer.cli import run_cli
from analyzer.games import load_game
from analyzer.report import charts, display_table
from tests.tables.test_aggregate import SyntheticJob

SCENARIO = """
name = "tiny"
description = "tiny comparison for tests"
players = 3
strategies = "random"
games = 40
seed = 5
[output]
batch_size = 15
[compare.a]
label = "base"
[compare.b]
label = "four bands"
overrides = { "delvers.band_of_delvers.copies" = 4 }
"""


@pytest.fixture
def synthetic(monkeypatch):
    """Play synthetic games instead of the engine; no exact odds."""
    game = load_game("unearth")
    monkeypatch.setattr(
        game,
        "make_job",
        lambda players, strategies, seed, rules, claims=False, strategy_params=None: SyntheticJob(
            players, tuple(strategies), seed, None, claims
        ),
    )
    monkeypatch.setattr(game, "exact_tables", lambda cells: {})


def _check_report(out: Path, games: int) -> dict:
    manifest = json.loads((out / "manifest.json").read_text())
    for key in ("scenario", "seed", "analyzer_version", "rules_version", "rules", "games",
                "seconds", "games_per_second", "cells"):  # fmt: skip
        assert key in manifest, key
    assert manifest["games"] == games and manifest["seed"] == 5
    for rel in manifest["files"]:
        assert (out / rel).is_file(), rel
    pdf = (out / "report.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") >= 8
    pngs = sorted((out / "charts").glob("*.png"))
    assert {p.stem for p in pngs} >= {"seats", "first_player", "comparison", "claims", "delvers"}
    for p in pngs:
        assert mpimg.imread(p).shape[2] in (3, 4)
    csvs = {p.stem: pd.read_csv(p) for p in (out / "tables").glob("*.csv")}
    assert {"seats", "first_player", "comparison", "claims_tiebreak", "named_wonders"} <= set(csvs)
    assert csvs["seats"]["n"].tolist() == [games] * 6  # 3 seats x 2 variants
    summary = (out / "summary.md").read_text()
    assert "# tiny" in summary and "First-player advantage" in summary
    assert pd.read_parquet(out / "data" / "games.parquet").shape[0] == games * 3 * 2
    assert len(pd.read_parquet(out / "data" / "aggregate.parquet"))
    return manifest


@pytest.mark.slow
def test_run_then_report(tmp_path, synthetic):
    src = tmp_path / "tiny.toml"
    src.write_text(SCENARIO)
    out = tmp_path / "out" / "tiny"
    assert run_cli(["run", str(src), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    _check_report(out, 40)
    before = pd.read_csv(out / "tables" / "comparison.csv")
    assert before["pairs"].eq(40 * 3).any()  # seat-level pairs over all seats
    (out / "tables" / "seats.csv").unlink()  # report must recreate everything
    assert run_cli(["report", str(out)]) == 0
    _check_report(out, 40)
    after = pd.read_csv(out / "tables" / "comparison.csv")
    pd.testing.assert_frame_equal(before, after, check_exact=False, rtol=1e-9)
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]  # no temp dirs left


@pytest.mark.slow
def test_games_and_seed_options_and_aggregate_only(tmp_path, synthetic):
    src = tmp_path / "tiny.toml"
    src.write_text(SCENARIO.replace("batch_size = 15", "save_tables = false"))
    out = tmp_path / "r"
    args = ["run", str(src), "--out", str(out), "--workers", "1", "--quiet", "--games", "12"]
    assert run_cli([*args, "--seed", "9"]) == 0
    m = json.loads((out / "manifest.json").read_text())
    assert (m["games"], m["seed"], m["tables_saved"]) == (12, 9, False)
    assert not (out / "data" / "games.parquet").exists()
    assert run_cli(["report", str(out)]) == 0  # rebuilt from the saved aggregate
    assert pd.read_csv(out / "tables" / "seats.csv")["n"].tolist() == [12] * 6


def test_run_and_report_options_reach_the_library_calls(tmp_path, capsys, monkeypatch):
    """``run`` and ``report`` hand their arguments to ``run_and_report`` and
    ``rebuild_report`` as they are (the calls patched: nothing is played; the real
    runs are ``test_run_then_report`` and the others)."""
    from unittest import mock

    import analyzer.report as library
    from analyzer.report import ReportResult

    info = {"cells": [], "seconds": 0.5, "seed": 9, "findings": {}}
    done = ReportResult(directory=tmp_path / "r", files=["report.pdf"], info=info)
    run, rebuild = mock.Mock(return_value=done), mock.Mock(return_value=done)
    monkeypatch.setattr(library, "run_and_report", run)
    monkeypatch.setattr(library, "rebuild_report", rebuild)
    src, out = tmp_path / "tiny.toml", tmp_path / "r"
    # (read and checked by the command before the library is called)
    src.write_text('players = 2\ngames = 10\nstrategies = "random"\n', "utf-8")
    args = ["run", str(src), "--out", str(out), "--games", "12", "--seed", "9"]
    assert run_cli([*args, "--workers", "3", "--quiet"]) == 0
    assert run.call_args.args == (src, out)
    assert run.call_args.kwargs == {"games": 12, "seed": 9, "workers": 3, "progress": False}
    assert run_cli(["run", str(src)]) == 0  # the defaults, and the summary printed
    assert run.call_args.args == (src, None)
    assert run.call_args.kwargs == {"games": None, "seed": None, "workers": None, "progress": True}
    assert "seed 9" in capsys.readouterr().out
    out.mkdir()
    (out / "manifest.json").write_text("{}", "utf-8")
    assert run_cli(["report", str(out)]) == 0
    assert rebuild.call_args.args == (out,) and rebuild.call_args.kwargs == {}


def test_invalid_scenario_writes_nothing(tmp_path, capsys, synthetic):
    src = tmp_path / "bad.toml"
    src.write_text(SCENARIO.replace('strategies = "random"', 'strategies = "nope"'))
    out = tmp_path / "never"
    assert run_cli(["run", str(src), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "bad.toml: strategies: bad value 'nope'" in err and "Traceback" not in err
    assert not out.exists() and list(tmp_path.iterdir()) == [src]
    assert run_cli(["report", str(tmp_path)]) == 2


@pytest.mark.slow
def test_failed_report_keeps_the_old_one(tmp_path, synthetic, monkeypatch):
    src = tmp_path / "tiny.toml"
    src.write_text(SCENARIO)
    out = tmp_path / "rep"
    out.mkdir()
    (out / "manifest.json").write_text('{"old": true}')  # an earlier report

    def boom(*a, **k):
        raise RuntimeError("chart failed")

    monkeypatch.setattr("analyzer.report.charts.seats", boom)
    code = run_cli(["run", str(src), "--out", str(out), "--workers", "1", "--quiet",
                    "--games", "5"])  # fmt: skip
    assert code == 3  # an internal error: one line, the traceback only with --debug
    with pytest.raises(RuntimeError):
        run_cli(["run", str(src), "--out", str(out), "--workers", "1", "--quiet",
                 "--games", "5", "--debug"])  # fmt: skip
    assert (out / "manifest.json").read_text() == '{"old": true}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep", "tiny.toml"]
    (out / "stray.txt").unlink(missing_ok=True)
    other = tmp_path / "notareport"
    other.mkdir()
    (other / "x.txt").write_text("mine")
    assert run_cli(["run", str(src), "--out", str(other), "--quiet"]) == 2  # never clobbered
    assert (other / "x.txt").read_text() == "mine"


def test_display_table_merges_intervals():
    df = pd.DataFrame({"cell": [0], "label": ["x"], "win_rate": [0.25], "win_rate_low": [0.2],
                       "win_rate_high": [0.3], "significant": [True]})  # fmt: skip
    d = display_table(df)
    assert list(d.columns) == ["win_rate [95% CI]", "significant"]
    assert d.iloc[0].tolist() == ["0.250 [0.200, 0.300]", "*"]


@pytest.mark.slow
def test_engine_end_to_end(tmp_path):
    """100 games of the random strategy with the real engine (GameJob)."""
    pytest.importorskip("analyzer.unearth.game")
    src = tmp_path / "e.toml"
    src.write_text('players = 3\nstrategies = "random"\ngames = 100\nseed = 3\n')
    out = tmp_path / "e"
    assert run_cli(["run", str(src), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    seats = pd.read_csv(out / "tables" / "seats.csv")
    assert seats["n"].tolist() == [100] * 3
    assert seats["win_rate"].sum() == pytest.approx(1.0)
    g = pd.read_parquet(out / "data" / "games.parquet")
    assert g["game"].nunique() == 100 and (g["score"] == g.filter(like="pts_").sum(axis=1)).all()
    tb = pd.read_csv(out / "tables" / "claims_tiebreak.csv")
    assert tb["resolved"].sum() == len(pd.read_parquet(out / "data" / "claims.parquet"))
    assert (out / "report.pdf").stat().st_size > 10_000


def _two_panel_chart() -> Figure:
    """A chart as the report makes them: constrained layout, two panels, long labels."""
    fig = charts.figure("Seat 1 wins most (27.4%), seat 3 least (22.9%)", "n = 16,000", "stamp")
    ax1, ax2 = charts.axes_grid(fig, 1, 2)[0]
    ax1.bar(["claimer", "collector", "balanced"], [0.21, 0.33, 0.46], label="win rate")
    ax1.set_ylabel("win rate (share of seat-games won)")
    ax1.legend()
    ax2.plot([0, 1000, 20000], [0.1, 0.5, 0.2], "o-")
    ax2.set_title("Mean score")
    ax2.set_xlabel("turns in the whole game")
    return fig


def test_png_bytes_draws_once_the_png_savefig_draws(monkeypatch):
    """The layout made once by hand gives the PNG bytes ``savefig`` gives (which draws
    twice), and the layout stays fixed for the PDF page drawn after it."""
    reference = _two_panel_chart()
    buf = io.BytesIO()
    reference.savefig(buf, format="png", dpi=charts.PNG_DPI)
    draws = []
    draw = Figure.draw
    monkeypatch.setattr(
        Figure, "draw", lambda fig, renderer: draws.append(1) or draw(fig, renderer)
    )
    fig = _two_panel_chart()
    assert charts.png_bytes(fig) == buf.getvalue()
    assert len(draws) == 1
    assert fig.get_layout_engine() is None
    assert [a.get_position().bounds for a in fig.axes] == [
        a.get_position().bounds for a in reference.axes
    ]
    assert fig.dpi == reference.dpi  # the PNG's resolution is not left on the figure
    page = Figure(figsize=charts.PAGE)  # placed by hand: no layout engine to run
    page.text(0.1, 0.5, "a table page")
    buf = io.BytesIO()
    page.savefig(buf, format="png", dpi=charts.PNG_DPI)
    assert charts.png_bytes(page) == buf.getvalue()


def test_text_pages_shrink_type_only_as_far_as_allowed():
    """Text a little too long for one page is set smaller down to ``smallest``; what still
    does not fit flows onto a second page (page 1 of a report tries 75% last)."""
    from analyzer.report import charts

    blocks = [("p", f"line {i} of a long page one") for i in range(45)]
    assert len(charts.text_blocks_pages("t", blocks, "stamp")) == 2
    assert len(charts.text_blocks_pages("t", blocks, "stamp", smallest=0.75)) == 1
    assert len(charts.text_blocks_pages("t", blocks[:30], "stamp")) == 1
