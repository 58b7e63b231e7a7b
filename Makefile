# Quick start: `make run` (set up + scan the bundled sample) and `make test` (set up + every test).
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
PIP     = $(PY) -m pip
MSM     = $(VENV)/bin/msmigrate

.PHONY: setup setup-test run test test-python test-node test-e2e lint data inventory bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade --quiet pip

$(VENV)/.setup-done: pyproject.toml | $(PY)
	$(PIP) install --quiet -e .
	touch $@

# torch is pinned to the CPU build (pip takes the local wheel); mindspore is the CPU package.
$(VENV)/.test-done: pyproject.toml | $(PY)
	$(PIP) install --quiet -e '.[test,check]'
	touch $@

setup: $(VENV)/.setup-done

setup-test: $(VENV)/.setup-done $(VENV)/.test-done

run: setup
	$(MSM) scan examples/resnet_torch

lint: setup-test
	$(VENV)/bin/ruff check server tests benchmarks
	$(MSM) dev generate --check

test-python: setup-test
	$(PY) -m pytest -q -n 2

test-node:
	@if [ -f client-vscode/package.json ] && command -v npm >/dev/null; then \
		npm install --no-audit --no-fund --silent && npm test --workspaces --if-present; \
	else echo "node client not present; skipping"; fi

test: lint test-python test-node

# VS Code extension in code-server + headless Chromium (the first run installs chromium, libkrb5-dev,
# Node 24 and code-server under ~/.cache/msmigrate-e2e); screenshots land in test-output/e2e/.
test-e2e: setup
	bash client-vscode/e2e/run.sh

data: setup-test
	$(MSM) data build --sources ../shared/mapping_sources

inventory: setup-test
	$(MSM) data inventory

bench: setup-test
	$(PY) benchmarks/scan_bench.py examples/resnet_torch
	$(PY) benchmarks/lsp_latency.py --shape blocks
	$(PY) benchmarks/lsp_latency.py --shape chain

clean:
	rm -rf $(VENV) build dist *.egg-info node_modules
