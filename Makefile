# Two entry points: `make demo` (set up + run the demo) and `make test`.
# Everything installs into .venv/ in this folder; built wheels are cached
# under $(ARBORIST_CACHE) so nothing slow is rebuilt on the next run.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export ARBORIST_CACHE ?= $(HOME)/.cache/arborist
WHEELS := $(ARBORIST_CACHE)/wheels
LLAMA := llama-cpp-python==0.3.36
# llama.cpp is built for a named instruction set, never -march=native: a native build on a CPU that
# reports AMX enables tile instructions a VM may not permit (SIGILL at the first prompt). AVX-512 (with
# VNNI, VBMI, BF16) where the CPU has all of it -- 1.5x the AVX2 build's speed on these machines --
# else AVX2/FMA/F16C. The wheel's folder is named for the set, so a wheel built for another is never reused.
LLAMA_AVX2 := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
LLAMA_AVX512 := $(LLAMA_AVX2) -DGGML_AVX512=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_VBMI=ON \
	-DGGML_AVX512_BF16=ON -DGGML_AVX_VNNI=ON
LLAMA_ISA := $(shell f=$$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null); \
	for x in avx512f avx512_vnni avx512vbmi avx512_bf16 avx_vnni; do \
	  echo " $$f " | grep -q " $$x " || { echo avx2; exit; }; done; echo avx512)
LLAMA_CMAKE_ARGS := $(if $(filter avx512,$(LLAMA_ISA)),$(LLAMA_AVX512),$(LLAMA_AVX2))
LLAMA_WHEELS := $(WHEELS)/llama-$(LLAMA_ISA)
export PIP_CACHE_DIR ?= $(ARBORIST_CACHE)/pip
export PIP_DISABLE_PIP_VERSION_CHECK := 1
DEMO_DB := .arborist/demo.db
DEMO_CORPUS := src/arborist/demo/corpus

.PHONY: demo test lint setup clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml requirements-nodeps.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@mkdir -p $(LLAMA_WHEELS)
	@# llama-cpp-python compiles llama.cpp (~6 min on 2 cores): build the wheel once into the cache.
	@ls $(LLAMA_WHEELS)/llama_cpp_python-0.3.36-*.whl >/dev/null 2>&1 || \
		{ echo "building $(LLAMA) into $(LLAMA_WHEELS) (once, ~6 minutes)"; \
		  CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip wheel --quiet --no-deps --no-cache-dir \
		    -w $(LLAMA_WHEELS) $(LLAMA); }
	$(BIN)/python -m pip install --quiet --find-links $(LLAMA_WHEELS) -e '.[test,bench]'
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-nodeps.txt
	@touch $@

demo: setup
	$(BIN)/arborist models prepare
	@mkdir -p $(dir $(DEMO_DB))
	$(BIN)/arborist ingest $(DEMO_CORPUS) --db $(DEMO_DB)
	$(BIN)/arborist search "How long is the refund window for annual plans?" --db $(DEMO_DB) --k 3
	@echo "--- a single-fact question: the answer should be verified against its cited evidence"
	$(BIN)/arborist query "How long is the refund window for annual plans?" --db $(DEMO_DB)
	@echo "--- a two-part question: watch the label when the model answers less than was asked"
	$(BIN)/arborist query "How long is the refund window for annual plans, and what is the Team plan's price per seat?" --db $(DEMO_DB)

# Lint and types: ruff and mypy (settings in pyproject.toml; new packages strict).
lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

# Tests that need a local model run for real: the models are prepared first
# and ARBORIST_REQUIRE_MODELS makes a missing one a failure, never a skip.
test: lint
	$(BIN)/arborist models prepare smollm2-135m
	$(BIN)/arborist models prepare qwen2.5-1.5b
	ARBORIST_REQUIRE_MODELS=1 $(BIN)/python -m pytest -q

clean:
	rm -rf $(VENV) .arborist
