"""CLI command modules; each defines ``register(app)`` and stays thin."""
