# Two entry points: `make demo` (set up + run the demo) and `make test`.
# Everything installs into .venv/ in this folder; built wheels are cached
# under $(ARBORIST_CACHE) so nothing slow is rebuilt on the next run.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ARBORIST_CACHE ?= $(HOME)/.cache/arborist
export PIP_CACHE_DIR ?= $(ARBORIST_CACHE)/pip
export PIP_DISABLE_PIP_VERSION_CHECK := 1
DEMO_DB := .arborist/demo.db
DEMO_CORPUS := src/arborist/demo/corpus

.PHONY: demo test setup clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml requirements-nodeps.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-nodeps.txt
	@touch $@

demo: setup
	@mkdir -p $(dir $(DEMO_DB))
	$(BIN)/arborist ingest $(DEMO_CORPUS) --db $(DEMO_DB)
	$(BIN)/arborist search "How long is the refund window for annual plans?" --db $(DEMO_DB) --k 3

test: setup
	$(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) .arborist
