# The commands of the README: `make demo`, `make test` and `make lint`.

# The interpreter that builds .venv: python3.11 if it runs, else python3 if it
# is 3.11 or newer. `make PYTHON=/path/to/python3.x ...` picks another one.
PY_OK   := import sys; sys.exit(sys.version_info < (3, 11))
PYTHON  ?= $(shell for p in python3.11 python3; do \
               if $$p -c '$(PY_OK)' >/dev/null 2>&1; then command -v $$p; break; fi; \
           done)
VENV    ?= .venv
BIN     := $(VENV)/bin

.PHONY: demo test lint bench calibrate reports clean

$(BIN)/activate:
	@if [ -z "$(PYTHON)" ] || ! "$(PYTHON)" -c '$(PY_OK)' >/dev/null 2>&1; then \
	    echo "error: analyser needs Python 3.11 or newer; neither python3.11 nor python3 is one" \
	         "(PYTHON='$(PYTHON)'). Install one or run: make PYTHON=/path/to/python3.x $(MAKECMDGOALS)" >&2; \
	    exit 1; \
	fi
	"$(PYTHON)" -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/analyser simulate palace --players 4 \
	    --policy saver --policy lowest --policy pickup --policy random \
	    --deals 1000000 --seed 1

# Over every core (pytest-xdist): each worker compiles its share of the games before it collects
# (tests/warm.py), and a module's tests that share a module fixture run in one worker (tests/conftest.py).
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -n auto --dist loadgroup

# ruff over the code, the tests, the scripts and the notebooks; import-linter's contracts
# (pyproject.toml: layers, one game never importing another, no cycles); no private name
# imported from another module.
lint: $(VENV)/.installed-test
	$(BIN)/ruff check analyser tests benchmarks examples notebooks .ci
	$(BIN)/lint-imports --no-cache
	$(BIN)/python .ci/private_imports.py

# The registered games, from the registry (a new game needs no line here).
GAMES = $(shell $(BIN)/python -c 'from analyser.games.registry import game_names; print(*game_names())')

bench: $(VENV)/.installed
	$(foreach game,$(GAMES),$(BIN)/python benchmarks/bench.py $(game) &&) true

# Every statistical claim checked over 100 seeds (about 16 minutes on two cores): benchmarks/RESULTS.md.
calibrate: $(VENV)/.installed
	$(BIN)/python benchmarks/calibrate_compare.py
	$(BIN)/python benchmarks/calibrate_differences.py
	$(BIN)/python benchmarks/calibrate_differences.py --synthetic
	$(BIN)/python benchmarks/calibrate_tournament.py
	$(BIN)/python benchmarks/calibrate_rollout.py
	$(BIN)/python benchmarks/calibrate_ratings.py
	$(BIN)/python benchmarks/calibrate_sweep.py
	$(BIN)/python benchmarks/calibrate_aborts.py --seeds 300
	$(BIN)/python benchmarks/calibrate_report.py
	$(BIN)/python benchmarks/calibrate_report.py --game palace --players 4 --policy random \
	    --policy saver --policy saver --policy saver --section seats --section players

# The example balance reports in reports/ (reports/README.md: what each plays, how long it takes): each game's
# Markdown, JSON and figures, then the same report as one HTML page (the same seed, so the same numbers).
# A game's report in reports/ is made at the units per run and deals per pair its GameSpec names
# (report_size); a game without one gets the report's defaults.
REPORT_SIZE = $(shell $(BIN)/python -c 'from analyser.games.registry import get_game; \
    s = get_game("$(1)").report_size; print(f"-n {s[0]} --tournament-deals {s[1]}" if s else "")')

reports: $(VENV)/.installed
	$(foreach game,$(GAMES),$(BIN)/analyser report $(game) $(call REPORT_SIZE,$(game)) \
	    --out reports/$(game).md --out reports/$(game).html &&) true

clean:
	rm -rf $(VENV) .pytest_cache
