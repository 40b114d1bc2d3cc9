# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint services bench bench-envs clean screenshots

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,research,scale]'
	touch $(STAMP)

# The warm-up compiles the computer players' search once after an install or an update
# (20 to 50 s, and it says so); after that it loads it in about a second.
run: $(STAMP)
	$(BIN)/forties warm-up
	$(BIN)/forties serve

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/mypy

# The browser tests drive Debian's Chromium (never a downloaded browser): installed with apt
# when it is missing.
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(CHROMIUM):
	$(SUDO) apt-get install -y chromium || ($(SUDO) apt-get update && $(SUDO) apt-get install -y chromium)

# PostgreSQL and Redis, which the tests of many server processes start on loopback for the
# run: Debian's packages, installed with apt when missing (CI is a fresh machine, as root).
services:
	@if ! command -v redis-server >/dev/null || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server; \
	fi

test: lint $(CHROMIUM) services
	$(BIN)/pytest -q -n auto --hypothesis-profile=ci --durations=30

# The browser client's pictures in docs/screenshots (web-*.png), taken by its browser tests.
screenshots: $(STAMP) $(CHROMIUM)
	FORTIES_SCREENSHOTS=$(CURDIR)/docs/screenshots $(BIN)/pytest -q -n 2 tests/web

$(VENV)/.bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,research,bench]'
	touch $(VENV)/.bench

bench: $(VENV)/.bench
	$(BIN)/python -m forties.bench

bench-envs: $(VENV)/.bench
	$(BIN)/python -m forties.bench.envs

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .mypy_cache .ruff_cache .pytest_cache .hypothesis
