"""Fit the luck terms' value estimate ``V`` (:mod:`analyzer.uruk.luck`) once, on
games of seeds that no analysis uses, and write it as data.

    .venv/bin/python -m analyzer.uruk.luck_fit --games 600 --seed 5353

plays ``balanced`` games at 2, 3 and 4 players (the same games for every trial:
the terms only observe) and searches the parameters coordinate by coordinate
(each moved up or down by a step that halves when no move helps) for the least
residual variance: the mean over player counts of ``sd(score - luck_score) /
sd(score) + sd(win - luck_win) / sd(win)``. The set-up deal's weights are then
fitted per player count by least squares: each seat's win and score, less the
table's mean, on its deal features less the table's mean (``luck.deal_features``),
on the same games. The result and this command go to
``analyzer/uruk/data/luck_value.toml``. The search, the file and the command
are :mod:`analyzer.games.luck_fit`'s; a training run's games, a parameter's
move and the deal's weights are the game's.

Fitting on the games it then adjusts would make the adjusted variance look
smaller than it is; the luck terms stay unbiased whatever the parameters.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from analyzer.games.luck_fit import PLAYERS, LuckFit
from analyzer.uruk.luck import PAR_NAMES, load_value_params


def _play(players: int, games: int, seed: int, strategy: str = "balanced"):
    """A training run (:class:`analyzer.games.luck_fit.LuckFit`)."""
    from analyzer.uruk.engine import R_SCORE
    from analyzer.uruk.game import make_job, play_raw

    job = make_job(players, strategy, seed, luck=True)

    def run(par):
        res, wins, s = play_raw(job, 0, games, luck_par=par)
        luck = s.luck_out[: games * players].sum(axis=1)
        return res[:, R_SCORE].astype(float), wins.astype(float), luck

    return run


def _move(name: str, value: float, step: float, sign: float) -> float:
    """Multiplicative for the temperatures (positive), additive for the weights."""
    if name.startswith("tau"):
        return max(value * step**sign, 1e-3)
    return value + sign * (step - 1.0) * max(abs(value), 0.25)


#: how V is fitted (:mod:`analyzer.games.luck_fit`)
FIT = LuckFit("analyzer.uruk", PAR_NAMES, load_value_params, _play, 600, 5353, move=_move)
OUT = FIT.out
fit = FIT.fit  #: ``fit(games, seed, players=(2, 3, 4), rounds=3, log=print)``


def deal_table(players: int, games: int, seed: int, strategy: str = "balanced"):
    """Each (game, seat)'s deal features, centred on its table's, and its win and
    score centred likewise: ``(features float64[rows, N_DEAL_F], win, score)``."""
    from analyzer.core.seeding import root_key
    from analyzer.kernels.kernel_view import make_view
    from analyzer.kernels.rng import rng_seed
    from analyzer.uruk import cards
    from analyzer.uruk.engine import R_SCORE
    from analyzer.uruk.game import make_job, play_raw
    from analyzer.uruk.luck import deal_features
    from analyzer.uruk.state import new_state

    job = make_job(players, strategy, seed)
    res, wins, _ = play_raw(job, 0, games)
    t = job.rules.tables
    s = new_state(t, luck=load_value_params())
    sv, tv = make_view(s, "UrukState"), make_view(t, "UrukTables")
    key0, key1 = root_key(job.seed)
    feats = []
    for g in range(games):
        rng_seed(s.rng, key0, key1, g)  # the game's own stream: its set-up is the game's
        cards.setup(sv, tv, players)
        for p in range(players):
            deal_features(sv, tv, p)
        f = s.luck_f[:players].copy()
        feats.append(f - f.mean(axis=0))
    x = np.concatenate(feats)

    def centred(v):
        v = np.asarray(v, float).reshape(games, players)
        return (v - v.mean(axis=1, keepdims=True)).ravel()

    return x, centred(wins), centred(res[:, R_SCORE])


def fit_deal(games: int, seed: int, players=PLAYERS, log=print) -> dict:
    """Least-squares weights of the deal's term per player count (module docstring)."""
    out = {}
    for n in players:
        x, win, score = deal_table(n, games, seed + n)
        w_win = np.linalg.lstsq(x, win, rcond=None)[0]
        w_score = np.linalg.lstsq(x, score, rcond=None)[0]
        log(
            f"deal, {n} players: variance of the centred win explained "
            f"{1 - np.var(win - x @ w_win) / np.var(win):.3f}, score "
            f"{1 - np.var(score - x @ w_score) / np.var(score):.3f}"
        )
        out[n] = (w_win, w_score)
    return out


def deal_tables(deal) -> list[list[str]]:
    """Each ``deal[n] = (w_win, w_score)`` as the lines of table ``[deal.n]``."""
    return [
        [
            f"[deal.{n}]  # the set-up deal's weights at {n} players (luck.deal_features)",
            "win = [" + ", ".join(f"{v:.5g}" for v in w_win) + "]",
            "score = [" + ", ".join(f"{v:.5g}" for v in w_score) + "]",
        ]
        for n, (w_win, w_score) in sorted((deal or {}).items())
    ]


def write(par, command: str, score: float | None = None, path: Path = OUT, deal=None) -> None:
    """Write ``par`` as ``[value]`` and each ``deal[n] = (w_win, w_score)`` as
    ``[deal.n]`` (:meth:`analyzer.games.luck_fit.LuckFit.write`)."""
    FIT.write(par, command, score, path, deal_tables(deal))


def main(argv=None) -> None:
    FIT.main(argv, __doc__, tables=lambda a: deal_tables(fit_deal(a.games, a.seed)))


if __name__ == "__main__":
    main()
