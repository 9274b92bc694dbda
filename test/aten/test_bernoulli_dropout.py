"""bernoulli_, torch.bernoulli and dropout on the CPU: the values a seed gives, the arguments
PyTorch refuses, and the gradients.

Mirrors PyTorch's test/test_torch.py (test_bernoulli_*), test/test_nn.py (test_Dropout,
test_native_dropout_corner_case) and test/test_autograd.py (bernoulli's zero gradient).
Guide: docs/source/internals/cuda_simulated_device.rst (random numbers on the device); the CPU
kernels are in aten/src/ATen/native/Distributions.cpp and Dropout.cpp.

How the values are checked: PyTorch's CPU kernels draw one uniform per element, in memory
order, from the generator that torch.rand uses (a double for a number p, a uniform of p's
precision for a tensor of p). So with the same seed, bernoulli_(p) must equal rand(...) < p,
element for element; rand itself is checked against PyTorch's values in
test/aten/test_ranges_random.py.
"""

import numpy as np
import pytest

import torch
import torch.nn.functional as F


def test_bernoulli_scalar_p_is_a_double_uniform_below_p():
    torch.manual_seed(7)
    got = torch.empty(1000).bernoulli_(0.3)
    torch.manual_seed(7)
    want = (torch.rand(1000, dtype=torch.float64) < 0.3).float()
    assert got.dtype == torch.float32
    assert torch.equal(got, want)


def test_bernoulli_tensor_p_draws_uniforms_of_p_precision():
    p = torch.linspace(0, 1, 257)
    torch.manual_seed(3)
    got = torch.bernoulli(p)
    torch.manual_seed(3)
    want = (torch.rand(257) < p).float()
    assert torch.equal(got, want)
    p64 = p.double()
    torch.manual_seed(3)
    got64 = torch.bernoulli(p64)
    torch.manual_seed(3)
    assert got64.dtype == torch.float64
    assert torch.equal(got64, (torch.rand(257, dtype=torch.float64) < p64).double())


def test_bernoulli_extremes_and_dtypes():
    assert torch.bernoulli(torch.zeros(100)).sum().item() == 0
    assert torch.bernoulli(torch.ones(100)).sum().item() == 100
    for dtype in (torch.bool, torch.uint8, torch.int64, torch.float16, torch.bfloat16, torch.float64):
        t = torch.empty(500, dtype=dtype).bernoulli_(0.5)
        assert t.dtype == dtype
        assert set(t.to(torch.int64).unique().tolist()) <= {0, 1}
    # An int tensor filled from float probabilities (self any dtype, p floating).
    t = torch.empty(3, dtype=torch.int64).bernoulli_(torch.tensor([0.0, 1.0, 1.0]))
    assert t.tolist() == [0, 1, 1]


def test_bernoulli_frequency_is_p():
    torch.manual_seed(0)
    t = torch.empty(200_000).bernoulli_(0.25)
    # Binomial standard deviation: sqrt(p (1 - p) / n) ~ 0.001; six of them.
    assert abs(t.mean().item() - 0.25) < 0.006


def test_bernoulli_broadcasts_p_to_self_on_noncontiguous_self():
    base = torch.zeros(4, 6)
    view = base.t()  # 6 x 4, not contiguous
    view.bernoulli_(torch.tensor([0.0, 1.0, 0.0, 1.0]))
    assert view.tolist() == [[0.0, 1.0, 0.0, 1.0]] * 6


def test_bernoulli_errors_are_pytorchs():
    with pytest.raises(RuntimeError, match=r"bernoulli_ expects p to be in \[0, 1\], but got p=1.5"):
        torch.empty(3).bernoulli_(1.5)
    with pytest.raises(RuntimeError, match=r"bernoulli_ expects p to be in \[0, 1\], but got p=-0.1"):
        torch.bernoulli(torch.rand(3), p=-0.1)
    with pytest.raises(RuntimeError, match=r"Expected p_in >= 0 && p_in <= 1 to be true, but got false"):
        torch.bernoulli(torch.tensor([0.5, 1.5]))
    with pytest.raises(NotImplementedError, match="\"bernoulli_tensor_cpu_p_\" not implemented for 'Long'"):
        torch.bernoulli(torch.tensor([1, 0]))
    with pytest.raises(RuntimeError, match=r"The expanded size of the tensor \(3\) must match the existing size \(4\)"):
        torch.empty(3).bernoulli_(torch.rand(4))


def test_bernoulli_gives_a_zero_gradient():
    p = torch.rand(5, requires_grad=True)
    out = torch.bernoulli(p)
    assert out.requires_grad
    assert type(out.grad_fn).__name__ == "BernoulliBackward0"
    out.sum().backward()
    assert torch.equal(p.grad, torch.zeros(5))


def test_dropout_is_input_times_bernoulli_noise_over_keep():
    x = torch.randn(64, 32)
    torch.manual_seed(11)
    got = F.dropout(x, 0.4, training=True)
    torch.manual_seed(11)
    keep = (torch.rand(64, 32, dtype=torch.float64) < 0.6).float()
    np.testing.assert_allclose(got.numpy(), (x * (keep / 0.6)).numpy(), rtol=1e-6)


def test_dropout_passes_through_when_not_training_or_p_zero_and_zeros_at_p_one():
    x = torch.randn(10)
    assert F.dropout(x, 0.5, training=False) is x
    assert F.dropout(x, 0.0, training=True) is x
    assert torch.equal(F.dropout(x, 1.0, training=True), torch.zeros(10))
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        F.dropout(x, 1.5)


def test_dropout_inplace_and_module():
    torch.manual_seed(5)
    x = torch.ones(1000)
    out = F.dropout(x, 0.5, training=True, inplace=True)
    assert out is x
    assert set(x.unique().tolist()) <= {0.0, 2.0}
    m = torch.nn.Dropout(0.2)
    m.eval()
    y = torch.randn(8)
    assert torch.equal(m(y), y)


def test_dropout_gradient_is_the_scaled_mask():
    x = torch.randn(200, requires_grad=True)
    torch.manual_seed(2)
    y = F.dropout(x, 0.3, training=True)
    y.backward(torch.ones(200))
    kept = y.detach() != 0
    np.testing.assert_allclose(x.grad.numpy(), (kept.float() / 0.7).numpy(), rtol=1e-6)


def test_native_dropout_returns_output_and_bool_mask():
    x = torch.randn(300)
    torch.manual_seed(4)
    out, mask = torch.native_dropout(x, 0.25, True)
    assert mask.dtype == torch.bool
    np.testing.assert_allclose(out.numpy(), (x * mask / 0.75).numpy(), rtol=1e-6)
    out_eval, mask_eval = torch.native_dropout(x, 0.25, False)
    assert torch.equal(out_eval, x) and bool(mask_eval.all())
    # p = 1 keeps nothing and scales by 0, not by 1 / 0.
    out1, mask1 = torch.native_dropout(x, 1.0, True)
    assert not bool(mask1.any()) and torch.equal(out1, torch.zeros(300))


def test_native_dropout_backward_and_its_gradient():
    x = torch.randn(50, requires_grad=True)
    out, mask = torch.native_dropout(x, 0.5, True)
    g = torch.randn(50)
    out.backward(g)
    np.testing.assert_allclose(x.grad.numpy(), (g * mask * 2.0).numpy(), rtol=1e-6)
    # Twice differentiable: the backward is linear in the incoming gradient.
    x2 = torch.randn(20, requires_grad=True)
    out2, mask2 = torch.native_dropout(x2, 0.5, True)
    g2 = torch.randn(20, requires_grad=True)
    (gx,) = torch.autograd.grad(out2, x2, g2, create_graph=True)
    (gg,) = torch.autograd.grad(gx.sum(), g2)
    np.testing.assert_allclose(gg.numpy(), (mask2.float() * 2.0).numpy(), rtol=1e-6)
