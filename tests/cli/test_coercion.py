"""The command line's plain reading of option values against typer's own.

``analyzer.cli.coercion`` reads values of plain types without pydantic; its
twin is typer's reading (a pydantic ``TypeAdapter``): on every value the plain
reading takes, both give the same value of the same type, and every value it
leaves goes to typer's (same value, same error).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.cli import coercion

typer_coercion = pytest.importorskip("typer._coercion")
typer_models = pytest.importorskip("typer.models")

ROOT = Path(__file__).resolve().parents[2]

VALUES = [
    "0",
    "7",
    "-3",
    "007",
    "12345678901234567890",
    "1_000",
    " 7",
    "7 ",
    "+7",
    "3.0",
    "2.5",
    "-0.25",
    "1e-3",
    "1E3",
    "-2.5e+2",
    ".5",
    "5.",
    "inf",
    "nan",
    "abc",
    "",
    "x.toml",
    "reports/out",
    "-",
    7,
    2.5,
    True,
]


def _typers(annotation, value):
    """typer's reading of ``value`` as ``annotation``: the value, or the error's text."""
    desc = typer_coercion.resolve_type_descriptor(annotation, typer_models.OptionInfo())
    param = typer_coercion.build_runtime_param(desc)
    try:
        return param._coerce_value(value, param=None, ctx=None)
    except Exception as err:  # noqa: BLE001 - the error is the answer compared
        return ("error", type(err).__name__)


@pytest.mark.parametrize("annotation", [int, float, str, bool, Path])
@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_the_plain_reading_is_typers_where_it_reads(annotation, value):
    mine = coercion.plain_value(annotation, value)
    if mine is coercion.MISS:
        return  # typer's own reading answers (the next test)
    theirs = _typers(annotation, value)
    assert mine == theirs and type(mine) is type(theirs), (annotation, value, mine, theirs)


def test_the_plain_reading_reads_the_usual_values():
    """It bites: the values people type are read here, not left to typer."""
    assert coercion.plain_value(int, "-3") == -3
    assert coercion.plain_value(float, "0.05") == 0.05
    assert coercion.plain_value(Path, "x.toml") == Path("x.toml")
    assert coercion.plain_value(str, "balanced") == "balanced"
    assert coercion.plain_value(int, "abc") is coercion.MISS  # typer's error then
    assert coercion.plain_value(int, True) is coercion.MISS


_PROBE = (
    "import sys\n"
    "from analyzer.cli import run_cli\n"
    "code = run_cli(sys.argv[1:])\n"
    "print(code, 'pydantic' in sys.modules)\n"
)


def _cli(*args: str) -> tuple[int, bool, str]:
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
    )
    code, pydantic = proc.stdout.split()
    return int(code), pydantic == "True", proc.stderr


@pytest.mark.slow  # (a process each)
def test_a_command_line_of_plain_values_is_read_without_pydantic():
    if not coercion.install():
        pytest.skip("this typer has no pydantic reading to spare")
    code, pydantic, err = _cli("simulate", "--games", "-3", "--precision", "0.5")
    assert code == 2 and "--games: bad value -3" in err
    assert not pydantic


@pytest.mark.slow
def test_a_value_it_does_not_read_gets_typers_error():
    code, _, err = _cli("simulate", "--players", "four")
    assert code == 2 and "'--players'" in err and err.count("\n") == 1, err
