"""Unearth's checkable trace (``analyzer replay --json``) replayed by an independent checker.

The checker, :mod:`tests.unearth_trace_checker`, is a plain Python twin of the
rules that imports nothing of the engine or the rules modules (it reads the
data files with tomllib and reuses the twins of :mod:`tests.naive`). Here it
checks a few hundred games made by the replay path itself, under each ruling
switched one at a time, and it is shown to catch bugs planted in a trace.

Every combination of rulings over many more games: ``tools/check_unearth_traces.py``.
"""

from __future__ import annotations

import ast
import copy
from collections import Counter
from pathlib import Path

import pytest

from tests import replays
from tests.unearth_trace_checker import TraceError, check_trace, load_data

#: the trace checker replays seeded games and checks them event by event: every test (make test
#: runs them; make test-fast not)
pytestmark = pytest.mark.slow

SEED = 20261127
#: the default, then each ruling switched away from its default, one at a time
RULINGS = (
    {},
    {"edition": "german"},
    {"wonder_bonus": "per_threshold"},
    {"tomb": "ruin_colours"},
    {"first_player": "highest_sum"},
    {"token_fallback": False},
    {"card_mods_on_forced_rerolls": True},
)
LINEUPS = (
    (2, "random"),
    (3, "random"),
    (3, "balanced,claimer,collector"),
    (4, "random,claimer,collector,balanced"),
)
GAMES = 8  #: per ruling and line-up: 7 x 4 x 8 = 224 games


def trace_of(players: int, lineup: str, index: int, rulings: dict | None = None) -> dict:
    """Game ``index`` of seed :data:`SEED` as ``analyzer replay --json`` prints it."""
    return replays.trace_of("unearth", players, lineup, SEED, index, rulings)


@pytest.fixture(scope="module")
def data():
    return load_data()


@pytest.fixture(scope="module")
def traces():
    out = []
    for rulings in RULINGS:
        for players, lineup in LINEUPS:
            for index in range(GAMES):
                out.append(
                    (rulings, players, lineup, index, trace_of(players, lineup, index, rulings))
                )
    return out


def test_checker_imports_nothing_of_the_engine():
    """The checker is independent: no import of ``analyzer`` at all."""
    path = Path(__file__).parents[1] / "unearth_trace_checker.py"
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module or "")
    assert not any(n == "analyzer" or n.startswith("analyzer.") for n in names), names


def test_every_game_checks(traces, data):
    """224 games, each ruling switched one at a time: every chance outcome possible,
    every choice legal, every effect and score the checker's own."""
    seen = Counter()
    for rulings, players, lineup, index, trace in traces:
        assert trace["rulings"] == {**trace["rulings"], **rulings}
        try:
            check_trace(trace, data)
        except TraceError as err:
            pytest.fail(f"{rulings} {players} players {lineup} game {index}: {err}")
        seen.update((e["kind"], e["type"]) for e in trace["events"])
        seen.update(("why", e["why"]) for e in trace["events"] if e["type"] == "roll")
    # the sample reaches the rules' corners (else this test would prove little)
    for key in (
        ("choice", "play"),
        ("choice", "declare"),
        ("choice", "value"),
        ("choice", "expedition"),
        ("choice", "reroll"),
        ("choice", "stone"),
        ("choice", "named_wonder"),
        ("chance", "token"),
        ("chance", "bag_stone"),
        ("chance", "shuffle"),
        ("effect", "die_changed"),
        ("effect", "take_back"),
        ("effect", "end_of_age_event"),
        ("why", "ancient_map"),
        ("why", "edifice"),
    ):
        assert seen[key] > 0, f"no {key} in the sample"


def test_rulings_change_what_is_checked(traces):
    """Switching card_mods_on_forced_rerolls changes some games, and the
    edition's scoring switches change some scores: the checker saw both readings."""
    by = {}
    for rulings, players, lineup, index, trace in traces:
        by[(tuple(sorted(rulings.items())), players, lineup, index)] = trace
    keys = [(players, lineup, index) for _, players, lineup, index, _ in traces]
    forced = (("card_mods_on_forced_rerolls", True),)
    assert any(by[((), *k)]["events"] != by[(forced, *k)]["events"] for k in keys)
    german = (("edition", "german"),)
    assert any(by[((), *k)]["final"] != by[(german, *k)]["final"] for k in keys)


# ---------------------------------------------------------------- planted bugs


@pytest.fixture(scope="module")
def rich(data):
    """A game with rolls, stones, plays and value choices, that checks clean."""
    for index in range(40):
        tr = trace_of(3, "random", index)
        types = Counter(e["type"] for e in tr["events"])
        if types["value"] and types["play"] and types["stone"] >= 5 and types["reroll"]:
            check_trace(tr, data)
            return tr
    pytest.fail("no rich game in 40")


def first(trace, typ, pred=lambda e: True):
    return next(i for i, e in enumerate(trace["events"]) if e["type"] == typ and pred(e))


def planted(rich, change) -> dict:
    tr = copy.deepcopy(rich)
    change(tr)
    return tr


def test_clean_trace_passes(rich, data):
    check_trace(copy.deepcopy(rich), data)


def test_changed_die_face_is_caught(rich, data):
    def change(tr):
        e = tr["events"][first(tr, "roll")]
        e["face"] = e["face"] % e["faces"] + 1  # another face, still in range

    with pytest.raises(TraceError):
        check_trace(planted(rich, change), data)


def test_impossible_die_face_is_caught(rich, data):
    def change(tr):
        e = tr["events"][first(tr, "roll")]
        e["face"] = e["faces"] + 1

    with pytest.raises(TraceError, match="has no face"):
        check_trace(planted(rich, change), data)


def test_silent_reroll_is_caught(rich, data):
    """The old trace's fault: a reroll not shown as a roll of its own."""

    def change(tr):
        i = first(tr, "roll", lambda e: e["why"] != "roll")
        del tr["events"][i]

    with pytest.raises(TraceError):
        check_trace(planted(rich, change), data)


def test_stone_moved_off_the_tableau_is_caught(rich, data):
    def change(tr):
        i = first(tr, "stone", lambda e: e["cell"] != [0, 0])
        tr["events"][i]["cell"] = [9, -9]  # touches no stone

    with pytest.raises(TraceError, match="touches no stone"):
        check_trace(planted(rich, change), data)


def test_stone_moved_to_another_legal_cell_is_caught(rich, data):
    """A legal but different cell: the later states disagree with the trace."""

    def change(tr):
        i = first(tr, "stone", lambda e: len(e["cell_options"]) > 1)
        e = tr["events"][i]
        e["cell"] = next(c for c in e["cell_options"] if c != e["cell"])

    with pytest.raises(TraceError):
        check_trace(planted(rich, change), data)


def test_wrong_score_is_caught(rich, data):
    def change(tr):
        tr["final"]["scores"][1] += 1

    with pytest.raises(TraceError, match="seat 1 scores"):
        check_trace(planted(rich, change), data)


def test_wrong_claim_is_caught(rich, data):
    def change(tr):
        e = tr["events"][first(tr, "claim", lambda e: e["winner"] is not None)]
        e["winner"] = (e["winner"] + 1) % tr["players"]

    with pytest.raises(TraceError, match="expected"):
        check_trace(planted(rich, change), data)


def test_value_not_reachable_is_caught(rich, data):
    def change(tr):
        e = tr["events"][first(tr, "value")]
        e["value"] = next(v for v in range(1, 9) if v not in e["options"])

    with pytest.raises(TraceError, match="not a reachable value"):
        check_trace(planted(rich, change), data)


def test_card_not_in_hand_is_caught(rich, data):
    def change(tr):
        i = first(tr, "play")
        e = tr["events"][i]
        held = Counter()
        for ev in tr["events"][:i]:
            if ev["type"] in ("deal", "draw") and ev["seat"] == e["seat"]:
                held[ev["card"]] += 1
            if ev["type"] == "play" and ev["seat"] == e["seat"]:
                held[ev["card"]] -= 1
        e["card"] = next(k for k in data["delvers"]["delver"] if held[k["id"]] == 0)["id"]

    with pytest.raises(TraceError, match="cannot be played"):
        check_trace(planted(rich, change), data)


def test_declared_empty_slot_is_caught(rich, data):
    def change(tr):
        e = tr["events"][first(tr, "declare", lambda e: len(e["slot_options"]) < 5)]
        e["slot"] = next(s for s in range(5) if s not in e["slot_options"])

    with pytest.raises(TraceError, match="may declare"):
        check_trace(planted(rich, change), data)


def test_chance_marked_as_choice_is_caught(rich, data):
    def change(tr):
        tr["events"][first(tr, "roll")]["kind"] = "choice"

    with pytest.raises(TraceError, match="is a chance"):
        check_trace(planted(rich, change), data)


def test_a_die_a_card_changed_is_an_event(traces, data):
    """The old trace's fault: Forlorn and A New Discovery changed a die with no event."""
    tr = next(t for *_, t in traces if any(e["type"] == "die_changed" for e in t["events"]))
    check_trace(copy.deepcopy(tr), data)

    def drop(tr):
        del tr["events"][first(tr, "die_changed")]

    with pytest.raises(TraceError, match="die_changed"):
        check_trace(planted(tr, drop), data)

    def other(tr):
        e = tr["events"][first(tr, "die_changed")]
        e["value"] = e["was"]  # as if the card changed nothing

    with pytest.raises(TraceError):
        check_trace(planted(tr, other), data)


def test_a_shuffle_lists_the_new_pile(traces, data):
    """The old trace's fault: a reshuffle gave only a count. The pile's order is
    listed, and every later draw must be its next card."""
    tr = next(
        t
        for *_, t in traces
        if any(e["type"] == "shuffle" and len(set(e["order"])) > 1 for e in t["events"])
    )

    def swap(tr):
        order = tr["events"][first(tr, "shuffle", lambda e: len(set(e["order"])) > 1)]["order"]
        j = next(j for j, k in enumerate(order) if k != order[0])
        order[0], order[j] = order[j], order[0]

    with pytest.raises(TraceError, match="top card"):
        check_trace(planted(tr, swap), data)
    with pytest.raises(TraceError, match="order"):
        check_trace(planted(tr, lambda t: t["events"][first(t, "shuffle")].pop("order")), data)
