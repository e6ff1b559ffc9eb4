"""``analyzer tune``'s errors name its own options (issue #41): a bad
``--confirm-games`` is not reported as ``games`` of the confirmation run, a bad
``--seed``, ``--workers`` or ``--rule`` not under the driver's names; each one
line, exit 2, before any game is played."""

from __future__ import annotations

import pytest

from analyzer.cli import run_cli

BIG = str(10**13)  # past MAX_GAMES
TUNE = ["tune", "--game", "uruk", "--strategy", "builder", "--field", "random"]
TUNE += ["--games", "10", "--trials", "2", "--confirm-games", "0", "--quiet"]


@pytest.mark.parametrize(
    "args, option",
    [
        (["--confirm-games", BIG], "--confirm-games"),
        (["--confirm-games", "-1"], "--confirm-games"),
        (["--games", BIG], "--games"),
        (["--games", "0"], "--games"),
        (["--trials", "0"], "--trials"),
        (["--seed", "-1"], "--seed"),
        (["--seed", str(2**64)], "--seed"),
        (["--workers", "0"], "--workers"),
        (["--workers", str(10**23)], "--workers"),
        (["--rule", "no_such_ruling=1"], "--rule"),
        (["--rule", "settlement_on_replace=sideways"], "--rule"),
        (["--edition", "french"], "--edition"),
        (["--players", "9"], "--players"),
    ],
)
def test_an_error_names_the_option_given(capsys, args, option):
    code = run_cli([*TUNE, *args])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2, err
    assert len(err) == 1 and err[0].startswith(f"analyzer: error: {option}: "), err
    assert "tune: " not in err[0], err


def test_unearth_edition_and_rule_are_told_apart(capsys):
    base = ["tune", "--strategy", "balanced", "--field", "random", "--games", "10", "--quiet"]
    code = run_cli([*base, "--edition", "german", "--rule", "no_such_ruling=1"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("analyzer: error: --rule: "), err
    code = run_cli([*base, "--edition", "french", "--rule", "tomb=1"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("analyzer: error: --edition: "), err
