"""One place for numba JIT options.

Every kernel in the project is decorated with :data:`njit` from here, so caching
and other flags are decided once. ``NUMBA_DISABLE_JIT=1`` turns every kernel into
plain Python (used for coverage and for the benchmark ratios).
"""

import functools

import numba

#: Compile in nopython mode, cache to disk next to the source (the second run of
#: a command loads machine code instead of compiling), release the GIL.
njit = functools.partial(numba.njit, cache=True, nogil=True)
