"""Tests of the thread settings (aten/src/ATen/Parallel.cpp): torch.set_num_threads also sizes
OpenBLAS's own thread pool, and results do not depend on the thread count where PyTorch's do not.
Guide: docs/source/internals/performance.rst.
"""
import ctypes
import ctypes.util
import os

import numpy as np
import pytest

import torch


def _openblas():
    # The OpenBLAS that torch/_C links is already loaded: dlopen by its soname returns it.
    for name in ("libopenblas.so.0", ctypes.util.find_library("openblas")):
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name, mode=os.RTLD_NOLOAD)
        except OSError:
            continue
        if hasattr(lib, "openblas_get_num_threads"):
            return lib
    return None


@pytest.fixture
def restore_threads():
    old = torch.get_num_threads()
    yield
    torch.set_num_threads(old)


def test_set_num_threads_sizes_openblas(restore_threads):
    lib = _openblas()
    if lib is None:
        pytest.skip("this build's BLAS is not OpenBLAS (or no BLAS)")
    for n in (1, 2, 3):
        torch.set_num_threads(n)
        assert torch.get_num_threads() == n
        assert lib.openblas_get_num_threads() == n


def test_set_num_threads_rejects_nonpositive(restore_threads):
    with pytest.raises(RuntimeError, match="set_num_threads expects a positive integer"):
        torch.set_num_threads(0)


@pytest.mark.parametrize("n", [64, 300])
def test_matmul_same_values_at_one_and_two_threads(restore_threads, n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    results = []
    for threads in (1, 2):
        torch.set_num_threads(threads)
        results.append(torch.from_numpy(a) @ torch.from_numpy(b).t())
    np.testing.assert_allclose(results[0].numpy(), a @ b.T, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(results[1].numpy(), a @ b.T, rtol=1e-4, atol=1e-4)
