"""The shared numba layer: the JIT decorator and its cache (``jit``), views of
arrays for kernels (``kernel_view``), the in-kernel random generator (``rng``),
grouped sums (``groupsum``), a trace's event rows (``trace``), and the kernels
every game's luck terms and search player are built on (``luck``, ``search``)."""
