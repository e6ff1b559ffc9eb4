"""``analyzer train``: fit a game's fast evaluation to the values its search gives.

One machinery, features per game (expert iteration without a network). Each
round plays ``budget`` self-play games of the current player (round 0: the
game's identity weights, its default's evaluation); the game's trainer samples
decisions from them and labels every candidate of a sampled decision with the
value the search's rollouts give it (:meth:`Trainer.label`; Uruk:
:mod:`analyzer.uruk.training`). The weights of a linear evaluation of the
candidates' features are then fitted to the labels of every round so far
(:func:`fit_weights`: least squares within each decision, ridge), and the
fitted player plays the next round (its games and its rollouts).

A game takes part by answering :meth:`analyzer.games.Game.trainer` with an
object that has ``feature_names``, ``identity()``, ``shipped(players)`` and
``label(players, key, start, count, weights, rollouts=, every=, margin=)``.

The run keeps its state in its output folder (``train.json``, one ``.npz`` per
finished chunk of games): ``resume=True`` continues an interrupted run and ends
with the weights an uninterrupted run finds (game ``g`` of round ``r`` is the
same game however the run was cut); a resumed run may ask for more rounds.
``weights.toml`` holds the result as the game's ``data/trained.toml`` ships it,
with the command that made it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from analyzer.core.errors import InputError, bad_value

#: game indices of round ``r`` start at ``r * ROUND_STRIDE`` (one stream per game)
ROUND_STRIDE = 1_000_000
STATE_FILE = "train.json"
WEIGHTS_FILE = "weights.toml"


@dataclass(frozen=True)
class TrainSettings:
    """What a training run does (all of it recorded in ``train.json``)."""

    game: str
    players: int
    seed: int
    rounds: int = 2  #: rounds of self-play, labelling and fitting
    budget: int = 200  #: self-play games per round
    rollouts: int = 16  #: rollouts per candidate of a sampled decision
    every: float = 8.0  #: a decision is sampled with probability 1 / every
    margin: float = 0.01  #: label: win share + margin x (score - best other score)
    chunk: int = 10  #: games per saved chunk (the unit of resuming)
    #: ridge penalty, per decision, on standardized features; None: chosen by
    #: cross-validation (:func:`choose_ridge`)
    ridge: float | None = None


def check_settings(settings: TrainSettings) -> None:
    """Raise a one-line :class:`InputError` for a bad setting (no engine loaded)."""
    from analyzer.games import available_games, load_game

    if settings.game not in available_games():
        raise bad_value("--game", settings.game, ", ".join(available_games()))
    game = load_game(settings.game)
    if game.trainer() is None:
        trainable = [g for g in available_games() if load_game(g).trainer() is not None]
        raise bad_value(
            "--game", settings.game, "a game with training features: " + ", ".join(trainable)
        )
    lo, hi = game.min_players, game.max_players
    if not lo <= settings.players <= hi:
        raise bad_value("--players", settings.players, f"an integer from {lo} to {hi}")
    checks = (
        ("--rounds", settings.rounds, 1, 100),
        ("--budget", settings.budget, 1, 10_000_000),
        ("--rollouts", settings.rollouts, 1, 100_000),
        ("--chunk", settings.chunk, 1, 1_000_000),
    )
    for name, value, low, high in checks:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise bad_value(name, value, f"an integer from {low:,} to {high:,}")
    if not (isinstance(settings.every, (int, float)) and 1.0 <= settings.every <= 1e6):
        raise bad_value("--every", settings.every, "a number from 1 to 1,000,000")
    if not (isinstance(settings.margin, (int, float)) and 0.0 <= settings.margin <= 1.0):
        raise bad_value("--margin", settings.margin, "a number from 0 to 1")
    ridge = settings.ridge
    if ridge is not None and not (isinstance(ridge, (int, float)) and 0.0 <= ridge <= 1e6):
        raise bad_value("--ridge", settings.ridge, "a number from 0 to 1,000,000")


# ---------------------------------------------------------------------------- fitting


def center(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    """``values`` (rows, or rows x columns) less the mean of their group."""
    n = int(group.max()) + 1 if len(group) else 0
    size = np.bincount(group, minlength=n).astype(float)
    if values.ndim == 1:
        mean = np.bincount(group, weights=values, minlength=n) / np.maximum(size, 1)
        return values - mean[group]
    out = np.empty_like(values, dtype=float)
    for j in range(values.shape[1]):
        mean = np.bincount(group, weights=values[:, j], minlength=n) / np.maximum(size, 1)
        out[:, j] = values[:, j] - mean[group]
    return out


def fit_weights(
    x: np.ndarray, y: np.ndarray, group: np.ndarray, ridge: float = 1e-3, free=()
) -> np.ndarray:
    """Weights ``w`` minimizing the squared error of ``x @ w`` to ``y`` within each
    decision (``group``: both centered per decision, so only differences between
    one decision's candidates count: what a player choosing among them needs),
    plus ``ridge`` x decisions x ``|w|^2`` on features scaled to unit spread, the
    columns ``free`` (the game's own evaluation, the anchor) not penalized. A
    feature that never differs within a decision gets weight 0."""
    xc = center(np.asarray(x, float), group)
    yc = center(np.asarray(y, float), group)
    scale = xc.std(axis=0)
    live = scale > 1e-12
    xs = xc[:, live] / scale[live]
    decisions = int(group.max()) + 1 if len(group) else 0
    pen = np.full(x.shape[1], ridge * max(decisions, 1))
    pen[list(free)] = 0.0
    a = xs.T @ xs + np.diag(pen[live])
    b = xs.T @ yc
    w = np.zeros(x.shape[1])
    w[live] = np.linalg.lstsq(a, b, rcond=None)[0] / scale[live]
    return w


#: the ridge penalties :func:`choose_ridge` tries
RIDGE_GRID = (1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0)


def choose_ridge(x, y, group, free=(), grid=RIDGE_GRID, folds=5, seed=0) -> tuple[float, list]:
    """The ridge penalty of ``grid`` whose fits pick best on held-out decisions
    (``folds``-fold by decision, a fixed split from ``seed``): the highest mean
    held-out label of the candidate each fit picks (an unbiased estimate of the
    pick's value: the held-out labels' noise is not in the fit). Returns the
    penalty and ``[(ridge, mean label of the pick), ...]``."""
    decisions = int(group.max()) + 1
    fold = np.random.default_rng(seed).integers(0, folds, decisions)[group]
    table = []
    for ridge in grid:
        total = 0.0
        for k in range(folds):
            train_rows = fold != k
            test_rows = ~train_rows
            if not train_rows.any() or not test_rows.any():
                continue
            g_train = np.unique(group[train_rows], return_inverse=True)[1]
            w = fit_weights(x[train_rows], y[train_rows], g_train, ridge, free)
            total += pick_value(x[test_rows], y[test_rows], group[test_rows], w) * len(
                np.unique(group[test_rows])
            )
        table.append((ridge, total / decisions))
    best = max(table, key=lambda row: row[1])[0]
    return best, table


def pick_value(x, y, group, w) -> float:
    """The mean over decisions of the label of the candidate ``x @ w`` picks
    (``group``'s rows of one decision contiguous), less the decision's mean label."""
    score = x @ w
    bounds = np.flatnonzero(np.diff(group)) + 1
    total = 0.0
    parts = np.split(np.arange(len(group)), bounds)
    for rows in parts:
        total += float(y[rows[np.argmax(score[rows])]] - y[rows].mean())
    return total / max(len(parts), 1)


def agreement(x: np.ndarray, y: np.ndarray, group: np.ndarray, w: np.ndarray) -> dict:
    """How well ``w`` picks: the share of decisions whose best candidate by ``x @ w``
    is the best by the labels, and the labels' mean loss of that pick (label
    points below the best), with the within-decision R^2."""
    score = x @ w
    n = int(group.max()) + 1 if len(group) else 0
    hit = 0
    loss = 0.0
    bounds = np.flatnonzero(np.diff(group)) + 1
    for rows in np.split(np.arange(len(group)), bounds):
        pick = rows[np.argmax(score[rows])]
        best = rows[np.argmax(y[rows])]
        hit += int(y[pick] == y[best])
        loss += float(y[best] - y[pick])
    yc = center(y, group)
    res = yc - center(score, group)
    r2 = 1.0 - float(res @ res) / max(float(yc @ yc), 1e-300)
    return {"decisions": n, "best_share": hit / max(n, 1), "mean_loss": loss / max(n, 1), "r2": r2}


# ---------------------------------------------------------------------------- the run


@dataclass
class TrainResult:
    """A training run: its settings, each round's weights and fit, the last weights."""

    settings: TrainSettings
    features: tuple[str, ...]
    rounds: list[dict] = field(default_factory=list)
    command: str = ""
    finished: bool = False
    seconds: float = 0.0

    @property
    def weights(self) -> np.ndarray:
        return np.array(self.rounds[-1]["weights"]) if self.rounds else np.array([])


def default_command(s: TrainSettings) -> str:
    """The ``analyzer train`` command line of ``s``."""
    return (
        f"analyzer train --game {s.game} --players {s.players} --seed {s.seed} "
        f"--rounds {s.rounds} --budget {s.budget} --rollouts {s.rollouts} --every {s.every:g} "
        f"--margin {s.margin:g}"
    )


def _load_state(out: Path, settings: TrainSettings, resume: bool) -> dict:
    path = out / STATE_FILE
    if not path.exists():
        return {"settings": asdict(settings), "rounds": [], "seconds": 0.0}
    if not resume:
        raise InputError(
            f"--out {out}: holds a training run ({STATE_FILE}); --resume continues it, "
            "or name another folder"
        )
    state = json.loads(path.read_text("utf-8"))
    diff = sorted(k for k, v in asdict(settings).items() if state["settings"].get(k) != v)
    fitted = sum(1 for r in state["rounds"] if r.get("weights") is not None)
    if diff == ["rounds"] and settings.rounds >= max(fitted, 1):
        # more rounds (or fewer, not below those fitted): the rounds done stay as they are
        state["settings"]["rounds"] = settings.rounds
        return state
    if diff:
        raise InputError(
            f"--out {out}: its run has other settings ({', '.join(diff)}): --resume needs "
            "the same command (only --rounds may grow)"
        )
    return state


def _save_state(out: Path, state: dict) -> None:
    tmp = out / (STATE_FILE + ".tmp")
    tmp.write_text(json.dumps(state, indent=1), "utf-8")
    tmp.replace(out / STATE_FILE)


def _chunk_path(out: Path, r: int, c: int) -> Path:
    return out / f"round{r}" / f"chunk{c:05d}.npz"


def _round_data(out: Path, r: int, chunks: int, base: int) -> tuple[dict, int]:
    """Every chunk of round ``r``, decisions renumbered from ``base``."""
    parts = []
    for c in range(chunks):
        with np.load(_chunk_path(out, r, c)) as z:
            d = {k: z[k] for k in ("x", "y", "group", "chosen")}
        if len(d["group"]):
            d["group"] = d["group"] + base
            base = int(d["group"].max()) + 1
        parts.append(d)
    return parts, base


def train(
    settings: TrainSettings,
    out: Path,
    *,
    resume: bool = False,
    progress: Callable[[str], None] | None = None,
    command: str | None = None,
    stop_after: int | None = None,
) -> TrainResult:
    """Run (or, ``resume``, continue) the training ``settings`` describe, its state
    in the folder ``out``; ``stop_after``: stop after that many new chunks (an
    interrupted run, for tests). Returns the result; writes ``weights.toml`` when
    every round is done."""
    from analyzer.core.seeding import root_key
    from analyzer.games import load_game

    check_settings(settings)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    state = _load_state(out, settings, resume)
    trainer = load_game(settings.game).trainer()
    features = tuple(trainer.feature_names)
    say = progress or (lambda line: None)
    key = tuple(int(k) for k in root_key(settings.seed))
    chunks = -(-settings.budget // settings.chunk)
    started = time.monotonic()
    spent_before = float(state.get("seconds", 0.0))
    new_chunks = 0
    paces: list[float] = []
    result = TrainResult(settings, features, command=command or default_command(settings))
    for r in range(settings.rounds):
        if r < len(state["rounds"]) and state["rounds"][r].get("weights") is not None:
            continue
        if r >= len(state["rounds"]):
            state["rounds"].append({"chunks": 0, "weights": None})
        rnd = state["rounds"][r]
        policy = (
            np.array(state["rounds"][r - 1]["weights"]) if r > 0 else np.asarray(trainer.identity())
        )
        for c in range(rnd["chunks"], chunks):
            if stop_after is not None and new_chunks >= stop_after:
                state["seconds"] = spent_before + time.monotonic() - started
                _save_state(out, state)
                result.rounds = [x for x in state["rounds"] if x.get("weights") is not None]
                return result
            start = r * ROUND_STRIDE + c * settings.chunk
            count = min(settings.chunk, settings.budget - c * settings.chunk)
            t0 = time.monotonic()
            data = trainer.label(
                settings.players,
                key,
                start,
                count,
                policy,
                rollouts=settings.rollouts,
                every=settings.every,
                margin=settings.margin,
            )
            path = _chunk_path(out, r, c)
            path.parent.mkdir(exist_ok=True)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, **data)
            tmp.replace(path)
            rnd["chunks"] = c + 1
            new_chunks += 1
            state["seconds"] = spent_before + time.monotonic() - started
            _save_state(out, state)
            done = (c + 1) * settings.chunk if c + 1 < chunks else settings.budget
            left_chunks = (chunks - c - 1) + (settings.rounds - r - 1) * chunks
            secs = time.monotonic() - t0
            paces.append(secs)
            # the mean chunk of this session, the first left out once there are
            # others (it includes compiling the game's kernels)
            per = float(np.mean(paces[1:] if len(paces) > 1 else paces))
            say(
                f"round {r + 1}/{settings.rounds}: {done:,}/{settings.budget:,} games, "
                f"{len(np.unique(data['group'])):,} decisions labelled in this chunk "
                f"({secs:.0f} s{', compiling included' if new_chunks == 1 else ''}); "
                f"about {left_chunks * per:.0f} s left at this session's pace"
            )
        # fit on every round so far
        parts, base = [], 0
        for q in range(r + 1):
            got, base = _round_data(out, q, chunks, base)
            parts += got
        x = np.concatenate([p["x"] for p in parts])
        y = np.concatenate([p["y"] for p in parts])
        g = np.concatenate([p["group"] for p in parts])
        free = tuple(trainer.free)
        ridge, table = settings.ridge, []
        if ridge is None:
            ridge, table = choose_ridge(x, y, g, free, seed=settings.seed)
        w = fit_weights(x, y, g, ridge, free)
        fit = agreement(x, y, g, w)
        before = agreement(x, y, g, np.asarray(policy, float))
        rnd["ridge"] = ridge
        rnd["cross_validation"] = [[float(a), float(b)] for a, b in table]
        rnd["policy_pick_value"] = pick_value(x, y, g, np.asarray(policy, float))
        rnd["weights"] = [float(v) for v in w]
        rnd["fit"] = fit
        rnd["policy_fit"] = before
        state["seconds"] = spent_before + time.monotonic() - started
        _save_state(out, state)
        say(
            f"round {r + 1}/{settings.rounds} fitted on {fit['decisions']:,} decisions "
            f"(ridge {ridge:g}): the fit "
            f"picks the rollouts' best in {fit['best_share']:.1%} of them (the player of this "
            f"round: {before['best_share']:.1%}), within-decision R^2 {fit['r2']:.3f}"
        )
    result.rounds = state["rounds"]
    result.finished = True
    result.seconds = float(state["seconds"])
    (out / WEIGHTS_FILE).write_text(weights_toml(result), "utf-8")
    return result


def weights_toml(result: TrainResult) -> str:
    """The result as a ``[trained.<players>]`` table of a game's ``data/trained.toml``."""
    s = result.settings
    last = result.rounds[-1]
    fit = last["fit"]
    text = (
        f"fitted on {fit['decisions']:,} decisions of {s.rounds} rounds x {s.budget:,} "
        f"self-play games ({s.rollouts} rollouts per candidate): picks the rollouts' best "
        f"in {fit['best_share']:.1%}, the round's player {last['policy_fit']['best_share']:.1%}; "
        f"within-decision R^2 {fit['r2']:.3f}"
    )
    names = ", ".join(f'"{n}"' for n in result.features)
    weights = ", ".join(f"{v:.6g}" for v in last["weights"])
    return (
        f"[trained.{s.players}]\n"
        f'command = "{result.command}"\n'
        f'fit = "{text}"\n'
        f"features = [{names}]\n"
        f"weights = [{weights}]\n"
    )


def format_result(result: TrainResult) -> str:
    """The result in a few lines."""
    s = result.settings
    if not result.finished:
        return f"training of {s.game} at {s.players} players stopped; --resume continues it"
    lines = [
        f"{s.game}, {s.players} players: weights of the trained player after {s.rounds} rounds"
    ]
    for i, rnd in enumerate(result.rounds):
        f = rnd["fit"]
        lines.append(
            f"  round {i + 1}: {f['decisions']:,} decisions; the fit picks the rollouts' best "
            f"{f['best_share']:.1%} (the round's player {rnd['policy_fit']['best_share']:.1%})"
        )
    width = max(len(n) for n in result.features)
    for n, v in zip(result.features, result.weights, strict=True):
        lines.append(f"  {n:<{width}}  {v:+.5f}")
    return "\n".join(lines)
