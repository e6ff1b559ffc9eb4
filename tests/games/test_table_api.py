"""The table questions as a library: ``analyzer.odds`` and ``analyzer.advise``.

They answer what ``analyzer odds``/``advise --json`` print (the same JSON, the
same tables), for each game's example states; bad input raises ``InputError``
naming the parameter by its Python name, which the CLI spells as its option and
the web as its field, from the error itself (no rewriting of lines).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest

import analyzer
from analyzer.cli import run_cli
from analyzer.core.errors import InputError, Lift, Param, ParamError
from analyzer.games import table

CT = ["--game", "colorful_treasure"]
UR = ["--game", "uruk"]
#: the odds examples of ``analyzer odds --help`` (Unearth), as options and as the CLI
UNEARTH_ODDS = [
    ({"claim": 13, "dice": "blue:d6=5,blue:d6=3,red:d8"},
     ["--claim", "13", "--dice", "blue:d6=5,blue:d6=3,red:d8"]),
    ({"claim": 13, "dice": "blue:d6=5,blue:d6=3,red:d8", "reading_the_stones": True},
     ["--claim", "13", "--dice", "blue:d6=5,blue:d6=3,red:d8", "--reading-the-stones"]),
    ({"claim": 15, "dice": "me:d8,you:d6=6,you:d6=4", "ancient_map": True,
      "wonder": ["columns=me"]},
     ["--claim", "15", "--dice", "me:d8,you:d6=6,you:d6=4", "--ancient-map", "--wonder",
      "columns=me"]),
    ({"claim": 11, "dice": "me:d6,me:d4", "event": "festival", "goal": "stone"},
     ["--claim", "11", "--dice", "me:d6,me:d4", "--event", "festival", "--goal", "stone"]),
]  # fmt: skip


def _cli(capsys, args) -> str:
    assert run_cli(args) == 0
    return capsys.readouterr().out


def _timeless(text: str) -> dict:
    """A deep answer's JSON without its wall time."""
    out = json.loads(text)
    out.pop("seconds")
    return out


def _example(tmp_path, game: str):
    path = tmp_path / f"{game}.toml"
    path.write_text(table.example(game), "utf-8")
    return path


@pytest.mark.parametrize(("question", "args"), UNEARTH_ODDS)
def test_unearth_odds_json_and_tables_are_the_clis(capsys, monkeypatch, question, args):
    monkeypatch.setenv("COLUMNS", "100")  # the CLI's tables as wide as Answer.text's
    answer = analyzer.odds("unearth", **question)
    assert answer.to_json() + "\n" == _cli(capsys, ["odds", *args, "--json"])
    assert answer.text(width=100) == _cli(capsys, ["odds", *args])
    assert answer.game == "unearth" and answer.question == "odds"
    assert answer.value.question.claim_value == question["claim"]


@pytest.mark.parametrize(
    ("game", "verb", "options", "args"),
    [
        ("unearth", "advise", {}, []),
        ("unearth", "advise", {"goal": "stone"}, ["--goal", "stone"]),
        ("colorful_treasure", "odds", {}, CT),
        ("colorful_treasure", "odds", {"top": 0}, [*CT, "--top", "0"]),
        ("colorful_treasure", "advise", {"top": 3}, [*CT, "--top", "3"]),
        ("uruk", "advise", {}, UR),
        ("uruk", "advise", {"top": 0}, [*UR, "--top", "0"]),
    ],
)
def test_each_games_example_answers_as_the_cli(tmp_path, capsys, monkeypatch, game, verb,
                                               options, args):  # fmt: skip
    monkeypatch.setenv("COLUMNS", "100")
    path = _example(tmp_path, game)
    ask = analyzer.odds if verb == "odds" else analyzer.advise
    answer = ask(game, path.read_text("utf-8"), **options)
    assert answer.to_json() + "\n" == _cli(capsys, [verb, *args, str(path), "--json"])
    assert answer.text(width=100) == _cli(capsys, [verb, *args, str(path)])
    # the same state as a path, as text and as a dict: the same answer
    for state in (path, str(path), tomllib.loads(path.read_text("utf-8"))):
        assert ask(game, state, **options).to_json() == answer.to_json()


@pytest.mark.parametrize(
    ("game", "args", "extra"),
    [
        ("unearth", [], {"players": "yellow,red"}),
        ("colorful_treasure", CT, {}),
        ("uruk", UR, {}),
    ],
)
def test_deep_advice_answers_as_the_cli(tmp_path, capsys, game, args, extra):
    path = _example(tmp_path, game)
    answer = analyzer.advise(game, path, deep=True, budget=120, seed=3, **extra)
    more = [w for k, v in extra.items() for w in (f"--{k}", v)]
    cli = _cli(capsys, ["advise", *args, str(path), "--deep", "--budget", "120", "--seed", "3",
                        *more, "--json"])  # fmt: skip
    assert _timeless(answer.to_json()) == _timeless(cli)
    assert answer.value.seed == 3 and "rollouts in" in answer.text()


def test_bad_input_names_the_parameter_by_its_python_name(tmp_path):
    cases = [
        (lambda: analyzer.odds("unearth", claim="x", dice="a:d6"), "claim", "claim: bad value 'x'"),
        (lambda: analyzer.odds("unearth", claim=9, dice="a:d6", ruin_stones=-1), "ruin_stones",
         "ruin_stones: bad value -1"),
        (lambda: analyzer.odds("unearth", claim=9, dice="a:d9"), "dice", "dice: 'a:d9': bad value"),
        (lambda: analyzer.odds("unearth", claim=9, dice="a:d6", wonder=["palace=a"]), "wonder",
         "wonder: bad value"),
        (lambda: analyzer.odds("unearth", claim=9, dice="a:d6", colour="red"), "colour",
         "colour: not an option of odds"),
        (lambda: analyzer.odds("unearth", claim=9, dice="a:d6", ancient_map="yes"), "ancient_map",
         "ancient_map: must be true or false"),
        (lambda: analyzer.odds("uruk"), "game", "game: 'uruk' has no odds question"),
        (lambda: analyzer.odds("chess"), "game", "game: bad value 'chess'"),
        (lambda: analyzer.advise("uruk", None), "state", "state: missing"),
        (lambda: analyzer.advise("unearth", "me = 3\n"), "state", "state: me: bad value 3"),
        (lambda: analyzer.advise("colorful_treasure", {"players": 9}), "state",
         "state: players: bad value 9"),
        (lambda: analyzer.advise("uruk", "me = [\n"), "state", "state: bad TOML"),
        (lambda: analyzer.advise("unearth", "me = 3\n", seed=4), "budget",
         "advise: budget, seed and players need deep"),
        (lambda: analyzer.advise("uruk", "me = 3\n", deep=True, seed=-1), "seed",
         "seed: bad value -1"),
        (lambda: analyzer.advise("uruk", "me = 3\n", deep=True, seed="x"), "seed",
         "seed: bad value 'x' (allowed: an integer)"),
        (lambda: analyzer.advise("colorful_treasure", "players = 2\n", top=-1), "top",
         "top: bad value -1"),
        (lambda: analyzer.odds("unearth", claim=40, dice=",".join(["a:d8"] * 12)), "dice",
         "dice: the exact enumeration is"),
    ]  # fmt: skip
    for call, field, start in cases:
        with pytest.raises(InputError) as err:
            call()
        assert str(err.value).startswith(start), (start, str(err.value))
        assert err.value.field == field, str(err.value)
        assert not str(err.value).startswith("-"), str(err.value)
    # a path names itself, not the parameter: the file is where the fault is
    bad = tmp_path / "bad.toml"
    bad.write_text("me = 3\n", "utf-8")
    with pytest.raises(InputError, match=f"^{bad}: me: bad value 3") as err:
        analyzer.advise("unearth", bad)
    assert err.value.field is None


def test_the_way_past_a_limit_is_each_fronts_own(capsys):
    """A question priced above the limit: Python is told of ``force=True``, the CLI
    of ``--force``, the web that it runs no longer question (from the error's
    parts: no line is rewritten)."""
    dice = ",".join(["a:d8"] * 12)
    with pytest.raises(ParamError) as err:
        analyzer.odds("unearth", claim=40, dice=dice)
    assert str(err.value).endswith("(allowed: about 60 s; force=True runs it anyway)")
    assert run_cli(["odds", "--claim", "40", "--dice", dice]) == 2
    assert capsys.readouterr().err.endswith(
        "(allowed: about 60 s; add --force to run it anyway, Ctrl-C stops it)\n"
    )
    from analyzer.web import serve

    status, body = serve.answer("unearth", "odds", {"claim": 40, "dice": dice})
    assert status == 400
    assert json.loads(body)["error"].endswith(
        "(allowed: about 60 s; the web runs no longer question)"
    )


def test_the_cli_spells_each_parameter_as_its_option(capsys):
    args = ["odds", "--claim", "9", "--dice", "a:d6", "--ruin-stones", "-1"]
    assert run_cli(args) == 2
    assert capsys.readouterr().err.startswith("analyzer: error: --ruin-stones: bad value -1")
    question = table.question("unearth", "advise")
    from analyzer.cli.table import spelling

    err = ParamError(
        "advise: ", Param("budget"), " and ", Param("players"), " need ", Param("deep")
    )
    assert err.spelled(lambda p: spelling(question, p)) == (
        "advise: --budget and --players need --deep"
    )
    assert str(err) == "advise: budget and players need deep" and err.field == "budget"


def test_serve_names_the_field_from_the_error_not_from_its_words(monkeypatch):
    """The web's error line is the library's error spelled with field names: words
    of the message that look like options are left as they are (a regex over the
    CLI's line turned them into field names)."""
    from analyzer.web import serve

    def planted(**values):
        raise ParamError(Param("claim"), ": planted (allowed: see --claim and --dice; ",
                         Lift("force"), ")")  # fmt: skip

    import dataclasses

    fake = dataclasses.replace(table.question("unearth", "odds"), answer=planted)
    monkeypatch.setattr(table, "question", lambda game, verb: fake)
    status, body = serve.answer("unearth", "odds", {"claim": 9, "dice": "a:d6"})
    assert status == 400
    assert json.loads(body) == {
        "error": "claim: planted (allowed: see --claim and --dice; the web runs no longer question)"
    }


def test_a_game_spec_declares_the_budget_its_deep_advice_plays():
    """``--budget``'s help names the game's default budget (Uruk's said 3,000 while
    it played 12,000)."""
    from analyzer.colorful_treasure import deep as ct
    from analyzer.unearth import deep as ue
    from analyzer.uruk import deep as ur

    for game, module in (("unearth", ue), ("colorful_treasure", ct), ("uruk", ur)):
        budget = next(o for o in table.question(game, "advise").options if o.name == "budget")
        assert f"(default {module.DEFAULT_BUDGET:,})" in budget.help, game


def test_param_errors_survive_a_forked_worker():
    import pickle

    err = ParamError(Param("dice"), ": too long (allowed: ", Lift("force"), ")")
    back = pickle.loads(pickle.dumps(err))
    assert back.parts == err.parts and back.field == "dice" and str(back) == str(err)
    assert isinstance(back.parts[2], Lift)


def test_importing_the_api_and_the_server_stays_light():
    """``import analyzer`` offers odds and advise without numba or pandas; the web
    server answers without importing the CLI, typer or click."""
    code = (
        "import sys, json, analyzer\n"
        "assert callable(analyzer.odds) and callable(analyzer.advise)\n"
        "light = [m for m in ('numba', 'pandas') if m in sys.modules]\n"
        "from analyzer.web import serve\n"
        "status, body = serve.answer('unearth', 'odds', {'claim': 8, 'dice': 'a:d6,b:d6=3'})\n"
        "assert status == 200, body\n"
        "front = sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click')\n"
        "               or m.startswith('analyzer.cli'))\n"
        "print(json.dumps([light, front]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[], []]


# ------------------------------------------------------------------ a game that only declares


def _die_odds(*, sides, at_least) -> table.Answer:
    """The chance that one die shows at least ``at_least`` (the whole of this game)."""
    from fractions import Fraction

    if sides < 1:
        raise InputError(f"sides: bad value {sides} (allowed: 1 or more)")
    p = Fraction(max(0, sides - at_least + 1), sides) if at_least > 1 else Fraction(1)
    return table.Answer(p, lambda: json.dumps({"p": str(p)}), lambda: [f"chance {p}"])


#: the stand-in game's table questions: knowledge only, the rest is the machinery's
DIE = table.TableSpec(
    "analyzer",
    (
        table.Question(
            "odds",
            "The chance of a roll of one die.",
            (
                table.Option("sides", "--sides", "int", 6, "Faces of the die."),
                table.Option("at_least", "--at-least", "int", 1, "The least face that counts."),
                table.JSON,
            ),
            _die_odds,
        ),
    ),
)


def test_a_game_that_declares_its_questions_gets_the_api_the_cli_and_the_web(monkeypatch, capsys):
    """A game whose ``Game.table_spec()`` returns a spec (no module declared): the
    Python API, its typer command and the web answer from that alone."""
    import typer

    from analyzer import games
    from analyzer.cli.table import commands_of
    from analyzer.web import serve

    class Die(games.Game):
        def table_spec(self):
            return DIE

    def build():
        return Die("die", "Die", "1", 1, 1, (games.Strategy("roll", "rolls"),), "roll")

    monkeypatch.setitem(games._FACTORIES, "die", build)
    monkeypatch.setattr(games, "_GAMES", dict(games._GAMES))
    answer = analyzer.odds("die", sides=6, at_least=5)
    assert str(answer.value) == "1/3" and answer.to_json() == '{"p": "1/3"}'
    assert answer.text() == "chance 1/3\n"
    with pytest.raises(InputError, match=r"^at_least: bad value 'x' \(allowed: an integer\)"):
        analyzer.odds("die", at_least="x")
    assert serve.answer("die", "odds", {"sides": 6, "at-least": "5"}) == (200, '{"p": "1/3"}\n')
    assert serve.answer("die", "odds", {"sides": 0}) == (
        400,
        json.dumps({"error": "sides: bad value 0 (allowed: 1 or more)"}),
    )
    assert serve.answer("die", "advise", {})[0] == 404
    app = typer.Typer()
    app.registered_commands.append(commands_of("die")["odds"])
    command = typer.main.get_command(app)
    command.main(["--sides", "8", "--at-least", "7", "--json"], standalone_mode=False)
    assert capsys.readouterr().out == '{"p": "1/4"}\n'
