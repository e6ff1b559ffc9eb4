"""The plain-Python engine of the exact odds (``odds_tree``) against the kernel,
and what a one-shot ``analyzer odds`` imports."""

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from analyzer.core.errors import InputError
from analyzer.unearth import claims, odds, odds_tree
from analyzer.unearth.odds import Die, OddsQuestion, exact_odds, parse_dice, parse_wonder
from analyzer.unearth.rules import default_rules

RULES = default_rules()
WONDERS = ("college", "columns", "edifice", "sanctuary")


def _same(q):
    """Both engines' answers to ``q``, checked identical (Fractions and JSON)."""
    tree = exact_odds(q, RULES, engine="tree")
    kernel = exact_odds(q, RULES, engine="kernel")
    assert tree == kernel
    assert tree.to_json() == kernel.to_json()
    assert tree.denominator == kernel.denominator
    return tree


@st.composite
def big_questions(draw):
    """Longer questions than the brute-force twin can check: up to 4 players and
    6 unknown dice, repeated owners and faces (states met again), every card,
    event and wonder, stone limits."""
    players = ["a", "b", "c", "d"][: draw(st.integers(1, 4))]
    faces = st.sampled_from([4, 6, 8])
    dice = [
        Die(draw(st.sampled_from(players)), f, draw(st.integers(1, f)))
        for f in draw(st.lists(faces, max_size=3))
    ]
    dice += [
        Die(draw(st.sampled_from(players)), draw(faces)) for _ in range(draw(st.integers(1, 6)))
    ]
    top = sum(d.faces for d in dice)
    wonders = tuple((w, draw(st.sampled_from(players))) for w in WONDERS if draw(st.booleans()))
    kw = dict(
        me=draw(st.sampled_from(players)),
        reading_the_stones=draw(st.booleans()),
        ancestral_claim=draw(st.booleans()),
        ancient_map=draw(st.booleans()),
        event=draw(st.sampled_from([None, "gathering", "festival"])),
        wonders=wonders,
        goal=draw(st.sampled_from(["claim", "stone"])),
    )
    if draw(st.booleans()):
        kw["ruin_stones"] = draw(st.integers(0, 3))
        kw["bag"] = draw(st.integers(0, 3))
    return OddsQuestion(draw(st.integers(1, top + 2)), tuple(dice), **kw)


#: the largest enumeration (roll sequences) a generated question may have: both
#: engines answer it within about a second, while an unbounded draw (six d8 each
#: rerolled: 8**12 sequences) would keep the kernel busy for hours
MAX_WEIGHT = odds.TREE_MAX_WEIGHT


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,  # the same questions every run: the suite's time does not vary
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(big_questions())
def test_tree_gives_the_kernels_answer(q):
    assume(odds._prepare(q, RULES).weight <= MAX_WEIGHT)
    _same(q)


@pytest.mark.slow
@pytest.mark.parametrize(
    "claim, dice, kw",
    [
        (17, "a:d8,b:d6,a:d6,b:d4,a:d6,b:d6,a:d4", {}),  # the benchmark's question
        (30, "a:d8,b:d8,a:d8,b:d8,a:d8,b:d8,a:d8", {"reading_the_stones": True}),
        (22, "a:d8,b:d6,a:d6,b:d4,a:d4", {"ancient_map": True, "wonders": ["edifice=a"]}),
        (25, "a:d6,b:d6,c:d6,a:d6,b:d6,c:d6,a:d4", {"wonders": ["sanctuary=b", "college=c"]}),
        (20, "a:d4,b:d4,c:d4,a:d4,b:d4,c:d4,a:d4,b:d4", {"ruin_stones": 2, "bag": 3}),
        (40, "a:d8=8,a:d8=7,a:d6=6,a:d6=5,a:d4=4,a:d4=3,b:d8,b:d8", {"goal": "stone"}),
    ],
)
def test_tree_gives_the_kernels_answer_on_long_questions(claim, dice, kw):
    kw = {**kw, "wonders": tuple(parse_wonder(w, RULES) for w in kw.get("wonders", ()))}
    _same(OddsQuestion(claim, parse_dice(dice, RULES), **kw))


def test_more_than_rank_dice_of_one_player_count_only_the_best():
    # six 4s each and a 7th die: only the best 6 count, so whatever b rolls, a tie
    # (counting the 7th, b would win on 2..4)
    sixes = ",".join(["a:d4=4"] * 6 + ["b:d4=4"] * 6)
    r = _same(OddsQuestion(50, parse_dice(f"{sixes},a:d4=1,b:d4", RULES), me="a"))
    assert r.p_tie == 1


def test_the_tree_uses_the_claim_kernels_constants():
    assert odds_tree.RANK_DICE == claims.RANK_DICE
    assert odds_tree.KEY_SHIFT == claims._KEY_SHIFT
    assert (odds_tree.NO_CLAIM, odds_tree.TIE) == (claims.NO_CLAIM, claims.TIE)


def test_auto_takes_the_tree_for_small_questions_only(monkeypatch):
    from analyzer.unearth import odds_kernel

    used = []
    solve, run = odds_tree.solve, odds_kernel.run
    monkeypatch.setattr(odds_tree, "solve", lambda prep: used.append("tree") or solve(prep))
    monkeypatch.setattr(odds_kernel, "run", lambda prep: used.append("kernel") or run(prep))
    q = OddsQuestion(13, parse_dice("a:d6=5,b:d8,a:d6", RULES))
    small = exact_odds(q, RULES)
    monkeypatch.setattr(odds, "TREE_MAX_WEIGHT", 47)
    assert exact_odds(q, RULES) == small
    assert used == ["tree", "kernel"]
    with pytest.raises(InputError, match="engine"):
        exact_odds(q, RULES, engine="numba")


def test_the_kernels_names_stay_importable_from_odds():
    from analyzer.unearth.odds import _odds_kernel  # noqa: F401 - moved, still there

    with pytest.raises(AttributeError):
        odds.__getattr__("no_such_name")


def test_a_one_shot_odds_imports_no_numba_pandas_or_matplotlib():
    """``analyzer odds`` on a small question: nothing heavy is imported (numba,
    pandas, matplotlib, scipy, dask), and its answer is the usual one."""
    code = (
        "import sys, json\n"
        "from analyzer.cli import run_cli\n"
        "dice = 'blue:d6=5,blue:d6=3,red:d8'\n"
        "code = run_cli(['odds', '--claim', '13', '--dice', dice, '--json'])\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules}\n"
        "               & {'numba', 'llvmlite', 'pandas', 'matplotlib', 'scipy', 'dask'})\n"
        "print(json.dumps([code, heavy]), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    code, heavy = json.loads(done.stderr.strip().splitlines()[-1])
    assert code == 0 and heavy == []
    assert json.loads(done.stdout)["exact"]["p_win"]["red"] == "1/2"
