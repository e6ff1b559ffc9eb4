# Every target sets up (or refreshes) the local virtual environment first,
# so a fresh clone with only Python present needs nothing else.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-fast lint bench clean

# pip byte-compiles the files it installs one at a time: about half of the set-up's
# CPU, two fifths of that for the packages' own test suites. compileall does it on
# every core instead, those test suites left out (nothing imports them; Python
# compiles a module that has no bytecode when it imports it). studies/2026-11-25-make-demo-and-report-phase.md.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e '.[test]'
	$(BIN)/python -m compileall -q -j 0 -x 'site-packages[/\\].*[/\\]tests?[/\\]' $(VENV)/lib
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/analyzer run scenarios/default.toml

lint: $(STAMP)
	$(BIN)/ruff check analyzer tests benchmarks tools studies examples
	$(BIN)/ruff format --check analyzer tests benchmarks tools studies examples

test: lint
	$(BIN)/python -m pytest

# The inner loop: every test not marked slow (a new test is fast unless marked), every
# layer covered, in under two minutes on a warm numba cache. make test runs them all.
test-fast: lint
	$(BIN)/python -m pytest -m "not slow"

# the speed benchmarks (benchmarks/README.md); figures printed, never asserted
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_colorful_treasure.py
	$(BIN)/python benchmarks/bench_uruk.py
	$(BIN)/python benchmarks/bench_user_path.py
	$(BIN)/python benchmarks/bench_odds.py --naive-runs 1
	$(BIN)/python benchmarks/bench_odds_startup.py

clean:
	rm -rf $(VENV) .pytest_cache
