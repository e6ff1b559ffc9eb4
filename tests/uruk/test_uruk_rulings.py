"""Uruk's ruling switches (``analyzer.uruk.rules.RULINGS``): each value of each
switch on a hand-built position (:class:`tests.uruk.test_uruk_forced.Table`), their
checked values and one-line errors, and where users see and set them."""

from __future__ import annotations

import json

import pytest

from analyzer.cli import run_cli
from analyzer.core.errors import InputError
from analyzer.games import load_game
from analyzer.scenario import parse_scenario
from analyzer.uruk import actions, strategies
from analyzer.uruk import state as S
from analyzer.uruk.codes import Action
from analyzer.uruk.rules import RULING_NAMES, RULINGS, load_rules
from tests.uruk.test_uruk_forced import Table, base


def test_every_ruling_defaults_to_the_first_reading_and_reaches_the_tables():
    rules = load_rules()
    assert rules.rulings == {r.name: r.default for r in RULINGS}
    assert rules.describe()["rulings"] == rules.rulings
    t = rules.tables
    flags = ("stones_to_pool", "card_kept", "replaced_no_discount", "half_of_total")
    flags += ("trade_from_players", "empty_bid")
    assert all(getattr(t, f) == 0 for f in flags)
    other = {r.name: r.values[1] for r in RULINGS}
    t2 = load_rules(rulings=other).tables
    assert all(getattr(t2, f) == 1 for f in flags)


@pytest.mark.parametrize("name", RULING_NAMES)
def test_a_bad_ruling_value_is_one_line_naming_the_allowed(name):
    spec = next(r for r in RULINGS if r.name == name)
    with pytest.raises(InputError) as err:
        load_rules(rulings={name: "nonsense"}, where="scenario.toml")
    msg = str(err.value)
    assert msg == (f"scenario.toml: rules.{name}: bad value 'nonsense' (allowed: {spec.allowed()})")
    with pytest.raises(InputError, match="unknown ruling 'nope'"):
        load_rules(rulings={"nope": 1})


def test_cli_rule_errors_and_games_rules_listing(capsys):
    args = ["simulate", "--game", "uruk", "--players", "2", "--games", "2", "--quiet"]
    assert run_cli([*args, "--rule", "settlement_on_replace=x"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "analyzer: error: --rule: rules.settlement_on_replace: bad value 'x' "
        "(allowed: moves, to_pool)"
    ]
    assert run_cli(["games", "--rules", "uruk"]) == 0
    out = capsys.readouterr().out
    for r in RULINGS:
        assert f"  {r.name} = " in out and f"{r.default}*" in out
    for game in ("unearth", "colorful_treasure"):
        assert run_cli(["games", "--rules", game]) == 0
        out = capsys.readouterr().out
        for name in load_game(game).ruling_names():
            assert f"  {name} = " in out


def test_rulings_reach_the_manifest_and_the_replay(tmp_path, capsys):
    g = load_game("uruk")
    rules = g.load_rules({"settlement_on_replace": "to_pool"}, {}, "rules")
    assert g.rules_settings(rules)[0]["settlement_on_replace"] == "to_pool"
    assert g.describe_rules(rules)["rulings"]["settlement_on_replace"] == "to_pool"
    json.dumps(g.describe_rules(rules))  # JSON-able for manifests
    out = tmp_path / "r.txt"
    args = ["replay", "--game", "uruk", "--players", "2", "--seed", "5", "--out", str(out)]
    assert run_cli([*args, "--rule", "empty_bid=allowed"]) == 0
    assert run_cli([*args, "--rule", "empty_bid=yes"]) == 2
    assert "--rule: rules.empty_bid: bad value 'yes'" in capsys.readouterr().err


# --------------------------------------------------------------------------- settlement_on_replace


def _replace_settled(ruling):
    tb = Table(3, rulings={"settlement_on_replace": ruling})
    i = tb.show(0, "lehmhaus", 2)  # a city on the level-1 invention
    tb.show(0, "domestizierung", 0)  # level 2: level 3 allowed
    tb.hand(0, "flaschenzug", "flaschenzug", "flaschenzug")
    tb.close()
    x = tb.code("flaschenzug")
    assert actions.can_make(tb.sv, tb.tv, 0, x, i)
    actions.do_make(tb.sv, tb.tv, 0, x, i)
    assert tb.s.inv[0, i] == x and tb.s.hand[0, tb.code("lehmhaus")] == 1
    tb.check()
    return tb, i


def test_settlement_moves_onto_the_new_invention():
    tb, i = _replace_settled("moves")
    assert tb.s.stones[0, i] == 2 and tb.s.sc[S.S_POOL_STONES] == 0
    assert tb.events(S.EV_STONES_BACK) == []


def test_settlement_of_the_replaced_invention_goes_to_the_pool():
    tb, i = _replace_settled("to_pool")
    assert tb.s.stones[0, i] == 0 and tb.s.sc[S.S_POOL_STONES] == 2
    assert tb.events(S.EV_STONES_BACK) == [(0, tb.code("lehmhaus"), 2, 0)]


@pytest.mark.parametrize("ruling", ["moves", "to_pool"])
def test_enlil_replacing_a_settled_invention_follows_the_ruling(ruling):
    tb = base(2, rulings={"settlement_on_replace": ruling})  # seat 0: Lehmhaus, a village
    for name in ("brennofen", "strasse", "rad", "kanalisation"):
        tb.show(0, name, 1)  # five displayed, every one settled
    tb.hand(0, "flaschenzug")
    tb.close()
    x, r = strategies.enlil_choice(tb.sv, tb.tv, 0)
    if ruling == "moves":  # the lowest invention: the village moves onto Flaschenzug
        assert (x, r) == (tb.code("flaschenzug"), 0)
        actions.place_free(tb.sv, tb.tv, 0, x, r)
        assert tb.s.stones[0, 0] == 1 and tb.s.sc[S.S_POOL_STONES] == 0
    else:  # replacing Lehmhaus (1 point) gives Flaschenzug bare (1 point): no gain
        assert (x, r) == (-1, -1)
        actions.place_free(tb.sv, tb.tv, 0, tb.code("flaschenzug"), 0)
        assert tb.s.stones[0, 0] == 0 and tb.s.sc[S.S_POOL_STONES] == 1
    tb.check()


@pytest.mark.parametrize("ruling", ["moves", "to_pool"])
def test_players_value_a_replacement_by_the_ruling(ruling):
    t = load_rules(rulings={"settlement_on_replace": ruling}).tables
    rules = load_rules()
    x = rules.invention_ids.index("flaschenzug")  # level 3
    y = rules.invention_ids.index("lehmhaus")  # level 1
    gain = strategies.replace_gain(t, x, y, 1)  # a village on Lehmhaus
    assert gain == (3 - 1 if ruling == "moves" else 1 - 1)


# --------------------------------------------------------------------------- half_price_card


def _marduk(ruling):
    tb = base(rulings={"half_price_card": ruling})
    tb.show(0, "brennofen", 1)
    tb.show(1, "kanalisation", 1)  # seat 2: fewest stones
    i = tb.show(2, "zisterne", 0)  # blue level 3
    tb.deck("leier", "leier", "axt", "axt")  # for a later Nannar's lesser bonus
    tb.gods_pending("marduk", "enlil", 0).close()
    tb.activate()
    return tb, i


def test_marduk_discarded_at_once_and_a_second_adds_nothing():
    tb, i = _marduk("discarded")
    marduk = tb.code("marduk")
    assert tb.s.half_price[2] == 1 and tb.s.sc[S.S_GODS_HELD] == 0
    assert marduk in tb.s.discard[: tb.s.sc[S.S_DISCARD_N]].tolist()
    tb.s.sc[S.S_PENDING] = tb.code("nannar")  # a second half price before the first is used
    tb.s.sc[S.S_TRIGGER] = tb.code("gibil")
    tb.s.sc[S.S_TRIGGER_SEAT] = 0
    tb.s.sc[S.S_BOX_GODS] -= 2
    tb.activate()
    assert tb.s.half_price[2] == 1
    tb.supply(2, blue=6)
    tb.close()
    actions.do_settle(tb.sv, tb.tv, 2, i)
    assert tb.s.supply[2, tb.colour("blue")] == 4 and tb.s.half_price[2] == 0
    tb.check()


def test_marduk_kept_before_the_winner_until_its_stone_then_discarded():
    tb, i = _marduk("kept")
    marduk = tb.code("marduk")
    assert tb.s.half_price[2] == 1 and tb.s.sc[S.S_GODS_HELD] == 1
    assert marduk not in tb.s.discard[: tb.s.sc[S.S_DISCARD_N]].tolist()
    tb.s.sc[S.S_PENDING] = tb.code("nannar")  # a second card: a second half-price stone
    tb.s.sc[S.S_TRIGGER] = tb.code("gibil")
    tb.s.sc[S.S_TRIGGER_SEAT] = 0
    tb.s.sc[S.S_BOX_GODS] -= 2
    tb.activate()
    assert tb.s.half_price[2] == 2 and tb.s.sc[S.S_GODS_HELD] == 2
    tb.supply(2, blue=6)
    tb.close()
    actions.do_settle(tb.sv, tb.tv, 2, i)  # village: 2 of 3 blue
    assert tb.s.supply[2, tb.colour("blue")] == 4 and tb.s.half_price[2] == 1
    assert tb.s.sc[S.S_GODS_HELD] == 1 and tb.s.discard[tb.s.sc[S.S_DISCARD_N] - 1] == marduk
    assert tb.events(S.EV_REMINDER_USED) == [(2, marduk, 0, 0)]
    tb.check()


# --------------------------------------------------------------------------- replaced_discount


@pytest.mark.parametrize("ruling", ["counts", "lost"])
def test_make_discount_of_the_invention_being_replaced(ruling):
    tb = Table(3, rulings={"replaced_discount": ruling})
    axt = tb.show(0, "axt", 0)  # yellow make_discount 1 (level >= 2)
    tb.show(0, "tonrohr", 0)  # yellow level 2: level 3 allowed
    tb.hand(0, "leier", "leier")  # yellow level 3: 2 cards with the discount
    tb.close()
    x = tb.code("leier")
    assert actions.can_make(tb.sv, tb.tv, 0, x, -1)  # Axt stays: its discount applies
    assert actions.can_make(tb.sv, tb.tv, 0, x, axt) == (ruling == "counts")
    k = strategies.candidates(tb.sv, tb.tv, 0)
    makes = {(int(c[1]), int(c[2])) for c in tb.s.cand[:k] if c[0] == Action.MAKE}
    assert ((x, axt) in makes) == (ruling == "counts") and (x, -1) in makes


# --------------------------------------------------------------------------- half_price_rounding


@pytest.mark.parametrize("ruling,paid", [("per_colour", (2, 2)), ("total", (2, 1))])
def test_half_price_of_three_times_two_different(ruling, paid):
    tb = Table(3, rulings={"half_price_rounding": ruling})
    i = tb.show(0, "wasserrad", 0)
    tb.s.epoch[0] = tb.s.epoch[1] = 0  # the stone comes from epoch III: 3 x 2 different
    tb.supply(0, red=3, yellow=2)
    tb.s.half_price[0] = 1
    tb.close()
    assert actions.do_settle(tb.sv, tb.tv, 0, i) == 2
    assert tb.s.supply[0, tb.colour("red")] == 3 - paid[0]
    assert tb.s.supply[0, tb.colour("yellow")] == 2 - paid[1]
    tb.check()
    tb2 = Table(3, rulings={"half_price_rounding": ruling})
    j = tb2.show(0, "wasserrad", 0)
    tb2.s.epoch[0] = tb2.s.epoch[1] = 0
    tb2.supply(0, red=2, yellow=1)  # enough for half the total only
    tb2.s.half_price[0] = 1
    tb2.close()
    assert actions.can_settle(tb2.sv, tb2.tv, 0, j) == (ruling == "total")


# --------------------------------------------------------------------------- trade_empty_pool


@pytest.mark.parametrize("ruling", ["refused", "from_players"])
def test_trading_a_colour_the_pool_lacks(ruling):
    tb = base(rulings={"trade_empty_pool": ruling})  # seat 0 displays red Lehmhaus
    tb.hand(0, "lehmhaus", "brennofen")  # red cards of inventions on display
    tb.show(1, "brennofen", 0)
    tb.supply(1, red=7)
    tb.supply(2, red=5)
    tb.close()
    red = tb.colour("red")
    assert tb.s.pool[red] == 0
    mask = (1 << tb.code("lehmhaus")) | (1 << tb.code("brennofen"))
    can = actions.tradeable(tb.sv, tb.tv, 0, mask)
    got = actions.do_trade(tb.sv, tb.tv, 0, mask)
    if ruling == "refused":
        assert can == 0 and got == 0 and tb.s.hand[0].sum() == 2
    else:  # both from seat 1, the richest, who takes other colours from the pool
        assert can > 0 and got == 2 and tb.s.hand[0].sum() == 0
        assert tb.s.supply[0, red] == 2 and tb.s.supply[1, red] == 5
        assert tb.s.supply[1].sum() == 7
    tb.check()


# --------------------------------------------------------------------------- empty_bid


@pytest.mark.parametrize("ruling", ["refused", "allowed"])
def test_an_auction_won_by_the_bonus_alone(ruling):
    tb = base(players="hoarder", rulings={"empty_bid": ruling})
    tb.show(1, "leuchtturm", 1)  # +3 to seat 1's bids
    tb.gods_pending("nergal", "gibil", 1).close()  # empty hands everywhere
    tb.activate()
    ((w, _, value, _),) = tb.events(S.EV_WIN)
    if ruling == "refused":
        assert (w, value) == (-1, -1)
    else:
        assert (w, value) == (1, 3) and tb.s.supply[1].sum() == 3


def test_scenario_rules_table_sets_and_checks_uruk_rulings():
    raw = {"game": "uruk", "players": 2, "games": 10, "seed": 1, "strategies": "balanced"}
    sc = parse_scenario({**raw, "rules": {"settlement_on_replace": "to_pool"}}, "s.toml")
    assert sc.rulings == {"settlement_on_replace": "to_pool"}
    rules = load_game("uruk").load_rules(sc.rulings, {}, "s.toml: rules")
    assert rules.tables.stones_to_pool == 1 and rules.tables.card_kept == 0
    with pytest.raises(InputError) as err:
        parse_scenario({**raw, "rules": {"half_price_card": "lost"}}, "s.toml")
    assert "rules.half_price_card: bad value 'lost' (allowed: discarded, kept)" in str(err.value)
