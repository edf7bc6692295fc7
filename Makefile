# Herald — `make run` serves the API on 127.0.0.1:8000 (SQLite in ./var/herald.db);
# `make test` runs the whole suite. Both create .venv and install on first use.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-postgres bench openapi clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/herald serve --host 127.0.0.1 --port 8000

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-postgres: $(STAMP)
	HERALD_TEST_BACKENDS=postgres $(BIN)/python -m pytest -q tests/storage tests/api

bench: $(STAMP)
	@command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	$(BIN)/python bench/bench_api.py
	$(BIN)/python bench/bench_saladin_http.py
	$(BIN)/python bench/bench_saladin_sim.py
	$(BIN)/python bench/bench_saxon_shore_sim.py
	$(BIN)/python bench/bench_pairing.py
	$(BIN)/python bench/bench_verify.py

openapi: $(STAMP)
	$(BIN)/python -m api.openapi > openapi/openapi.json

clean:
	rm -rf $(VENV) var .pytest_cache
