# The whole set-up on a fresh machine is `make play` or `make test`: each brings .venv
# to exactly the versions pinned in requirements-dev.lock (with their hashes) when it is
# missing or older than the lock or pyproject.toml, then runs. See README, "Set-up".
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements-dev.lock
# uv installs the lock; it lives beside the environment, not in it, so that a sync to
# the lock (which removes whatever the lock does not name) cannot remove uv itself.
UV_VERSION := 0.13.9
UV_HOME := $(VENV)/.uv
UV := $(UV_HOME)/bin/uv

.PHONY: play test lint typecheck unit lock clean

# setup.py and the C source too: the editable install compiles the native sum in place.
# Bytecode is compiled at install time (the lock's packages and the project's own), so
# that every peer process starts without compiling, also where PYTHONDONTWRITEBYTECODE
# is set: 0.29 s for `lodam bot --help` against 0.45 s.
$(STAMP): pyproject.toml setup.py lodam_p2p/fairdeal/_msm.c lodam_p2p/fairdeal/_curve.h $(LOCK)
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	test -x $(UV_HOME)/bin/uv || $(BIN)/python -m pip install --quiet --target $(UV_HOME) uv==$(UV_VERSION)
	$(UV) pip sync --quiet --python $(BIN)/python --require-hashes --compile-bytecode $(LOCK)
	$(UV) pip install --quiet --python $(BIN)/python --no-deps -e .
	$(BIN)/python -m compileall -q lodam_p2p plugins
	touch $(STAMP)

# Re-resolve the pins to the newest releases pyproject.toml allows (needs the index).
lock: $(STAMP)
	$(UV) pip compile --quiet pyproject.toml --extra dev --universal --python-version 3.11 \
		--generate-hashes --upgrade -o $(LOCK)

play: $(STAMP)
	$(BIN)/lodam play

lint: $(STAMP)
	$(BIN)/ruff check lodam_p2p plugins tests protocol
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

test: lint typecheck unit

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
