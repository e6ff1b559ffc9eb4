"""Fitting a game's luck terms' value estimate ``V`` once, for every game.

Each game's ``luck_fit`` (``python -m analyzer.<game>.luck_fit``) plays games of
seeds that no analysis uses, once per parameter row tried (the same games for
every trial: the terms only observe), and searches the row that leaves the least
residual variance (:func:`analyzer.kernels.luck.coordinate_search` on
:func:`analyzer.kernels.luck.residual`); the row and the command that made it
go to the game's ``data/luck_value.toml``. What is the game's is declared in a
:class:`LuckFit`: V's parameters and shipped row, how a training run plays its
games and reads their luck, the command's defaults, a parameter's move and the
file's extra tables. Plain Python; no game is imported here.

Fitting on the games it then adjusts would make the adjusted variance look
smaller than it is; the luck terms stay unbiased whatever the parameters.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from analyzer.core.outputs import write_luck_values
from analyzer.kernels.luck import coordinate_search, residual, scale

#: the player counts a fit trains on by default
PLAYERS = (2, 3, 4)
#: rounds of the coordinate search by default
ROUNDS = 3


@dataclass(frozen=True)
class LuckFit:
    """What a game declares to have its ``V`` fitted."""

    package: str  #: the game's package, ``analyzer.<game>``
    names: tuple[str, ...]  #: V's parameters, in the order of its row
    shipped: Callable[..., np.ndarray]  #: the shipped row (``luck.load_value_params``)
    #: ``play(players, games, seed) -> run``: a training run, ``run(row) -> (score,
    #: win, luck)`` per seat and game, ``luck[:, 0]`` the summed win terms and
    #: ``luck[:, 1]`` the score terms under ``V``'s ``row``
    play: Callable[[int, int, int], Callable]
    games: int  #: ``--games`` by default: games per player count
    seed: int  #: ``--seed`` by default: the training seed (plus the player count)
    #: a parameter's move, ``move(name, value, step, sign)`` (multiplicative by default)
    move: Callable[[str, float, float, float], float] = scale

    @property
    def out(self) -> Path:
        """The game's shipped file, ``data/luck_value.toml``."""
        return Path(str(resources.files(self.package).joinpath("data", "luck_value.toml")))

    def runs(self, games: int, seed: int, players=PLAYERS) -> list:
        """The training runs of ``players``: ``games`` games each, seed ``seed`` plus
        the player count."""
        return [self.play(n, games, seed + n) for n in players]

    def fit(
        self, games: int, seed: int, players=PLAYERS, rounds: int = ROUNDS, log=print, par=None
    ) -> np.ndarray:
        """The coordinate search of V's row from ``par`` (the shipped row) on the
        residual of all of ``players`` together (module docstring)."""
        par = self.shipped() if par is None else par
        runs = self.runs(games, seed, players)
        return coordinate_search(
            lambda p: residual(runs, p), par, self.names, rounds=rounds, move=self.move, log=log
        )

    def write(self, par, command: str, score=None, path: Path | None = None, tables=()) -> None:
        """Write ``par`` as ``[value]``, then ``tables`` (lists of lines), with
        ``command`` and the training residual ``score``
        (:func:`analyzer.core.outputs.write_luck_values`)."""
        module = self.package.replace(".", "/") + "/luck.py"
        where = self.out if path is None else path
        write_luck_values(
            where, self.names, par, command, module=module, score=score, tables=list(tables)
        )

    def arguments(self, argv=None, doc: str = "", options=()) -> argparse.Namespace:
        """The command's arguments: ``--games``, ``--seed``, ``--rounds`` and the
        game's ``options`` (``(flag, keyword arguments of add_argument)``)."""
        ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
        ap.add_argument("--games", type=int, default=self.games, help="games per player count")
        ap.add_argument(
            "--seed", type=int, default=self.seed, help="training seed (+ player count)"
        )
        ap.add_argument("--rounds", type=int, default=ROUNDS)
        for flag, kwargs in options:
            ap.add_argument(flag, **kwargs)
        return ap.parse_args(argv)

    def command(self, a: argparse.Namespace) -> str:
        """The command line that makes the file, as written in it."""
        cmd = f".venv/bin/python -m {self.package}.luck_fit --games {a.games} --seed {a.seed}"
        if a.rounds != ROUNDS:
            cmd += f" --rounds {a.rounds}"
        return cmd

    def main(self, argv=None, doc: str = "", tables=lambda a: ()) -> None:
        """The command: fit V's row on every player count, write it with its
        residual and the game's ``tables(arguments)``, print the file."""
        a = self.arguments(argv, doc)
        par = self.fit(a.games, a.seed, rounds=a.rounds)
        score = residual(self.runs(a.games, a.seed), par)
        self.write(par, self.command(a), score, tables=tables(a))
        print(self.out.read_text())
