"""The plumbing every game folder shares (analyzer/games/jobs.py, rules_data.py,
folder.py, trace.py), on its own and as each shipped game uses it."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest

from analyzer.core.errors import AnalyzerError, InputError
from analyzer.games import jobs, load_game
from analyzer.games.rules_data import Decks, GameRules, cards, listed
from analyzer.games.trace import check_room, players_line, seat_line

GAMES = ("unearth", "uruk", "colorful_treasure")
NAMES = ("random", "a", "b", "c", "baseline", "search")


def _old_categories(strategies):
    """The rule the games wrote out before it was shared (Uruk's, Colorful Treasure's)."""
    if "search" in strategies:
        return NAMES
    return NAMES[:5] if set(strategies) - set(NAMES[:4]) else NAMES[:4]


def test_strategy_categories_are_the_rule_each_game_had():
    for n in (1, 2, 3):
        for seats in itertools.product(NAMES, repeat=n):
            assert jobs.strategy_categories(seats, NAMES) == _old_categories(seats), seats


def test_resolve_strategies_spreads_one_name_and_names_what_is_wrong():
    assert jobs.resolve_strategies(3, "a", NAMES) == ("a", "a", "a")
    assert jobs.resolve_strategies(2, " a, b ", NAMES) == ("a", "b")
    with pytest.raises(InputError, match=r"strategy: 3 strategies for 2 players"):
        jobs.resolve_strategies(2, ["a", "b", "c"], NAMES)
    with pytest.raises(InputError, match=r"lineup: bad value 'x' \(allowed: random, a, b"):
        jobs.resolve_strategies(2, "a,x", NAMES, where="lineup")


@dataclass
class _Tables:
    min_players: int = 2
    max_players: int = 4


@pytest.mark.parametrize("bad", [1, 5, True, 2.0, "3"])
def test_check_players_refuses_what_is_not_a_player_count(bad):
    with pytest.raises(InputError, match=r"^players: bad value"):
        jobs.check_players(bad, _Tables())
    assert jobs.check_players(3, _Tables()) == 3


@pytest.mark.parametrize("bad", [0, -1, True, 2.0, "3"])
def test_check_games_refuses_what_is_not_a_positive_count(bad):
    with pytest.raises(InputError, match=r"^games: bad value .* \(allowed: a positive integer\)"):
        jobs.check_games(bad)
    assert jobs.check_games(7) == 7


def test_param_overrides_check_names_and_leave_the_search_settings():
    given = {"a": {"w": 1, "v": 2}, "search": {"budget": 8, "w": 3}}
    got = list(jobs.param_overrides(given, NAMES, ("v", "w"), settings=("budget",)))
    assert got == [("a", "w", 1), ("a", "v", 2), ("search", "w", 3)]
    # a game whose search plays another's row leaves its whole table out
    assert list(jobs.param_overrides({"search": {"x": 1}}, NAMES, ("w",), settings=None)) == []
    with pytest.raises(InputError, match=r"baseline is frozen: no parameters"):
        list(jobs.param_overrides({"baseline": {"w": 1}}, NAMES, ("w",)))
    with pytest.raises(InputError, match=r"^strategy_params: bad value 'zz'"):
        list(jobs.param_overrides({"zz": {"w": 1}}, NAMES, ("w",)))
    with pytest.raises(InputError, match=r"strategy_params.search: bad value 'q' .*w, budget\)"):
        list(jobs.param_overrides({"search": {"q": 1}}, NAMES, ("w",), settings=("budget",)))


def test_seat_rows_apply_overrides_to_every_seat_of_the_strategy():
    prm = jobs.seat_rows(
        [(0.0, 1.0), (2.0, 3.0), (4.0, 5.0)], ("a", "b", "a"), {"a": {"w": 9}}, NAMES, ("v", "w")
    )
    assert prm.tolist() == [[0.0, 9.0], [2.0, 3.0], [4.0, 9.0]]


def test_frozen_params_are_sorted_and_come_back():
    frozen = jobs.freeze_params({"b": {"y": 1, "x": 2}, "a": {"z": 3}})
    assert frozen == (("a", (("z", 3),)), ("b", (("x", 2), ("y", 1))))
    assert jobs.thaw_params(frozen) == {"a": {"z": 3}, "b": {"x": 2, "y": 1}}
    assert jobs.freeze_params(None) == ()


@pytest.mark.parametrize("game", GAMES)
def test_each_games_job_is_a_shared_job_with_its_fingerprint(game):
    g = load_game(game)
    rules = g.load_rules({}, {}, "rules")
    job = g.make_job(2, [g.default_strategy] * 2, 5, rules, strategy_params={})
    assert isinstance(job, jobs.Job) and job.params_dict() == {}
    name = {"unearth": "GameJob", "uruk": "UrukGameJob", "colorful_treasure": "ColorfulTreasureJob"}
    assert repr(job).startswith(name[game] + "(players=2, ")


def test_colorful_treasures_steals_table_follows_claims():
    g = load_game("colorful_treasure")
    rules = g.load_rules({}, {}, "rules")
    assert g.make_job(2, ["greedy"] * 2, 1, rules, claims=True).steals is True
    assert g.make_job(2, ["greedy"] * 2, 1, rules).steals is False
    assert g.make_job(2, ["greedy"] * 2, 1, rules).luck is False  # the game's default
    assert g.make_job(2, ["greedy"] * 2, 1, rules, luck=True).luck is True


def _decks() -> Decks:
    decks = Decks("analyzer.uruk", {"cards": "card", "plain": None}, fixed=("id",))
    decks.__dict__["shipped"] = {  # the data files, without reading any
        "cards": {"card": [{"id": "x1", "v": 1, "name": "X"}, {"id": "x2", "v": 2, "name": "Y"}]},
        "plain": {"n": 3, "table": {"k": 1}},
    }
    return decks


def test_decks_apply_overrides_by_path_and_glob():
    decks = _decks()
    data = decks.load({"cards.x*.v": 7, "plain.n": 4}, "f.toml", lambda data, where: None)
    assert [c["v"] for c in data["cards"]["card"]] == [7, 7] and data["plain"]["n"] == 4
    assert decks.shipped["cards"]["card"][0]["v"] == 1  # a copy was changed, never the data
    assert decks.example("cards.x2.v") == 2 and decks.example("plain.n") == 3
    assert decks.example("cards.zz.v") is None and decks.example("nope") is None


@pytest.mark.parametrize(
    "path, message",
    [
        (
            "nope.x",
            r"f.toml: override 'nope.x': bad value 'nope' \(allowed: a deck: cards, plain\)",
        ),
        ("plain.q", r"unknown override 'plain.q' \(allowed: plain.n, plain.table\)"),
        ("cards.x1", r"must be 'cards.<card id>.<field>' \(card ids: x1, x2\)"),
        ("cards.q*.v", r"matches no card \(card ids: x1, x2\)"),
        ("cards.x1.id", r"card 'x1' has no changeable field 'id' \(allowed: v, name\)"),
        ("cards.x1.v", r"bad value 'a' \(allowed: a value of the same type as 1\)"),
    ],
)
def test_decks_name_the_path_that_is_wrong(path, message):
    with pytest.raises(InputError, match=message):
        _decks().load({path: "a"}, "f.toml", lambda data, where: None)


def test_decks_without_tables_offer_only_values():
    decks = _decks()
    decks.tables = False
    decks.unlisted = ("name",)
    with pytest.raises(InputError, match=r"unknown override 'plain.table' \(allowed: plain.n\)"):
        decks.load({"plain.table": {"k": 2}}, "f", lambda data, where: None)
    with pytest.raises(InputError, match=r"field 'q' \(allowed: v\)"):
        decks.load({"cards.x1.q": 1}, "f", lambda data, where: None)


def test_game_rules_build_once_and_describe_themselves():
    built = []

    @dataclass(frozen=True)
    class Rules(GameRules, version="v9", build=lambda data, rulings: built.append(1) or "T"):
        names, ids = cards("cards", "card", "name", "id")
        colours = listed("plain", "colours")

    r = Rules({"cards": {"card": [{"id": "a", "name": "A"}]}, "plain": {"colours": ("r",)}}, {})
    assert r.tables == r.tables == "T" and built == [1]
    assert (r.names, r.ids, r.colours) == (["A"], ["a"], ["r"])
    assert r.describe() == {"rules_version": "v9", "rulings": {}, "overrides": {}}


def test_a_replays_frame():
    with pytest.raises(AnalyzerError, match=r"trace_rows: bad value 10 .*the 10 events of game 3"):
        check_room(10, 10, 3)
    assert check_room(9, 10, 3) == 9

    @dataclass
    class Job:
        players: int = 2
        strategies: tuple = ("a", "b")

    assert players_line(Job()) == "# players 2: seat 0 a, seat 1 b"
    assert seat_line(1, 12, "x 1", 0.5) == "# seat 1: score 12 (x 1), win 0.5"


@pytest.mark.parametrize("game", GAMES)
def test_each_game_folder_answers_from_its_skeleton(game):
    g = load_game(game)
    assert g.package == f"analyzer.{game}"
    assert g.rules_version == g.module("rules").RULES_VERSION
    rules = g.load_rules({}, {}, "rules")
    rulings, overrides = g.rules_settings(rules)
    assert g.describe_rules(g.load_rules(rulings, overrides, "again")) == g.describe_rules(rules)
