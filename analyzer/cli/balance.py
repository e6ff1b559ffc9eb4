"""``analyzer balance SCENARIO``: the scenario's ``[balance]`` question, in its report folder."""

from __future__ import annotations

from pathlib import Path

import typer

BALANCE_EXAMPLES = """
Answer a scenario's [balance] question: which values of its knobs (override
paths) make the game fair (or meet its other objectives), with a 95% interval,
checked on fresh games, certified or not, and (retune = true) whether re-tuned
players undo it. Writes the same folder as 'analyzer run' (the scenario's own
games, if it has any, are played too), with balance.json and
tables/balance_candidates.csv; manifest.json keeps the whole answer under
'balance'. Progress (every block of games played) is kept in the folder's
balance_progress/: after an interruption the same command with --resume
finishes with the same answer. --games sets the balance budget (games in all,
all player counts), replacing the file's 'games' or 'minutes'.

Examples:

  analyzer balance scenarios/unearth_balance.toml

  analyzer balance scenarios/unearth_balance.toml --games 20000 --seed 3 --out reports/bal

  analyzer balance scenarios/unearth_balance.toml --out reports/bal --resume

  analyzer balance my_question.toml --workers 1 --quiet

scenarios/README.md ("Balancing") documents the [balance] keys.
"""


def register(app: typer.Typer) -> None:
    """Add the ``balance`` command to ``app``."""

    @app.command("balance", help=BALANCE_EXAMPLES)
    def balance_cmd(
        scenario: Path = typer.Argument(..., help="scenario file with a [balance] table"),
        out: Path | None = typer.Option(
            None, "--out", help="report directory (default: reports/<scenario name>)"
        ),
        games: int | None = typer.Option(
            None, "--games", help="the balance budget in games (all counts, search and fresh)"
        ),
        seed: int | None = typer.Option(None, "--seed", help="seed (overrides the file's)"),
        workers: int | None = typer.Option(
            None, "--workers", help="worker processes (default: all cores; 1: this process)"
        ),
        quiet: bool = typer.Option(False, "--quiet", help="no progress display, no summary"),
        resume: bool = typer.Option(
            False, "--resume", help="continue the progress kept in --out (same command)"
        ),
    ) -> None:
        _check_first(scenario, out, games, seed, workers, resume)
        from analyzer.report import run_and_report

        result = run_and_report(
            scenario,
            out,
            games=games,
            seed=seed,
            workers=workers,
            progress=not quiet,
            balance={"resume": resume},
        )
        if not quiet:
            b = result.info.get("balance") or {}
            typer.echo(b.get("verdict", ""))
            for line in b.get("sentences", []):
                typer.echo(f"  {line}")
            g = b.get("games", {})
            typer.echo(
                f"{g.get('total', 0):,} games ({g.get('search', 0):,} searching, "
                f"{g.get('fresh', 0):,} fresh); seed {result.info['seed']}"
            )
            typer.echo(
                f"report: {result.directory}/report.pdf and report.html, balance.json "
                f"({len(result.files)} files)"
            )


def _check_first(scenario: Path, out, games, seed, workers, resume: bool) -> None:
    """The scenario and the options checked before the engine loads."""
    from analyzer.core.errors import InputError
    from analyzer.runs.options import check_workers
    from analyzer.runs.scenario_file import load_scenario, with_overrides

    check_workers(workers, "--workers")
    sc = load_scenario(scenario)
    if sc.balance is None:
        raise InputError(
            f"{scenario}: no [balance] table (allowed: a scenario with [balance]; "
            "scenarios/README.md, 'Balancing')"
        )
    if resume and out is None:
        raise InputError("--resume: give --out, the folder of the run to continue")
    from analyzer.studies.balance import with_budget

    with_overrides(with_budget(sc, games), seed=seed)
