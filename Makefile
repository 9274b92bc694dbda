# Makefile - the front door. `make tour` and `make test` work on a fresh Debian machine with
# Python 3.11: they make .venv, install the Python requirements and (as root) the Debian
# packages, build, then run. Guide: docs/source/internals/building.rst.
#
#   make tour    build, then walk through the layers (python -m torch.tour)
#   make test    build, then every layer's tests: the guides' doctests, CTest (C++), pytest
#   make build   incremental build (pip install -e . the first time, Ninja afterwards)
#   make debug   the same build with DEBUG=1 (-O0 -g3), for gdb
#   make docs    the Sphinx guides (+ Doxygen C++ reference), warnings are errors
#   make lint    ruff over the Python (rules in pyproject.toml)
#   make clean   remove every build output
#   make test-asan        a second build, build-asan/, with ASan + UBSan; all its tests under them
#   make test-asan-smoke  the same build, bounded for CI: c10/ATen C++ tests, a few Python files

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed
# What the build, the tests and the docs use from Debian.
DEB_PACKAGES := g++ make libgtest-dev libopenblas-dev libopenblas-openmp-dev libdnnl-dev doxygen graphviz gdb
JOBS ?= $(shell nproc)

.PHONY: all tour test build debug docs lint clean deps venv test-cpp test-python test-docs
.PHONY: build-asan build-asan-smoke test-asan test-asan-smoke clean-asan

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
# One CUDA architecture for the kernels nvcc compiles (sm_75 code plus its PTX, which a newer
# GPU compiles for itself at load time): half the nvcc time of the default 75 + 90. Set
# CMAKE_CUDA_ARCHITECTURES="75 90" (or 90) for a build meant for one GPU only.
CMAKE_CUDA_ARCHITECTURES ?= 75
export CMAKE_CUDA_ARCHITECTURES

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

# The CUDA tests run twice: as the machine is (skipped without a GPU), and on two simulated
# CUDA devices (TORCH_CUDA_SIMULATE=2, c10/cuda/impl/sim), where every one of them runs.
SIM_PYTEST := TORCH_CUDA_SIMULATE=2 $(PY) -m pytest test/cuda test/c10

test-python: build
	$(PY) -m pytest test
	$(SIM_PYTEST)

# The guides' examples are tests too: a guide that no longer matches the code fails here.
test-docs: build
	cd docs && doxygen Doxyfile > /dev/null
	$(PY) -m sphinx -W --keep-going -q -b doctest docs/source docs/build/doctest
	@grep -A4 "^Doctest summary" docs/build/doctest/output.txt

test: build test-docs
	cd build && ctest --output-on-failure -j $(JOBS)
	$(PY) -m pytest test
	$(SIM_PYTEST)

# ruff over every Python file, with the rules in pyproject.toml ([tool.ruff]); .ci/run runs it first.
lint: venv
	$(PY) -m ruff check .

docs: build
	cd docs && doxygen Doxyfile > /dev/null
	$(PY) -m sphinx -W --keep-going -q -b html docs/source docs/build/html
	$(PY) -m sphinx -W --keep-going -q -b doctest docs/source docs/build/doctest

clean:
	rm -rf build docs/build docs/doxygen torch/lib torch/share torch/_C*.so compile_commands.json *.egg-info

# ---- Sanitizers (guide: building.rst, "Sanitizers") ----
# A second build tree, build-asan/, compiled with AddressSanitizer + UndefinedBehaviorSanitizer
# (USE_ASAN/USE_UBSAN, cmake/Sanitizers.cmake). It builds its own copy of the package,
# build-asan/python/torch (lib/, _C*.so, and links to the .py files), so build/, torch/lib and
# torch/_C*.so stay as `make build` left them. No Debian package beyond `deps`: g++ brings
# the sanitizer runtimes (libasan, libubsan). CPU only, RelWithDebInfo (-g: file:line in
# every report); cmake/Sanitizers.cmake lowers the optimisation to -O1.
ASAN_BUILD := build-asan
ASAN_PYTHONPATH := $(CURDIR)/$(ASAN_BUILD)/python
ASAN_LOGS := $(CURDIR)/$(ASAN_BUILD)/sanitizer-logs
ASAN_CMAKE_ARGS := -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPython_EXECUTABLE=$(CURDIR)/$(PY) \
  -DUSE_CUDA=OFF -DUSE_ASAN=ON -DUSE_UBSAN=ON -DTORCH_PACKAGE_DIR=$(ASAN_PYTHONPATH)/torch
# The smoke build: the libraries, torch._C and the c10 and ATen test binaries only.
ASAN_SMOKE_TARGETS := c10 torch_cpu _C \
  $(patsubst %.cpp,c10_%,$(notdir $(shell find c10/test -name '*_test.cpp'))) \
  $(patsubst %.cpp,aten_%,$(notdir $(wildcard aten/src/ATen/test/*_test.cpp)))
ASAN_SMOKE_PYTHON := test/c10 test/aten/test_factories.py test/autograd/test_autograd.py
# Python tests that cannot run under the sanitizers, whatever the code does: gdb cannot trace
# a process that runs ASan, and the stack-trace test starts `python -c "import torch"` with
# an environment of PATH alone, so without the LD_PRELOAD that the sanitized torch needs.
# (--deselect takes the test's id relative to the repository root, pytest's rootdir.)
ASAN_PYTEST_SKIP := --ignore=$(CURDIR)/test/c10/test_debugger.py \
  --ignore=$(CURDIR)/test/th/test_finding_thstorage_gdb.py \
  --deselect=test/c10/test_allocator.py::test_errors_carry_the_cpp_stack_only_on_request
# The sanitizers' settings, for the C++ tests and for Python. check_initialization_order:
# a static initializer that reads another file's global before that one is initialized
# is reported (the registries that fill at load time). allocator_may_return_null: an
# allocation too big to serve returns NULL, as malloc does, so the tests of PyTorch's "can't
# allocate memory" error see that error rather than ASan's allocation-size-too-big report;
# max_allocation_size_mb makes that the fate of anything over 6 GiB (the fuzzer's cap without ASan).
ASAN_ENV := ASAN_OPTIONS=check_initialization_order=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1
# How Python runs the sanitized package. python itself is not built with ASan, so its
# runtime must be loaded first, by LD_PRELOAD; libstdc++ with it, so that ASan finds the
# C++ runtime's __cxa_throw when it starts (else the first C++ exception stops the process).
# PYTHONMALLOC=malloc sends every Python object through malloc, where ASan sees it: a
# missing Py_INCREF in torch/csrc becomes a use-after-free report. Leaks are checked
# (LeakSanitizer) with CPython's own left-overs suppressed (tools/sanitizers/lsan.supp).
# pytest captures the tests' stderr and a sanitizer report ends the process, so reports go
# to files in build-asan/sanitizer-logs (printed after the run), and abort_on_error lets
# Python's faulthandler print which test was running. pytest runs from build-asan/python,
# so that the tests' `python -c` and `python -m torch.tour` import the sanitized torch
# too (the repository root comes second on PYTHONPATH, for tools/), and without its cache
# plugin, which would write the normal runs' .pytest_cache. tools/sanitizers/fork_quiesce.py
# holds each fork until the other threads are asleep: GCC 12's ASan allocator takes no lock
# around fork, and a worker forked while another thread is inside it never gets the lock.
# intercept_tls_get_addr=0: GCC 12's sanitizer runtime takes a dynamic TLS block (torch._C's
# thread_locals, dlopen'ed) whose address lands 16 bytes into a page for glibc 2.19's header and
# reads two words of the block as a range to scan, so LeakSanitizer's tracer crashed at exit in
# about one run in ten ("Tracer caught signal 11"). Off, those blocks are not scanned as roots.
ASAN_PYTEST = rm -rf $(ASAN_LOGS) && mkdir -p $(ASAN_LOGS) && cd $(ASAN_PYTHONPATH) && \
  env LD_PRELOAD="$$($(CXX) -print-file-name=libasan.so) $$($(CXX) -print-file-name=libstdc++.so)" \
  PYTHONMALLOC=malloc PYTHONPATH=$(ASAN_PYTHONPATH):$(CURDIR) \
  ASAN_OPTIONS=check_initialization_order=1:allocator_may_return_null=1:max_allocation_size_mb=6144:abort_on_error=1:intercept_tls_get_addr=0:log_path=$(ASAN_LOGS)/asan \
  LSAN_OPTIONS=suppressions=$(CURDIR)/tools/sanitizers/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=print_stacktrace=1:abort_on_error=1:log_path=$(ASAN_LOGS)/ubsan \
  $(CURDIR)/$(PY) -m pytest -p no:cacheprovider -p tools.sanitizers.fork_quiesce $(ASAN_PYTEST_SKIP)
# After pytest: print every report written, and fail if there is one.
# A file that only says "WARNING: AddressSanitizer failed to allocate" is ASan's note of an
# allocation it refused (allocator_may_return_null), which the test expected: not a report.
ASAN_REPORT = status=$$?; for f in $(ASAN_LOGS)/*; do test -f "$$f" || continue; \
  if ! grep -qv 'WARNING: AddressSanitizer failed to allocate' "$$f"; then continue; fi; \
  echo "==== sanitizer report $$f"; cat "$$f"; status=1; done; exit $$status

# Configure (CMake keeps what is already configured) and build all of build-asan.
build-asan: venv deps
	cmake -S . -B $(ASAN_BUILD) $(ASAN_CMAKE_ARGS)
	cmake --build $(ASAN_BUILD) -- -j $(JOBS)

build-asan-smoke: venv deps
	cmake -S . -B $(ASAN_BUILD) $(ASAN_CMAKE_ARGS)
	cmake --build $(ASAN_BUILD) --target $(ASAN_SMOKE_TARGETS) -- -j $(JOBS)

# Everything: every C++ test, then the whole Python suite, under the sanitizers.
test-asan: build-asan
	cd $(ASAN_BUILD) && $(ASAN_ENV) ctest --output-on-failure -j $(JOBS)
	$(ASAN_PYTEST) $(CURDIR)/test; $(ASAN_REPORT)

# What CI runs after `make test` (.ci/run): c10's and ATen's C++ tests and a few Python files.
test-asan-smoke: build-asan-smoke
	cd $(ASAN_BUILD) && $(ASAN_ENV) ctest --output-on-failure -j $(JOBS) -R '^(c10|aten)\.'
	$(ASAN_PYTEST) $(addprefix $(CURDIR)/,$(ASAN_SMOKE_PYTHON)); $(ASAN_REPORT)

clean-asan:
	rm -rf $(ASAN_BUILD)
