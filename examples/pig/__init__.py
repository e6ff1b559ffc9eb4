"""Pig, the example game: a complete game in a few hundred lines to copy.

Importing this package registers the game as ``pig``, the way a game shipped
outside analyzer does (a game folder inside ``analyzer/`` is found by the
registry itself). A distribution of its own would instead declare the entry
point ``pig = "examples.pig:factory"`` in the group ``analyzer.games``. Rules:
``README.md`` here; the files, one by one: ``docs/adding-a-game.md``.

- ``data/rules.toml``: the rules as data; :mod:`.rules` loads and checks them
- :mod:`.engine`: the kernels (a turn, the game, a batch of games)
- :mod:`.game`: the batch job, its ``games`` table, the replay and the trace
- :mod:`.plugin`: the :class:`analyzer.games.Game` the machinery sees
"""

from analyzer.games import register_game


def factory():
    """The game, built on first use (listing the games imports no engine)."""
    from .plugin import Pig

    return Pig()


register_game("pig", factory, commands=())
