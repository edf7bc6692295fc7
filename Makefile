# Herald — `make run` serves the API on 127.0.0.1:8000 (SQLite in ./var/herald.db);
# `make test` runs the suite (`make test-slow` the long runs CI adds after it). Both create
# .venv and install on first use; `make test` also installs and starts what the suite needs
# (scripts/test-env: PostgreSQL, HAProxy, Chromium, Debian's packages) or says what to install.
# `make run HOST=0.0.0.0 PORT=8080` serves elsewhere.
PYTHON ?= $(shell command -v python3.11 >/dev/null 2>&1 && echo python3.11 || echo python3)
HOST ?= 127.0.0.1
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run

PROCESSES ?= 2
FIRST_PORT ?= 8101
TEST_WORKERS ?= 2
# the main suite leaves out the tests marked slow (long simulations, end-to-end runs under
# load); `make test-slow` runs those, and .ci/run runs both
PYTEST_ARGS ?=
PYTEST ?= $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

.PHONY: run cluster test test-slow test-env test-postgres bench openapi clean

# `make run` installs Herald alone; `make test` adds the test tools.
$(RUN_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); echo "make: cannot create $(VENV) with $(PYTHON) (Debian: apt-get install python3-venv, or python3.11-venv)" >&2; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test]"
	@touch $(STAMP)

run: $(RUN_STAMP)
	$(BIN)/herald serve --host $(HOST) --port $(PORT)

# `make cluster`: HAProxy on $(HOST):8080 (or $(PORT) when PORT is given, as for `make run`:
# `make cluster PORT=9000`) in front of $(PROCESSES) Herald processes on ports $(FIRST_PORT) and up
# (`make cluster FIRST_PORT=9101`), on PostgreSQL (database `herald` on 127.0.0.1:5432 unless
# POSTGRES_* say otherwise; docs/deploy.md). HAProxy is Debian's package.
CLUSTER_PORT = $(if $(filter file,$(origin PORT)),8080,$(PORT))
cluster: $(RUN_STAMP)
	@command -v haproxy >/dev/null || test -x /usr/sbin/haproxy || (apt-get update -qq && apt-get install -y -qq haproxy)
	PERSISTENCE_MODULE=eventsourcing.postgres $(BIN)/herald cluster --processes $(PROCESSES) --host $(HOST) --port $(CLUSTER_PORT) --first-port $(FIRST_PORT)

# What the suite needs beside Python, installed (as root) and started, or named in one line.
test-env:
	@scripts/test-env

test: test-env
	@$(MAKE) --no-print-directory $(STAMP)
	@eval "$$(scripts/test-env --print-env)" && $(PYTEST) -m "not slow"

# The tests marked slow (CI runs them after the main suite), then those of them that measure
# latency one at a time, with no other test on the machine; none selected is no failure.
test-slow: test-env
	@$(MAKE) --no-print-directory $(STAMP)
	@eval "$$(scripts/test-env --print-env)" && { $(PYTEST) -m "slow and not alone" || test $$? -eq 5; } && \
		{ $(BIN)/python -m pytest -q $(PYTEST_ARGS) -m "slow and alone" || test $$? -eq 5; }

test-postgres: test-env
	@$(MAKE) --no-print-directory $(STAMP)
	@eval "$$(HERALD_TEST_BACKENDS=postgres scripts/test-env --print-env)" && HERALD_TEST_BACKENDS=postgres $(BIN)/python -m pytest -q -m "not slow" tests/storage tests/api

bench: $(STAMP)
	@command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	$(BIN)/python bench/bench_api.py
	$(BIN)/python bench/bench_past_states.py
	$(BIN)/python bench/bench_saladin_http.py
	$(BIN)/python bench/bench_saladin_sim.py
	$(BIN)/python bench/bench_saxon_shore_sim.py
	$(BIN)/python bench/bench_pairing.py
	$(BIN)/python bench/bench_verify.py
	$(BIN)/python bench/bench_long_games.py

openapi: $(STAMP)
	$(BIN)/python -m api.openapi > openapi/openapi.json

clean:
	rm -rf $(VENV) var .pytest_cache
