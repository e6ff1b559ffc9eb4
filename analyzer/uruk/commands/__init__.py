"""Uruk's table commands (``analyzer advise --game uruk``)."""
