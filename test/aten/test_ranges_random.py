# test/aten/test_ranges_random.py - arange, linspace, eye and the *_like factories against numpy; torch.Generator,
# manual_seed and PyTorch's exact random values; statistics of rand/randn/randint; PyTorch's error texts.
# Mirrors PyTorch's test/test_tensor_creation_ops.py and test/test_random.py.
# Guide: docs/source/internals/one_call.rst (aten/src/ATen/native/RangeFactories.cpp, Distributions.cpp).
import numpy as np
import pytest

import torch


@pytest.mark.parametrize("args", [(5,), (2, 9), (10, 0, -3), (0, 1, 0.1), (1, 2.5, 0.5), (-3.5, 3.5, 0.7), (0, 0)])
def test_arange_matches_numpy(args):
    t = torch.arange(*args)
    expected_dtype = torch.int64 if all(isinstance(a, int) for a in args) else torch.float32
    assert t.dtype == expected_dtype
    np.testing.assert_allclose(t.numpy(), np.arange(*args).astype(t.numpy().dtype), rtol=1e-6, atol=1e-6)


def test_arange_dtype_and_out():
    assert torch.arange(5, dtype=torch.float64).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert torch.arange(0, 1, 0.25, dtype=torch.float64).tolist() == [0.0, 0.25, 0.5, 0.75]
    # PyTorch's values for float32 steps
    assert torch.arange(0, 1, 0.1).tolist()[:3] == [0.0, 0.10000000149011612, 0.20000000298023224]
    assert torch.arange(2.5).tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("start,end,steps", [(0, 1, 7), (-2, 5, 1), (3, -3, 13), (0, 10, 0), (0, 1, 2)])
def test_linspace_matches_numpy(start, end, steps):
    t = torch.linspace(start, end, steps)
    assert t.dtype == torch.float32 and t.shape == (steps,)
    np.testing.assert_allclose(t.numpy(), np.linspace(start, end, steps).astype(np.float32), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(torch.linspace(start, end, steps, dtype=torch.float64).numpy(),
                               np.linspace(start, end, steps), rtol=1e-12, atol=1e-12)


def test_linspace_pytorch_values():
    assert torch.linspace(0, 1, 7).tolist() == [0.0, 0.1666666716337204, 0.3333333432674408, 0.5,
                                                0.6666666269302368, 0.8333333134651184, 1.0]


@pytest.mark.parametrize("n,m", [(3, None), (2, 4), (4, 2), (0, 3), (1, 1)])
def test_eye_matches_numpy(n, m):
    t = torch.eye(n) if m is None else torch.eye(n, m)
    np.testing.assert_array_equal(t.numpy(), np.eye(n, m, dtype=np.float32))
    assert torch.eye(3, dtype=torch.int64).dtype == torch.int64


def test_like_factories():
    base = torch.empty(2, 3, dtype=torch.float64).t()
    for t, value in [(torch.zeros_like(base), 0), (torch.ones_like(base), 1), (torch.full_like(base, 7.5), 7.5)]:
        assert t.shape == (3, 2) and t.dtype == torch.float64 and t.stride() == base.stride()
        assert (t.numpy() == value).all()
    assert torch.zeros_like(base, dtype=torch.int32).dtype == torch.int32
    r = torch.rand_like(base)
    assert r.shape == (3, 2) and ((r.numpy() >= 0) & (r.numpy() < 1)).all()
    assert torch.randn_like(base).shape == (3, 2)
    ri = torch.randint_like(base, 10)
    assert ri.dtype == torch.float64 and ((ri.numpy() >= 0) & (ri.numpy() < 10)).all()
    ri = torch.randint_like(base, 3, 5)
    assert set(ri.numpy().ravel().tolist()) <= {3.0, 4.0}


# ---- exact values: PyTorch's mt19937 and recipes ----

def test_manual_seed_reproduces_pytorch_rand_and_randn():
    torch.manual_seed(0)
    assert torch.rand(3).tolist() == [0.49625658988952637, 0.7682217955589294, 0.08847743272781372]
    torch.manual_seed(0)
    assert torch.randn(3).tolist() == [1.5409960746765137, -0.293428897857666, -2.1787893772125244]
    torch.manual_seed(0)
    assert torch.rand(3, dtype=torch.float64).tolist() == [0.9700530018065531, 0.707819864399788, 0.45938294312745087]
    torch.manual_seed(0)
    assert torch.randn(3, dtype=torch.float64).tolist() == [1.5409961082440433, -0.2934289057609464,
                                                            -2.1787893820745574]
    torch.manual_seed(0)
    assert torch.randint(0, 10, (5,)).tolist() == [4, 9, 3, 0, 3]
    assert torch.randint(3, 10**12, (2,)).tolist() == [280911347523, 965060748493]
    torch.manual_seed(0)
    assert torch.rand(4, dtype=torch.float16).tolist() == [0.496337890625, 0.76806640625, 0.0885009765625,
                                                           0.132080078125]


def test_randn_large_uses_the_16_wide_box_muller():
    torch.manual_seed(0)
    a = torch.randn(20)
    np.testing.assert_allclose(a.narrow(0, 0, 4).numpy(), [-1.1258398294448853, -1.152360200881958, -0.2505785822868347,
                                               -0.4338788092136383], rtol=1e-5)


def test_seeds_are_reproducible_and_generators_independent():
    torch.manual_seed(123)
    a = torch.rand(5)
    torch.manual_seed(123)
    assert a.tolist() == torch.rand(5).tolist()
    g = torch.Generator().manual_seed(123)
    assert torch.rand(5, generator=g).tolist() == a.tolist()
    assert g.initial_seed() == 123 and torch.initial_seed() == 123
    state = g.get_state()
    assert state.dtype == torch.uint8
    x = torch.randn(7, generator=g).tolist()
    g.set_state(state)
    assert torch.randn(7, generator=g).tolist() == x
    s = torch.get_rng_state()
    y = torch.rand(3).tolist()
    torch.set_rng_state(s)
    assert torch.rand(3).tolist() == y
    assert torch.default_generator.initial_seed() == 123
    assert isinstance(g.seed(), int)


def test_inplace_fills_with_generator():
    g = torch.Generator().manual_seed(0)
    t = torch.empty(3).uniform_(generator=g)
    assert t.tolist() == [0.49625658988952637, 0.7682217955589294, 0.08847743272781372]
    u = torch.empty(1000, dtype=torch.float64).uniform_(-2, 3)
    assert u.numpy().min() >= -2 and u.numpy().max() < 3
    n = torch.empty(1000, dtype=torch.float64).normal_(5, 0.5)
    assert abs(n.numpy().mean() - 5) < 0.1


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16])
def test_statistics(dtype):
    torch.manual_seed(1)
    r = torch.rand(20000, dtype=dtype).to(torch.float64).numpy()
    # (half and bfloat16 round the float draw, so 1.0 itself can appear - as in PyTorch)
    assert r.min() >= 0 and r.max() <= (1 if dtype in (torch.float16, torch.bfloat16) else np.nextafter(1, 0))
    assert abs(r.mean() - 0.5) < 0.02 and abs(r.std() - 12 ** -0.5) < 0.02
    n = torch.randn(20000, dtype=dtype).to(torch.float64).numpy()
    assert abs(n.mean()) < 0.05 and abs(n.std() - 1) < 0.05
    n = torch.randn(100, 101, dtype=dtype).t().to(torch.float64).numpy()  # non-contiguous fills
    assert abs(n.mean()) < 0.1


def test_randint_range_and_dtype():
    r = torch.randint(-3, 4, (10000,))
    assert r.dtype == torch.int64 and set(r.numpy().tolist()) == set(range(-3, 4))
    assert torch.randint(5, (2, 3), dtype=torch.int32).dtype == torch.int32
    assert torch.rand(2, 3).shape == (2, 3) and torch.rand((2, 3)).shape == (2, 3)


ERRORS = [
    (lambda: torch.arange(0, 10, 0), "step must be nonzero"),
    (lambda: torch.arange(10, 0, 1), "upper bound and lower bound inconsistent with step sign"),
    (lambda: torch.arange(0, float("inf")), "unsupported range: 0 -> inf"),
    (lambda: torch.linspace(0, 1, -1), "number of steps must be non-negative"),
    (lambda: torch.eye(-1), "n must be greater or equal to 0, got -1"),
    (lambda: torch.eye(2, -3), "m must be greater or equal to 0, got -3"),
    (lambda: torch.randint(5, 5, (2,)), "random_ expects 'from' to be less than 'to', but got from=5 >= to=5"),
    (lambda: torch.empty(3).uniform_(1, 0), "uniform_ expects to return a [from, to) range, but found from=1 > to=0"),
    (lambda: torch.empty(3).normal_(0, -1), "normal expects std >= 0.0, but found std -1"),
]


@pytest.mark.parametrize("fn,message", ERRORS, ids=[m[:30] for _, m in ERRORS])
def test_error_texts_match_pytorch(fn, message):
    with pytest.raises(RuntimeError) as info:
        fn()
    assert str(info.value).split("\n")[0] == message


def test_rand_of_integer_dtype_is_not_implemented():
    with pytest.raises(NotImplementedError, match="\"check_uniform_bounds\" not implemented for 'Long'"):
        torch.rand(3, dtype=torch.int64)


def test_half_rand_that_rounds_up_to_one_becomes_zero():
    # 24 random bits rounded to Half can land on 1.0; PyTorch maps such a draw to `from` (0), so
    # torch.rand stays in [0, 1). Indices 337, 385 and 2885 are draws >= 1 - 2**-12 for seed 0.
    torch.manual_seed(0)
    f = torch.rand(3000)
    assert all(f[i].item() >= 1 - 2**-12 for i in (337, 385, 2885))
    torch.manual_seed(0)
    h = torch.rand(3000, dtype=torch.float16)
    assert [h[i].item() for i in (337, 385, 2885)] == [0.0, 0.0, 0.0] and h.max().item() < 1.0


def test_complex_rand_and_randn_fill_the_real_and_imaginary_parts_in_memory_order():
    # PyTorch fills view_as_real(self): rand gives each part a uniform, randn gives each part a
    # normal of std 1/sqrt(2) (so |z|^2 has mean 1), drawn in memory order.
    torch.manual_seed(0)
    z = torch.randn(3, dtype=torch.complex64).numpy()
    torch.manual_seed(0)
    parts = (torch.randn(6) / 2 ** 0.5).numpy()
    np.testing.assert_allclose(z.real, parts[0::2], rtol=1e-6)
    np.testing.assert_allclose(z.imag, parts[1::2], rtol=1e-6)
    torch.manual_seed(1)
    u = torch.rand(4, dtype=torch.complex128).numpy()
    torch.manual_seed(1)
    uparts = torch.rand(8, dtype=torch.float64).numpy()
    assert u.real.tolist() == uparts[0::2].tolist() and u.imag.tolist() == uparts[1::2].tolist()
    # A transposed tensor is filled in the order of its memory, not of its indices, one normal
    # at a time (not contiguous: no 16-at-a-time Box-Muller), as a strided real tensor is.
    torch.manual_seed(0)
    t = torch.empty(3, 4, dtype=torch.complex64).t()
    t.normal_()
    torch.manual_seed(0)
    serial = torch.empty(24, 2)[:, 0]
    serial.normal_()
    memory_order = t.t().numpy().reshape(-1)
    np.testing.assert_allclose(memory_order.real, serial.numpy()[0::2] / 2 ** 0.5, rtol=1e-6)
    np.testing.assert_allclose(memory_order.imag, serial.numpy()[1::2] / 2 ** 0.5, rtol=1e-6)
    big = torch.randn(100_000, dtype=torch.complex64).numpy()
    assert abs((np.abs(big) ** 2).mean() - 1.0) < 0.02
