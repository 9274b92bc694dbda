"""test/cpp_extensions/conftest.py - what the extension tests share: one extensions directory
for the whole session (each extension is built once, however many tests use it), and the
LLTM example's module. Plays the part of PyTorch's test/cpp_extensions setup.
Guide: docs/source/internals/cpp_extensions.rst.
"""

import importlib.util
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LLTM_DIR = os.path.join(ROOT, "docs", "examples", "lltm")


@pytest.fixture(scope="session")
def extensions_dir(tmp_path_factory):
    """TORCH_EXTENSIONS_DIR for this session: every load() builds under it."""
    path = str(tmp_path_factory.mktemp("torch_extensions"))
    old = os.environ.get("TORCH_EXTENSIONS_DIR")
    os.environ["TORCH_EXTENSIONS_DIR"] = path
    yield path
    if old is None:
        os.environ.pop("TORCH_EXTENSIONS_DIR", None)
    else:
        os.environ["TORCH_EXTENSIONS_DIR"] = old


@pytest.fixture(scope="session")
def lltm(extensions_dir):
    """docs/examples/lltm/lltm.py, imported as a module."""
    spec = importlib.util.spec_from_file_location("lltm_example", os.path.join(LLTM_DIR, "lltm.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules["lltm_example"] = module
    spec.loader.exec_module(module)
    return module
