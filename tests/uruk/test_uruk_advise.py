"""``analyzer advise --game uruk``: the table-state file, its checks, the one-step ranking."""

import json

import pytest

from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.uruk.advise import build, example_text, load_state, one_step
from analyzer.uruk.rules import default_rules

RULES = default_rules()


def _write(tmp_path, text, name="state.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def _state(tmp_path, text):
    return load_state(_write(tmp_path, text), RULES)


def test_example_option_prints_the_shipped_file_and_it_advises(tmp_path, capsys):
    assert run_cli(["advise", "--game", "uruk", "--example"]) == 0
    text = capsys.readouterr().out
    assert text == example_text()
    p = _write(tmp_path, text)
    assert run_cli(["advise", "--game", "uruk", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["me"] == "anna" and out["decision"] == "action"
    rows = out["choices"]
    assert rows and all(isinstance(r["choice"], str) for r in rows)
    values = [r["value"] for r in rows]
    assert values == sorted(values, reverse=True)
    assert sum(r["default"] for r in rows) == 1
    assert set(out["within_noise_of_best"]) <= {r["choice"] for r in rows}
    assert out["assumed"]


def test_build_keeps_every_card_resource_and_stone(tmp_path):
    from analyzer.kernels.kernel_view import make_view
    from analyzer.uruk.engine import check_invariants

    state = _state(tmp_path, example_text())
    s, _ = build(state, RULES)
    t = RULES.tables
    assert check_invariants(make_view(s, "UrukState"), make_view(t, "UrukTables"), 2) == 0
    # my hand as written; the other hand as large as the file says
    assert int(s.hand[0].sum()) == 5 and int(s.hand[1].sum()) == 5
    assert int(s.hand[0, RULES.invention_ids.index("tonrohr")]) == 2


def test_the_default_choice_is_the_kernels_choice(tmp_path):
    from analyzer.kernels.kernel_view import make_view
    from analyzer.uruk.strategies import candidates, choose

    state = _state(tmp_path, example_text())
    advice = one_step(state, RULES)
    s, _ = build(state, RULES)
    sv, tv = make_view(s, "UrukState"), make_view(RULES.tables, "UrukTables")
    i = choose(sv, tv, 0, candidates(sv, tv, 0))
    mine = [c for c in advice.choices if c.default]
    assert mine[0].args == tuple(int(v) for v in s.cand[i])


def test_secret_bid_lists_every_bid(tmp_path):
    text = example_text().replace(
        'decision = "action"', 'decision = "secret_bid"\ngod = "Erdbeben"', 1
    )
    advice = one_step(_state(tmp_path, text), RULES)
    assert sorted(c.choice for c in advice.choices) == [f"bid {b}" for b in range(4)]


@pytest.mark.parametrize(
    "old, new, where",
    [
        ('me = "anna"', 'me = "zoe"', "me: bad value 'zoe'"),
        ('decision = "action"', 'decision = "auction"', "decision: bad value 'auction'"),
        ("epochs = [2, 6, 4, 3]", "epochs = [2, 6, 4, 9]", "epochs[3]: bad value 9"),
        ('"zahnrad", "leier"', '"zahnrad", "laser"', "display[1]: bad value 'laser'"),
        ("cards = 5", "cards = 99", "seat.cards: bad value 99"),
        ("red = 2, yellow", "red = 13, yellow", "resources.red: bad value 13"),
        ('lehmhaus = "village"', 'lehmhaus = "town"', "inventions.lehmhaus: bad value 'town'"),
        ('decision = "action"', 'decision = "secret_bid"', "god: missing"),
        ("cards = 5", 'hand = ["rad"]', "seat[1].hand: only my own hand"),
        ('decision = "action"', 'decision = "secret_bid"\ngod = "duerre"', "duerre: bad value"),
        ('name = "ben"', 'name = "ben"\ncolour = 1', "seat[1]: unknown key 'colour'"),
    ],
)
def test_bad_input_is_one_line_naming_file_key_value(tmp_path, capsys, old, new, where):
    text = example_text()
    assert old in text
    p = _write(tmp_path, text.replace(old, new, 1))
    with pytest.raises(InputError, match=None) as err:
        load_state(p, RULES)
    assert where in str(err.value) and str(p) in str(err.value)
    assert run_cli(["advise", "--game", "uruk", str(p)]) == 2
    out = capsys.readouterr()
    assert out.err.count("\n") == 1 and where in out.err and "Traceback" not in out.err


def test_too_many_copies_is_refused(tmp_path):
    text = example_text().replace(
        '"tonrohr", "tonrohr"', '"tonrohr", "tonrohr", "tonrohr", "tonrohr"'
    )
    with pytest.raises(InputError, match="tonrohr: bad value '4 cards seen'"):
        _state(tmp_path, text)


def test_missing_file_and_no_file(tmp_path, capsys):
    assert run_cli(["advise", "--game", "uruk", str(tmp_path / "nope.toml")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert run_cli(["advise", "--game", "uruk"]) == 2
    assert "--example" in capsys.readouterr().err


def test_deep_ranks_every_choice_reproducibly(tmp_path, capsys):
    p = _write(tmp_path, example_text())
    args = ["advise", "--game", "uruk", str(p), "--deep", "--budget", "390", "--seed", "4"]
    assert run_cli([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert run_cli([*args, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    out.pop("seconds"), again.pop("seconds")
    assert out == again
    one = one_step(load_state(p, RULES), RULES)
    assert {r["choice"] for r in out["choices"]} == {c.choice for c in one.choices}
    wins = [r["win"] for r in out["choices"]]
    assert wins == sorted(wins, reverse=True)
    assert all(r["rollouts"] == 30 for r in out["choices"])  # 390 over 13 choices
    assert sum(r["default"] for r in out["choices"]) == 1
    assert set(out["within_noise_of_best"]) <= {r["choice"] for r in out["choices"][1:]}
    lo, hi = out["choices"][0]["win_ci95"]
    assert lo <= out["choices"][0]["win"] <= hi


def test_deep_ranks_secret_bids(tmp_path):
    from analyzer.uruk.deep import deep_advice

    text = example_text().replace(
        'decision = "action"', 'decision = "secret_bid"\ngod = "Erdbeben"', 1
    )
    advice = deep_advice(_state(tmp_path, text), RULES, budget=200, seed=1)
    assert sorted(c.choice for c in advice.choices) == [f"bid {b}" for b in range(4)]
    assert advice.rollouts == 200
