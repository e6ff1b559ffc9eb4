"""``analyzer odds|advise --game NAME``: one command per name for every game."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from analyzer.cli import run_cli
from analyzer.cli.table import split_game

CT = ["--game", "colorful_treasure"]


def _out(capsys, args, code=0):
    assert run_cli(args) == code
    return capsys.readouterr()


def test_split_game():
    assert split_game(["a.toml", "--game", "x", "--json"]) == ("x", ["a.toml", "--json"])
    assert split_game(["--game=x", "a.toml"]) == ("x", ["a.toml"])
    assert split_game(["a.toml"]) == (None, ["a.toml"])
    assert split_game(["--", "--game", "x"]) == (None, ["--", "--game", "x"])


def test_unearth_is_the_default_and_unchanged(capsys):
    plain = _out(capsys, ["advise", "--example"]).out
    named = _out(capsys, ["advise", "--game", "unearth", "--example"]).out
    assert plain == named and "analyzer advise" in plain
    assert "--claim" in _out(capsys, ["odds", "--help"]).out


def test_unearth_advise_json_rows_name_their_choice(tmp_path, capsys):
    p = tmp_path / "t.toml"
    p.write_text(_out(capsys, ["advise", "--example"]).out)
    out = json.loads(_out(capsys, ["advise", str(p), "--json"]).out)
    for row in out["choices"]:
        assert row["choice"] == f"{row['die']} on {row['ruin']}"


def test_ct_odds_and_advise(tmp_path, capsys):
    p = tmp_path / "turn.toml"
    p.write_text(_out(capsys, ["odds", *CT, "--example"]).out)
    odds = json.loads(_out(capsys, ["odds", *CT, str(p), "--json"]).out)
    for place in odds["places"]:
        assert sum(Fraction(v) for v in place["chances"].values()) == 1
    adv = json.loads(_out(capsys, ["advise", *CT, str(p), "--json"]).out)
    names = [c["choice"] for c in adv["choices"]]
    assert names == [c["choice"] for c in odds["choices"]]
    assert set(adv["within_noise_of_best"]) <= set(names[1:])
    pts = [Fraction(c["exact"]["points"]) for c in adv["choices"]]
    assert pts == sorted(pts, reverse=True)
    assert "Best: reveal" in _out(capsys, ["advise", *CT, str(p)]).out


def test_bad_input_is_one_line(tmp_path, capsys):
    err = _out(capsys, ["odds", "--game", "uruk", "x.toml"], 2).err
    assert err.count("\n") == 1 and "colorful_treasure, unearth" in err
    err = _out(capsys, ["advise", "--game", "uruk", "x.toml"], 2).err
    assert err.count("\n") == 1 and "x.toml: no such file" in err
    p = tmp_path / "bad.toml"
    p.write_text("players = 9\n[grid.pyramids]\nface_down = 5\n")
    err = _out(capsys, ["odds", *CT, str(p)], 2).err
    assert err.count("\n") == 1 and "players" in err and "Traceback" not in err
    err = _out(capsys, ["advise", *CT, str(p), "--deep"], 2).err
    assert err.count("\n") == 1 and "players" in err and "Traceback" not in err


def test_serve_answers_each_games_table_commands():
    from analyzer.web import serve

    status, text = serve.example("colorful_treasure")
    assert status == 200 and "[grid." in text
    status, body = serve.answer("colorful_treasure", "advise", {"state": text})
    assert status == 200 and json.loads(body)["choices"][0]["choice"]
    assert serve.answer("uruk", "odds", {})[0] == 404
    flags = {g["name"]: (g["odds"], g["advise"]) for g in serve.games_list()}
    assert flags["colorful_treasure"] == (True, True) and flags["uruk"] == (False, True)


def test_threads_never_share_a_built_table_command():
    """typer's wrapper of a command's function keeps one dict of arguments per built
    command: two threads running one built command at once could swap arguments
    (``analyzer serve`` answered a request with another's claim). Each thread
    builds its own; the help is not extended again by a second build."""
    import threading

    from analyzer.cli import _register_commands, app
    from analyzer.cli.table import GAMES

    if not app.registered_commands:
        _register_commands()
    got = []
    t = threading.Thread(target=lambda: got.append(GAMES["odds"].get("unearth")))
    t.start()
    t.join()
    mine = GAMES["odds"].get("unearth")
    assert mine is GAMES["odds"].get("unearth")  # built once per thread
    assert got[0] is not mine
    assert mine.help == got[0].help and mine.help.count("--game NAME picks the game") == 1


@pytest.mark.slow
def test_concurrent_odds_in_one_process_each_get_their_own_answer():
    """Many threads asking different odds questions in one process at once (as
    ``analyzer serve`` does, a request a thread): each answer is its own question's."""
    from concurrent.futures import ThreadPoolExecutor

    from analyzer.web import serve

    claims = [2 + (i % 9) for i in range(64)]  # 2 to 10: every total the dice reach

    def ask(claim):
        status, body = serve.answer("unearth", "odds", {"claim": claim, "dice": "me:d6,you:d4"})
        assert status == 200, body
        return json.loads(body)["claim_value"]

    ask(9)  # the first question imports its modules
    with ThreadPoolExecutor(max_workers=16) as pool:
        assert list(pool.map(ask, claims)) == claims
