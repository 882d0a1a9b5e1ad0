# Every target sets up its own environment first, so on a fresh machine
# `make demo` and `make test` are the only two commands needed.
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)
# make fuzz SECONDS=600 SEED=2
SECONDS ?= 60
SEED    ?= 1

.PHONY: demo test lint bench fuzz clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev,bench]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/fudgedice roll "4d6kh3"
	$(BIN)/fudgedice roll "3d6!+2" -n 3
	$(BIN)/fudgedice odds "4dF+1"
	$(BIN)/fudgedice odds "3d6!" --plot odds.png
	$(BIN)/fudgedice roll "Good vs Great"
	$(BIN)/fudgedice roll "Good opp Fair"
	$(BIN)/fudgedice roll "4dF@4d6"
	$(BIN)/fudgedice roll "power: 4dF+2 adv vs Superhuman"
	$(BIN)/fudgedice roll "3d6fudge: Good opp Great"
	$(BIN)/fudgedice roll "d6: 4D+2 vs Moderate"
	$(BIN)/fudgedice roll "d6: 30D fast"
	$(BIN)/fudgedice table techniques

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks fuzz
	$(BIN)/ruff format --check src tests benchmarks fuzz
	$(BIN)/mypy

# The suite, then the fuzzer for a minute with a fixed seed: any finding fails the
# build (its time limits are CPU time, so a busy machine makes no call late).
test: lint
	$(BIN)/pytest
	PYTHONPATH=src $(BIN)/python -m fuzz --seconds 60 --seed 1

bench: $(STAMP)
	bash benchmarks/d20_env.sh
	$(BIN)/python benchmarks/run.py

# Generated and mutated rolls through every entry point (fuzz/__init__.py); prints
# the counts, writes every finding to fuzz-report.txt (and .json), exits 1 on any.
fuzz: $(STAMP)
	PYTHONPATH=src $(BIN)/python -m fuzz --seconds $(SECONDS) --seed $(SEED)

clean:
	rm -rf $(VENV) benchmarks/.d20-venv .pytest_cache .mypy_cache .ruff_cache
