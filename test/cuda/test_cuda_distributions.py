"""random_, randint, bernoulli_ and dropout on CUDA tensors: ranges, frequencies, seeds, and
the device-side check of bernoulli's probabilities.

Mirrors PyTorch's test/test_cuda.py (RNG reproducibility), test/test_tensor_creation_ops.py
(random_ bounds on each dtype) and test/test_nn.py (test_Dropout on CUDA, native_dropout).
Guide: docs/source/internals/cuda_simulated_device.rst. Kernels:
aten/src/ATen/native/cuda/Distributions.cu and Dropout.cu (Philox in each thread), so the values
differ from the CPU's for a seed; the tests check the laws and the bookkeeping instead.

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_distributions.py
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from cuda_testing import _id

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")


INT_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]


@pytest.mark.parametrize("dtype", INT_DTYPES + [torch.float32, torch.float64, torch.float16], ids=_id)
def test_random_from_to_stays_in_range_and_covers_it(dtype):
    t = torch.empty(20_000, dtype=dtype, device="cuda").random_(3, 10)
    assert t.is_cuda and t.dtype == dtype
    values = t.cpu().to(torch.int64)
    assert values.min().item() == 3 and values.max().item() == 9
    counts = np.bincount(values.numpy() - 3, minlength=7)
    # 7 values, 20000 draws: each ~2857 +- 50; a tenth either way is far outside chance.
    assert counts.min() > 2500 and counts.max() < 3200, counts


def test_random_without_bounds_uses_the_dtypes_range():
    t = torch.empty(10_000, dtype=torch.uint8, device="cuda").random_()
    assert t.max().item() > 240 and t.min().item() < 15
    b = torch.empty(1000, dtype=torch.bool, device="cuda").random_()
    assert 300 < b.sum().item() < 700
    big = torch.empty(4000, dtype=torch.int64, device="cuda").random_()
    # 63 random bits: most values are far above 2**32 (the 64-bit path, two numbers each).
    assert (big.cpu() > 2**40).float().mean().item() > 0.99
    assert big.min().item() >= 0


def test_random_64_bit_range():
    lo, hi = -(2**40), 2**40
    t = torch.empty(5000, dtype=torch.int64, device="cuda").random_(lo, hi)
    v = t.cpu()
    assert v.min().item() >= lo and v.max().item() < hi
    assert v.min().item() < -(2**38) and v.max().item() > 2**38


def test_randint_on_cuda_and_errors_match_cpu():
    t = torch.randint(-4, 4, (3, 1000), device="cuda")
    assert t.is_cuda and t.dtype == torch.int64 and tuple(t.shape) == (3, 1000)
    assert t.min().item() == -4 and t.max().item() == 3
    like = torch.randint_like(t, 2)
    assert like.is_cuda and set(like.cpu().unique().tolist()) == {0, 1}
    with pytest.raises(RuntimeError, match="random_ expects 'from' to be less than 'to', but got from=5 >= to=5"):
        torch.empty(3, device="cuda").random_(5, 5)
    with pytest.raises(RuntimeError, match="from is out of bounds for"):
        torch.empty(3, dtype=torch.uint8, device="cuda").random_(-1, 10)


def test_random_on_noncontiguous_cuda_tensor_fills_only_the_view():
    base = torch.zeros(6, 8, device="cuda")
    view = base[:, ::2]
    view.random_(1, 5)
    host = base.cpu()
    assert bool((host[:, 1::2] == 0).all())
    assert bool(((host[:, ::2] >= 1) & (host[:, ::2] <= 4)).all())


def test_cuda_seed_reproduces_and_advances():
    torch.cuda.manual_seed(123)
    a = torch.empty(1000, dtype=torch.int32, device="cuda").random_(0, 1000)
    b = torch.empty(1000, device="cuda").bernoulli_(0.5)
    torch.cuda.manual_seed(123)
    a2 = torch.empty(1000, dtype=torch.int32, device="cuda").random_(0, 1000)
    b2 = torch.empty(1000, device="cuda").bernoulli_(0.5)
    assert torch.equal(a.cpu(), a2.cpu()) and torch.equal(b.cpu(), b2.cpu())
    c = torch.empty(1000, dtype=torch.int32, device="cuda").random_(0, 1000)
    assert not torch.equal(a.cpu(), c.cpu())  # the offset moved past the first draws
    g = torch.Generator(device="cuda")
    g.manual_seed(5)
    x = torch.empty(100, device="cuda").bernoulli_(0.5, generator=g)
    g.manual_seed(5)
    y = torch.empty(100, device="cuda").bernoulli_(0.5, generator=g)
    assert torch.equal(x.cpu(), y.cpu())


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bool, torch.int64], ids=_id)
def test_bernoulli_scalar_frequency(dtype):
    t = torch.empty(100_000, dtype=dtype, device="cuda").bernoulli_(0.3)
    assert t.dtype == dtype
    v = t.cpu().to(torch.float64)
    assert set(v.unique().tolist()) == {0.0, 1.0}
    assert abs(v.mean().item() - 0.3) < 0.01


def test_bernoulli_tensor_p_on_cuda_follows_each_probability():
    p = torch.tensor([0.0, 0.1, 0.5, 0.9, 1.0], device="cuda").repeat(20_000, 1)
    out = torch.bernoulli(p)
    assert out.is_cuda and out.dtype == torch.float32
    freq = out.cpu().mean(0).tolist()
    assert freq[0] == 0.0 and freq[4] == 1.0
    for got, want in zip(freq[1:4], [0.1, 0.5, 0.9]):
        assert abs(got - want) < 0.015
    # p on the CPU, self on the device: p is moved, as in PyTorch.
    s = torch.empty(5, device="cuda").bernoulli_(torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0]))
    assert s.cpu().tolist() == [1.0, 0.0, 1.0, 0.0, 1.0]
    d = torch.bernoulli(torch.full((4,), 0.5, dtype=torch.float64, device="cuda"))
    assert d.dtype == torch.float64


def test_bernoulli_errors_on_cuda():
    with pytest.raises(RuntimeError, match=r"bernoulli_ expects p to be in \[0, 1\], but got p=2"):
        torch.empty(3, device="cuda").bernoulli_(2.0)


def test_bernoulli_probability_out_of_range_is_a_device_side_assert():
    # Checked in the kernel, as PyTorch's CUDA kernel does: the error surfaces at the next
    # synchronizing call and is sticky, so it runs in a process of its own.
    program = (
        "import torch\n"
        "p = torch.tensor([0.5, 1.5], device='cuda')\n"
        "try:\n"
        "    torch.bernoulli(p).cpu()\n"
        "except RuntimeError as e:\n"
        "    print('RuntimeError', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", program], env=dict(os.environ), capture_output=True, text=True,
                         timeout=120)
    assert "RuntimeError CUDA error: device-side assert triggered" in out.stdout, out.stdout + out.stderr


def test_dropout_on_cuda_uses_the_fused_kernel():
    x = torch.randn(4000, device="cuda", requires_grad=True)
    torch.cuda.manual_seed(9)
    y = F.dropout(x, 0.25, training=True)
    assert y.is_cuda
    assert type(y.grad_fn).__name__ == "NativeDropoutBackward0"
    kept = (y != 0).cpu()
    assert abs(kept.float().mean().item() - 0.75) < 0.03
    np.testing.assert_allclose(y.detach().cpu()[kept].numpy(), (x.detach().cpu()[kept] / 0.75).numpy(), rtol=1e-6)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.cpu().numpy(), (kept.float() / 0.75).numpy(), rtol=1e-6)
    # The same seed gives the same mask.
    torch.cuda.manual_seed(9)
    y2 = F.dropout(x.detach(), 0.25, training=True)
    assert torch.equal(y2.cpu(), y.detach().cpu())


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16], ids=_id)
def test_native_dropout_on_cuda_matches_its_mask(dtype):
    x = torch.randn(3, 257, dtype=dtype, device="cuda")
    out, mask = torch.native_dropout(x, 0.5, True)
    assert out.dtype == dtype and mask.dtype == torch.bool and mask.is_cuda
    want = x.cpu().float() * mask.cpu().float() * 2.0
    np.testing.assert_allclose(out.cpu().float().numpy(), want.numpy(), rtol=1e-2 if dtype != torch.float64 else 0)
    out_eval, mask_eval = torch.native_dropout(x, 0.5, False)
    assert torch.equal(out_eval.cpu(), x.cpu()) and bool(mask_eval.all())


def test_dropout_on_cuda_corner_cases():
    x = torch.randn(10, device="cuda")
    assert torch.equal(F.dropout(x, 1.0, training=True).cpu(), torch.zeros(10))
    assert F.dropout(x, 0.5, training=False) is x
    empty = torch.empty(0, 3, device="cuda")
    assert tuple(F.dropout(empty, 0.5).shape) == (0, 3)
    # A non-contiguous input gives a result of its shape.
    t = torch.randn(8, 6, device="cuda").t()
    assert tuple(F.dropout(t, 0.5).shape) == (6, 8)


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128], ids=_id)
def test_complex_rand_and_randn_on_cuda(dtype):
    z = torch.randn(50_000, dtype=dtype, device="cuda")
    assert z.is_cuda and z.dtype == dtype
    parts = z.cpu().numpy()
    # Each part a normal of std 1/sqrt(2): |z|^2 has mean 1.
    assert abs(parts.real.std() - 0.5 ** 0.5) < 0.01 and abs(parts.imag.std() - 0.5 ** 0.5) < 0.01
    assert abs((np.abs(parts) ** 2).mean() - 1.0) < 0.03
    u = torch.rand(50_000, dtype=dtype, device="cuda").cpu().numpy()
    for p in (u.real, u.imag):
        assert p.min() >= 0 and p.max() < 1 and abs(p.mean() - 0.5) < 0.01
    # A transposed complex tensor: every element is filled.
    t = torch.zeros(40, 30, dtype=dtype, device="cuda").t()
    t.normal_()
    assert (t.cpu().numpy() != 0).all()
