"""Colorful Treasure's rulings on the action tiles and the steal pairs
(``docs/games/colorful_treasure.md``, "A turn" and "Advanced rules: action
tiles"): ``tile_timing``, ``tile_offers``, ``steal_pairs``. Each value on a forced
state, the players' reading of ``steal_pairs``, and whole games under every value.

Forced games as in ``tests/colorful_treasure/test_colorful_treasure_tiles.py``: random seats on the
identity layout (card ``c`` at place ``c``: each column holds gem, gem, gem,
diamond, key or chest from row 0; Pyramids has a key, Great Wall a chest, ...),
every choice forced (a place is its index among the face-down places not yet
picked; a coin is 0 = no, 1 = yes; a steal is its index among the victims' plastic
diamonds and cards, in seat and card order).
"""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.colorful_treasure import engine
from analyzer.colorful_treasure import strategies as S
from analyzer.colorful_treasure import tiles as T
from analyzer.colorful_treasure.codes import Kind, Plan
from analyzer.colorful_treasure.game import make_job, play_raw, simulate
from analyzer.colorful_treasure.replay import CHOICE_ROWS, render_trace
from analyzer.colorful_treasure.rules import load_rules
from analyzer.colorful_treasure.state import (
    H_CHESTS,
    H_KEYS,
    S_PAIRED,
    S_TRACE_N,
    new_state,
)
from analyzer.core.errors import InputError
from analyzer.kernels.kernel_view import make_view
from analyzer.kernels.rng import queue_outcomes

IDENTITY = np.arange(50)
THREE_REDS = [0, 4, 1, 8, 0]  # t0 seat 0: three reds (places 0, 5, 10), takes them
ONE_YELLOW = [0, 0, 0, 0]  # t1 seat 1: Pyramids yellow and green, stops, the yellow


def _play(forced, rulings, overrides=None, turns=4, players=2, check=True):
    rules = load_rules(rulings, overrides or {})
    job = make_job(players, "random", seed=3, rules=rules)
    results, _, _, s = play_raw(job, 0, 1, trace_rows=4000, deal=IDENTITY, forced=forced)
    lines = render_trace(job.rules, s.trace, int(s.sc[S_TRACE_N]), skip=CHOICE_ROWS)
    lines = [ln for ln in lines if int(ln.split(" ")[0][1:]) < turns]
    if check:
        assert (results[:, engine.R_BAD] == 0).all()
    return lines, results, s, rules.tables


@pytest.mark.parametrize(
    ("rulings", "message"),
    [
        (
            {"tile_timing": "later"},
            "f.toml: rules.tile_timing: bad value 'later' (allowed: before_rewards, after_rewards)",
        ),
        (
            {"tile_offers": 2},
            "f.toml: rules.tile_offers: bad value 2 (allowed: per_colour, per_turn)",
        ),
        (
            {"steal_pairs": "tokens"},
            "f.toml: rules.steal_pairs: bad value 'tokens' (allowed: markers, cards)",
        ),
    ],
)
def test_bad_ruling_values_give_one_line_errors(rulings, message):
    with pytest.raises(InputError) as err:
        load_rules(rulings, where="f.toml")
    assert str(err.value) == message


def test_the_rulings_reach_the_tables():
    t = load_rules().tables
    assert (t.tiles_after, t.tile_per_turn, t.pair_cards) == (0, 0, 0)
    t = load_rules(
        {"tile_timing": "after_rewards", "tile_offers": "per_turn", "steal_pairs": "cards"}
    ).tables
    assert (t.tiles_after, t.tile_per_turn, t.pair_cards) == (1, 1, 1)


# ------------------------------------------------------------------ tile_timing


@pytest.mark.parametrize("timing", ["before_rewards", "after_rewards"])
def test_a_sixth_colour_completes_the_gem_reward_that_turn_or_a_round_later(timing):
    over = {"rewards.gem.by_players.2.colours": 2}
    forced = THREE_REDS + [2] + ONE_YELLOW  # t0: tile t2, the sixth colour
    lines, _, _, _ = _play(forced, {"tiles": "b", "tile_timing": timing}, over, turns=3)
    rewards = [ln for ln in lines if "gem reward" in ln]
    assert "t0 seat 0: takes the action tile t2 (sixth colour)" in lines
    if timing == "before_rewards":
        assert rewards == ["t0 seat 0: takes the gem reward (9 points)"]
    else:  # checked before the tile is taken: at the end of seat 0's next turn
        assert rewards == ["t2 seat 0: takes the gem reward (9 points)"]


# ------------------------------------------------------------------ tile_offers


def _offer_state(offers, colours, outcomes):
    """A 2-seat state with tiles ``a`` and ruling ``tile_offers = offers``: seat 0
    (random) holds 3 gem cards of each colour in ``colours``, no tile offered yet,
    its next choices forced to ``outcomes`` (1: the first tile left)."""
    t = load_rules({"tiles": "a", "tile_offers": offers}).tables
    s = new_state(t, 2)
    s.tile_owner[:] = -1
    s.plan[:] = Plan.RANDOM
    for g in colours:
        s.gems[0, g] = 3
    queue_outcomes(s.rng, outcomes)
    return s, make_view(s, "CTState"), make_view(t, "CTTables")


def _two_colours_at_three(offers, calls):
    """Seat 0 holds 3 red and 3 yellow gem cards; take_tiles is called ``calls`` times
    in one turn, every offer taking the first tile left. Returns the tiles taken, the
    colours counted as offered, and whether an offer was made."""
    s, sv, tv = _offer_state(offers, (0, 1), [1, 1, 1, 1])
    offered = False
    for _ in range(calls):
        offered = T.take_tiles(sv, tv, 0, 2, offered)
    return int((s.tile_owner == 0).sum()), int(s.tclaim[0]), offered


def test_two_colours_reaching_three_bring_two_tiles_per_colour_and_one_per_turn():
    assert _two_colours_at_three("per_colour", 1) == (2, 0b11, True)
    # per turn: one tile; the other colour counts as offered (no tile for it later)
    assert _two_colours_at_three("per_turn", 1) == (1, 0b11, True)
    assert _two_colours_at_three("per_turn", 2) == (1, 0b11, True)


@pytest.mark.parametrize(("offers", "tiles"), [("per_colour", 2), ("per_turn", 1)])
def test_a_colour_reaching_three_later_in_the_turn(offers, tiles):
    """A colour reaching 3 later in a turn (a wild marker's steal) brings an offer
    under ``per_colour``, none under ``per_turn`` once one was made that turn."""
    s, sv, tv = _offer_state(offers, (0,), [1, 1])
    assert T.take_tiles(sv, tv, 0, 2, False)
    s.gems[0, 1] = 3  # a yellow reaches 3 later in the same turn
    assert T.take_tiles(sv, tv, 0, 2, True)
    assert (s.tile_owner == 0).sum() == tiles


# ------------------------------------------------------------------ steal_pairs

#: t0 seat 0: Pyramids key (place 4) and red (place 0), stops: takes the key
#: t1 seat 1: Great Wall chest (place 9) and Pyramids yellow (place 1), stops: the chest
#: t2 seat 0: Pyramids red and yellow, stops, the red
#: t3 seat 1: Taj Mahal key (place 14) and Machu Picchu chest (place 19), stops: a pair
#:    (its other chest stays unpaired), the steal takes seat 0's second item: the key
STOLEN_KEY = [4, 0, 0] + [8, 1, 0] + [0, 0, 0, 0] + [11, 15, 0] + [1]


def _stolen_key(pairs):
    """:data:`STOLEN_KEY` played to the end of t3 (the turn cap stops the game there:
    its only broken invariant is the cap)."""
    rules = {"steal_pairs": pairs}
    lines, results, s, _ = _play(STOLEN_KEY + [0], rules, {"components.max_turns": 4}, check=False)
    assert (results[:, engine.R_BAD] == engine.BAD_ABORTED).all()
    return [ln for ln in lines if " steals " in ln], s


@pytest.mark.parametrize("pairs", ["markers", "cards"])
def test_a_stolen_key_card_pairs_for_its_thief_only_when_cards_make_pairs(pairs):
    steals, s = _stolen_key(pairs)
    assert steals[0] == "t3 seat 1: steals Pyramids key from seat 0"
    if pairs == "markers":  # the key brings no marker: seat 1 keeps its unpaired chest
        assert steals == steals[:1]
        assert (s.held[1, H_KEYS], s.held[1, H_CHESTS]) == (0, 1)
        assert s.held[0, H_KEYS] == 1  # seat 0 keeps its key marker
        assert s.sc[S_PAIRED] == 0
    else:  # the key card pairs with Machu Picchu chest: a second steal (the red)
        assert steals == [steals[0], "t3 seat 1: steals Pyramids red from seat 0"]
        assert (s.held[1, H_KEYS], s.held[1, H_CHESTS]) == (0, 0)
        assert s.held[0, H_KEYS] == 0  # its only unspent key card was stolen
        # spent: seat 1's own key and first chest, then the stolen key and the other chest
        assert s.sc[S_PAIRED] == (1 << 14) | (1 << 9) | (1 << 4) | (1 << 19)


def _before_the_steal(pairs):
    """The state after t2 of :data:`STOLEN_KEY` (seat 0: Pyramids key and red; seat 1:
    Great Wall chest, unpaired), seat 1 now a greedy seat (plan ``plan``)."""
    rules = load_rules({"steal_pairs": pairs}, {"components.max_turns": 3})
    job = make_job(2, "random", seed=3, rules=rules)
    _, _, _, s = play_raw(job, 0, 1, deal=IDENTITY, forced=STOLEN_KEY[:10])
    s.prm[1] = [0.8, 0.0, 0.0, 0.0, 0.0]  # greedy's row
    return s, rules.tables


@pytest.mark.parametrize(
    ("pairs", "plan", "card"),
    [
        ("markers", Plan.EXPECT, 0),  # the red: one point
        ("cards", Plan.EXPECT, 4),  # the key: it pairs, then another steal
        ("cards", Plan.EXPECT_PLAIN, 0),  # the reference that ignores the ruling
    ],
)
def test_a_greedy_thief_takes_the_card_that_completes_its_pair_when_cards_pair(pairs, plan, card):
    s, t = _before_the_steal(pairs)
    assert s.held[1, H_CHESTS] == 1 and s.owner[4] == 0 and s.owner[0] == 0
    s.plan[1] = plan
    sv, tv = make_view(s, "CTState"), make_view(t, "CTTables")
    assert S.choose_steal(sv, tv, 1, 2) == (0, card)


def test_a_spent_card_makes_no_second_pair_and_the_thief_prefers_an_unspent_one():
    s, t = _before_the_steal("cards")
    s.plan[1] = Plan.EXPECT
    s.sc[S_PAIRED] |= 1 << 4  # seat 0's key is spent (as if it had paired)
    s.held[0, H_KEYS] = 0
    sv, tv = make_view(s, "CTState"), make_view(t, "CTTables")
    assert S.choose_steal(sv, tv, 1, 2) == (0, 0)  # nothing pairs: the red again
    assert S.pair_kind(sv, 1) == Kind.KEY


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize(
    "rulings",
    [
        {"steal_pairs": "cards"},
        {"steal_pairs": "cards", "tiles": "b", "stolen_cards": "ignore"},
        {"tiles": "b", "tile_timing": "after_rewards"},
        {"tiles": "a", "tile_offers": "per_turn"},
        {"tiles": "b", "tile_offers": "per_turn", "tile_timing": "after_rewards"},
    ],
)
def test_whole_games_under_each_ruling_keep_every_invariant(rulings):
    # the engine's checks (the unpaired counters are the unspent cards under
    # steal_pairs = cards) raise on any failure
    df = simulate(4, "random,greedy,perfect,hunter", 150, seed=7, rules=load_rules(rulings))
    assert len(df) == 600 and df.steals.sum() > 0


def test_tiles_rulings_change_nothing_without_tiles_and_cards_change_steals():
    base = simulate(3, "hunter", 200, seed=2)
    same = simulate(
        3,
        "hunter",
        200,
        seed=2,
        rules=load_rules({"tile_timing": "after_rewards", "tile_offers": "per_turn"}),
    )
    assert base.equals(same)
    cards = simulate(3, "hunter", 200, seed=2, rules=load_rules({"steal_pairs": "cards"}))
    assert cards.steals.sum() > base.steals.sum()


def test_broken_pair_counters_are_caught_under_cards():
    rules = load_rules({"steal_pairs": "cards"})
    job = make_job(2, "random", seed=3, rules=rules)
    _, _, _, s = play_raw(job, 0, 1, deal=IDENTITY, forced=STOLEN_KEY + [0])
    t = rules.tables
    sv, tv = make_view(s, "CTState"), make_view(t, "CTTables")
    assert engine.check_invariants(sv, tv, 2) == 0
    s.held[1, H_KEYS] += 1  # a counter that no unspent card backs
    assert engine.check_invariants(sv, tv, 2) & engine.BAD_MARKERS


@pytest.mark.parametrize(
    ("rule", "allowed"),
    [
        ("tile_timing=later", "before_rewards, after_rewards"),
        ("tile_offers=later", "per_colour, per_turn"),
        ("steal_pairs=later", "markers, cards"),
    ],
)
def test_a_bad_rule_on_the_command_line_is_one_line_and_exit_2(rule, allowed, capsys):
    from analyzer.cli import run_cli

    args = ["simulate", "--game", "colorful_treasure", "--rule", rule, "--games", "10"]
    assert run_cli(args) == 2
    err = capsys.readouterr().err
    name = rule.split("=")[0]
    assert err == f"analyzer: error: --rule: rules.{name}: bad value 'later' (allowed: {allowed})\n"
