# Herald — `make run` serves the API on 127.0.0.1:8000 (SQLite in ./var/herald.db);
# `make test` runs the whole suite. Both create .venv and install on first use;
# `make run HOST=0.0.0.0 PORT=8080` serves elsewhere.
PYTHON ?= python3.11
HOST ?= 127.0.0.1
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run

PROCESSES ?= 2
TEST_WORKERS ?= 2

.PHONY: run cluster test test-postgres bench openapi clean

# `make run` installs Herald alone; `make test` adds the test tools.
$(RUN_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test]"
	@touch $(STAMP)

run: $(RUN_STAMP)
	$(BIN)/herald serve --host $(HOST) --port $(PORT)

# `make cluster`: HAProxy on $(HOST):8080 (or $(PORT) when PORT is given, as for `make run`:
# `make cluster PORT=9000`) in front of $(PROCESSES) Herald processes on ports 8101 and up, on
# PostgreSQL (database `herald` on 127.0.0.1:5432 unless POSTGRES_* say otherwise;
# docs/deploy.md). HAProxy is Debian's package.
CLUSTER_PORT = $(if $(filter file,$(origin PORT)),8080,$(PORT))
cluster: $(RUN_STAMP)
	@command -v haproxy >/dev/null || test -x /usr/sbin/haproxy || (apt-get update -qq && apt-get install -y -qq haproxy)
	PERSISTENCE_MODULE=eventsourcing.postgres $(BIN)/herald cluster --processes $(PROCESSES) --host $(HOST) --port $(CLUSTER_PORT)

test: $(STAMP)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal

test-postgres: $(STAMP)
	HERALD_TEST_BACKENDS=postgres $(BIN)/python -m pytest -q tests/storage tests/api

bench: $(STAMP)
	@command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	$(BIN)/python bench/bench_api.py
	$(BIN)/python bench/bench_past_states.py
	$(BIN)/python bench/bench_saladin_http.py
	$(BIN)/python bench/bench_saladin_sim.py
	$(BIN)/python bench/bench_saxon_shore_sim.py
	$(BIN)/python bench/bench_pairing.py
	$(BIN)/python bench/bench_verify.py

openapi: $(STAMP)
	$(BIN)/python -m api.openapi > openapi/openapi.json

clean:
	rm -rf $(VENV) var .pytest_cache
