# specextract: `make run` (main job over corpus/ into out/) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev
SRC    := pyproject.toml

.PHONY: run test eval gold bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python $(SRC)
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEVSTAMP): $(BIN)/python $(SRC)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(STAMP)

run: $(STAMP)
	$(BIN)/specextract run corpus --out out

test: $(DEVSTAMP)
	$(BIN)/python -m pytest -q

eval: $(STAMP)
	$(BIN)/specextract eval --gold gold/claims.csv corpus

gold: $(STAMP)
	$(BIN)/python -m specextract.gold gold/claims.csv gold/parts/*.csv

bench: $(STAMP)
	$(BIN)/python bench/bench_normalize.py

clean:
	rm -rf out .pytest_cache
