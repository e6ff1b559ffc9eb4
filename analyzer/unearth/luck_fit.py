"""Fit the luck terms' value estimate ``V`` (:mod:`analyzer.unearth.luck`) once,
on games of seeds that no analysis uses, and write it as data.

    .venv/bin/python -m analyzer.unearth.luck_fit --games 2000 --seed 4242

plays ``balanced`` games at 2, 3 and 4 players (the same games for every trial:
the terms only observe) and, for each player count apart, searches the
parameters coordinate by coordinate (each multiplied or divided by a step whose
square root is taken when no move helps) for the least residual variance: over
that count's seats, ``sd(score - luck_score) / sd(score) + sd(win - luck_win) /
sd(win)``. The result (table ``[players.N]`` per count, ``[value]`` kept for the
others) and this command go to ``analyzer/unearth/data/luck_value.toml``.

Fitting on the games it then adjusts would make the adjusted variance look
smaller than it is; the luck terms stay unbiased whatever the parameters.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from analyzer.core.outputs import luck_value_lines, write_luck_values
from analyzer.kernels.luck import coordinate_search, residual
from analyzer.unearth.luck import PAR_NAMES, load_value_params

OUT = Path(__file__).parent / "data" / "luck_value.toml"


def _play(players: int, games: int, seed: int):
    from analyzer.unearth.game import make_job, play_raw

    job = make_job(players, "balanced", seed)

    def run(par):
        res, wins, _, s = play_raw(job, 0, games, luck_par=par)
        luck = s.luck_out.sum(axis=1)
        return res[:, 0].astype(float), wins.astype(float), luck

    return run


def fit(games: int, seed: int, players=(2, 3, 4), rounds: int = 3, log=print) -> np.ndarray:
    """Coordinate search of the parameters from the shipped ones, on the residual
    of all of ``players`` together (see module docstring)."""
    runs = [_play(n, games, seed + n) for n in players]
    par = load_value_params(players[0] if len(players) == 1 else None)
    par[par == 0] = 0.5  # a multiplicative search cannot leave 0: new parameters start here
    return coordinate_search(lambda p: residual(runs, p), par, PAR_NAMES, rounds=rounds, log=log)


def write(par, command: str, score=None, path: Path = OUT, by_players=None) -> None:
    """Write ``par`` as ``[value]`` and each ``by_players[n] = (par, residual)`` as
    ``[players.n]`` (:func:`analyzer.core.outputs.write_luck_values`)."""
    tables = [
        [
            f"# {n} players; residual on the training games {res_n:.4f}",
            f"[players.{n}]",
            *luck_value_lines(PAR_NAMES, p_n),
        ]
        for n, (p_n, res_n) in sorted((by_players or {}).items())
    ]
    write_luck_values(
        path, PAR_NAMES, par, command, module="analyzer/unearth/luck.py", score=score, tables=tables
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000, help="games per player count")
    ap.add_argument("--seed", type=int, default=4242, help="training seed (+ player count)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--per-players",
        action="store_true",
        help="fit each player count apart ([players.N]; [value] kept as it is)",
    )
    a = ap.parse_args(argv)
    cmd = f".venv/bin/python -m analyzer.unearth.luck_fit --games {a.games} --seed {a.seed}"
    if a.rounds != 3:
        cmd += f" --rounds {a.rounds}"
    if a.per_players:
        cmd += " --per-players"
        by = {}
        for n in (2, 3, 4):
            p_n = fit(a.games, a.seed, players=(n,), rounds=a.rounds)
            by[n] = (p_n, residual([_play(n, a.games, a.seed + n)], p_n))
        write(load_value_params(), cmd, path=OUT, by_players=by)
    else:
        par = fit(a.games, a.seed, rounds=a.rounds)
        runs = [_play(n, a.games, a.seed + n) for n in (2, 3, 4)]
        write(par, cmd, residual(runs, par))
    print(OUT.read_text())


if __name__ == "__main__":
    main()
