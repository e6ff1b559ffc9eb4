"""Exact odds engine: rulebook rulings as named tests, a brute-force twin, Monte Carlo."""

from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.core.errors import InputError
from analyzer.unearth.modifiers import reachable
from analyzer.unearth.odds import (
    Die,
    OddsQuestion,
    dice_to_claim_table,
    estimate_odds,
    exact_odds,
    has_choices,
    parse_dice,
    parse_wonder,
)
from analyzer.unearth.rules import default_rules
from tests.naive import naive_odds

RULES = default_rules()


def odds(claim, dice, **kw):
    return exact_odds(OddsQuestion(claim, parse_dice(dice, RULES), **kw), RULES)


# --------------------------------------------------------------------------- basics


def test_brief_example_blue_and_red():
    # blue has 5+3 on a 13; red rolls a d8: red claims with 5..8 (8 > blue's 5 ... or
    # red 5 ties blue's top die on value but wins on faces), else no claim
    r = odds(13, "blue:d6=5,blue:d6=3,red:d8")
    assert r.me == "red"
    assert r.p_win == {"blue": 0, "red": F(1, 2)}
    assert r.p_tie == 0 and r.p_no_claim == F(1, 2)
    assert r.expected_stones == {"blue": 0, "red": F(3, 8)}
    # blue draws one card per die whenever red claims
    assert r.expected_cards == {"blue": F(1, 2) * 2, "red": 0}


def test_probabilities_sum_to_one():
    r = odds(15, "a:d8,b:d6,a:d6,b:d4")
    assert r.p_claim + r.p_tie + r.p_no_claim == 1


def test_unbreakable_tie_and_cards():
    r = odds(10, "red:d6=5,blue:d6")
    assert r.p_tie == F(1, 6)  # blue 5: two d6 showing 5
    assert r.p_win["blue"] == F(1, 6)  # blue 6
    # tie: both draw one; blue claims: red draws one
    assert r.expected_cards == {"red": F(2, 6), "blue": F(1, 6)}


def test_claim_stops_later_dice():
    # the first d8 reaching 5 claims; the d4 is then not rolled (no stone, no card)
    r = odds(5, "a:d8,b:d4")
    # a: 5..8 at once; or 3 then b's 2..3, or 4 then any d4 (a's d8 wins on faces)
    assert r.p_win["a"] == F(4, 8) + F(1, 8) * F(2, 4) + F(1, 8) * F(4, 4)
    # b's d4 is rolled only when a rolled 1..4: stone on 1..3 of the d4
    assert r.expected_stones["b"] == F(4, 8) * F(3, 4)


def test_known_dice_already_claimed_resolve_without_rolling():
    r = odds(5, "a:d8=5,b:d6")
    assert r.p_win["a"] == 1 and r.expected_stones["b"] == 0 and r.expected_cards["b"] == 0


def test_stone_limit_ruin_then_bag():
    # two dice, one stone left in all: b only gets it when a did not
    r = odds(100, "a:d4,b:d4", ruin_stones=1, bag=0)
    assert r.expected_stones == {"a": F(3, 4), "b": F(1, 4) * F(3, 4)}
    # only the ruin given: the bag is unlimited
    r = odds(100, "a:d4,b:d4", ruin_stones=1)
    assert r.expected_stones == {"a": F(3, 4), "b": F(3, 4)}
    r = odds(100, "a:d4,b:d4", ruin_stones=0, bag=1)
    assert r.expected_stones["b"] == F(1, 4) * F(3, 4)


def test_stones_come_from_the_natural_face():
    # the Festival turns 1..3 into 2..4 and the Gathering 4 into 3: still natural 1..3 only
    for event in ("festival", "gathering"):
        r = odds(100, "a:d6", event=event)
        assert r.expected_stones["a"] == F(1, 2)


def test_modifiers_are_clamped_to_the_die():
    # the Festival cannot take a d6 above 6: a lone d6 never reaches 7
    assert odds(7, "a:d6", event="festival").p_claim == 0
    # the Gathering cannot take it below 1: the claim value 1 is always reached
    assert odds(1, "a:d6", event="gathering").p_claim == 1


# --------------------------------------------------------------------------- cards


def test_reading_the_stones_chosen_after_the_roll():
    # red's d4 shows 2; blue needs 6 on the d6 (claim 8), or 5 with +1
    assert odds(8, "red:d4=2,blue:d6").p_win["blue"] == F(1, 6)
    assert odds(8, "red:d4=2,blue:d6", reading_the_stones=True).p_win["blue"] == F(2, 6)


def test_faq_ancient_map_modifier_applies_to_first_roll_only():
    # Ancient Map alone: reroll anything but a 6
    assert odds(8, "red:d4=2,blue:d6", ancient_map=True).p_win["blue"] == F(11, 36)
    # with Reading the Stones: 5 or 6 first (with +1); else the reroll has no +1
    r = odds(8, "red:d4=2,blue:d6", ancient_map=True, reading_the_stones=True)
    assert r.p_win["blue"] == F(2, 6) + F(4, 6) * F(1, 6)


def test_faq_ancient_map_gives_one_stone_at_most():
    # claim out of reach: keep a natural 1..3 (stone), reroll a 4 hoping for one
    r = odds(100, "a:d4", ancient_map=True, goal="stone")
    assert r.expected_stones["a"] == F(3, 4) + F(1, 4) * F(3, 4)
    assert r.expected_stones["a"] < 1


def test_faq_event_and_ancestral_claim_order_is_the_players_choice():
    # natural 1 on a d6: Gathering first (clamped at 1) then +2 gives 3; the other order 2
    assert reachable(1, (-1, 2), 6) == {2, 3}
    # so with claim 3 every roll claims
    assert odds(3, "a:d6", ancestral_claim=True, event="gathering").p_win["a"] == 1


def test_ancestral_claim_only_on_a_d6():
    assert odds(8, "a:d8", ancestral_claim=True).p_win["a"] == F(1, 8)
    # it skips the d8 and lands on the next d6 the asking player rolls: 8 then 4..6 (+2)
    assert odds(14, "a:d8,a:d6", ancestral_claim=True).p_win["a"] == F(1, 8) * F(3, 6)
    assert odds(14, "a:d8,a:d6").p_win["a"] == F(1, 8) * F(1, 6)


def test_goal_stone_changes_the_choice():
    # Ancient Map: for a claim, reroll every non-6; for stones, keep 1..3
    claim = odds(6, "a:d6", ancient_map=True)
    stone = odds(6, "a:d6", ancient_map=True, goal="stone")
    assert claim.p_win["a"] > stone.p_win["a"]
    assert stone.expected_stones["a"] > claim.expected_stones["a"]


# --------------------------------------------------------------------------- wonders


def test_edifice_rerolls_four_and_five_once():
    r = odds(6, "a:d6", wonders=(("edifice", "a"),))
    assert r.p_win["a"] == F(1, 6) + F(2, 6) * F(1, 6)
    # the reroll stands and gives a stone on a natural 1..3
    s = odds(100, "a:d6", wonders=(("edifice", "a"),), goal="stone")
    assert s.expected_stones["a"] == F(3, 6) + F(2, 6) * F(3, 6)


def test_college_on_d8_only():
    assert odds(9, "red:d4=1,a:d8", wonders=(("college", "a"),)).p_win["a"] == F(2, 8)
    assert odds(7, "red:d4=1,a:d6", wonders=(("college", "a"),)).p_win["a"] == F(1, 6)


def test_sanctuary_needs_a_matching_value():
    # a's natural 5 matches red's 5 and may become 6: 11 reached and a's 6 beats red's 5
    r = odds(11, "red:d6=5,a:d6", wonders=(("sanctuary", "a"),))
    assert r.p_win["a"] == F(2, 6)
    assert odds(11, "red:d6=5,a:d6").p_win["a"] == F(1, 6)


def test_other_players_ability_serves_their_own_claim():
    # I am a; b owns the Sanctuary: b's natural 5 matches a's 5 and b makes it a 6
    r = odds(11, "a:d6=5,b:d6", me="a", wonders=(("sanctuary", "b"),))
    assert r.p_win["b"] == F(2, 6)
    # b owns the Columns: lowering never helps b claim, so b's chance is unchanged
    with_c = odds(10, "a:d6=5,b:d6", me="a", wonders=(("columns", "b"),))
    assert with_c.p_win["b"] == odds(10, "a:d6=5,b:d6", me="a").p_win["b"] == F(1, 6)


def test_asking_player_uses_columns_to_keep_the_claim_from_others():
    # red's d6 shows 6 on a 10: a's 4 or 5 hands red the ruin, a's 6 ties
    plain = odds(10, "red:d6=6,a:d6")
    assert plain.p_win["red"] == F(2, 6) and plain.p_tie == F(1, 6)
    # with -1: 4 -> 3 leaves it unclaimed; 6 stays 6 (a tie beats handing red the ruin)
    col = odds(10, "red:d6=6,a:d6", wonders=(("columns", "a"),))
    assert col.p_win["red"] == F(1, 6) and col.p_tie == F(1, 6)


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("red:d10", "d10"),
        ("red:d6=7", "7"),
        ("red:d6=0", "0"),
        ("red-d6", "PLAYER:dFACES"),
        ("red:d6,,blue:d4", "PLAYER:dFACES"),
        ("", "PLAYER:dFACES"),
    ],
)
def test_bad_dice_tokens(text, fragment):
    with pytest.raises(InputError) as err:
        parse_dice(text, RULES)
    assert fragment in str(err.value) and "allowed" in str(err.value)


def test_bad_question_values():
    # the library names a parameter by its Python name (the CLI spells it --claim)
    with pytest.raises(InputError, match="^claim: bad value 0") as err:
        exact_odds(OddsQuestion(0, (Die("a", 6),)), RULES)
    assert err.value.field == "claim"
    with pytest.raises(InputError, match="^event: "):
        exact_odds(OddsQuestion(5, (Die("a", 6),), event="day_of_rest"), RULES)
    with pytest.raises(InputError, match="^wonder: "):
        parse_wonder("palace_of_relics=a", RULES)
    with pytest.raises(InputError, match="too many"):
        exact_odds(OddsQuestion(500, tuple(Die("a", 8) for _ in range(25))), RULES)


def test_wonder_names_by_effect_or_id():
    assert parse_wonder("college=blue", RULES) == ("college", "blue")
    assert parse_wonder("shattered_edifice=red", RULES) == ("edifice", "red")


# --------------------------------------------------------------------------- twin


_EVENTS = {None: 0, "gathering": -1, "festival": 1}


@st.composite
def questions(draw):
    players = ["a", "b", "c"][: draw(st.integers(2, 3))]
    faces = st.sampled_from([4, 6, 8])
    known = []
    for _ in range(draw(st.integers(0, 2))):
        f = draw(faces)
        known.append((draw(st.sampled_from(players)), f, draw(st.integers(1, f))))
    unknown = [
        (draw(st.sampled_from(players)), draw(faces), None) for _ in range(draw(st.integers(1, 3)))
    ]
    dice = known + unknown
    top = sum(f for _, f, _ in dice)
    claim = draw(st.integers(1, top + 2))
    me = draw(st.sampled_from(players))
    wonders = tuple(
        (eff, draw(st.sampled_from(players)))
        for eff in ("college", "columns", "edifice", "sanctuary")
        if draw(st.booleans())
    )
    kw = dict(
        me=me,
        reading_the_stones=draw(st.booleans()),
        ancestral_claim=draw(st.booleans()),
        ancient_map=draw(st.booleans()),
        event=draw(st.sampled_from(list(_EVENTS))),
        wonders=wonders,
        goal=draw(st.sampled_from(["claim", "stone"])),
    )
    if draw(st.integers(0, 3)) == 0:
        kw["force_first"] = draw(st.integers(1, unknown[0][1]))
    if draw(st.booleans()):
        kw["ruin_stones"] = draw(st.integers(0, 2))
        kw["bag"] = draw(st.integers(0, 1))
    return claim, dice, kw


@pytest.mark.parametrize("engine", ["kernel", "tree"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(questions())
def test_kernel_matches_brute_force_twin(engine, case):
    claim, dice, kw = case
    q = OddsQuestion(claim, tuple(Die(o, f, v) for o, f, v in dice), **kw)
    r = exact_odds(q, RULES, engine=engine)
    wonders = {}
    for eff, owner in kw["wonders"]:
        wonders.setdefault(owner, set()).add(eff)
    n = naive_odds(
        claim,
        dice,
        r.me,
        players=list(r.players),
        reading_the_stones=kw["reading_the_stones"],
        ancestral_claim=kw["ancestral_claim"],
        ancient_map=kw["ancient_map"],
        event_amount=_EVENTS[kw["event"]],
        wonders=wonders,
        ruin_stones=kw.get("ruin_stones"),
        bag=kw.get("bag"),
        goal=kw["goal"],
        force_first=kw.get("force_first", 0),
    )
    assert r.p_win == n["p_win"]
    assert r.p_tie == n["p_tie"]
    assert r.p_no_claim == n["p_no_claim"]
    assert r.expected_stones == n["stones"]
    assert r.expected_cards == n["cards"]


def test_force_first_with_claim_out_of_reach_counts_one_natural():
    q = OddsQuestion(100, parse_dice("a:d4,b:d4", RULES), force_first=2)
    r = exact_odds(q, RULES)
    assert r.p_no_claim == F(1, 4)
    assert r.expected_stones == {"a": F(1, 4), "b": F(1, 4) * F(3, 4)}


def test_force_first_matches_twin():
    q = OddsQuestion(
        11,
        parse_dice("red:d6=5,a:d8,b:d6", RULES),
        me="a",
        force_first=5,
        wonders=(("sanctuary", "a"),),
    )
    r = exact_odds(q, RULES)
    n = naive_odds(
        11,
        [("red", 6, 5), ("a", 8, None), ("b", 6, None)],
        "a",
        players=list(r.players),
        wonders={"a": {"sanctuary"}},
        force_first=5,
    )
    assert r.p_win == n["p_win"] and r.expected_stones == n["stones"]
    assert sum(r.p_win.values()) + r.p_tie + r.p_no_claim == F(1, 8)


# --------------------------------------------------------------------------- Monte Carlo


@pytest.mark.parametrize(
    "claim, dice, kw",
    [
        (13, "blue:d6=5,blue:d6=3,red:d8", {}),
        (18, "a:d8,b:d8,a:d6,b:d6,c:d4", {"ruin_stones": 1, "bag": 1}),
        (12, "a:d6=4,b:d6,a:d6,b:d4", {"event": "gathering"}),
        (14, "a:d8,b:d6,a:d6", {"ancestral_claim": True, "me": "a"}),
    ],
)
def test_monte_carlo_agrees_within_four_standard_errors(claim, dice, kw):
    q = OddsQuestion(claim, parse_dice(dice, RULES), **kw)
    assert not has_choices(q)
    r = exact_odds(q, RULES)
    est = estimate_odds(q, trials=20_000, seed=11, rules=RULES)
    exact = {f"p_win:{p}": v for p, v in r.p_win.items()}
    exact |= {"p_tie": r.p_tie, "p_no_claim": r.p_no_claim}
    exact |= {f"stones:{p}": v for p, v in r.expected_stones.items()}
    exact |= {f"cards:{p}": v for p, v in r.expected_cards.items()}
    assert set(exact) == set(est)
    for k, v in exact.items():
        mean, se = est[k]
        if se == 0:
            assert mean == float(v), k
        else:
            assert abs(mean - float(v)) <= 4 * se, (k, mean, float(v), se)


def test_monte_carlo_refuses_questions_with_choices():
    with pytest.raises(InputError):
        estimate_odds(OddsQuestion(5, (Die("a", 6),), reading_the_stones=True), rules=RULES)


# --------------------------------------------------------------------------- table


def _p_sum_at_least(faces, target):
    dist = {0: F(1)}
    for f in faces:
        new = {}
        for t, p in dist.items():
            for n in range(1, f + 1):
                new[t + n] = new.get(t + n, 0) + p / f
        dist = new
    return sum(p for t, p in dist.items() if t >= target)


def test_dice_to_claim_table():
    df = dice_to_claim_table(RULES)
    assert list(df.columns) == ["claim_value", "dice", "p_claimed", "exact"]
    assert sorted(df.claim_value.unique()) == [9, 11, 13, 15, 17, 21]
    assert sorted(df.dice.unique()) == [1, 2, 3, 4, 5]
    faces = [8, 6, 6, 6, 4]
    for row in df.itertuples():
        # one player, no modifiers: claimed within k dice iff the k biggest dice reach it
        p = _p_sum_at_least(faces[: row.dice], row.claim_value)
        assert F(row.exact) == p
        assert row.p_claimed == pytest.approx(float(p))
    for _, g in df.groupby("claim_value"):
        assert g.sort_values("dice").p_claimed.is_monotonic_increasing
