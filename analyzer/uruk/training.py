"""Uruk's part of ``analyzer train`` (:mod:`analyzer.studies.training`): positions
from self-play, each candidate action valued by the search's rollouts.

The games are played by the current player (every seat ``trained`` with the
round's weights; round 0's weights are the identity, ``balanced``'s evaluation).
At an action decision of more than one candidate, chosen with probability
``1 / every`` from a stream of its own (the games are the games they would be
without the sampling), every candidate gets ``rollouts`` rollouts
(:func:`analyzer.uruk.search.rollout`: everything hidden from the seat dealt
again, every seat then playing the current player to the end), the same dealt
copies for every candidate (common random numbers). A candidate's label is the
mean over its rollouts of the seat's win share plus ``margin`` times its final
score minus the best other's (the search's own value, ``margin`` its setting).
Its features are :func:`analyzer.uruk.features.candidate_features`'s.

Importing this module is cheap; :meth:`UrukTrainer.label` loads the kernels.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

FEATURES_MODULE = "analyzer.uruk.features"


class Samples(NamedTuple):
    """The sampler's output (a kernel view): one row per candidate of a sampled decision."""

    x: np.ndarray  #: float64[cap, MAX_FEATURES] the candidate's features
    y: np.ndarray  #: float64[cap] its label
    group: np.ndarray  #: int64[cap] its decision (numbered from 0 in the call)
    chosen: np.ndarray  #: int64[cap] 1: the current player chose it
    rng: np.ndarray  #: uint64[4] the sampling's stream
    cnt: np.ndarray  #: int64[3] rows, decisions, decisions left out for want of room


_SAMPLER = None


class UrukTrainer:
    """What ``analyzer train`` asks of Uruk (:class:`analyzer.studies.training.Trainer`)."""

    game = "uruk"
    strategy = "trained"
    #: features the fit never shrinks: balanced's value (the anchor)
    free = (0,)

    @property
    def feature_names(self) -> tuple[str, ...]:
        from analyzer.uruk.features import FEATURE_NAMES

        return FEATURE_NAMES

    def identity(self) -> np.ndarray:
        """Round 0's weights: ``balanced``'s evaluation."""
        from analyzer.uruk.features import identity_weights

        return identity_weights()

    def shipped(self, players: int) -> np.ndarray:
        """The weights ``trained`` plays today at ``players`` seats."""
        from analyzer.uruk.game import trained_weights

        return trained_weights(players)

    def label(
        self,
        players: int,
        key: tuple[int, int],
        start: int,
        count: int,
        weights: np.ndarray,
        *,
        rollouts: int,
        every: float,
        margin: float,
    ) -> dict[str, np.ndarray]:
        """Self-play games ``start .. start + count - 1`` of the stream ``key``,
        every seat ``trained`` with ``weights``: the labelled candidates
        (``x``, ``y``, ``group`` numbered from 0, ``chosen``)."""
        global _SAMPLER
        from analyzer.kernels.kernel_view import make_view
        from analyzer.uruk import search
        from analyzer.uruk.features import N_FEATURES
        from analyzer.uruk.game import param_rows, set_trained
        from analyzer.uruk.rules import default_rules
        from analyzer.uruk.state import MAX_CAND, MAX_FEATURES, MAX_PARAMS, new_state
        from analyzer.uruk.strategies import P_STRATEGY, TRAINED

        if _SAMPLER is None:
            from analyzer.uruk.sampler import sample_games

            _SAMPLER = sample_games
        t = default_rules().tables
        n = players
        names = ("trained",) * n
        rows = np.zeros((t.max_players, MAX_PARAMS), np.float64)
        prm = param_rows(names)
        rows[:n, : prm.shape[1]] = prm
        rows[:n, P_STRATEGY] = TRAINED
        set_trained(rows, names, np.asarray(weights, np.float64))
        s = new_state(t)
        s.prm[:] = rows
        w = search.new_search(t, rows)
        cap = max(count, 1) * 2000
        o = Samples(
            x=np.zeros((cap, MAX_FEATURES)),
            y=np.zeros(cap),
            group=np.zeros(cap, np.int64),
            chosen=np.zeros(cap, np.int64),
            rng=np.zeros(4, np.uint64),
            cnt=np.zeros(3, np.int64),
        )
        assert MAX_CAND >= 2
        _SAMPLER(
            make_view(s, "UrukState"),
            make_view(t, "UrukTables"),
            make_view(new_state(t), "UrukState"),
            search.pack_search(w),
            make_view(o, "UrukSamples"),
            n,
            np.uint64(key[0]),
            np.uint64(key[1]),
            start,
            count,
            float(every),
            int(rollouts),
            float(margin),
        )
        rows_n = int(o.cnt[0])
        if o.cnt[2]:
            raise RuntimeError(f"uruk training: {int(o.cnt[2])} decisions found no room")
        return {
            "x": o.x[:rows_n, :N_FEATURES].copy(),
            "y": o.y[:rows_n].copy(),
            "group": o.group[:rows_n].copy(),
            "chosen": o.chosen[:rows_n].copy(),
        }


TRAINER = UrukTrainer()
