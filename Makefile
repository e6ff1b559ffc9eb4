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
# compiles a module that has no bytecode when it imports it). BENCHMARKS.md, "make
# demo and the report phase".
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e '.[test]'
	$(BIN)/python -m compileall -q -j 0 -x 'site-packages[/\\].*[/\\]tests?[/\\]' $(VENV)/lib
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/analyzer run scenarios/default.toml

lint: $(STAMP)
	$(BIN)/ruff check analyzer tests benchmarks
	$(BIN)/ruff format --check analyzer tests benchmarks

test: lint
	$(BIN)/python -m pytest

# The inner loop: every test not marked slow (a new test is fast unless marked), every
# layer covered, in under two minutes on a warm numba cache. make test runs them all.
test-fast: lint
	$(BIN)/python -m pytest -m "not slow"

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_odds.py
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) .pytest_cache
