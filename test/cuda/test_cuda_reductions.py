"""The CUDA reductions and scans, each checked against its CPU twin.

Mirrors PyTorch's test/test_reductions.py run on ``device="cuda"``: prod, mean, amax/amin,
max/min (whole tensor and along a dim, with indices), argmax/argmin, all/any, var/std and
their _mean forms, vector norms, cumsum/cumprod. The kernels are
aten/src/ATen/native/cuda/Reduce*.cu and ScanKernels.cu over gpu_reduce_kernel (Reduce.cuh).
Guide: docs/source/internals/cuda_simulated_device.rst.

Every result is computed on the CPU and on "cuda" and compared through ``.cpu()``: exactly
where the order of the arithmetic cannot matter (max, argmax, all, integer sums and
products, integer-valued scans), within a float tolerance where it can (a block of 256
threads adds in another order than the CPU's pairwise sum). Without a GPU:

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_reductions.py
"""

import numpy as np
import pytest

import torch
from cuda_testing import _id, assert_same

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")

FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
# Tolerances per dtype for results whose summation order differs between the devices.
TOL = {torch.float32: (1e-5, 1e-5), torch.float64: (1e-12, 1e-12), torch.float16: (1e-2, 1e-2),
       torch.bfloat16: (2e-2, 2e-2)}


def pair(cpu):
    return cpu, cpu.cuda()


def randn(*shape, dtype=torch.float32, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g, dtype=torch.float64).to(dtype)


def randint(*shape, low=-5, high=6, dtype=torch.int64, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(low, high, shape, generator=g).to(dtype)


DIMS = [None, 0, 1, -1, (0, 2)]


def reduce_both(fn, cpu, dim, keepdim):
    dev = cpu.cuda()
    if dim is None:
        return fn(dev), fn(cpu)
    return fn(dev, dim, keepdim), fn(cpu, dim, keepdim)


# ---------------------------------------------------------------------------------------
# prod, mean
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.uint8, torch.bool], ids=_id)
def test_prod_of_integers_is_exact_and_promotes_to_int64(dtype):
    cpu = randint(3, 4, low=0 if dtype in (torch.uint8, torch.bool) else -3, high=2 if dtype == torch.bool else 4,
                  dtype=dtype)
    cpu_, dev = pair(cpu)
    assert dev.prod().dtype == torch.int64
    assert_same(dev.prod(), cpu_.prod())
    assert_same(dev.prod(1), cpu_.prod(1))
    assert_same(dev.prod(0, keepdim=True), cpu_.prod(0, keepdim=True))


@pytest.mark.parametrize("dtype", FLOATS, ids=_id)
def test_prod_of_floats(dtype):
    cpu = (1 + 0.1 * randn(6, 5, dtype=torch.float64)).to(dtype)
    cpu_, dev = pair(cpu)
    rtol, atol = TOL[dtype]
    assert_same(dev.prod(), cpu_.prod(), rtol, atol)
    assert_same(dev.prod(-1), cpu_.prod(-1), rtol, atol)


def test_prod_of_an_empty_dim_is_one():
    cpu = torch.ones(3, 0)
    assert_same(cpu.cuda().prod(1), cpu.prod(1))
    assert_same(cpu.cuda().prod(), cpu.prod())


@pytest.mark.parametrize("dtype", FLOATS, ids=_id)
@pytest.mark.parametrize("dim", DIMS, ids=str)
@pytest.mark.parametrize("keepdim", [False, True])
def test_mean(dtype, dim, keepdim):
    cpu = randn(4, 5, 6, dtype=dtype)
    got, want = reduce_both(lambda t, *a: t.mean(*a), cpu, dim, keepdim)
    assert_same(got, want, *TOL[dtype])


def test_mean_of_integers_needs_a_float_dtype():
    dev = torch.arange(6, device="cuda")
    with pytest.raises(RuntimeError, match="mean\\(\\): could not infer output dtype. Input dtype must be either a "
                                           "floating point or complex dtype. Got: Long"):
        dev.mean()
    assert_same(dev.mean(dtype=torch.float64), torch.arange(6).mean(dtype=torch.float64), 1e-12, 0)


# ---------------------------------------------------------------------------------------
# amax/amin, max/min, argmax/argmin
# ---------------------------------------------------------------------------------------

VALUE_DTYPES = FLOATS + [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8]


def values_for(dtype, *shape, seed=0):
    """Few distinct values, so that ties (and the first-index rule) are common."""
    return randint(*shape, low=0 if dtype == torch.uint8 else -4, high=5, dtype=dtype, seed=seed)


@pytest.mark.parametrize("dtype", VALUE_DTYPES + [torch.bool], ids=_id)
@pytest.mark.parametrize("dim", [None, 0, 1, (0, 2), -1], ids=str)
def test_amax_amin(dtype, dim):
    cpu = values_for(dtype, 4, 5, 6) if dtype != torch.bool else randint(4, 5, 6, low=0, high=2).bool()
    dev = cpu.cuda()
    d = () if dim is None else dim
    assert_same(dev.amax(d), cpu.amax(d))
    assert_same(dev.amin(d), cpu.amin(d))
    assert_same(dev.amax(d, keepdim=True), cpu.amax(d, keepdim=True))


@pytest.mark.parametrize("dtype", VALUE_DTYPES, ids=_id)
def test_max_min_of_the_whole_tensor(dtype):
    cpu_, dev = pair(values_for(dtype, 7, 9))
    assert_same(dev.max(), cpu_.max())
    assert_same(dev.min(), cpu_.min())


@pytest.mark.parametrize("dtype", VALUE_DTYPES, ids=_id)
@pytest.mark.parametrize("dim", [0, 1, 2, -1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_max_min_along_a_dim_keep_the_first_index_of_ties(dtype, dim, keepdim):
    cpu = values_for(dtype, 5, 6, 300)  # 300 > 256 threads: ties across threads of a block
    dev = cpu.cuda()
    for op in ("max", "min"):
        got, want = getattr(dev, op)(dim, keepdim), getattr(cpu, op)(dim, keepdim)
        assert_same(got.values, want.values)
        assert_same(got.indices, want.indices)


@pytest.mark.parametrize("dtype", VALUE_DTYPES, ids=_id)
@pytest.mark.parametrize("dim", [None, 0, 1, -1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_argmax_argmin(dtype, dim, keepdim):
    cpu = values_for(dtype, 3, 700, seed=1)
    dev = cpu.cuda()
    assert_same(dev.argmax(dim, keepdim), cpu.argmax(dim, keepdim))
    assert_same(dev.argmin(dim, keepdim), cpu.argmin(dim, keepdim))


def test_nan_wins_max_and_argmax_and_stays_first():
    cpu = torch.tensor([[1.0, float("nan"), 3.0, float("nan")], [float("-inf"), -1.0, 2.0, 2.0]])
    dev = cpu.cuda()
    assert_same(dev.max(1).values, cpu.max(1).values)
    assert_same(dev.max(1).indices, torch.tensor([1, 2]))
    assert_same(dev.min(1).indices, torch.tensor([1, 0]))
    assert_same(dev.argmax(1), torch.tensor([1, 2]))
    assert_same(dev.amax(1), cpu.amax(1))
    assert np.isnan(dev.max().item())


def test_max_of_many_rows_past_one_grid_row():
    cpu = randn(70_000, 3)
    dev = cpu.cuda()
    assert_same(dev.max(1).values, cpu.max(1).values)
    assert_same(dev.argmin(1), cpu.argmin(1))


def test_max_dim_out_and_non_contiguous_input():
    cpu = randn(6, 8)[:, ::2].t()  # non-contiguous
    dev = cpu.cuda()
    values = torch.empty(0, device="cuda")
    indices = torch.empty(0, dtype=torch.int64, device="cuda")
    torch.max(dev, 1, out=(values, indices))
    want = cpu.max(1)
    assert_same(values, want.values)
    assert_same(indices, want.indices)


def test_max_errors_match_the_cpu():
    empty = torch.empty(0, 3, device="cuda")
    with pytest.raises(RuntimeError, match="max\\(\\): Expected reduction dim to be specified for input.numel\\(\\) == 0"):
        empty.max()
    with pytest.raises(IndexError, match="argmax\\(\\): Expected reduction dim to be specified for input.numel\\(\\) == 0."):
        empty.argmax()
    with pytest.raises(RuntimeError, match="argmax\\(\\): does not support bool input"):
        torch.ones(2, dtype=torch.bool, device="cuda").argmax()


# ---------------------------------------------------------------------------------------
# all, any
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8, torch.float32, torch.int64], ids=_id)
@pytest.mark.parametrize("dim", [None, 0, 1])
def test_all_any(dtype, dim):
    cpu = randint(4, 300, low=0, high=2, dtype=dtype, seed=3)
    cpu[1] = 1  # a row of all true
    cpu[2] = 0  # a row of all false
    dev = cpu.cuda()
    for op in ("all", "any"):
        got = getattr(dev, op)() if dim is None else getattr(dev, op)(dim)
        want = getattr(cpu, op)() if dim is None else getattr(cpu, op)(dim)
        assert_same(got, want)


def test_all_any_of_uint8_stay_uint8_and_read_any_nonzero_as_true():
    cpu = torch.tensor([[2, 7], [0, 9]], dtype=torch.uint8)
    dev = cpu.cuda()
    assert dev.all(1).dtype == torch.uint8
    assert_same(dev.all(1), cpu.all(1))
    assert_same(dev.any(0), cpu.any(0))


def test_all_any_of_empty_tensors():
    cpu = torch.empty(2, 0)
    assert_same(cpu.cuda().all(1), cpu.all(1))
    assert_same(cpu.cuda().any(1), cpu.any(1))
    assert_same(cpu.cuda().all(), cpu.all())


# ---------------------------------------------------------------------------------------
# var, std, var_mean, std_mean
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS, ids=_id)
@pytest.mark.parametrize("dim", DIMS, ids=str)
@pytest.mark.parametrize("correction", [0, 1, 2])
def test_var_std(dtype, dim, correction):
    cpu = (3 + randn(4, 5, 300, dtype=torch.float64)).to(dtype)
    dev = cpu.cuda()
    rtol, atol = TOL[dtype]
    rtol = max(rtol, 1e-4) if dtype == torch.float32 else rtol
    for op in (torch.var, torch.std):
        assert_same(op(dev, dim, correction=correction), op(cpu, dim, correction=correction), rtol, atol)
    for op in (torch.var_mean, torch.std_mean):
        got, want = op(dev, dim, correction=correction, keepdim=True), op(cpu, dim, correction=correction, keepdim=True)
        assert_same(got[0], want[0], rtol, atol)
        assert_same(got[1], want[1], rtol, atol)


def test_var_with_no_degrees_of_freedom_is_inf_or_nan_as_on_cpu():
    cpu = torch.tensor([[1.0], [2.0]])
    dev = cpu.cuda()
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        got = dev.var(1)
    with pytest.warns(UserWarning):
        want = cpu.var(1)
    assert_same(got, want)


def test_var_of_integers_raises():
    with pytest.raises(RuntimeError, match="std and var only support floating point and complex dtypes"):
        torch.arange(4, device="cuda").var()


# ---------------------------------------------------------------------------------------
# vector norms
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS, ids=_id)
@pytest.mark.parametrize("ord", [0, 1, 2, 3, 0.5, float("inf"), float("-inf")], ids=str)
@pytest.mark.parametrize("dim", [None, 1, (0, 1)], ids=str)
def test_vector_norm(dtype, ord, dim):
    cpu = randn(5, 400, dtype=dtype)
    cpu[0, :7] = 0
    dev = cpu.cuda()
    got = torch.linalg.vector_norm(dev, ord, dim)
    want = torch.linalg.vector_norm(cpu, ord, dim)
    assert_same(got, want, *TOL[dtype])


def test_norm_propagates_nan_for_inf_orders():
    cpu = torch.tensor([[1.0, float("nan"), -3.0], [1.0, -2.0, 0.5]])
    for ord in (float("inf"), float("-inf"), 2):
        assert_same(cpu.cuda().norm(ord, 1), cpu.norm(ord, 1))


# ---------------------------------------------------------------------------------------
# cumsum, cumprod
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.uint8, torch.bool, torch.float64], ids=_id)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumsum_cumprod_exact(dtype, dim):
    cpu = randint(4, 5, 6, low=0 if dtype in (torch.uint8, torch.bool) else -2, high=2 if dtype == torch.bool else 3,
                  dtype=dtype)
    dev = cpu.cuda()
    assert_same(dev.cumsum(dim), cpu.cumsum(dim))
    assert_same(dev.cumprod(dim), cpu.cumprod(dim))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=_id)
def test_cumsum_of_floats(dtype):
    cpu = randn(3, 1000, dtype=dtype)
    assert_same(cpu.cuda().cumsum(1), cpu.cumsum(1), *TOL[dtype])


def test_cumsum_dtype_out_non_contiguous_and_0d():
    cpu = randint(6, 4, dtype=torch.int32)[:, ::2]
    dev = cpu.cuda()
    assert_same(dev.cumsum(0, dtype=torch.float64), cpu.cumsum(0, dtype=torch.float64))
    out = torch.empty(0, dtype=torch.int64, device="cuda")
    torch.cumsum(dev, 1, out=out)
    assert_same(out, cpu.cumsum(1).long())
    assert_same(torch.tensor(3.0, device="cuda").cumsum(0), torch.tensor(3.0).cumsum(0))
    assert_same(torch.empty(0, 3, device="cuda").cumsum(0), torch.empty(0, 3).cumsum(0))


# ---------------------------------------------------------------------------------------
# Through autograd, on two devices, count_nonzero
# ---------------------------------------------------------------------------------------

def test_gradients_of_reductions_on_cuda_match_the_cpu():
    base = randn(4, 6, dtype=torch.float64)
    grads = []
    for device in ("cpu", "cuda"):
        x = base.to(device).detach().requires_grad_()
        y = x.mean() + x.max(1).values.sum() + x.std(0).sum() + x.norm() + x.amin(0).sum()
        y.backward()
        grads.append(x.grad)
    assert grads[1].is_cuda
    np.testing.assert_allclose(grads[1].cpu().numpy(), grads[0].numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_reductions_run_on_the_tensors_device():
    cpu = randn(5, 7)
    dev = cpu.to("cuda:1")
    got = dev.amax(1)
    assert str(got.device) == "cuda:1"
    np.testing.assert_array_equal(got.cpu().numpy(), cpu.amax(1).numpy())
    assert str(dev.argmax().device) == "cuda:1"


def test_count_nonzero():
    cpu = randint(5, 6, low=-1, high=2)
    assert_same(torch.count_nonzero(cpu.cuda(), 1), torch.count_nonzero(cpu, 1))
