"""``analyzer simulate``: play many games and print win rate and mean score with 95% intervals."""

from __future__ import annotations

from pathlib import Path

import typer

from analyzer.cli.options import STRATEGY_HELP

EXAMPLES = """
Play games with the batch runner on all cores and print win rate and mean score
by seat and by strategy, with 95% intervals (Wilson for win rates).

Examples:

  analyzer simulate --players 4 --strategy balanced --games 100000 --seed 7

  analyzer simulate --players 3 --strategy claimer,collector,random --games 20000

  analyzer simulate --players 2 --strategy balanced --strategy random --precision 0.005

  analyzer simulate --games 1000000 --checkpoint runs/big --out big.parquet

  analyzer simulate --games 1000000 --checkpoint runs/big --resume

  analyzer simulate --games 1000000 --scheduler tcp://10.0.0.5:8786

  analyzer simulate --rule wonder_bonus=per_threshold --games 20000 --seed 3

  analyzer simulate --override seat_compensation.delver_cards_per_seat=1 --games 20000
"""


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` command to ``app``."""

    @app.command("simulate", help=EXAMPLES)
    def simulate_cmd(
        game: str = typer.Option(
            "unearth", "--game", help="game to play (analyzer games lists them)"
        ),
        players: int = typer.Option(4, "--players", help="number of players (seats)"),
        strategy: list[str] = typer.Option([], "--strategy", help=STRATEGY_HELP),
        games: int = typer.Option(10000, "--games", help="games to play"),
        seed: int | None = typer.Option(None, "--seed", help="seed (default: fresh, printed)"),
        edition: str | None = typer.Option(
            None, "--edition", help="edition of the rules (Unearth: english or german)"
        ),
        rule: list[str] = typer.Option(
            [], "--rule", help="a ruling switch KEY=VALUE (a scenario's [rules] keys); repeatable"
        ),
        override: list[str] = typer.Option(
            [],
            "--override",
            help="a rules value PATH=VALUE (a scenario's [overrides] keys; VALUE as in TOML: "
            "3, 0.5, true, [0, 1, 1, 2], a word); repeatable",
        ),
        out: Path | None = typer.Option(
            None, "--out", help="write the per-game table to FILE.parquet (atomically)"
        ),
        workers: int | None = typer.Option(
            None, "--workers", help="worker processes (default: all cores; 1: this process)"
        ),
        scheduler: str | None = typer.Option(
            None,
            "--scheduler",
            help="Dask scheduler address tcp://HOST:PORT (default: $DASK_SCHEDULER_ADDRESS)",
        ),
        precision: float | None = typer.Option(
            None,
            "--precision",
            help="stop once every seat's win-rate 95% interval is narrower than ±X",
        ),
        max_games: int | None = typer.Option(
            None, "--max-games", help="cap on games with --precision (default: 10 × --games)"
        ),
        checkpoint: Path | None = typer.Option(
            None, "--checkpoint", help="directory to save every finished batch in"
        ),
        resume: bool = typer.Option(
            False, "--resume", help="continue the run saved in --checkpoint"
        ),
        batch_size: int | None = typer.Option(
            None,
            "--batch-size",
            help="games per batch (default: the game's, 5000; colorful_treasure 20000)",
        ),
        quiet: bool = typer.Option(False, "--quiet", help="no progress display"),
        luck: bool | None = typer.Option(
            None,
            "--luck/--no-luck",
            help="--luck: the luck terms (columns luck_win, luck_score: the same answer "
            "with the dice's luck taken out; docs/statistics.md); default and --no-luck: "
            "off, the plain engine",
        ),
    ) -> None:
        from analyzer.runs.simulate import simulate_games

        sim = simulate_games(
            players,
            strategy,
            games,
            seed,
            game=game,
            edition=edition,
            rulings=parse_rules(rule),
            overrides=parse_overrides(override),
            out=out,
            batch_size=batch_size,
            workers=workers,
            scheduler=scheduler,
            checkpoint_dir=checkpoint,
            resume=resume,
            precision=precision,
            max_games=max_games,
            progress=not quiet,
            luck=luck,
        )
        _print(sim)


def parse_rules(items: list[str]) -> dict:
    """``--rule KEY=VALUE`` options as a rulings dict (true/false and integers typed)."""
    from analyzer.core.errors import bad_value

    out: dict = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise bad_value("--rule", item, "KEY=VALUE, e.g. wonder_bonus=per_threshold")
        low = text.strip().lower()
        value = {"true": True, "false": False}.get(low, text.strip())
        if isinstance(value, str) and value.lstrip("-").isdigit():
            value = int(value)
        out[key.strip()] = value
    return out


def parse_overrides(items: list[str]) -> dict:
    """``--override PATH=VALUE`` options as an overrides dict, in order: VALUE read
    as a TOML value (``3``, ``0.5``, ``true``, ``[0, 1, 1, 2]``, ``"a word"``), else
    taken as the word it is. The game checks each against the value it replaces."""
    import tomllib

    from analyzer.core.errors import bad_value

    out: dict = {}
    for item in items:
        path, sep, text = item.partition("=")
        if not sep or not path.strip() or not text.strip():
            raise bad_value(
                "--override", item, "PATH=VALUE, e.g. seat_compensation.delver_cards_per_seat=1"
            )
        try:
            value = tomllib.loads(f"v = {text.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            value = text.strip()
        out[path.strip()] = value
    return out


def _print(sim) -> None:
    """The estimates as a rich table on stdout, then the run figures."""
    from rich.console import Console
    from rich.table import Table

    res = sim.result
    versions = f"rules {sim.rules_version}, strategies {sim.strategies_version}"
    title = f"{sim.players} players, {sim.edition} rules ({versions}), seed {sim.seed}"
    if sim.game != "unearth":
        title = f"{sim.game}: {sim.players} players ({versions}), seed {sim.seed}"
    table = Table(title=title)
    for name, justify in (
        ("", "left"),
        ("seat-games", "right"),
        ("win rate", "right"),
        ("95% CI", "right"),
        ("mean score", "right"),
        ("95% CI ", "right"),
    ):
        table.add_column(name, justify=justify)
    for row in sim.table.itertuples(index=False):
        if row.by == "seat":
            name = f"seat {row.group} ({sim.strategies[int(row.group)]})"
        else:
            name = f"strategy {row.group}"
        table.add_row(
            name,
            f"{row.n:,}",
            f"{row.win_rate:.4f}",
            f"[{row.win_low:.4f}, {row.win_high:.4f}]",
            f"{row.mean_score:.2f}",
            f"[{row.score_low:.2f}, {row.score_high:.2f}]",
        )
    console = Console(width=max(100, Console().width))
    console.print(table)
    stop = {"games": "", "precision": " (precision reached)", "cap": " (cap reached)"}
    console.print(f"games: {res.games:,}{stop[res.stopped_by]}", highlight=False, soft_wrap=True)
    compiled = getattr(res, "compile_seconds", 0.0)
    console.print(
        f"seconds: {res.seconds:.2f}  games/s: {res.games_per_second:,.0f}"
        + (f"  (first compile: {compiled:.1f} s, not in games/s)" if compiled else ""),
        highlight=False,
        soft_wrap=True,
    )
    if sim.out is not None:
        console.print(f"per-game table: {sim.out}", highlight=False, soft_wrap=True)
