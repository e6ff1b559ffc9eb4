"""Playing games: the scenario file format (``scenario_file``, ``sections_file``,
``sensitivity_file``), the one driver (``driver``), the batch runner with its
workers, checkpoints and progress (``runner``, ``pool``), and the library behind
``analyzer simulate`` (``simulate``)."""
