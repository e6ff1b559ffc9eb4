"""analyzer serve's pages in a real browser: headless Chromium (the system's, driven by
Playwright) at phone size sets a table state by taps and reads the answers, which must
be the CLI's for the same question.

Runs wherever a Chromium is installed (.ci/run installs Debian's); elsewhere the module
is skipped with one line saying the browser tests did not run. Screenshots of every
page go to $ANALYZER_SCREENSHOTS when it names a folder.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.serving import running_server

CHROMIUM = os.environ.get("ANALYZER_CHROMIUM") or next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
if CHROMIUM is None:
    pytest.skip(
        "browser tests did not run: no Chromium found (apt-get install chromium)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="browser tests did not run: playwright is not installed"
)

PHONE = {"width": 390, "height": 844}


def cli_json(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "analyzer", *args, "--json"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    return json.loads(done.stdout)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    reports = tmp_path_factory.mktemp("reports")
    (reports / "default").mkdir()
    (reports / "default" / "report.html").write_text("<h1>the default report</h1>", "utf-8")
    with running_server(reports) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser, request):
    ctx = browser.new_context(viewport=PHONE)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    shots = os.environ.get("ANALYZER_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(Path(shots) / f"{request.node.name}.png"), full_page=True)
    ctx.close()
    assert errors == [], errors


def wait_text(pg, selector: str, text: str, timeout: float = 30_000) -> None:
    pg.wait_for_function(
        "([s, t]) => { const e = document.querySelector(s); "
        "return e && e.textContent.trim() === t; }",
        arg=[selector, text],
        timeout=timeout,
    )


def tap(pg, row: str, value: str) -> None:
    pg.click(f'#view-odds [data-name="{row}"] [data-value="{value}"]')


def test_unearth_odds_set_by_taps_match_the_cli(page, url):
    page.goto(f"{url}/game/unearth")
    first = cli_json("odds", "--claim", "13", "--dice", "red:d6=5,blue:d8", "--me", "blue")
    wait_text(page, '#odds-table td[data-p="blue"]', pct(first["p_win"]["blue"]))
    page.click('#view-odds .stepper[data-name="claim"] .plus')
    page.click('#view-odds .stepper[data-name="claim"] .plus')  # claim 15
    tap(page, "die of", "blue")
    tap(page, "faces", "6")
    tap(page, "add: showing", "null")  # blue rolls a d6 after the d8
    tap(page, "I play", "reading_the_stones")
    want = cli_json(
        "odds", "--claim", "15", "--dice", "red:d6=5,blue:d8,blue:d6", "--me", "blue",
        "--reading-the-stones",
    )  # fmt: skip
    wait_text(page, '#odds-table td[data-p="blue"]', pct(want["p_win"]["blue"]))
    wait_text(page, '#odds-table td[data-p="red"]', pct(want["p_win"]["red"]))
    assert want["exact"]["p_win"]["blue"] in page.text_content("#odds-out")
    # the answer stays in sight at the bottom while the state is set
    wait_text(page, "#answer-bar", page.text_content("#odds-headline"))
    page.click('#view-odds [data-die="red:d6=5"]')  # a tap removes a die
    wait_text(page, "#odds-headline", "blue claims the ruin: " + pct(
        cli_json("odds", "--claim", "15", "--dice", "blue:d8,blue:d6", "--me", "blue",
                 "--reading-the-stones")["p_win"]["blue"]))  # fmt: skip


def test_unearth_advice_and_deep_advice_match_the_cli(page, url, tmp_path):
    page.goto(f"{url}/game/unearth")
    page.click("#tab-turn")
    assert page.eval_on_selector_all(
        "#free-dice [data-free]", "els => els.map(e => e.dataset.free)"
    ) == ["d8", "d6", "d6", "d4"]  # blue's d6 on B9 is not free
    builder = "#view-turn .card-sub"  # the first ruin's: put my d4 on it, showing 1
    page.click(f'{builder} [data-name="die of"] [data-value="blue"]')
    page.click(f'{builder} [data-name="faces"] [data-value="4"]')
    page.click(f'{builder} [data-name="add showing"] [data-value="1"]')
    page.wait_for_selector("#advice-list li")
    state = page.evaluate("stateToml()")
    assert 'free_dice = ["d8", "d6", "d6"]' in state and '"blue:d4=1"' in state
    # I have no d4 left: the page does not let me place a second one
    assert page.is_disabled(f'{builder} [data-name="faces"] [data-value="4"]')
    path = tmp_path / "table.toml"
    path.write_text(state, "utf-8")
    want = [f"{c['die']} on {c['ruin']}" for c in cli_json("advise", str(path))["choices"]]
    page.wait_for_function(
        "n => document.querySelectorAll('#advice-list li').length === n", arg=len(want)
    )
    shown = page.eval_on_selector_all("#advice-list li", "els => els.map(e => e.dataset.choice)")
    assert shown == want
    assert page.text_content("#answer-bar").startswith(f"best: {want[0]}, claim ")
    page.click("#deep-go")
    page.wait_for_selector("#deep-table", timeout=240_000)
    rows = page.eval_on_selector_all(
        "#deep-table tr[data-choice]", "els => els.map(e => e.dataset.choice)"
    )
    deep = cli_json("advise", str(path), "--deep", "--budget", "200", "--seed", "1")
    assert sorted(rows) == sorted(f"{c['die']} on {c['ruin']}" for c in deep["choices"])
    assert "rollouts" in page.text_content("#deep-out")
    assert page.text_content("#answer-bar").startswith(f"deep advice: {rows[0]}, win ")


def test_index_lists_games_and_opens_a_saved_report(page, url):
    page.goto(url)
    page.wait_for_selector("#report-list a")
    assert "Unearth" in page.text_content("#games")
    page.click("#report-list a")
    page.wait_for_selector("h1")
    assert page.text_content("h1") == "the default report"


@pytest.mark.parametrize("game", ["colorful_treasure", "uruk"])
def test_other_games_pages_load(page, url, game):
    page.goto(f"{url}/game/{game}")
    page.wait_for_selector("h1")
    page.wait_for_function(  # its example state arrived, or it says there is none
        "() => document.querySelector('#state').value || document.querySelector('#out p')"
    )
    if page.query_selector("#out p.error"):  # no advice for this game here yet
        assert page.is_disabled("#go") and page.is_disabled("#deep")
