"""Example games: small complete games to copy (``docs/adding-a-game.md``).

Nothing here is part of the ``analyzer`` package: an example registers itself
when imported (``import examples.pig``), as a game shipped elsewhere would.
"""
