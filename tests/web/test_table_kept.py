"""The table pages keep their table: after taps, a reload (and the page's address opened
in a fresh browser, as a shared link) shows the same table and the same answer; no
rendering prints ``null``; the ★ sits on the first row of its ranking; ties read as
ties. Headless Chromium at phone width (390 px) against a real ``analyzer serve``.

Screenshots after the reload go to $ANALYZER_SCREENSHOTS when it names a folder.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.serving import running_server

pytestmark = pytest.mark.slow

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


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("reports")) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def new_page(browser):
    ctx = browser.new_context(viewport=PHONE)
    pg = ctx.new_page()
    pg.set_default_timeout(240_000)  # a cold numba cache compiles the engines first
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, pg, errors


def shot(pg, name: str) -> None:
    where = os.environ.get("ANALYZER_SCREENSHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(Path(where) / f"{name}.png"), full_page=True)


def settled(pg, selector: str) -> str:
    """The answer's text (``#advice-out``) once an answer is in and the answer bar is not
    waiting."""
    pg.wait_for_selector(selector)
    pg.wait_for_function(
        "() => { const b = document.getElementById('answer-bar'); "
        "return b && b.textContent && b.textContent !== '…'; }"
    )
    pg.wait_for_timeout(400)  # a debounced second answer, if any
    return pg.inner_text("#advice-out")


# each page: taps to reach its advice, the taps that change the table, the advice's rows
TAPS = {
    "colorful_treasure": (
        [],
        ["#setup [data-name='players'] .plus", "[data-card='petra red']"],
        "#advice-list li",
    ),
    "uruk": (
        [],
        ["#decision .stepper[data-name='actions_left'] .minus",
         "[data-seat='anna'] [data-name='res red'] .plus"],
        "#advice-list li",
    ),
    "unearth": (
        ["#tab-turn"],
        ["#view-turn [data-name='in my hand'] [data-value='reading_the_stones']"],
        "#advice-list li",
    ),
}  # fmt: skip


@pytest.mark.parametrize("game", sorted(TAPS))
def test_the_table_survives_a_reload_and_travels_as_a_link(browser, url, game):
    first, taps, answer = TAPS[game]
    ctx, pg, errors = new_page(browser)
    pg.goto(f"{url}/game/{game}")
    for sel in first:
        pg.click(sel)
    before_taps = settled(pg, answer)
    for sel in taps:
        pg.click(sel)
        pg.wait_for_timeout(300)
    tapped = settled(pg, answer)
    assert tapped != before_taps  # the taps changed the table (else the test shows nothing)
    state = pg.evaluate("JSON.stringify(keptTable())")
    link = pg.url
    assert "#t=" in link
    pg.reload()
    assert settled(pg, answer) == tapped
    assert pg.evaluate("JSON.stringify(keptTable())") == state
    shot(pg, f"kept-{game}-after-reload")
    assert "null" not in pg.inner_text("body")
    ctx.close()
    assert errors == [], errors
    # the address alone (a fresh browser: nothing stored) opens the same table
    ctx2, pg2, errors2 = new_page(browser)
    pg2.goto(link)
    assert settled(pg2, answer) == tapped
    ctx2.close()
    assert errors2 == [], errors2


def test_a_kept_table_the_page_cannot_draw_gives_way_to_the_example(browser, url):
    ctx, pg, errors = new_page(browser)
    pg.goto(f"{url}/game/uruk")
    example = settled(pg, "#advice-list li")
    ctx.close()
    ctx, pg, errors = new_page(browser)
    pg.goto(f"{url}/game/uruk#t=" + '{"v":1,"state":{"seats":"broken"}}')
    assert settled(pg, "#advice-list li") == example
    assert pg.evaluate("keptTable().seats.length") == 2  # the example's, kept in its place
    ctx.close()
    assert errors == [], errors


def test_uruk_star_tops_its_ranking_and_bids_have_units(browser, url):
    ctx, pg, errors = new_page(browser)
    pg.goto(f"{url}/game/uruk")
    settled(pg, "#advice-list li")
    for decision in ("action", "secret_bid"):
        pg.click(f"#decision [data-name='decide'] [data-value='{decision}']")
        pg.wait_for_timeout(300)
        settled(pg, "#advice-list li")
        starred = pg.eval_on_selector_all(
            "#advice-list li",
            "els => els.map(e => getComputedStyle(e.querySelector('strong'), '::after').content)",
        )
        assert starred[0] == '" ★"'
        # a star only on the best and the rows tied with it
        tied = pg.eval_on_selector_all(
            "#advice-list li", "els => els.map(e => !!e.querySelector('.tie'))"
        )
        assert all(
            (s == '" ★"') == (i == 0 or t)
            for i, (s, t) in enumerate(zip(starred, tied, strict=True))
        )
        values = pg.eval_on_selector_all(
            "#advice-list li .value", "els => els.map(e => e.textContent)"
        )
        assert all("points" in v for v in values), values
        assert "null" not in pg.inner_text("body")
        assert "within noise" not in pg.text_content("#advice-out")
    shot(pg, "uruk-secret-bid")
    ctx.close()
    assert errors == [], errors
