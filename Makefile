# Makefile - the front door. `make tour` and `make test` work on a fresh Debian machine with
# Python 3.11: they make .venv, install the Python requirements and (as root) the Debian
# packages, build, then run. Guide: docs/source/internals/building.rst.
#
#   make tour    build, then walk through the layers (python -m torch.tour)
#   make test    build, then every layer's tests: the guides' doctests, CTest (C++), pytest
#   make build   incremental build (pip install -e . the first time, Ninja afterwards)
#   make debug   the same build with DEBUG=1 (-O0 -g3), for gdb
#   make docs    the Sphinx guides (+ Doxygen C++ reference), warnings are errors
#   make clean   remove every build output

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed
# What the build, the tests and the docs use from Debian.
DEB_PACKAGES := g++ make libgtest-dev libopenblas-dev doxygen graphviz gdb
JOBS ?= $(shell nproc)

.PHONY: all tour test build debug docs clean deps venv test-cpp test-python test-docs

all: build

venv: $(STAMP)

$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	@touch $@

# Install missing Debian packages when root; otherwise print the command and stop.
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian packages:" $$missing; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	  else \
	    echo "These Debian packages are missing. Install them, then run make again:"; \
	    echo "  sudo apt-get install -y $$missing"; exit 1; \
	  fi; \
	fi

# CMake/Ninja (re)build what changed, printing the configure summary when it configures;
# the first time, the package is then installed in editable mode (setup.py's build_ext
# runs the same CMake build, which has nothing left to do).
build: venv deps
	MAX_JOBS=$(JOBS) $(PY) -m tools.setup_helpers.cmake
	@if [ ! -f build/.pip-installed ]; then \
	  $(PY) -m pip install -e . --no-build-isolation -q && touch build/.pip-installed; \
	fi

debug:
	DEBUG=1 $(MAKE) build

tour: build
	$(PY) -m torch.tour

test-cpp: build
	cd build && ctest --output-on-failure -j $(JOBS)

test-python: build
	$(PY) -m pytest test

# The guides' examples are tests too: a guide that no longer matches the code fails here.
test-docs: build
	cd docs && doxygen Doxyfile > /dev/null
	$(PY) -m sphinx -W --keep-going -q -b doctest docs/source docs/build/doctest
	@grep -A4 "^Doctest summary" docs/build/doctest/output.txt

test: build test-docs
	cd build && ctest --output-on-failure -j $(JOBS)
	$(PY) -m pytest test

docs: build
	cd docs && doxygen Doxyfile > /dev/null
	$(PY) -m sphinx -W --keep-going -q -b html docs/source docs/build/html
	$(PY) -m sphinx -W --keep-going -q -b doctest docs/source docs/build/doctest

clean:
	rm -rf build docs/build docs/doxygen torch/lib torch/_C*.so compile_commands.json *.egg-info
