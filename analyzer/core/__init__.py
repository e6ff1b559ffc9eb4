"""The leaves every layer uses: errors and exit codes, seeding, statistics,
atomic outputs, the command line being run, fingerprints, frame helpers."""
