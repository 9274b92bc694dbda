# test/aten/test_fused_multiply_add.py - add(alpha=), addcmul and lerp round once, as PyTorch's CPU kernels.
# Mirrors the FMA behaviour of PyTorch's vectorized CPU kernels (at::vec::fmadd). Guide: docs/source/internals/tensor_iterator.rst.
#
# float32 a*b + c computed in float64 and rounded once to float32 is the fused result (the
# float64 product of two float32 values is exact); two float32 roundings differ from it in
# about one element of five, so these comparisons can fail.
import numpy as np
import torch


def f64(t):
    return t.numpy().astype(np.float64)


def test_add_with_alpha_is_one_fused_multiply_add():
    torch.manual_seed(0)
    a, b = torch.randn(10000), torch.randn(10000)
    expected = (f64(a) + np.float64(np.float32(0.3)) * f64(b)).astype(np.float32)
    np.testing.assert_array_equal(torch.add(a, b, alpha=0.3).numpy(), expected)
    np.testing.assert_array_equal(torch.sub(a, b, alpha=0.3).numpy(),
                                  (f64(a) - np.float64(np.float32(0.3)) * f64(b)).astype(np.float32))


def test_addcmul_rounds_its_last_multiply_add_once():
    torch.manual_seed(1)
    a, b, c = torch.randn(10000), torch.randn(10000), torch.randn(10000)
    t = np.float32(0.7) * b.numpy()  # value * t1, rounded (as PyTorch computes it)
    expected = (f64(a) + t.astype(np.float64) * f64(c)).astype(np.float32)
    np.testing.assert_array_equal(torch.addcmul(a, b, c, value=0.7).numpy(), expected)


def test_lerp_branches_are_fused():
    torch.manual_seed(2)
    a, b = torch.randn(10000), torch.randn(10000)
    diff = (b.numpy() - a.numpy()).astype(np.float64)  # end - self, rounded in float32 first
    small = (f64(a) + np.float64(np.float32(0.3)) * diff).astype(np.float32)
    large = (f64(b) - diff * np.float64(np.float32(1) - np.float32(0.8))).astype(np.float32)
    np.testing.assert_array_equal(torch.lerp(a, b, 0.3).numpy(), small)
    np.testing.assert_array_equal(torch.lerp(a, b, 0.8).numpy(), large)
