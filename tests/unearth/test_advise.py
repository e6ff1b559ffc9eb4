"""``analyzer advise``: state-file validation and the ranked choices."""

import json
from fractions import Fraction as F

import pytest

from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.unearth.advise import advise, example_text, load_state
from analyzer.unearth.rules import default_rules

RULES = default_rules()


def _write(tmp_path, text, name="state.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


BASIC = """
me = "blue"
free_dice = ["d6", "d6", "d8"]
hand = ["reading_the_stones", "forlorn", "a_new_discovery", "band_of_delvers"]
[[ruins]]
name = "R10"
claim = 10
stones = 1
dice = ["red:d6=6"]
[[ruins]]
name = "R8"
claim = 8
dice = ["red:d4=2"]
"""


def test_example_file_loads_and_advises():
    state = load_state_from_text(example_text())
    choices = advise(state, RULES)
    # one row per die type per ruin: d8, d6, d4 on four ruins
    assert len(choices) == 3 * 4
    assert {(c.die, c.ruin) for c in choices} == {
        (f"d{f}", r.name) for f in (8, 6, 4) for r in state.ruins
    }
    claims = [c.p_claim for c in choices]
    assert claims == sorted(claims, reverse=True)


def load_state_from_text(text, tmp=None):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "t.toml"
        p.write_text(text)
        return load_state(p, RULES)


def test_choices_and_cards_are_exact(tmp_path):
    state = load_state(_write(tmp_path, BASIC), RULES)
    rows = {(c.die, c.ruin): c for c in advise(state, RULES)}
    # d6 on R8 (red's d4 shows 2): claim on 6 (6 + 2 = 8); stone on 1..3
    c = rows[("d6", "R8")]
    assert (c.p_claim, c.p_stone, c.p_other) == (F(1, 6), F(1, 2), 0)
    # Reading the Stones adds a 5 (+1): 2/6; A New Discovery on red's d4 (2 -> 4): my
    # 4..6 reach 8, and my d6 showing 4 beats red's d4 showing 4 on faces: 3/6
    assert c.card == "a_new_discovery" and c.card_p_claim == F(3, 6)
    # d6 on R10 (red's d6 shows 6): my 4 or 5 hands red the ruin, my 6 ties
    c = rows[("d6", "R10")]
    assert c.p_claim == 0 and c.p_other == F(3, 6)
    # Forlorn on red's 6 (-> 4): only my 6 reaches 10, and 6 beats 4
    assert c.card == "forlorn" and c.card_p_claim == F(1, 6)


def test_all_dice_on_ruins_take_one_back(tmp_path):
    text = """
me = "blue"
[[ruins]]
name = "X"
claim = 30
dice = ["blue:d6=1", "blue:d6=1", "blue:d6=2", "blue:d4=1", "red:d8=8"]
[[ruins]]
name = "Y"
claim = 9
dice = ["blue:d8=3"]
"""
    state = load_state(_write(tmp_path, text), RULES)
    choices = advise(state, RULES)
    # distinct dice to take back: d6=1, d6=2, d4=1 on X, d8=3 on Y; each to X or Y
    assert len(choices) == 4 * 2
    back = {(c.die, c.from_ruin, c.ruin): c for c in choices}
    # the d8 taken from Y and rolled back onto Y alone: claims on 9? max 8: never
    assert back[("d8 (showing 3)", "Y", "Y")].p_claim == 0
    # the d8 rolled onto X (total 13 + 1..8 < 30): no claim
    assert back[("d8 (showing 3)", "Y", "X")].p_claim == 0


def test_advise_json_via_cli(tmp_path, capsys):
    p = _write(tmp_path, BASIC)
    assert run_cli(["advise", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["me"] == "blue"
    first = out["choices"][0]
    assert set(first) >= {"die", "ruin", "p_claim", "p_stone", "p_other", "card", "exact"}
    assert F(first["exact"]["p_claim"]) == pytest.approx(first["p_claim"])


def test_advise_table_via_cli(tmp_path, capsys):
    assert run_cli(["advise", str(_write(tmp_path, BASIC))]) == 0
    out = capsys.readouterr().out
    assert "R10" in out and "Forlorn" in out


def test_example_option_prints_the_shipped_file(capsys):
    assert run_cli(["advise", "--example"]) == 0
    assert capsys.readouterr().out == example_text()


def test_no_file_is_a_usage_error_naming_the_example(capsys):
    assert run_cli(["advise"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("analyzer: error: ") and "analyzer advise --example" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('me = "blue"\ncolour = 3\n[[ruins]]\nclaim = 9\n', "unknown key 'colour'"),
        ('me = "blue"\nfree_dice = ["d6"]\n[[ruins]]\nclaim = 9\nsize = 2\n', "unknown key 'size'"),
        ('me = "blue"\nfree_dice = ["d10"]\n[[ruins]]\nclaim = 9\n', "free_dice[0]"),
        ('me = "blue"\nfree_dice = ["d6"]\n[[ruins]]\nclaim = 9\ndice = ["red:d6=9"]\n', "9"),
        ('me = "blue"\nfree_dice = ["d6"]\n[[ruins]]\nclaim = 9\ndice = ["red:d6"]\n', "dice[0]"),
        ('me = "blue"\nfree_dice = ["d6"]\n[[ruins]]\nclaim = 0\n', "claim"),
        ('me = "blue"\nfree_dice = ["d6"]\n[[ruins]]\nclaim = -3\n', "claim"),
        ('me = "blue"\nfree_dice = ["d6"]\nevent = "rain"\n[[ruins]]\nclaim = 9\n', "event"),
        ('me = "blue"\nfree_dice = ["d6"]\nhand = ["joker"]\n[[ruins]]\nclaim = 9\n', "hand[0]"),
        ('me = "blue"\nfree_dice = ["d6"]\nbag = -1\n[[ruins]]\nclaim = 9\n', "bag"),
        ('me = "blue"\nfree_dice = ["d8", "d8"]\n[[ruins]]\nclaim = 9\n', "dice of blue"),
        (
            'me = "blue"\nfree_dice = ["d6"]\n[wonders]\nred = ["x"]\n[[ruins]]\nclaim = 9\n',
            "wonders",
        ),
        ('me = "blue"\nfree_dice = ["d6"]\n', "ruins"),
        ('me = "blue"\nfree_dice = [\n', "bad TOML"),
    ],
)
def test_bad_state_files_one_line_exit_2(tmp_path, capsys, text, fragment):
    p = _write(tmp_path, text)
    with pytest.raises(InputError):
        load_state(p, RULES)
    assert run_cli(["advise", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"analyzer: error: {p}: ")
    assert fragment in err and "allowed" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_missing_file(tmp_path, capsys):
    p = tmp_path / "nope.toml"
    assert run_cli(["advise", str(p)]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and str(p) in err and len(err.strip().splitlines()) == 1


_BASE = 'me = "blue"\nfree_dice = ["d6"]\n'
_BIG = 2**63 - 1


@pytest.mark.parametrize(
    "text, fragment",
    [
        (f"{_BASE}bag = {_BIG}\n[[ruins]]\nclaim = 9\n", "bag: bad value"),
        (f"{_BASE}bag = 3\n[[ruins]]\nclaim = 9\nstones = {_BIG}\n", "stones: bad value"),
        (f"{_BASE}[[ruins]]\nclaim = {_BIG}\n", "claim: bad value"),
        (f"{_BASE}[[ruins]]\nclaim = {10**23}\n", "claim: bad value"),
        (f"{_BASE}[[ruins]]\nclaim = {'9' * 5000}\n", "a number too long"),
        (f'{_BASE}[[ruins]]\nclaim = 9\ndice = ["red:d6={"9" * 5000}"]\n', "dice[0]"),
        (f'me = "blue"\nfree_dice = ["d{"9" * 5000}"]\n[[ruins]]\nclaim = 9\n', "free_dice[0]"),
    ],
)
def test_hostile_integers_in_the_state_file(tmp_path, capsys, text, fragment):
    """Integers past 64 bits or absurdly large end in one line and exit 2 (they
    ended as an internal error, exit 3, or ran)."""
    p = _write(tmp_path, text)
    assert run_cli(["advise", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"analyzer: error: {p}: ") and fragment in err and "allowed" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("seed", [str(2**64), "-5", "99999999999999999999999"])
def test_deep_seed_out_of_range_names_the_option(tmp_path, capsys, seed):
    p = _write(tmp_path, f"{_BASE}[[ruins]]\nclaim = 9\n")
    assert run_cli(["advise", str(p), "--deep", "--seed", seed]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"analyzer: error: --seed: bad value {seed}")
    assert len(err.strip().splitlines()) == 1
