"""Seeds are normalised here, at the API edge, and nowhere else.

A run's seed (an int, or None for fresh entropy) becomes a
:class:`numpy.random.SeedSequence`; its first 128 bits are the root key that
every game stream is derived from (see :mod:`analyzer.kernels.rng`). The resolved seed
is an int, so it can be written to manifests and reused. (numpy is imported
where a seed is used, not to check one: bad input is answered before it loads.)
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING

from analyzer.core.errors import bad_value

if TYPE_CHECKING:
    import numpy as np

#: seeds are 64-bit: what a manifest, a checkpoint and ``--seed`` carry
SEED_LIMIT = 2**64
SEED_ALLOWED = "an integer from 0 to 2**64 - 1"


def seed_ok(seed) -> bool:
    """True for a seed the tool takes: an integer in ``[0, 2**64)``."""
    return (
        not isinstance(seed, bool)
        and isinstance(seed, numbers.Integral)  # an int or a numpy integer
        and 0 <= int(seed) < SEED_LIMIT
    )


def resolve_seed(seed) -> int:
    """Return an explicit non-negative int seed; ``None`` draws one from the OS."""
    if seed is None:
        import numpy as np

        return int(np.random.SeedSequence().entropy % (2**63))
    if not seed_ok(seed):
        raise bad_value("seed", seed, SEED_ALLOWED)
    return int(seed)


def root_key(seed: int) -> tuple[np.uint64, np.uint64]:
    """The 128-bit root key ``(key0, key1)`` of ``seed`` as two ``numpy.uint64``."""
    import numpy as np

    words = np.random.SeedSequence(resolve_seed(seed)).generate_state(2, dtype=np.uint64)
    return words[0], words[1]


def batch_seed_sequences(seed: int, n_batches: int) -> list[np.random.SeedSequence]:
    """Independent child sequences for ``n_batches`` batches (``SeedSequence.spawn``).

    Used where a batch needs its own NumPy generator (e.g. Monte Carlo checks of
    the odds engine); whole games use per-game streams instead.
    """
    import numpy as np

    return np.random.SeedSequence(resolve_seed(seed)).spawn(n_batches)
