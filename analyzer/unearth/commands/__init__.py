"""Unearth's own CLI commands (registered by :class:`analyzer.unearth.plugin.Unearth`)."""
