# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS := dev,research,scale
BENCH_EXTRAS := dev,research,bench

.PHONY: run test lint warm-all services bench bench-envs loadtest loadtest-tables clean screenshots

# $(call install,EXTRAS,STAMP): the venv (made if missing) with the package and EXTRAS,
# installed again only when pyproject.toml's content has changed since STAMP was written
# (its checksum is kept there): a checkout or a pull that only touches the file's date
# costs nothing.
define install
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@if [ "$$(sha256sum < pyproject.toml) $(1)" = "$$(cat $(2) 2>/dev/null)" ]; then \
	  echo "The packages ($(1)) are installed: pyproject.toml has not changed."; \
	else \
	  $(BIN)/python -m pip install --quiet --upgrade pip && \
	  $(BIN)/python -m pip install --quiet -e '.[$(1)]' && \
	  echo "$$(sha256sum < pyproject.toml) $(1)" > $(2); \
	fi
	touch $(2)
endef

$(STAMP): pyproject.toml
	$(call install,$(EXTRAS),$(STAMP))

# The warm-up compiles the computer players' search once after an install or an update
# (20 to 50 s, and it says so); after that it loads it in about a second.
run: $(STAMP)
	$(BIN)/forties warm-up
	$(BIN)/forties serve

warm-all: $(STAMP)
	$(BIN)/forties warm-up --all

lint: $(STAMP)
	$(BIN)/ruff check src tests bench lab
	$(BIN)/mypy
	$(BIN)/lint-imports

# The browser tests drive Debian's Chromium (never a downloaded browser): installed with apt
# when it is missing.
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(CHROMIUM):
	$(SUDO) apt-get install -y chromium || ($(SUDO) apt-get update && $(SUDO) apt-get install -y chromium)

# PostgreSQL and Redis, which the tests of many server processes start on loopback for the
# run, and Caddy and systemd-analyze, with which tests/web/test_caddy.py tries the deployment
# of docs/deploy.md: Debian's packages, installed with apt when missing (CI is a fresh
# machine, as root).
services:
	@if ! command -v redis-server >/dev/null || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
	    || ! command -v caddy >/dev/null || ! command -v systemd-analyze >/dev/null; then \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server \
	    caddy systemd; \
	fi

# The tests' compiled code is made once, beside the linters, rather than by every test worker.
# Three test workers on two cores: many tests wait on a browser, a server or a database.
# Python keeps its compiled modules (and pytest its rewritten tests) for the next run even
# where PYTHONDONTWRITEBYTECODE is set: otherwise each test worker compiles every test module
# again (12 s of CPU, 4 s when kept) and each server a test starts its modules.
test: $(STAMP) $(CHROMIUM) services
	$(MAKE) --no-print-directory -j3 lint warm-all
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -q -n 3 --dist worksteal --hypothesis-profile=ci \
	  --durations=30

# The browser client's pictures in docs/screenshots (web-*.png), taken by its browser tests.
screenshots: $(STAMP) $(CHROMIUM)
	FORTIES_SCREENSHOTS=$(CURDIR)/docs/screenshots $(BIN)/pytest -q -n 2 tests/web

$(VENV)/.bench: $(STAMP)
	$(call install,$(BENCH_EXTRAS),$(VENV)/.bench)

bench: $(VENV)/.bench
	$(BIN)/python -m bench

# The web server under load on one process, then on two (PostgreSQL and Redis started for
# the run): `make loadtest WORKERS=1,2,4 TABLES=32 SECONDS=30` changes the counts, and
# VIA=workers (one port, --workers N) or VIA=caddy (Caddy in front) how they are reached;
# ROUNDS=3 runs the counts three times, the order reversed each round.
WORKERS ?= 1,2
TABLES ?= 16
SECONDS ?= 20
VIA ?= ports
ROUNDS ?= 1
loadtest: $(STAMP) services
	$(BIN)/python -m bench.load --workers $(WORKERS) --via $(VIA) --tables $(TABLES) --seconds $(SECONDS) --rounds $(ROUNDS)

# The MaskablePPO example (docs/examples/maskable_ppo.py) needs torch: the `learn` extra, in
# a venv of its own (.venv-learn), so that `make test` never installs it.
LEARN_VENV := .venv-learn
LEARN_EXTRAS := research,learn
$(LEARN_VENV)/.installed: VENV := $(LEARN_VENV)
$(LEARN_VENV)/.installed: BIN := $(LEARN_VENV)/bin
$(LEARN_VENV)/.installed: pyproject.toml
	$(call install,$(LEARN_EXTRAS),$(LEARN_VENV)/.installed)

bench-envs: $(VENV)/.bench $(LEARN_VENV)/.installed
	$(BIN)/python -m bench.envs
	$(LEARN_VENV)/bin/python docs/examples/maskable_ppo.py

# N tables of four websocket clients against forties serve on 127.0.0.1 (bounded in time);
# One forties serve on its embedded SQLite, as `make run` starts it: 500 tables of four
# seat clients; LOADFLAGS="--think 2" plays at people's pace, --json prints JSON.
LOADFLAGS ?=
loadtest-tables: $(STAMP)
	$(BIN)/python -m bench.tables --tables 500 --seconds 30 $(LOADFLAGS)

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .mypy_cache .ruff_cache .import_linter_cache .pytest_cache .hypothesis
