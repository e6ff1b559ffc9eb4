"""Fit the luck terms' value estimate ``V`` (:mod:`analyzer.unearth.luck`) once,
on games of seeds that no analysis uses, and write it as data.

    .venv/bin/python -m analyzer.unearth.luck_fit --games 2000 --seed 4242

plays ``balanced`` games at 2, 3 and 4 players (the same games for every trial:
the terms only observe) and, for each player count apart, searches the
parameters coordinate by coordinate (each multiplied or divided by a step whose
square root is taken when no move helps) for the least residual variance: over
that count's seats, ``sd(score - luck_score) / sd(score) + sd(win - luck_win) /
sd(win)``. The result (table ``[players.N]`` per count, ``[value]`` kept for the
others) and this command go to ``analyzer/unearth/data/luck_value.toml``. The
search, the file and the command are :mod:`analyzer.games.luck_fit`'s; a
training run's games and the tables per player count are the game's.

Fitting on the games it then adjusts would make the adjusted variance look
smaller than it is; the luck terms stay unbiased whatever the parameters.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from analyzer.core.outputs import luck_value_lines
from analyzer.games.luck_fit import PLAYERS, LuckFit
from analyzer.kernels.luck import residual
from analyzer.unearth.luck import PAR_NAMES, load_value_params


def _play(players: int, games: int, seed: int):
    """A training run (:class:`analyzer.games.luck_fit.LuckFit`)."""
    from analyzer.unearth.game import make_job, play_raw

    job = make_job(players, "balanced", seed)

    def run(par):
        res, wins, _, s = play_raw(job, 0, games, luck_par=par)
        luck = s.luck_out.sum(axis=1)
        return res[:, 0].astype(float), wins.astype(float), luck

    return run


#: how V is fitted (:mod:`analyzer.games.luck_fit`)
FIT = LuckFit("analyzer.unearth", PAR_NAMES, load_value_params, _play, 2000, 4242)
OUT = FIT.out


def fit(games: int, seed: int, players=PLAYERS, rounds: int = 3, log=print) -> np.ndarray:
    """Coordinate search of the parameters from the shipped ones (those of the
    one player count fitted, if one), on the residual of all of ``players``
    together (see module docstring)."""
    par = load_value_params(players[0] if len(players) == 1 else None)
    par[par == 0] = 0.5  # a multiplicative search cannot leave 0: new parameters start here
    return FIT.fit(games, seed, players, rounds, log, par=par)


def write(par, command: str, score=None, path: Path = OUT, by_players=None) -> None:
    """Write ``par`` as ``[value]`` and each ``by_players[n] = (par, residual)`` as
    ``[players.n]`` (:meth:`analyzer.games.luck_fit.LuckFit.write`)."""
    tables = [
        [
            f"# {n} players; residual on the training games {res_n:.4f}",
            f"[players.{n}]",
            *luck_value_lines(PAR_NAMES, p_n),
        ]
        for n, (p_n, res_n) in sorted((by_players or {}).items())
    ]
    FIT.write(par, command, score, path, tables)


def main(argv=None) -> None:
    per_players = {
        "action": "store_true",
        "help": "fit each player count apart ([players.N]; [value] kept as it is)",
    }
    a = FIT.arguments(argv, __doc__, options=(("--per-players", per_players),))
    cmd = FIT.command(a)
    if a.per_players:
        by = {}
        for n in PLAYERS:
            p_n = fit(a.games, a.seed, players=(n,), rounds=a.rounds)
            by[n] = (p_n, residual(FIT.runs(a.games, a.seed, (n,)), p_n))
        write(load_value_params(), cmd + " --per-players", by_players=by)
    else:
        par = fit(a.games, a.seed, rounds=a.rounds)
        write(par, cmd, residual(FIT.runs(a.games, a.seed), par))
    print(OUT.read_text())


if __name__ == "__main__":
    main()
