"""Every game's table-state loader refuses a value of the wrong type, or a file
that is not UTF-8, with one :class:`InputError` line naming the key (issue #41):
never an internal error (exit 3 on the command line, a 500 on the web).

The cases are generated: each game's example state (``analyzer/<game>/examples/``,
plus the optional keys the example leaves commented out) is walked as a TOML
tree, and every value in it, at every depth, is replaced in turn by values of
the other TOML types (and JSON's null, which the web can send): integers
(negative, past 64 bits), floats (nan, inf), text, booleans, lists, tables,
dates and times. A replacement of another type must be refused naming the key
where it sits (``ruins[0].claim``, ``grid.pyramids.gone[1]``); one of the same
type may be accepted or refused, but only as bad input.
"""

from __future__ import annotations

import copy
import datetime
import json
import math
import tomllib

import pytest

import analyzer
from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.games.table import ask, read_state, spec

#: each game's question that reads a state file, for the CLI and library samples
VERB = {"unearth": "advise", "colorful_treasure": "odds", "uruk": "advise"}

WRONG = (
    5,
    -3,
    10**30,
    -(10**30),
    2.5,
    -0.5,
    float("nan"),
    float("inf"),
    "x",
    "",
    True,
    False,
    [],
    [1],
    ["x"],
    [[]],
    [{}],
    {},
    {"a": 1},
    None,
    datetime.date(2026, 11, 28),
    datetime.datetime(2026, 11, 28, 23, 0),
    datetime.time(23, 0),
)


def _kind(value) -> str:
    return "bool" if isinstance(value, bool) else type(value).__name__


def _example(game: str) -> dict:
    return tomllib.loads(spec(game).example_text())


def bases(game: str) -> list[dict]:
    """The states whose every value is replaced: the example, and for Uruk the
    example with its optional keys given and as a secret bid (keys the example
    leaves commented out)."""
    data = _example(game)
    if game != "uruk":
        return [data]
    extra = copy.deepcopy(data)
    extra.update(
        pending="enlil",
        reshuffled=False,
        stone_pool=0,
        final_round=False,
        functions_used=["zahnrad"],
    )
    extra["seat"][0].update(half_price=0, city_points=0)
    bid = copy.deepcopy(data)
    del bid["actions_left"]
    bid.update(decision="secret_bid", god="vulkanausbruch", trigger="ben")
    return [data, extra, bid]


def paths(node, pre=()):
    """Every place in a TOML tree: the keys and list positions leading to it."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for k, v in items:
        yield (*pre, k)
        if isinstance(v, dict | list):
            yield from paths(v, (*pre, k))


def key_text(path) -> str:
    """How an error names a place: ``ruins[0].claim``."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else ("." if out else "") + p
    return out


def replaced(data: dict, path, value) -> dict:
    out = copy.deepcopy(data)
    node = out
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return out


def value_at(data, path):
    for p in path:
        data = data[p]
    return data


def cases(game: str):
    """``(state, place, value, the value it replaced)`` for every place and value."""
    for base in bases(game):
        for path in paths(base):
            old = value_at(base, path)
            for value in WRONG:
                yield replaced(base, path, value), key_text(path), value, old


def _same(a, b) -> bool:
    return _kind(a) == _kind(b) or (a is None and b is None)


@pytest.mark.parametrize("game", sorted(VERB))
def test_bases_load_and_cover_every_key(game):
    """The generated cases start from valid states that hold every key the loader reads."""
    import importlib

    load = spec(game).load
    names: set[str] = set()
    for base in bases(game):
        load(base, "f.toml")
        names |= {p[-1] for p in paths(base) if isinstance(p[-1], str)}
    module = importlib.import_module(
        "analyzer.colorful_treasure.odds"
        if game == "colorful_treasure"
        else f"analyzer.{game}.advise"
    )
    allowed = {
        "unearth": ("TOP_KEYS", "RUIN_KEYS"),
        "colorful_treasure": ("TOP_KEYS", "COLUMN_KEYS"),
        "uruk": ("TOP_KEYS", "SEAT_KEYS"),
    }[game]
    for group in allowed:
        missing = set(getattr(module, group)) - names
        assert not missing, f"{game}: no generated case for {group} {sorted(missing)}"


@pytest.mark.parametrize("game", sorted(VERB))
def test_every_key_refuses_every_wrong_type_naming_it(game):
    load = spec(game).load
    wrong, tried = [], 0
    for state, where, value, old in cases(game):
        tried += 1
        try:
            load(state, "f.toml")
        except InputError as err:
            line = str(err)
            if "\n" in line or not line.startswith("f.toml: "):
                wrong.append(f"{where} = {value!r}: not one line naming the file: {line!r}")
            elif not _same(value, old) and where not in line:
                wrong.append(f"{where} = {value!r}: the error does not name {where}: {line}")
        except Exception as err:  # noqa: BLE001 - what the test is about
            wrong.append(f"{where} = {value!r}: {type(err).__name__}: {err}")
        else:
            if not _same(value, old) and not (value is None and where == "bag"):
                wrong.append(f"{where} = {value!r}: accepted in place of {old!r}")
    assert tried > 300
    assert not wrong, f"{len(wrong)} of {tried} cases:\n" + "\n".join(wrong[:20])


# --------------------------------------------------------------------------- the front ends

#: one wrong type per game, as TOML text: (the edit, the key the error must name)
SAMPLES = {
    "colorful_treasure": [
        (("mine",), 5, "mine"),
        (("grid", "pyramids", "gone"), 7, "grid.pyramids.gone"),
        (("grid", "great_wall", "remembered", 1), 3, "grid.great_wall.remembered[1]"),
        (("players",), "two", "players"),
    ],
    "unearth": [
        (("ruins", 0, "claim"), "13", "ruins[0].claim"),
        (("wonders", "red", 0), ["x"], "wonders.red[0]"),
        (("bag",), 10**30, "bag"),
    ],
    "uruk": [
        (("seat", 1), 5, "seat[1]"),
        (("seat", 1, "cards"), [], "seat[1].cards"),
        (("epochs", 0), 2.5, "epochs[0]"),
    ],
}


def _toml(data: dict) -> str:
    """``data`` as TOML text (the few shapes the samples use)."""

    def value(v):
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + "}"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float) and not math.isfinite(v):
            return "nan" if math.isnan(v) else "inf"
        return json.dumps(v)

    lines = [f"{json.dumps(k)} = {value(v)}" for k, v in data.items()]
    return "\n".join(lines) + "\n"


def _samples() -> list:
    return [
        pytest.param(game, path, value, where, id=f"{game}-{where}")
        for game, edits in SAMPLES.items()
        for path, value, where in edits
    ]


@pytest.mark.parametrize("game, path, value, where", _samples())
def test_library_names_the_key(game, path, value, where):
    """``analyzer.odds``/``analyzer.advise`` refuse the state as a dict and as
    TOML text, naming the key; the error's field is the state."""
    state = replaced(_example(game), path, value)
    ask_game = analyzer.odds if VERB[game] == "odds" else analyzer.advise
    for given in (state, _toml(state)):
        with pytest.raises(InputError) as err:
            ask_game(game, given)
        assert f"state: {where}: bad value" in str(err.value), str(err.value)
        assert err.value.field == "state"


@pytest.mark.parametrize("game, path, value, where", _samples())
def test_cli_one_line_exit_2(game, path, value, where, tmp_path, capsys):
    f = tmp_path / "state.toml"
    f.write_text(_toml(replaced(_example(game), path, value)), "utf-8")
    code = run_cli([VERB[game], "--game", game, str(f)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2, err
    assert len(err) == 1 and err[0].startswith(f"analyzer: error: {f}: {where}: bad value"), err


@pytest.mark.parametrize("game", sorted(VERB))
def test_not_utf8_file_one_line_exit_2(game, tmp_path, capsys):
    """A state file in Latin-1 (a name with an umlaut) is refused, naming the file."""
    f = tmp_path / "state.toml"
    f.write_bytes(spec(game).example_text().replace("#", "# Dürre,", 1).encode("latin-1"))
    code = run_cli([VERB[game], "--game", game, str(f)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2, err
    assert len(err) == 1 and err[0].startswith(f"analyzer: error: {f}: "), err
    assert "UTF-8" in err[0], err
    with pytest.raises(InputError, match="UTF-8"):
        ask(game, VERB[game], f)


@pytest.mark.parametrize("game", sorted(VERB))
def test_text_that_no_utf8_file_holds_is_refused(game):
    """TOML text given to the library with a lone surrogate (what Python makes of
    undecodable bytes) is refused as not UTF-8, naming the state."""
    text = spec(game).example_text().replace("#", "# \udcfc", 1)
    with pytest.raises(InputError, match="not UTF-8") as err:
        ask(game, VERB[game], text)
    assert err.value.field == "state"


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(VERB))
def test_the_library_answers_or_names_the_key_for_every_case(game):
    """Every generated case through ``analyzer.odds``/``analyzer.advise``: refused
    with the state's :class:`InputError` naming the key (``state: ruins[0].claim:
    ...``), or, when the loader takes it, answered (its checks are all the answer
    relies on): never another exception."""
    ask_game = analyzer.odds if VERB[game] == "odds" else analyzer.advise
    wrong = []
    for state, where, value, old in cases(game):
        try:
            answer = ask_game(game, state)
            answer.to_json(), answer.text()
        except InputError as err:
            line = str(err)
            if err.field != "state" or not line.startswith("state: ") or "\n" in line:
                wrong.append(f"{where} = {value!r}: not one line naming the state: {line!r}")
            elif not _same(value, old) and where not in line:
                wrong.append(f"{where} = {value!r}: the error does not name {where}: {line}")
        except Exception as err:  # noqa: BLE001 - what the test is about
            wrong.append(f"{where} = {value!r}: {type(err).__name__}: {err}")
    assert not wrong, f"{len(wrong)} cases:\n" + "\n".join(wrong[:20])


@pytest.mark.parametrize("game", sorted(VERB))
def test_a_utf8_file_with_a_byte_order_mark_is_read(game, tmp_path):
    """UTF-8 with a byte-order mark (what Windows Notepad writes) is UTF-8."""
    f = tmp_path / "state.toml"
    f.write_bytes(b"\xef\xbb\xbf" + spec(game).example_text().encode("utf-8"))
    data, where = read_state(f, "hint")
    assert data == _example(game) and where == str(f)


@pytest.mark.parametrize("game", sorted(VERB))
@pytest.mark.parametrize("nest", ["[" * 5000 + "]" * 5000, "{a=" * 5000 + "1" + "}" * 5000])
def test_text_nested_thousands_deep_is_one_input_error(game, nest):
    with pytest.raises(InputError, match="state: bad TOML: nested too deeply") as err:
        ask(game, VERB[game], f"deep = {nest}\n")
    assert err.value.field == "state"
