# test/aten/test_mkldnn_gemm.py - float matrix products through oneDNN's sgemm (USE_MKLDNN) and the
# torch.backends.mkldnn flags. Mirrors PyTorch's test/test_mkldnn.py (flags) and test/test_linalg.py.
# Guide: docs/source/internals/performance.rst ("Small matrix products").
import numpy as np
import pytest

import torch
from torch.testing._internal.common_utils import num_threads


def test_is_available_says_whether_onednn_is_linked():
    with open("/proc/self/maps") as f:
        linked = "libdnnl" in f.read()
    assert torch.backends.mkldnn.is_available() == linked


@pytest.mark.parametrize("m,k,n", [(16, 128, 512), (64, 784, 256), (1, 300, 7), (37, 1, 5), (129, 65, 1)])
@pytest.mark.parametrize("ta,tb", [(False, False), (False, True), (True, False), (True, True)])
def test_float_products_in_every_layout_match_numpy(m, k, n, ta, tb):
    rng = np.random.default_rng(m * 1000 + k + n)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    ta_ = torch.from_numpy(np.ascontiguousarray(a.T)).t() if ta else torch.from_numpy(a)
    tb_ = torch.from_numpy(np.ascontiguousarray(b.T)).t() if tb else torch.from_numpy(b)
    got = torch.mm(ta_, tb_)
    assert got.dtype == torch.float32 and got.is_contiguous()
    np.testing.assert_allclose(got.numpy(), a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4 * np.sqrt(k))


def test_addmm_alpha_beta_and_a_row_stride_wider_than_the_row():
    rng = np.random.default_rng(0)
    big = torch.from_numpy(rng.standard_normal((80, 90)).astype(np.float32))
    a, b = big[:33, 5:70], big[10:75, 40:60]  # rows 90 apart, 65 and 20 of them used
    c = torch.from_numpy(rng.standard_normal((33, 20)).astype(np.float32))
    got = torch.addmm(c, a, b, beta=0.5, alpha=-2.0)
    expected = 0.5 * c.double().numpy() - 2.0 * (a.double().numpy() @ b.double().numpy())
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-4, atol=1e-3)


def test_beta_zero_does_not_read_the_output():
    a, b = torch.ones(3, 4), torch.ones(4, 5)
    out = torch.full((3, 5), float("nan"))
    torch.addmm(out, a, b, beta=0, out=out)
    assert torch.equal(out, torch.full((3, 5), 4.0))


def test_products_inside_a_parallel_region_match():
    # bmm of many small float matrices: each product may run inside at::parallel_for.
    rng = np.random.default_rng(1)
    a = rng.standard_normal((64, 8, 16)).astype(np.float32)
    b = rng.standard_normal((64, 16, 8)).astype(np.float32)
    for threads in (1, 2):
        with num_threads(threads):
            got = torch.bmm(torch.from_numpy(a), torch.from_numpy(b)).numpy()
        np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


def test_flags_keep_pytorchs_defaults_and_checks():
    mkldnn = torch.backends.mkldnn
    assert (mkldnn.enabled, mkldnn.deterministic, mkldnn.allow_tf32) == (True, False, None)
    assert mkldnn.fp32_precision == "none" and mkldnn.matmul.fp32_precision == "none"
    with pytest.raises(RuntimeError, match="^set_enabled_mkldnn expects a bool, but got int$"):
        mkldnn.enabled = 1
    with pytest.raises(RuntimeError, match="^set_deterministic_mkldnn expects a bool, but got int$"):
        mkldnn.deterministic = 1
    with pytest.raises(RuntimeError, match="^_set_onednn_allow_tf32 expects a bool, but got int$"):
        mkldnn.allow_tf32 = 1
    with mkldnn.flags(enabled=False):
        assert mkldnn.enabled is False
    assert mkldnn.enabled is True
    mkldnn.rnn.fp32_precision = "tf32"  # PyTorch 2.13 accepts TF32 for oneDNN's RNNs
    try:
        assert mkldnn.rnn.fp32_precision == "tf32"
    finally:
        mkldnn.rnn.fp32_precision = "none"
    with pytest.raises(RuntimeError, match="^backend 'cuda' does not support precision 'bf16'$"):
        torch.backends.cuda.matmul.fp32_precision = "bf16"
