"""Colorful Treasure's table commands (``analyzer odds|advise --game colorful_treasure``)."""
