"""Studies played on top of the driver: ratings (``analyzer ladder``), tuning
(``analyzer tune``), a scenario's ``[ladder]``/``[tune]`` tables (``sections``),
``[sensitivity]``, ``analyzer compare`` and the writer of a game's tuned rows
(``ship_rows``)."""
