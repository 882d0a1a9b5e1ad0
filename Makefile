# Every target sets up its own environment first, so on a fresh machine
# `make demo` and `make test` are the only two commands needed.
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)
# make fuzz SECONDS=600 SEED=2
SECONDS ?= 60
SEED    ?= 1

.PHONY: demo test lint bench bench-table fuzz serve postgres chromium screenshot clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev,bench,frames]"
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
	$(BIN)/fudgedice compare 4dF 4dF@3d6 4dF@d% 4dF@4d6 --plot cmp.png

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks fuzz
	$(BIN)/ruff format --check src tests benchmarks fuzz
	$(BIN)/mypy

# The suite, then the fuzzer for a minute with a fixed seed: any finding fails the
# build (its time limits are CPU time, so a busy machine makes no call late).
test: lint postgres chromium
	$(BIN)/pytest
	PYTHONPATH=src $(BIN)/python -m fuzz --seconds 60 --seed 1

# The table: http://127.0.0.1:8000/ (make serve ARGS="--port 8080 --db postgresql://...")
serve: $(STAMP)
	$(BIN)/fudgedice serve $(ARGS)

# Installs Debian packages (as root, or through sudo); used only when one is missing.
APT_INSTALL = SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq

# The table's tests start a PostgreSQL server of their own: Debian's postgresql,
# installed here unless it already is.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null || { \
		$(APT_INSTALL) postgresql; }

# The page's tests drive Debian's chromium through Playwright (never a browser
# download): installed here unless it already is.
chromium:
	@[ -x /usr/bin/chromium ] || { $(APT_INSTALL) chromium; }

# The README's pictures of the page (docs/table.png, docs/table-phone.png), taken
# from the current code by a test of the page, then copied from its artifacts.
screenshot: $(STAMP) chromium
	$(BIN)/pytest -p no:cacheprovider tests/page/test_pictures.py
	cp test-artifacts/page/table.png test-artifacts/page/table-phone.png test-artifacts/page/table-sheet.png docs/

bench: $(STAMP)
	bash benchmarks/d20_env.sh
	$(BIN)/python benchmarks/run.py

# The table under load: 50 members in 5 rooms, 100 watchers, then a SIGKILL
# mid-load and a restart (benchmarks/table_load.py; figures in docs/performance.md).
bench-table: $(STAMP)
	$(BIN)/python benchmarks/table_load.py

# Generated and mutated rolls through every entry point (fuzz/__init__.py); prints
# the counts, writes every finding to fuzz-report.txt (and .json), exits 1 on any.
fuzz: $(STAMP)
	PYTHONPATH=src $(BIN)/python -m fuzz --seconds $(SECONDS) --seed $(SEED)

clean:
	rm -rf $(VENV) benchmarks/.d20-venv .pytest_cache .mypy_cache .ruff_cache
