"""``analyzer serve``: the web app and its pages."""
