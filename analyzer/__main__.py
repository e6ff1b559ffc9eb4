"""``python -m analyzer``: the same command line as the ``analyzer`` script."""

from analyzer.cli import main

if __name__ == "__main__":  # pragma: no cover
    main()
