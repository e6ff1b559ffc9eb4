"""Page 1 of a balance run and its charts, drawn from the manifest's ``balance`` alone.

The answer (``balance_example.json``: a realistic answer of the one-knob Unearth
compensation question, in the schema ``balance.json`` has) opens the PDF, the
HTML page and ``summary.md`` with its verdict; win rates and gaps read in win
points, seats from 1, knobs by their labels (an override path once, for
scripts); nothing reads ``None``, ``null`` or ``nan`` whatever optional key is
absent or null; the charts have labelled axes with units and sample sizes and
no label on another; and ``analyzer report DIR`` draws it all again from the
manifest without playing a game.
"""

from __future__ import annotations

import copy
import html
import json
import re
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

import tests.standin_game  # noqa: F401  (registers the game "coin")
from analyzer.cli import run_cli
from analyzer.report import balance_design_charts as bc
from analyzer.report import balance_page as bp
from analyzer.report import webpage
from analyzer.report.chart_style import png_bytes

EXAMPLE = Path(__file__).with_name("balance_example.json")
PATH = "seat_compensation.stones_last_seat"
STAMP = "scenario unearth_balance (scenarios/unearth_balance.toml) · seed 7 · 2026-11-29"


@pytest.fixture
def doc() -> dict:
    return json.loads(EXAMPLE.read_text("utf-8"))


def _text(doc: dict) -> str:
    """Every word the answer shows: page 1, the tables, the settings line."""
    words = [t for _, t in bp.answer_blocks(doc)]
    for _, df, title, note in bp.display_items({"balance": doc}):
        words += [title, note, *map(str, df.columns), *df.astype(str).to_numpy().ravel()]
    words += bp.settings_lines({"balance": doc})
    return "\n".join(words)


def _chart_text(fig) -> str:
    FigureCanvasAgg(fig).draw()
    parts = [t.get_text() for t in fig.texts] + [fig.get_suptitle()]
    for ax in fig.axes:
        parts += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        parts += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        leg = ax.get_legend()
        parts += [t.get_text() for t in leg.get_texts()] if leg else []
    for leg in fig.legends:
        parts += [t.get_text() for t in leg.get_texts()]
    return "\n".join(parts)


def _subtitle(fig) -> str:
    """A chart's subtitle: the line under its title (sample size, what the bars are)."""
    return next(t.get_text() for t in fig.texts if t.get_position()[1] == 0.955)


NULLS = re.compile(r"\b(None|null|nan|NaN|inf)\b")


# --------------------------------------------------------------------------- words


def test_the_verdict_comes_first_then_the_change_against_the_printed_game(doc):
    blocks = bp.answer_blocks(doc)
    assert blocks[0] == ("answer", doc["verdict"] + ".")
    headings = [t for s, t in blocks if s == "h"]
    assert headings[:2] == [
        "The change, against the printed game",
        "Fairness before and after, per player count",
    ]
    assert {"With re-tuned players", "What it costs", "Held fixed", "Certificate"} <= set(headings)
    change = blocks[blocks.index(("h", headings[0])) + 1][1]
    assert change.startswith("Extra stones for the last seat: 0 printed → 2 (95% interval")
    assert "1.6 to 2.4" in change
    # the PDF's page 1 says it in that order, under the question
    fig = bp.answer_pages(doc, "Unearth: unearth_balance", bp.answer_subtitle(doc, {"seed": 7}),
                          STAMP)[0]  # fmt: skip
    texts = [t.get_text() for t in fig.texts]
    assert texts[0] == "Unearth: unearth_balance"
    assert texts[1].startswith(doc["question"]) and "400,000 games, seed 7" in texts[1]
    assert doc["verdict"].startswith(texts[3]) and fig.texts[3].get_fontweight() == "bold"


def test_win_points_seats_from_one_and_fresh_games(doc):
    text = _text(doc)
    line = next(t for _, t in bp.answer_blocks(doc) if t.startswith("4 players"))
    assert line == (
        "4 players (fair share 25%), largest gap from fair in win points: printed 2.1 [1.6, 2.6] "
        "(first player 27.1%) → with the change 0.6 [0.1, 1.1] (first player 25.6%) → re-tuned "
        "0.7 [0.2, 1.2] (first player 25.7%); 40,000 fresh games each."
    )
    assert "3 players (fair share 33.3%)" in text
    assert (
        "shifts the answer: the largest gap from fair moves by +0.2 at 2, +0.2 at 3 and +0.1 "
        "at 4 players (win points)" in text
    )
    # fractions never reach a reader: a gap of 0.021 is 2.1 win points, a rate 0.271 27.1%
    for fraction in ("0.021", "0.006", "0.271", "0.015", "0.011"):
        assert fraction not in text, fraction
    # seats from 1, in words; the seats table says so in its header
    assert not re.search(r"\bseat ?0\b", text, re.I)
    seats = bp.seats_table(doc)
    assert seats["seat (1 = first player)"].tolist() == [1, 2, 1, 2, 3, 1, 2, 3, 4]
    assert seats.iloc[-1]["printed [95% CI]"] == "23.1% [22.7, 23.5]"
    assert "The seat farthest from fair at 2 players is the first player: +0.8 [+0.3, +1.3]" in text
    assert "Game length (rounds): 18.21 [18.17, 18.25] printed → 18.34 [18.30, 18.38] with" in text


def test_a_labelled_knob_shows_its_path_once_for_scripts(doc):
    words = "\n".join(t for _, t in bp.answer_blocks(doc))
    assert words.count(PATH) == 1
    assert f'For scripts: [overrides] "{PATH}" = 2 plays the change' in words
    assert (
        words.count("extra stones for the last seat")
        + words.count("Extra stones for the last seat")
        >= 1
    )
    # a knob without a label (the library fell back to its path) is named by it
    doc["knobs"][0]["label"] = PATH
    words = "\n".join(t for _, t in bp.answer_blocks(doc))
    assert f"{PATH}: 0 printed → 2" in words


def _variants(doc: dict):
    """The answer with each optional key null, then absent, then a bare answer."""
    optional = [
        "question", "field", "field_label", "delta", "knobs", "frozen", "objectives",
        "combine", "method", "interval", "retuned", "retune", "seat_rates", "costs",
        "certificate", "attribution", "curve", "front", "verdict", "sentences",
        "candidates", "games", "seeds", "budget", "stopped", "players",
    ]  # fmt: skip
    for key in optional:
        d = copy.deepcopy(doc)
        d[key] = None
        yield f"{key}=null", d
        d = copy.deepcopy(doc)
        d.pop(key)
        yield f"no {key}", d
    d = copy.deepcopy(doc)
    d["certificate"]["games_needed"] = None
    d["certificate"]["worst"] = None
    d["budget"]["games"] = None
    d["retune"] = {"done": True, "strategy": None, "rounds": None, "undone": True, "note": None}
    yield "nulls inside", d
    yield (
        "bare",
        {
            "recommended": {PATH: 2},
            "interval": {},
            "before": {"fairness_4p": {"value": 0.021}},
            "after": {"fairness_4p": {"value": 0.004}},
            "retuned": None,
            "certified": False,
        },
    )


def test_optional_keys_absent_or_null_never_read_none(doc):
    for name, d in _variants(doc):
        text = _text(d)
        assert not NULLS.search(text), (name, NULLS.search(text).group(0))
        blocks = bp.answer_blocks(d)
        assert blocks[0][0] == "answer" and blocks[0][1], name
        assert bp.answer_markdown(d)[0].startswith("**"), name
        for chart, fig in bc.make_charts(d, STAMP):
            assert not NULLS.search(_chart_text(fig)), (name, chart)


def test_without_retuning_the_curve_or_a_verdict(doc):
    d = copy.deepcopy(doc)
    d.update(retune=None, retuned=None, curve=None, verdict=None)
    for rows in d["seat_rates"].values():
        rows["retuned"] = None
    blocks = bp.answer_blocks(d)
    assert blocks[0] == (
        "answer",
        "Set extra stones for the last seat to 2 (printed 0) (certified).",
    )
    text = "\n".join(t for _, t in blocks)
    assert "were not re-tuned at the new design (retune = false)" in text
    assert "re-tuned 0.7" not in text
    assert [name for name, _ in bc.make_charts(d, STAMP)] == ["balance_seats"]
    assert "re-tuned [95% CI]" not in bp.seats_table(d).columns


def test_not_certified_says_the_games_it_would_take(doc):
    d = copy.deepcopy(doc)
    d["certified"] = False
    d["certificate"].update(sentence=None, games_needed=160000)
    text = "\n".join(t for _, t in bp.answer_blocks(d))
    assert (
        "Not certified: these games do not show every seat within ±1.5 win points of fair at "
        "2, 3 and 4 players (95%, 40,000 fresh games per count)." in text
    )
    assert "Certifying it would take about 160,000 fresh games per count." in text
    d["certificate"]["games_needed"] = None
    assert "cannot be estimated" in "\n".join(t for _, t in bp.answer_blocks(d))


def test_the_html_says_the_same_words_as_the_pdf_verdict_first(doc):
    blocks = bp.answer_blocks(doc)
    page = "\n".join(webpage.answer_html(doc["question"], blocks, []))
    assert page.startswith(f'<h2 id="answer">{html.escape(doc["question"])}</h2>\n'
                           '<p class="answer">Give the last seat 2 extra stones')  # fmt: skip
    plain = html.unescape(re.sub(r"<[^>]+>", "\n", page))
    for style, text in blocks:
        if style != "gap":
            assert text in plain, text
    md = "\n".join(bp.answer_markdown(doc))
    assert md.startswith(f"**{blocks[0][1]}**")
    for style, text in blocks:
        if style != "gap":
            assert text in md, text


# --------------------------------------------------------------------------- charts


def _overlaps(fig) -> list[tuple[str, str]]:
    """Pairs of labels drawn on one another: the figure's texts and legends, each
    panel's title, axis labels and tick labels (tick labels of one axis among themselves)."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    r = canvas.get_renderer()

    def box(a):
        return a.get_window_extent(r)

    def touch(b, c) -> bool:  # more than the descent of one line on the ascent of the next
        w = min(b.x1, c.x1) - max(b.x0, c.x0)
        h = min(b.y1, c.y1) - max(b.y0, c.y0)
        return w > 2 and h > 4

    def shown(t):
        return t.get_visible() and t.get_text().strip()

    top = [(t.get_text(), box(t)) for t in {*fig.texts, fig._suptitle} if shown(t)]
    top += [("legend", box(leg)) for leg in fig.legends]
    bad = []
    for ax in fig.axes:
        labels = [(ax.get_title(), box(ax.title)), (ax.get_xlabel(), box(ax.xaxis.label)),
                  (ax.get_ylabel(), box(ax.yaxis.label))]  # fmt: skip
        labels = [(n, b) for n, b in labels if n]
        for i, (n, b) in enumerate(top + labels):
            for m, c in (top + labels)[i + 1 :]:
                if touch(b, c):
                    bad.append((n, m))
        for ticks in (ax.get_xticklabels(), ax.get_yticklabels()):
            boxes = [(t.get_text(), box(t)) for t in ticks if shown(t)]
            for i, (n, b) in enumerate(boxes):
                bad += [(n, m) for m, c in boxes[i + 1 :] if touch(b, c)]
    return sorted(set(bad))


def test_the_response_curve(doc):
    fig = bc.response_curve(doc, STAMP)
    ax = fig.axes[0]
    assert fig.get_suptitle() == (
        "The fitted curve meets the target at 1.99 [1.60, 2.40] extra stones for the last seat; "
        "2 chosen"
    )
    assert "n = 8,000 games per value" in _subtitle(fig)
    assert ax.get_xlabel() == "extra stones for the last seat (value of the knob)"
    assert ax.get_ylabel() == "seat gap at 4 players (win points)"
    # ticks where their labels say: whole stones, each label its position
    FigureCanvasAgg(fig).draw()
    for pos, label in zip(ax.get_xticks(), ax.get_xticklabels(), strict=True):
        if label.get_text():
            assert float(label.get_text().replace("−", "-")) == pos
    assert all(float(p).is_integer() for p in ax.get_xticks())
    # the grid estimates in win points, the band and the chosen point drawn
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [
        "fitted curve, 95% band",
        "fitted curve",
        "target (0 win points)",
        "95% interval of the fair value (1.60 to 2.40)",
        "chosen: 2",
        "grid value: estimate, 95% interval",
    ]
    chosen = next(ln for ln in ax.lines if ln.get_label() == "chosen: 2")
    # the chosen value on the fitted curve: 100 * (0.0211 - 0.0106 * 2) win points
    assert chosen.get_xdata()[0] == 2 and chosen.get_ydata()[0] == pytest.approx(-0.01)
    fit = next(ln for ln in ax.lines if ln.get_label() == "fitted curve")
    x, y = fit.get_data()
    assert np.allclose(y, 100 * (0.0211 - 0.0106 * x))
    assert _overlaps(fig) == []


def test_the_seat_bars_per_player_count(doc):
    fig = bc.seat_bars(doc, STAMP)
    panels = fig.axes
    assert [ax.get_title() for ax in panels] == [
        "2 players (fair share 50%)",
        "3 players (fair share 33.3%)",
        "4 players (fair share 25%)",
    ]
    FigureCanvasAgg(fig).draw()
    assert [t.get_text() for t in panels[2].get_xticklabels()] == [
        "first", "second", "third", "fourth"]  # fmt: skip
    assert list(panels[2].get_xticks()) == [1, 2, 3, 4]
    assert panels[0].get_ylabel() == "win rate minus a fair share (win points)"
    assert "n = 40,000 fresh games per player count and design" in _subtitle(fig)
    assert fig.get_suptitle().startswith(
        "The change takes the largest seat gap from 2.1 to 0.8 win points"
    )
    # bars: printed, with the change, re-tuned, each seat's gap from fair in win points
    bars = [p for p in panels[2].patches if p.get_height() != 0 and p.get_width() < 1]
    heights = sorted(round(b.get_height(), 6) for b in bars)
    assert heights[0] == pytest.approx(-1.9) and heights[-1] == pytest.approx(2.1)
    assert len(bars) == 12
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend[:3] == ["printed", "with the change", "with the change, players re-tuned"]
    assert "fair share" in legend
    assert _overlaps(fig) == []


def test_the_front_when_objectives_conflict(doc):
    d = copy.deepcopy(doc)
    d["combine"] = "front"
    d["objectives"].append(
        {"id": "viability", "measure": "strategy_viability", "players": 4,
         "label": "largest shortfall of a strategy from the best", "unit": "win points"}
    )  # fmt: skip
    d["front"] = [
        {"candidate": c, "objectives": {"fairness_4p": f, "viability": v},
         **({"values": {PATH: 2}} if c == 7 else {})}
        for c, f, v in ((3, 0.004, 0.031), (7, 0.006, 0.018), (12, 0.011, 0.012),
                        (15, 0.019, 0.009))
    ]  # fmt: skip
    names = [n for n, _ in bc.make_charts(d, STAMP)]
    assert names == ["balance_curve", "balance_seats", "balance_front"]
    fig = bc.front(d, STAMP)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "largest gap from a fair share at 4 players (win points)"
    assert ax.get_ylabel() == "largest shortfall of a strategy from the best (win points)"
    assert fig.get_suptitle() == (
        "The objectives pull apart: 4 designs on the front, none better on all; candidate 7 "
        "recommended"
    )
    chosen = next(ln for ln in ax.lines if ln.get_label() == "recommended")
    assert (chosen.get_xdata()[0], chosen.get_ydata()[0]) == pytest.approx((0.6, 1.8))
    assert [t.get_text() for t in ax.texts] == ["candidate 7"]
    assert _overlaps(fig) == []
    png_bytes(fig)  # draws


# --------------------------------------------------------------------------- the folder


def _balance_folder(tmp_path: Path, doc: dict) -> Path:
    """A report folder as ``analyzer balance`` leaves it: no games of its own, the
    answer in the manifest (made here by hand: the manifest's keys as the driver
    writes them, then the report written the one way reports are)."""
    from analyzer.report.files import _build_dir, _write_parquet
    from analyzer.report.write import write_report
    from analyzer.runs.driver import sections_only_info
    from analyzer.runs.scenario_file import parse_scenario
    from analyzer.tables.aggregate import empty_partial

    raw = tomllib.loads('game = "coin"\nname = "coin_balance"\nseed = 3\n[ladder]\nplayers = 2\n')
    sc = parse_scenario(raw, str(tmp_path / "coin_balance.toml"))
    info = sections_only_info(replace(sc, ladder=None), workers=1)
    info["balance"] = doc
    out = tmp_path / "coin_balance"

    def fill(tmp: Path) -> list[str]:
        (tmp / "data").mkdir()
        _write_parquet(empty_partial(), tmp / "data" / "aggregate.parquet", index=True)
        return write_report(tmp, empty_partial(), info)

    _build_dir(out, fill)
    return out


def test_analyzer_report_redraws_a_balance_folder(tmp_path, doc, monkeypatch):
    out = _balance_folder(tmp_path, doc)
    (out / "charts" / "balance_seats.png").unlink()
    first_pages = []
    import analyzer.report.write as write

    class Recording(write.PdfPages):
        def savefig(self, figure=None, **kw):
            first_pages.append([t.get_text() for t in figure.texts])
            return super().savefig(figure, **kw)

    monkeypatch.setattr(write, "PdfPages", Recording)
    assert run_cli(["report", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["balance"] == doc  # (balance.json is the library's: studies/balance.py)
    assert {"charts/balance_curve.png", "charts/balance_seats.png"} <= set(manifest["files"])
    for rel in manifest["files"]:
        assert (out / rel).is_file(), rel
    # the PDF: page 1 is the answer, its verdict under the question; then the charts
    page1 = first_pages[0]
    assert page1[0] == "Coin flip: coin_balance" and page1[1].startswith(doc["question"])
    assert doc["verdict"].startswith(page1[3])
    assert "balance 400,000 games" in page1[2]  # the stamp says the games
    assert any(t.startswith("n = 8,000 games per value") for t in first_pages[1])
    # the HTML: the answer before the findings, the verdict first, its charts inside
    page = (out / "report.html").read_text("utf-8")
    a, f = page.index('<h2 id="answer">'), page.index('<h2 id="findings">')
    assert a < f
    answer = page[a:f]
    assert re.search(r"</h2>\n<p class=\"answer\">Give the last seat 2 extra stones", answer)
    assert 'id="chart-balance_curve"' in answer and 'id="chart-balance_seats"' in answer
    assert "Balance: win rate by seat" in page and "seat (1 = first player)" in page
    plain = html.unescape(re.sub(r"<[^>]+>", " ", answer))
    assert not NULLS.search(plain)
    summary = (out / "summary.md").read_text("utf-8")
    assert summary.index("## The answer") < summary.index("## Findings")
    assert f"**{doc['verdict']}.**" in summary and "`balance.json`" in summary


def test_a_folder_without_a_balance_has_no_answer(tmp_path, doc):
    out = _balance_folder(tmp_path, doc)
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    manifest.pop("balance")
    (out / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert run_cli(["report", str(out)]) == 0
    files = json.loads((out / "manifest.json").read_text("utf-8"))["files"]
    assert not any("balance" in f for f in files)
    assert 'id="answer"' not in (out / "report.html").read_text("utf-8")


@pytest.mark.slow
def test_a_run_with_games_and_a_balance_opens_with_the_answer(tmp_path, doc):
    """A scenario that plays games of its own as well: the answer is page 1, the
    findings follow."""
    src = tmp_path / "coins.toml"
    src.write_text('game = "coin"\nname = "coins"\nplayers = 3\nstrategies = "fair"\n'
                   "games = 60\nseed = 2\n")  # fmt: skip
    out = tmp_path / "coins"
    assert run_cli(["run", str(src), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    manifest["balance"] = doc
    (out / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    assert run_cli(["report", str(out)]) == 0
    page = (out / "report.html").read_text("utf-8")
    assert page.index('<p class="answer">') < page.index('<h2 id="findings">')
    assert page.index('<h2 id="findings">') < page.index("1. Is the first seat favoured?")
    assert (out / "charts" / "balance_seats.png").is_file()
    assert (out / "tables" / "seats.csv").is_file()


def test_an_answer_as_the_library_writes_it_on_the_coin_game():
    """``balance_coin.json``: ``analyzer balance`` on the coin game (the lucky coin's
    heads chance, 4,000 games, seed 5): a logistic fit on the win rate drawn against
    gaps from a fair share, a chosen value between grid points, sentences that repeat
    the certificate and the attribution, a unit in words, intervals of no width."""
    d = json.loads(EXAMPLE.with_name("balance_coin.json").read_text("utf-8"))
    blocks = bp.answer_blocks(d)
    words = [t for _, t in blocks]
    assert words[0].startswith("Change heads chance of the lucky coin from 0.6 to 0.48")
    for s in d["sentences"]:  # each said once, where it belongs
        assert sum(bp._plain(w) == bp._plain(s) for w in words) == 1, s
    assert sum("86,000" in w for w in words) == 1
    assert (
        "Score spread (points between the highest and the lowest score of a game): 1.19 "
        "[1.12, 1.27] printed → 1.15 [1.08, 1.23] with the change (-0.04)." in words
    )
    assert "Game length (turns): 5 printed → 5 with the change (+0)." in words
    assert "Played by lucky in seat 1, fair in seat 2, at 2 players." in words
    assert not NULLS.search("\n".join(words))
    fig = bc.response_curve(d, STAMP)
    ax = fig.axes[0]
    assert ax.get_ylabel() == (
        "first player's win rate minus a fair share at 2 players (win points)"
    )
    # the fitted rate, less the fair 50%, runs through the band (its scale the points')
    fit = next(ln for ln in ax.lines if ln.get_label() == "fitted curve")
    x, y = fit.get_data()
    band = d["curve"]["band"]
    lo = np.interp(x, [b["value"] for b in band], [100 * b["low"] for b in band])
    hi = np.interp(x, [b["value"] for b in band], [100 * b["high"] for b in band])
    assert np.all((lo <= y) & (y <= hi))
    chosen = next(ln for ln in ax.lines if ln.get_label() == "chosen: 0.48")
    assert chosen.get_xdata()[0] == 0.48 and abs(chosen.get_ydata()[0]) < 2
    assert _overlaps(fig) == []
    assert [n for n, _ in bc.make_charts(d, STAMP)] == ["balance_curve", "balance_seats"]


def test_a_front_as_the_library_writes_it_keeping_the_printed_values():
    """``balance_coin_front.json``: ``analyzer balance`` on the coin game with
    ``combine = "front"``, fairness against edits, re-tuned players (3,000 games,
    seed 3). The answer keeps the printed value; the front's gaps are fractions, like
    every share in the schema, and are drawn in win points."""
    d = json.loads(EXAMPLE.with_name("balance_coin_front.json").read_text("utf-8"))
    words = [t for _, t in bp.answer_blocks(d)]
    assert "Heads chance of the lucky coin: stays at 0.6, as printed; searched 0.4 to 0.6 in " \
        "steps of 0.05." in words  # fmt: skip
    assert words[-1] == (
        "For scripts: the whole answer is in balance.json, every candidate in "
        "tables/balance_candidates.csv."
    )
    said = [bp._plain(w) for w in words]
    for i, w in enumerate(said):  # nothing said twice, nor inside a longer sentence
        assert not any(len(w) > 30 and w in o for j, o in enumerate(said) if j != i), words[i]
    assert sum("cannot" in w for w in words) == 1  # the certificate's sentence, not another
    fig = bc.front(d, STAMP)
    ax = fig.axes[0]
    xs = sorted(x for ln in ax.lines for x in ln.get_xdata())
    assert xs[0] == pytest.approx(0.119, abs=1e-3) and xs[-1] == pytest.approx(14.88, abs=0.01)
    FigureCanvasAgg(fig).draw()
    assert all(float(t.get_text().replace("−", "-")).is_integer()
               for t in ax.get_yticklabels() if t.get_text())  # steps: whole  # fmt: skip
    assert _overlaps(fig) == []
    assert not NULLS.search(_chart_text(fig) + "\n".join(words))


def test_keeping_the_printed_values_is_said_as_such():
    """``balance_coin_front.json`` keeps the printed value: no "with the change" stage
    (it is the printed game again), and the seat chart says the values stay."""
    d = json.loads(EXAMPLE.with_name("balance_coin_front.json").read_text("utf-8"))
    assert bp.changes(d) == {}
    line = next(t for _, t in bp.answer_blocks(d) if t.startswith("2 players"))
    assert "with the change" not in line
    # 'after' is the printed game played by the scenario's field again, so it is not
    # repeated; the re-tuned players' games are the next stage
    assert "as answered" not in line
    assert "printed 8.1 [4.0, 11.9] (first player 58.1%) → re-tuned 12.2" in line
    text = "\n".join(t for _, t in bp.answer_blocks(d))
    assert "Re-tuned at the printed values (lucky re-tuned" in text and "holds" not in text
    assert "Steps changed from the printed values: 0 steps printed → 0 steps re-tuned." in text
    assert bc.seat_bars(d, STAMP).get_suptitle() == (
        "The printed values stay: the largest seat gap is 8.1 win points (not certified)"
    )
