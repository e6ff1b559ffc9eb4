"""``analyzer games``: the registered games, their player counts and strategies."""

from __future__ import annotations

import typer

EXAMPLES = """
List the games this installation can simulate, with their player counts,
strategies (the default marked *), rules version and strategies version. Use the name with
`analyzer simulate --game NAME`, `analyzer replay --game NAME` or the `game`
key of a scenario file.

With `--rules GAME`, list that game's ruling switches instead: each ruling,
its values (the default marked *), and one line on what each value means. Set
one with `--rule NAME=VALUE` (simulate, replay) or the `[rules]` table of a
scenario file.

Examples:

  analyzer games
  analyzer games --rules uruk
"""


def register(app: typer.Typer) -> None:
    """Add the ``games`` command to ``app``."""

    @app.command("games", help=EXAMPLES)
    def games_cmd(
        rules: str = typer.Option(
            None, "--rules", metavar="GAME", help="list GAME's ruling switches instead"
        ),
    ) -> None:
        from analyzer.core.errors import AnalyzerError
        from analyzer.games import BROKEN, available_games, load_game

        if rules is not None:
            from analyzer.games.rulings import ruling_lines

            g = load_game(rules, "--rules")
            typer.echo(f"{g.name}: rulings ({g.title}, rules {g.rules_version}); * = default")
            for line in ruling_lines(g.ruling_specs()):
                typer.echo(line)
            return
        for name in available_games():
            try:
                g = load_game(name)
            except AnalyzerError:
                continue
            names = [s.name + ("*" if s.name == g.default_strategy else "") for s in g.strategies]
            typer.echo(
                f"{name}: {g.title}, {g.min_players}-{g.max_players} players, "
                f"strategies {', '.join(names)}; rules {g.rules_version}, "
                f"strategies {g.strategies_version}"
            )
        for name, why in sorted(BROKEN.items()):
            typer.echo(f"{name}: could not be loaded ({why})", err=True)
