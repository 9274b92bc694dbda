"""test/cuda_testing.py - what the CUDA test files share: readable ids, numpy copies, and the
comparison of a CUDA result with its CPU twin. Plays the part of PyTorch's
torch/testing/_internal/common_cuda.py and assertEqual for these tests.
Guide: docs/source/internals/cuda_simulated_device.rst.
"""

import numpy as np

import torch


def _id(value):
    """Readable test ids: float16 rather than dtype2."""
    return str(value).replace("torch.", "") if isinstance(value, torch.dtype) else None


def as_numpy(t):
    """A CPU copy of t as a numpy array (bfloat16, which numpy lacks, widened exactly to float32)."""
    t = t.cpu()
    if t.dtype == torch.bfloat16:
        t = t.float()
    return t.numpy()


def assert_same(got, want, rtol=0.0, atol=0.0, device=None):
    """got lives on a CUDA device (`device`, when given) and equals the CPU tensor want: dtype,
    shape and values, exactly unless a tolerance is given; NaN equals NaN."""
    assert got.is_cuda, got.device
    if device is not None:
        assert str(got.device) == device, got.device
    assert want.device.type == "cpu"
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert tuple(got.shape) == tuple(want.shape), (tuple(got.shape), tuple(want.shape))
    g, w = as_numpy(got), as_numpy(want)
    if rtol == 0.0 and atol == 0.0:
        np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
