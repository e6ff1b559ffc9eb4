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
from importlib import resources
from pathlib import Path

import pytest

from tests.serving import running_server

#: a real browser against a real server, every test (make test runs them; make test-fast not)
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
    # a first answer compiles its game's kernels when the numba cache is cold (minutes)
    pg.set_default_timeout(240_000)
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
    tap(page, "die of", "blue")
    tap(page, "faces", "6")
    tap(page, "add: showing", "null")  # blue rolls a d6 after the d8
    page.click('#view-odds .stepper[data-name="claim"] .plus')  # claim 14
    page.click('#view-odds .stepper[data-name="claim"] .minus')  # claim 13 (14 gives 9/16:
    # a rounding tie that Python and JavaScript print as 56.2% and 56.3%)
    tap(page, "I play", "reading_the_stones")
    want = cli_json(
        "odds", "--claim", "13", "--dice", "red:d6=5,blue:d8,blue:d6", "--me", "blue",
        "--reading-the-stones",
    )  # fmt: skip
    wait_text(page, '#odds-table td[data-p="blue"]', pct(want["p_win"]["blue"]))
    wait_text(page, '#odds-table td[data-p="red"]', pct(want["p_win"]["red"]))
    assert want["exact"]["p_win"]["blue"] in page.text_content("#odds-out")
    # the answer stays in sight at the bottom while the state is set
    wait_text(page, "#answer-bar", page.text_content("#odds-headline"))
    page.click('#view-odds [data-die="red:d6=5"]')  # a tap removes a die
    wait_text(page, "#odds-headline", "blue claims the ruin: " + pct(
        cli_json("odds", "--claim", "13", "--dice", "blue:d8,blue:d6", "--me", "blue",
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
    assert page.text_content("#answer-bar").startswith(f"best: {want[0]}, I claim it ")
    page.click("#deep-go")
    page.wait_for_selector("#deep-table", timeout=240_000)
    rows = page.eval_on_selector_all(
        "#deep-table tr[data-choice]", "els => els.map(e => e.dataset.choice)"
    )
    deep = cli_json("advise", str(path), "--deep", "--budget", "200", "--seed", "1")
    assert sorted(rows) == sorted(f"{c['die']} on {c['ruin']}" for c in deep["choices"])
    assert "rollouts" in page.text_content("#deep-out")
    assert page.text_content("#answer-bar").startswith(f"deep advice: {rows[0]}, win ")


def test_the_deep_advice_bar_counts_against_the_estimate_then_says_it_is_late(page, url):
    """The wait's bar is the time estimated on this machine; past it the page says it
    takes longer than estimated, with the seconds, and the bar knows no end (never a bar
    stalled near full); with no estimate, seconds only."""
    page.goto(f"{url}/game/unearth")
    page.wait_for_function("() => typeof progressWords === 'function'")
    words = page.evaluate(
        "() => [3.2, 14, 3].map((s, i) => progressWords(s, i < 2 ? 10 : null, 'w'))"
    )
    on_time = "w… 3 s of about 10 s (estimated on this machine)"
    late = "w: taking longer than estimated… 14 s (estimated about 10 s)"
    assert words[0] == {"width": 32.0, "over": False, "text": on_time}
    assert words[1] == {"width": None, "over": True, "text": late}
    assert words[2] == {"width": None, "over": False, "text": "w… 3 s"}
    # a wait estimated at half a second, still waiting after it
    page.evaluate(
        "() => { const el = document.createElement('div'); el.id = 'wait'; "
        "document.body.append(el); window.P = progress(el, 0.5, 'w'); }"
    )
    page.wait_for_function(
        "() => document.getElementById('progress-text').textContent.includes('longer than')"
    )
    assert page.evaluate("() => document.querySelector('#wait .progress.unknown') !== null")
    page.evaluate("() => window.P.stop()")
    # the real page's estimate: the number /api/games gives for this game
    games = {g["name"]: g for g in page.evaluate("() => fetch('/api/games').then(r => r.json())")}
    served_estimate = games["unearth"]["deep_seconds"]  # budget / recorded rate, no clock
    assert page.evaluate("() => deepSeconds()") == served_estimate


def test_index_lists_games_and_opens_a_saved_report(page, url):
    page.goto(url)
    page.wait_for_selector("#report-list a")
    assert "Unearth" in page.text_content("#games")
    page.click("#report-list a")
    page.wait_for_selector("h1")
    assert page.text_content("h1") == "the default report"


def ct_cli(kind: str, state: str, tmp_path: Path) -> dict:
    path = tmp_path / f"{kind}.toml"
    path.write_text(state, "utf-8")
    return cli_json(kind, "--game", "colorful_treasure", str(path))


def ct_frac(f: str, digits: int = 3) -> str:
    """How the page shows an exact fraction: with its decimal, a whole number alone."""
    a, _, b = f.partition("/")
    return f"{f} = {int(a) / int(b):.{digits}f}" if b else f


def ct_shown(pg) -> list[tuple[str, str]]:
    return pg.eval_on_selector_all(
        "#advice-list li",
        "els => els.map(e => [e.dataset.choice, e.querySelector('[data-points]').textContent])",
    )


def ct_places(odds: dict) -> dict[str, dict[str, str]]:
    """The odds' places as the page groups them: a remembered place alone, the places
    of a wonder I do not remember in one row (they share their chances)."""
    out = {}
    for p in odds["places"]:
        w = p["place"].split(" ")[0]
        key = p["place"] if p["remembered"] else f"{w} ?"
        assert out.setdefault(key, p["chances"]) == p["chances"]
    return out


# the example state after the taps of the test below (each line checked against the taps)
CT_TAPPED = """\
players = 3
scoring = "advanced"
mine = ["pyramids red", "pyramids yellow", "great_wall red", "taj_mahal diamond", "chichen_itza yellow"]
rewards_given = ["gem"]

[grid.pyramids]
face_down = 3
gone = ["red", "yellow"]
remembered = ["key"]

[grid.great_wall]
face_down = 3
gone = ["red", "chest"]
remembered = ["yellow", "diamond"]

[grid.taj_mahal]
face_down = 4
gone = ["diamond"]
remembered = []

[grid.machu_picchu]
face_down = 4
gone = ["green"]
remembered = ["red"]

[grid.colosseum]
face_down = 3
gone = ["red", "green"]
remembered = ["purple"]

[grid.petra]
face_down = 5
gone = []
remembered = []

[grid.chichen_itza]
face_down = 4
gone = ["yellow"]
remembered = ["blue"]

[grid.angkor_wat]
face_down = 5
gone = []
remembered = []

[grid.stonehenge]
face_down = 4
gone = ["key"]
remembered = []

[grid.easter_island]
face_down = 5
gone = []
remembered = []
"""  # noqa: E501


def test_colorful_treasure_grid_set_by_taps_matches_the_cli(page, url, tmp_path):
    page.goto(f"{url}/game/colorful_treasure")
    # it opens on the CLI's example state, answered as the CLI answers it
    example = subprocess.run(
        [sys.executable, "-m", "analyzer", "advise", "--game", "colorful_treasure", "--example"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    want = ct_cli("advise", example, tmp_path)["choices"]
    page.wait_for_selector("#advice-list li")
    assert ct_shown(page) == [
        [c["choice"], f"{ct_frac(c['exact']['points'])} points"] for c in want[:5]
    ]
    # set a state by taps: one more player, advanced scoring, the gem reward given, and
    # in the grid a card gone, one seen, one mine and a card gone back face down
    page.click('#setup .stepper[data-name="players"] .plus')
    page.click('#setup [data-name="scoring"] [data-value="advanced"]')
    page.click('#setup [data-name="rewards given"] [data-value="gem"]')
    page.click('#brushes [data-value="gone"]')
    page.click('#grid [data-card="machu_picchu green"]')
    page.click('#brushes [data-value="seen"]')
    page.click('#grid [data-card="colosseum purple"]')
    page.click('#brushes [data-value="mine"]')
    page.click('#grid [data-card="pyramids yellow"]')
    page.click('#grid [data-card="pyramids red"]')  # a second tap: back face down...
    page.click('#grid [data-card="pyramids red"]')  # ...and mine again
    page.click('#brushes [data-value="down"]')
    page.click('#grid [data-card="taj_mahal purple"]')  # a card gone is face down again
    assert page.get_attribute('#grid [data-card="pyramids red"]', "data-state") == "mine"
    advice = ct_cli("advise", CT_TAPPED, tmp_path)
    odds = ct_cli("odds", CT_TAPPED, tmp_path)
    assert page.evaluate("stateToml()") == CT_TAPPED
    page.wait_for_function(
        "c => { const e = document.querySelector('#advice-list li'); "
        "return e && e.dataset.choice === c; }",
        arg=advice["choices"][0]["choice"],
    )
    page.click("#all-choices")  # every choice, ranked as the CLI ranks them
    page.wait_for_function(
        "n => document.querySelectorAll('#advice-list li').length === n", arg=len(advice["choices"])
    )
    assert ct_shown(page) == [
        [c["choice"], f"{ct_frac(c['exact']['points'])} points"] for c in advice["choices"]
    ]
    best = advice["choices"][0]
    bar = page.text_content("#answer-bar")
    assert bar.endswith(f", {ct_frac(best['exact']['points'])} points this turn")
    # the chance of each card of each face-down place, exact and as a percentage
    shown = page.eval_on_selector_all(
        "#places-list [data-place]",
        "els => els.map(e => [e.dataset.place, [...e.querySelectorAll('[data-kind]')]"
        ".map(k => [k.dataset.kind, k.textContent.trim()])])",
    )
    want_places = ct_places(odds)
    assert [k for k, _ in shown] == list(want_places)
    for key, kinds in shown:
        for kind, text in kinds:
            f = want_places[key][kind]
            a, _, b = f.partition("/")
            assert text == (
                f"{kind} {f} = {100 * int(a) / int(b):.1f}%" if b else f"{kind} {100 * int(a)}%"
            )
    assert page.text_content("#assumed") == "Assumed: " + "; ".join(advice["assumed"]) + "."
    assert "3 players, advanced scoring" in page.text_content("#assumed")


def test_colorful_treasure_deep_advice_only_where_the_api_gives_it(page, url, tmp_path):
    page.goto(f"{url}/game/colorful_treasure")
    page.wait_for_selector("#advice-list li")
    state = page.evaluate("stateToml()")
    path = tmp_path / "turn.toml"
    path.write_text(state, "utf-8")
    deep = subprocess.run(
        [sys.executable, "-m", "analyzer", "advise", "--game", "colorful_treasure", str(path),
         "--deep", "--budget", "200", "--seed", "1", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    games = page.evaluate("api('/api/games').then(r => r.data)")
    offered = next(g for g in games if g["name"] == "colorful_treasure")["deep"]
    assert offered is (deep.returncode == 0)
    page.wait_for_function("o => document.getElementById('deep-box').hidden === !o", arg=offered)
    if not offered:  # an advise that refuses --deep (or its options): not offered
        assert deep.returncode == 2 and "Traceback" not in deep.stderr
        return
    page.click("#deep-go")
    page.wait_for_selector("#deep-table", timeout=240_000)
    rows = page.eval_on_selector_all(
        "#deep-table tr[data-choice]", "els => els.map(e => e.dataset.choice)"
    )
    assert sorted(rows) == sorted(c["choice"] for c in json.loads(deep.stdout)["choices"])
    assert page.text_content("#answer-bar").startswith("deep advice: ")


def test_the_generic_page_names_the_game_and_offers_deep_only_if_answered(
    page, url, tmp_path, monkeypatch
):
    """A game without a page of its own (Colorful Treasure's page hidden here): its
    example state as text, the command named with the game, no deep advice offered
    where its advise refuses --deep, and the answer the CLI's."""
    from analyzer.colorful_treasure.plugin import ColorfulTreasure

    monkeypatch.setattr(ColorfulTreasure, "web_page", lambda self: None)
    page.goto(f"{url}/game/colorful_treasure")
    page.wait_for_function("() => document.querySelector('#state').value")
    cmd = "analyzer advise --game colorful_treasure STATE.toml"
    wait_text(page, "#command", cmd)
    games = page.evaluate("api('/api/games').then(r => r.data)")
    offered = next(g for g in games if g["name"] == "colorful_treasure")["deep"]
    page.wait_for_function("o => document.getElementById('deep').hidden === !o", arg=offered)
    page.click("#go")
    page.wait_for_selector("#out pre")
    state = page.input_value("#state")
    assert json.loads(page.text_content("#out pre")) == ct_cli("advise", state, tmp_path)


def uruk_cli(state: str, tmp_path: Path, *args: str) -> dict:
    path = tmp_path / "uruk.toml"
    path.write_text(state, "utf-8")
    return cli_json("advise", "--game", "uruk", str(path), *args)


def uruk_shown(pg) -> list[list[str]]:
    return pg.eval_on_selector_all(
        "#advice-list li",
        "els => els.map(e => [e.dataset.choice, e.querySelector('.value').textContent])",
    )


def uruk_row(c: dict) -> list[str]:
    return [c["choice"], ": " + c["words"]]  # the value with its unit, as the CLI words it


# the example state after the taps of the test below (each line checked against the taps)
URUK_DISCARD = (  # the discard pile by counts (its order is not needed)
    "{ statuette = 1, flaschenzug = 1, gewoelbe = 1, duerre = 1, leier = 1, astronomie = 1, "
    "zikkurat = 1, waage = 1, muenzwesen = 1, kanalisation = 1 }"
)
URUK_TAPPED = f"""\
me = "anna"
decision = "action"
actions_left = 2
functions_used = ["lehmhaus"]
display = ["zahnrad", "zisterne", "wasseruhr"]
epochs = [1, 6, 4, 3]
discard_counts = {URUK_DISCARD}

[[seat]]
name = "anna"
inventions = {{ lehmhaus = "village", brennofen = "none" }}
resources = {{ red = 3, yellow = 1 }}
hand = ["tonrohr", "tonrohr", "rollenprinzip", "wasserrad"]

[[seat]]
name = "ben"
inventions = {{ tongefaess = "village", domestizierung = "city" }}
resources = {{ pink = 3, blue = 1 }}
cards = 4
"""


def test_uruk_state_set_by_taps_matches_the_cli(page, url, tmp_path):
    page.goto(f"{url}/game/uruk")
    # it opens on the CLI's example (the file `advise --game uruk --example` prints)
    example = resources.files("analyzer.uruk").joinpath("examples", "table.toml")
    want = cli_json("advise", "--game", "uruk", str(example))["choices"]
    page.wait_for_selector("#advice-list li")
    assert uruk_shown(page) == [uruk_row(c) for c in want[:8]]
    page.click('#decision .stepper[data-name="actions_left"] .minus')
    page.click('#decision [data-name="functions used"] [data-value="lehmhaus"]')
    page.click('#centre [data-list="display"] [data-card="leier"]')  # a tap removes it
    page.click('#centre [data-add="display"]')
    page.click('#centre [data-picker="display"] [data-value="wasseruhr"]')
    page.click('#centre [data-name="epoch I"] .minus')
    page.click('[data-seat="anna"] [data-list="hand"] [data-card="segelschiff"]')
    page.click('[data-seat="anna"] [data-name="res red"] .plus')
    page.click('[data-seat="ben"] [data-name="cards"] .minus')
    page.click('[data-seat="ben"] [data-inv="domestizierung"]')  # village -> city
    # a card whose copies are all placed cannot be picked
    page.click('[data-seat="anna"] [data-add="hand"]')
    assert page.is_disabled('[data-picker="hand"] [data-value="lehmhaus"]')  # its 1 copy is anna's
    page.click('[data-seat="anna"] [data-add="hand"]')  # done
    assert page.evaluate("stateToml()") == URUK_TAPPED
    advice = uruk_cli(URUK_TAPPED, tmp_path)
    page.wait_for_function(
        "c => { const e = document.querySelector('#advice-list li'); "
        "return e && e.dataset.choice === c && !document.querySelector('#advice-error'); }",
        arg=advice["choices"][0]["choice"],
    )
    page.click("#all-choices")
    page.wait_for_function(
        "n => document.querySelectorAll('#advice-list li').length === n", arg=len(advice["choices"])
    )
    assert uruk_shown(page) == [uruk_row(c) for c in advice["choices"]]
    best = advice["choices"][0]
    assert page.text_content("#answer-bar") == "best: " + "".join(uruk_row(best)).replace(
        ": ", ", ", 1
    )
    assert page.text_content("#assumed") == "Assumed: " + "; ".join(advice["assumed"]) + "."
    # my secret bid against a disaster drawn after ben's turn
    page.click('#decision [data-name="decide"] [data-value="secret_bid"]')
    assert page.is_disabled('#decision [data-name="disaster"] [data-value="duerre"]')  # discarded
    page.click('#decision [data-name="disaster"] [data-value="vulkanausbruch"]')
    page.click('#decision [data-name="after whose turn"] [data-value="ben"]')
    state = page.evaluate("stateToml()")
    assert state.startswith('me = "anna"\ndecision = "secret_bid"\ngod = "vulkanausbruch"\n'
                            'trigger = "ben"\ndisplay = ')  # fmt: skip
    bids = uruk_cli(state, tmp_path)
    assert bids["decision"] == "secret_bid"
    page.wait_for_function(
        "n => document.querySelectorAll('#advice-list li').length === n "
        "&& document.querySelector('#advice-list li').dataset.choice.startsWith('bid ')",
        arg=len(bids["choices"]),  # all: "show all" is still on
    )
    assert uruk_shown(page) == [uruk_row(c) for c in bids["choices"]]


def test_uruk_deep_advice_only_where_the_api_gives_it(page, url, tmp_path):
    page.goto(f"{url}/game/uruk")
    page.wait_for_selector("#advice-list li")
    state = page.evaluate("stateToml()")
    path = tmp_path / "uruk.toml"
    path.write_text(state, "utf-8")
    deep = subprocess.run(
        [sys.executable, "-m", "analyzer", "advise", "--game", "uruk", str(path), "--deep",
         "--budget", "40", "--seed", "1", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    games = page.evaluate("api('/api/games').then(r => r.data)")
    offered = next(g for g in games if g["name"] == "uruk")["deep"]
    assert offered is (deep.returncode == 0)
    page.wait_for_function("o => document.getElementById('deep-box').hidden === !o", arg=offered)
    if not offered:
        return
    page.click("#deep-go")
    page.wait_for_selector("#deep-table", timeout=240_000)
    rows = page.eval_on_selector_all(
        "#deep-table tr[data-choice]", "els => els.map(e => e.dataset.choice)"
    )
    assert sorted(rows) == sorted(c["choice"] for c in json.loads(deep.stdout)["choices"])


@pytest.mark.parametrize("game", ["colorful_treasure", "uruk"])
def test_deep_advice_view_shows_a_deep_answer_with_its_progress(page, url, game):
    """The deep-advice part of a page whose game's advise may not answer --deep yet:
    the server's answers are stood in for (the games list says deep advice is offered,
    and a deep answer in the shape of Unearth's arrives after a second), so the button,
    the progress bar and the table of win chances are exercised either way."""
    answer = {
        "seed": 7,
        "rollouts": 1200,
        "assumed": ["every seat plays tuned"],
        "within_noise_of_best": ["second choice"],
        "choices": [
            {"choice": "first choice", "win": 0.5, "win_ci95": [0.45, 0.55], "score": 31.0,
             "score_ci95": [30.5, 31.5]},
            {"choice": "second choice", "win": 0.48, "win_ci95": [0.43, 0.53], "score": 30.0,
             "score_ci95": [29.5, 30.5]},
        ],
    }  # fmt: skip

    def games(route):
        listed = route.fetch().json()
        for g in listed:
            g["deep"] = g["deep"] or g["name"] == game
        route.fulfill(json=listed)

    def advise(route):
        if json.loads(route.request.post_data or "{}").get("deep"):
            page.wait_for_timeout(1000)
            route.fulfill(json=answer)
        else:
            route.continue_()

    page.route("**/api/games", games)
    page.route(f"**/api/{game}/advise", advise)
    page.goto(f"{url}/game/{game}")
    page.wait_for_selector("#advice-list li")
    page.wait_for_selector("#deep-go", state="visible")
    page.click("#deep-go")
    page.wait_for_selector("#deep-out .progress")
    assert page.is_disabled("#deep-go")  # one deep advice at a time
    page.wait_for_selector("#deep-table")
    rows = page.eval_on_selector_all(
        "#deep-table tr[data-choice]",
        "els => els.map(e => [e.dataset.choice, ...[...e.cells].map(c => c.textContent)])",
    )
    assert rows == [
        ["first choice", "first choice ★", "50.0% [45.0%, 55.0%]", "31.0 [30.5, 31.5]"],
        ["second choice", "second choicewithin noise of the best (the rollouts cannot tell "
         "them apart)", "48.0% [43.0%, 53.0%]", "30.0 [29.5, 30.5]"],
    ]  # fmt: skip
    assert "1,200 rollouts, seed 7. Assumed: every seat plays tuned." in page.text_content(
        "#deep-out"
    )
    assert page.text_content("#answer-bar") == "deep advice: first choice, win chance 50.0%"
