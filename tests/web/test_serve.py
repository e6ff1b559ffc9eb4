"""analyzer serve: the JSON API answers exactly what the CLI prints with --json, bad input
is a 400 with one line naming the field, the pages and the saved reports are served.

Through Starlette's test client (no socket) and, for concurrency, a real uvicorn server
on a loopback port. The pages in a real browser: tests/web/test_serve_browser.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient  # on httpx2 (the test extra)

from analyzer.web import serve
from tests.serving import running_server

#: a body sent as raw bytes says it is JSON (the server takes nothing else)
JSON = {"content-type": "application/json"}
SEVEN = {"claim": 17, "dice": "a:d8,b:d6,a:d6,b:d4,a:d6,b:d6,a:d4"}


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("reports")
    good = root / "first_player"
    good.mkdir()
    (good / "report.html").write_text("<html><body>a report</body></html>", encoding="utf-8")
    (good / "manifest.json").write_text(json.dumps({"game": "unearth"}), encoding="utf-8")
    (root / "half_written").mkdir()  # no report.html: not a report
    (root / "notes.txt").write_text("not a folder", encoding="utf-8")
    secret = tmp_path_factory.mktemp("elsewhere")
    (secret / "report.html").write_text("a secret", encoding="utf-8")
    (root / "linked_out").symlink_to(secret)  # a folder that leads out of reports/
    (root / "file_out").mkdir()
    (root / "file_out" / "report.html").symlink_to(secret / "report.html")
    return root


@pytest.fixture(scope="module")
def client(reports):
    # a name the server answers to (Starlette's "testserver" is not one)
    with TestClient(serve.make_app(reports, warm=False), base_url="http://localhost") as c:
        yield c


def test_odds_answer_is_exactly_the_cli_json(client):
    r = client.post("/api/unearth/odds", json=SEVEN)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    done = cli("odds", "--claim", "17", "--dice", SEVEN["dice"], "--json")
    assert done.returncode == 0
    assert r.text == done.stdout
    assert json.loads(r.text)["exact"]["p_claim"] == "4891/5184"


def test_odds_flags_lists_and_dashed_names(client):
    fields = {
        "claim": 15,
        "dice": "me:d8,you:d6=6,you:d6=4",
        "ancient-map": True,
        "wonder": ["columns=me"],
        "goal": "stone",
    }
    r = client.post("/api/unearth/odds", json=fields)
    done = cli(
        "odds", "--claim", "15", "--dice", fields["dice"], "--ancient-map",
        "--wonder", "columns=me", "--goal", "stone", "--json",
    )  # fmt: skip
    assert r.status_code == 200 and r.text == done.stdout


@pytest.mark.slow
def test_advise_takes_the_example_state_as_text(client, tmp_path):
    example = client.get("/api/unearth/example")
    assert example.status_code == 200
    assert example.text == cli("advise", "--example").stdout
    path = tmp_path / "table.toml"
    path.write_text(example.text, encoding="utf-8")
    r = client.post("/api/unearth/advise", json={"state": example.text, "goal": "stone"})
    done = cli("advise", str(path), "--goal", "stone", "--json")
    assert r.status_code == 200 and r.text == done.stdout
    assert json.loads(r.text)["choices"]


@pytest.mark.parametrize(
    ("fields", "starts"),
    [
        ({"claim": "x", "dice": "a:d8"}, "claim: bad value 'x'"),
        ({"claim": 99999999999999999999999, "dice": "a:d8"}, "claim: bad value"),
        ({"claim": 13, "dice": "a:d9"}, "dice:"),
        ({"claim": 13, "dice": "a:d8", "me": "zz"}, "me: bad value 'zz'"),
        ({"claim": 13, "dice": "a:d8", "chart": "x.png"}, "chart: not allowed from the web"),
        ({"claim": 13, "dice": "a:d8", "force": True}, "force: not allowed from the web"),
        ({"claim": 13, "dice": "a:d8", "out": "x"}, "out: not allowed from the web"),
        ({"claim": 13, "dice": "a:d8", "colour": "red"}, "colour: unknown field (allowed:"),
        ({"claim": 13, "dice": "a:d8", "reading_the_stones": "yes"}, "reading_the_stones: must"),
        ({"claim": [13, 14], "dice": "a:d8"}, "claim: one value, not a list"),
        ({"claim": {"a": 1}, "dice": "a:d8"}, "claim: must be a string or a number"),
        ({"claim": 13, "dice": "a:d8", "game": "uruk"}, "game: the game is in the path"),
    ],
)
def test_bad_odds_input_is_one_line_naming_the_field(client, fields, starts):
    r = client.post("/api/unearth/odds", json=fields)
    assert r.status_code == 400, r.text
    err = r.json()["error"]
    assert err.startswith(starts), err
    assert "\n" not in err and "Traceback" not in err and "--" not in err.split(":")[0]


def test_bad_advise_input(client):
    r = client.post("/api/unearth/advise", json={"state": "me = \n"})
    assert r.status_code == 400 and r.json()["error"].startswith("state")
    assert "analyzer-serve-" not in r.json()["error"]  # no temporary path leaks
    r = client.post("/api/unearth/advise", json={"state": 3})
    assert r.status_code == 400 and r.json()["error"].startswith("state: must be the TOML")
    r = client.post("/api/unearth/advise", json={"state": "x", "deep": True, "budget": 10**9})
    assert r.status_code == 400 and r.json()["error"].startswith("budget: 1000000000 is above")
    r = client.post("/api/unearth/advise", json={"example": True})
    assert r.status_code == 400 and r.json()["error"].startswith("example: not allowed")


def test_bad_requests(client):
    assert client.post("/api/unearth/odds", content=b"{not json", headers=JSON).status_code == 400
    assert (
        client.post("/api/unearth/odds", content=b"[1, 2]", headers=JSON)
        .json()["error"]
        .startswith("the body must be one JSON object")
    )
    assert (
        client.post(
            "/api/unearth/odds", content=b"x" * (serve.MAX_BODY + 1), headers=JSON
        ).status_code
        == 413
    )
    assert client.post("/api/nogame/odds", json=SEVEN).status_code == 404
    assert client.post("/api/unearth/simulate", json={}).status_code == 404
    assert client.get("/api/unearth/odds").status_code == 405


def test_pages_and_games(client):
    games = client.get("/api/games").json()
    unearth = next(g for g in games if g["name"] == "unearth")
    assert unearth["odds"] and unearth["advise"] and unearth["page"]
    home = client.get("/")
    assert home.status_code == 200 and "Odds and advice at the table" in home.text
    page = client.get("/game/unearth")
    assert page.status_code == 200 and "Unearth at the table" in page.text
    assert 'name="viewport"' in page.text
    for g in games:  # every game has a page (its own or the generic one)
        assert client.get(f"/game/{g['name']}").status_code == 200
    assert client.get("/game/nogame").status_code == 404


def test_games_say_the_deep_advice_estimate_from_the_rate_measured_here(
    client, monkeypatch, tmp_path
):
    """/api/games gives each game's deep advice price on this machine (what the page's
    bar counts against): the default budget over the last rate recorded here; null for a
    game without deep advice."""
    from analyzer.games import deep_rate as deep

    rates = tmp_path / deep.RATES_FILE
    rates.write_text(json.dumps({"unearth": 4_000.0}), "utf-8")
    monkeypatch.setattr(deep, "_rates_path", lambda: rates)
    monkeypatch.setattr(serve, "deep_offered", lambda game: game == "unearth")
    games = {g["name"]: g for g in client.get("/api/games").json()}
    budget, recorded_rate = 12_000, 4_000.0  # no clock: the estimate is budget / rate
    assert games["unearth"]["deep_rollouts"] == budget
    assert games["unearth"]["deep_seconds"] == budget / recorded_rate
    assert games["unearth"]["deep_estimate"] == (
        "deep advice: 12,000 rollouts, about 3 s on this machine"
    )
    offers_none = [g for name, g in games.items() if name != "unearth"]
    assert all(g["deep_seconds"] is None and g["deep_rollouts"] is None for g in offers_none)


@pytest.mark.slow
def test_deep_advice_offered_exactly_where_the_api_answers_it(client, monkeypatch):
    """/api/games says which games' advise answers --deep: asked of the API itself once
    (a game's advise may have --deep and refuse it), so a page offers it only then."""
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["unearth"]["deep"] is True
    for g in games.values():
        if not g["advise"]:
            assert g["deep"] is False
    ct = client.get("/api/colorful_treasure/example").text
    refused = client.post("/api/colorful_treasure/advise", json={"state": ct, "deep": True})
    # whichever version of the game is installed, the flag says what the API does
    assert games["colorful_treasure"]["deep"] is (refused.status_code == 200)
    # an advise that refuses --deep: not offered; one that answers it: offered
    asked = []

    def fake(status):
        def answer(game, kind, fields):
            asked.append(fields)
            return status, json.dumps({"error": "advise: deep is not available"})

        return answer

    for status, offered in ((400, False), (200, True)):
        monkeypatch.setattr(serve, "_DEEP", {})
        monkeypatch.setattr(serve, "answer", fake(status))
        assert serve.deep_offered("unearth") is offered
        assert asked[-1]["deep"] is True and asked[-1]["budget"] == 2
        assert asked[-1]["state"].startswith("# ")  # the game's example state
    n = len(asked)
    assert serve.deep_offered("unearth") is True and len(asked) == n  # asked once


@pytest.mark.slow
def test_colorful_treasure_page_and_its_odds_and_advice(client, tmp_path):
    page = client.get("/game/colorful_treasure").text
    assert "Colorful Treasure at the table" in page and "{{WONDERS}}" not in page
    assert '"great_wall", "name": "Great Wall", "cards": ["red", "yellow", "blue"' in page
    state = client.get("/api/colorful_treasure/example").text
    path = tmp_path / "turn.toml"
    path.write_text(state, "utf-8")
    for kind in ("odds", "advise"):
        r = client.post(f"/api/colorful_treasure/{kind}", json={"state": state})
        done = cli(kind, "--game", "colorful_treasure", str(path), "--json")
        assert r.status_code == 200 and r.text == done.stdout


@pytest.mark.slow
def test_uruk_page_and_its_advice(client, tmp_path):
    page = client.get("/game/uruk").text
    assert "Uruk at the table" in page and "{{CARDS}}" not in page
    assert '"id": "lehmhaus", "name": "Lehmhaus", "colour": "red", "level": 1' in page
    state = client.get("/api/uruk/example").text
    path = tmp_path / "uruk.toml"
    path.write_text(state, "utf-8")
    r = client.post("/api/uruk/advise", json={"state": state})
    done = cli("advise", "--game", "uruk", str(path), "--json")
    assert r.status_code == 200 and r.text == done.stdout


def test_saved_reports_listed_and_served(client):
    listed = client.get("/api/reports").json()
    assert [r["name"] for r in listed] == ["first_player"]
    assert listed[0]["game"] == "unearth"
    r = client.get("/reports/first_player/report.html")
    assert r.status_code == 200 and "a report" in r.text
    for bad in ("half_written", "..", "%2e%2e", "notes.txt", "linked_out", "file_out"):
        assert client.get(f"/reports/{bad}/report.html").status_code == 404


_FIELDS = ["claim", "dice", "me", "ruin_stones", "bag", "reading_the_stones", "ancestral_claim",
           "ancient_map", "event", "wonder", "goal", "chart", "force", "junk", "json"]  # fmt: skip
_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["a:d8", "a:d6=3,b:d4", "me:d8,you:d6=6", "x:d8=9", "claim", "festival"]),
    st.lists(st.sampled_from(["columns=a", "college=b", "nope"]), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@pytest.mark.slow
@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.dictionaries(st.sampled_from(_FIELDS), _VALUES, max_size=6))
def test_fuzzed_odds_requests_never_fail_inside(client, fields):
    """Any JSON object: an answer (200) or bad input (400), one line; never a 500. The
    dice strings are small, so every valid question is cheap."""
    body = json.dumps(fields)  # Python's JSON: NaN and Infinity too, as a client may send
    r = client.post("/api/unearth/odds", content=body.encode(), headers=JSON)
    assert r.status_code in (200, 400), (fields, r.text)
    if r.status_code == 400:
        err = r.json()["error"]
        assert err and "\n" not in err and "Traceback" not in err
    else:
        assert "p_claim" in r.json()


@pytest.fixture(scope="module")
def server(reports):
    # every deep advice of a burst waits its turn here: the answers under load are
    # tested, the queue's limit (a 429) is test_serve_security's
    with running_server(reports, deep_queue=64) as url:
        yield url


def _post(url: str, body: dict) -> tuple[int, str]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=120) as res:
            return res.status, res.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


@pytest.mark.slow
def test_fifty_concurrent_requests_all_answered_correctly(server):
    """50 odds questions at once (five kinds, ten of each) over loopback: every answer is
    the one the same question gets alone, none lost; the server still serves after."""
    questions = [
        {"claim": c, "dice": d}
        for c, d in [
            (13, "blue:d6=5,blue:d6=3,red:d8"),
            (9, "me:d6,me:d4"),
            (15, "me:d8,you:d6=6,you:d6=4"),
            (9, "a:d4,b:d4,a:d6"),
            (17, "a:d8,b:d6,a:d6"),
        ]
    ] * 10
    alone = {json.dumps(q): _post(f"{server}/api/unearth/odds", q) for q in questions[:5]}
    with ThreadPoolExecutor(max_workers=50) as pool:
        got = list(pool.map(lambda q: _post(f"{server}/api/unearth/odds", q), questions))
    assert len(got) == 50
    # how many failed and what each said (a 500's traceback is in the captured log)
    answers = list(zip(questions, got, strict=True))
    failed = [(q, status, body) for q, (status, body) in answers if status != 200]
    assert not failed, (f"{len(failed)} of 50 failed", failed[:3], [s for s, _ in alone.values()])
    for q, (_, body) in answers:
        assert body == alone[json.dumps(q)][1]
    assert _post(f"{server}/api/unearth/odds", SEVEN)[0] == 200


def test_a_500_leaves_its_traceback_in_the_servers_log(monkeypatch, caplog):
    """A request that fails inside (an internal error: a 500) answers its one line, and
    the server logs the traceback (the one line alone said too little to find a rare
    500 once); bad input (a 400) logs nothing."""
    from analyzer.unearth import odds_cost

    def planted(question, rules=None):
        raise RuntimeError("planted failure")

    monkeypatch.setattr(odds_cost, "exact_odds", planted)
    with caplog.at_level("ERROR", logger="analyzer.web.serve"):
        status, body = serve.answer("unearth", "odds", SEVEN)
        assert serve.answer("unearth", "odds", {"claim": "x", "dice": "a:d8"})[0] == 400
    assert status == 500
    assert json.loads(body)["error"].startswith("internal error (RuntimeError: planted failure)")
    logged = [r for r in caplog.records if r.name == "analyzer.web.serve"]
    assert len(logged) == 1, [r.getMessage() for r in logged]
    assert "exit code 3" in logged[0].getMessage() and '"claim": 17' in logged[0].getMessage()
    assert "planted failure" in caplog.text and "in planted" in caplog.text  # the traceback


def test_state_that_is_not_utf8_text_is_a_400(client):
    """A lone surrogate (valid JSON "\\ud800") cannot be written as a file: one line."""
    r = client.post("/api/unearth/advise", content=b'{"state": "me = \\"\\ud800\\""}', headers=JSON)
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith("state: ")


@pytest.mark.parametrize("budget", ["200000", " 100001", "1_000_000", 200000.0])
def test_the_web_budget_limit_holds_for_any_spelling(client, budget):
    state = client.get("/api/unearth/example").text
    r = client.post("/api/unearth/advise", json={"state": state, "deep": True, "budget": budget})
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith("budget: "), r.text


def test_error_lines_name_fields_not_options(client):
    """The command's line names options the request did not send too (--seed, --deep):
    the web says field names."""
    state = client.get("/api/unearth/example").text
    r = client.post("/api/unearth/advise", json={"state": state, "budget": 10})
    assert r.status_code == 400
    assert "--" not in r.json()["error"], r.json()["error"]


def test_a_port_in_use_is_one_line_before_any_engine_loads(capsys):
    import socket

    from analyzer.cli import run_cli

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = run_cli(["serve", "--port", str(port)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert (
        err[-1] == f"analyzer: error: --port: {port} is in use on 127.0.0.1 (allowed: a free port)"
    )
    assert not any("ERROR" in line or "Traceback" in line for line in err)


def test_host_warning_and_bounds(capsys):
    from analyzer.cli import run_cli

    assert run_cli(["serve", "--port", "0"]) == 2
    assert run_cli(["serve", "--port", "65536"]) == 2
    assert run_cli(["serve", "--host", "my.laptop"]) == 2
    err = capsys.readouterr().err
    assert "--port: bad value 0" in err and "--port: bad value 65536" in err
    assert "--host: bad value 'my.laptop'" in err
    # an address not on this machine: one line (the warning is for an address it serves)
    assert run_cli(["serve", "--host", "192.0.2.1", "--port", "8765"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(
        "analyzer: error: --host: cannot listen on 192.0.2.1:8765"
    ), err


@pytest.mark.slow
def test_concurrent_deep_advice_exact_advice_and_odds_are_each_right(server):
    """Deep advice (seeded), exact advice and odds at once, from threads of one process:
    each answer is the one the same question gets alone (no output, seed or cache of
    one request leaks into another)."""
    example = urllib.request.urlopen(f"{server}/api/unearth/example", timeout=120).read().decode()
    deep = [{"state": example, "deep": True, "budget": 240, "seed": s} for s in (1, 2)]
    exact = [{"state": example}, {"state": example, "goal": "stone"}]
    bad = [{"state": example, "deep": True, "budget": 240, "seed": -1}]
    odds = [{"claim": 13, "dice": "blue:d6=5,blue:d6=3,red:d8"}, SEVEN]
    asks = [("advise", q) for q in deep + exact + bad] + [("odds", q) for q in odds]
    alone = [_post(f"{server}/api/unearth/{kind}", q) for kind, q in asks]
    together = asks * 3
    with ThreadPoolExecutor(max_workers=len(together)) as pool:
        got = list(pool.map(lambda a: _post(f"{server}/api/unearth/{a[0]}", a[1]), together))

    def timeless(answer: tuple[int, str]) -> tuple[int, dict]:
        body = json.loads(answer[1])
        body.pop("seconds", None)  # the deep advice's wall time
        return answer[0], body

    for i, answer in enumerate(got):
        assert timeless(answer) == timeless(alone[i % len(asks)]), asks[i % len(asks)]
    assert [s for s, _ in alone] == [200] * 4 + [400] + [200] * 2
    assert json.loads(alone[0][1])["seed"] == 1 and json.loads(alone[0][1]) != json.loads(
        alone[1][1]
    )


_EXAMPLE = None


def _example_lines(client) -> list[str]:
    global _EXAMPLE
    if _EXAMPLE is None:
        _EXAMPLE = client.get("/api/unearth/example").text.splitlines()
    return _EXAMPLE


_ODD = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(["1e400", "nan", "inf", "-0", "0x10", "true", '"d8"', "[]", "{}", '"é"',
                     '"\\u0000"', '["d8", "d8", "d8"]', '["d12"]', '["blue:d8=9"]', "3.5"]),
    st.text(max_size=8).map(json.dumps),
)  # fmt: skip


@pytest.mark.slow
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    edits=st.lists(st.tuples(st.integers(0, 200), _ODD, st.booleans()), max_size=4),
    junk=st.one_of(st.none(), st.text(st.characters(exclude_categories=()), max_size=30)),
    deep=st.booleans(),
    budget=st.one_of(st.none(), st.integers(-3, 40), st.sampled_from([2**70, "30", "1e3", 1.5])),
    seed=st.one_of(st.none(), st.integers(-(2**65), 2**65), st.sampled_from(["x", 2.0])),
    players=st.one_of(st.none(), st.text(max_size=10), st.sampled_from(
        ["red,yellow", "baseline,baseline", "red", "red,yellow,green", "tuned_balanced,greedy"])),
)  # fmt: skip
def test_fuzzed_advise_requests_never_fail_inside(client, edits, junk, deep, budget, seed, players):
    """The example state with values replaced by hostile ones (huge numbers, unicode,
    wrong types, too many dice), junk appended, and odd deep options: an answer (200)
    or bad input (400) naming its field, one line; never a 500. Deep runs stay small."""
    lines = list(_example_lines(client))
    for at, value, whole in edits:
        i = at % len(lines)
        key = lines[i].split("=")[0].strip() if "=" in lines[i] else "x"
        lines[i] = value if whole else f"{key} = {value}"
    state = "\n".join(lines) + ("\n" + junk if junk else "")
    fields = {"state": state, "deep": deep, "budget": budget, "seed": seed, "players": players}
    if deep and budget is None:
        fields["budget"] = 20  # the default budget is a long run
    r = client.post("/api/unearth/advise", json=fields)
    assert r.status_code in (200, 400), (fields, r.text)
    if r.status_code == 400:
        err = r.json()["error"]
        assert err and "\n" not in err and "Traceback" not in err
        assert err.split(":")[0].split(" ")[0] in (
            "state",
            "budget",
            "seed",
            "players",
            "advise",
        ), err
    else:
        assert "choices" in r.json()


def test_a_question_priced_above_the_limit_does_not_offer_force(client):
    """The command's line says "add --force"; the web cannot take it: it says so."""
    r = client.post("/api/unearth/odds", json={"claim": 40, "dice": ",".join(["a:d8"] * 12)})
    assert r.status_code == 400
    err = r.json()["error"]
    assert err.startswith("dice: the exact enumeration is") and "force" not in err, err
    assert err.endswith("(allowed: about 60 s; the web runs no longer question)"), err


def test_lan_address_is_an_address_or_none():
    import ipaddress

    from analyzer.cli.serve import lan_address

    got = lan_address()
    assert got is None or ipaddress.ip_address(got).version == 4


@pytest.mark.slow
def test_a_long_question_forks_no_child_in_the_server(monkeypatch):
    """The CLI runs a question priced above a second in a forked child (Ctrl-C ends
    it); the server, a process with threads, runs it in the request's thread."""
    import multiprocessing

    from analyzer.unearth import odds_cost

    def no_fork(*a, **k):
        raise AssertionError("forked from the server")

    monkeypatch.setattr(multiprocessing, "get_context", no_fork)
    big = {"claim": 30, "dice": "a:d8,b:d8,a:d8,b:d8,a:d8,b:d8,a:d8,b:d6"}
    assert odds_cost.estimate is not None  # the priced path exists
    status, body = serve.answer("unearth", "odds", big)
    assert status == 200, body
    assert json.loads(body)["claim_value"] == 30


def test_a_value_clicks_type_refuses_is_named_by_its_field(client):
    """click's own line for a refused value ("Invalid value for '--seed': ...") reads
    like every other: the field first."""
    state = client.get("/api/unearth/example").text
    r = client.post("/api/unearth/advise", json={"state": state, "seed": "x"})
    assert r.status_code == 400
    assert r.json()["error"].startswith("seed: "), r.json()["error"]
