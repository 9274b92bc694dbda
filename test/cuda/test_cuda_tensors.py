"""CUDA tensors and the first CUDA operators, each checked against its CPU twin.

Mirrors PyTorch's test/test_cuda.py (tensor creation on the device, copies between host and
device and between devices, item(), memory accounting, the CUDA RNG), test/test_binary_ufuncs.py
(add/sub/mul/div with type promotion, broadcasting, scalars and strided operands, run on
``device="cuda"``), test/test_reductions.py (sum) and test/test_tensor_creation_ops.py (factories).
Guide: docs/source/internals/cuda_simulated_device.rst.

What runs where: every factory, copy, binary op and reduction below is computed once on the CPU
and once on "cuda" (aten/src/ATen/native/cuda/*.cu: TensorFactories, FillKernel, Copy,
BinaryArithmeticKernel, ReduceSumProdKernel, Distributions, CUDAScalar), and the two results are
compared through ``.cpu()`` and numpy. On a machine without a GPU run them on the simulated device:

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_tensors.py

Every test is skipped where ``torch.cuda.is_available()`` is False; the tests that need two
devices also skip with fewer.
"""

import numpy as np
import pytest

import torch
from cuda_testing import _id, as_numpy, assert_same

requires_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")
requires_two_gpus = pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2,
                                       reason="needs two CUDA devices")

pytestmark = requires_gpu


# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------

def assert_matches_cpu(cuda_result, cpu_result, rtol=0.0, atol=0.0, device="cuda:0"):
    """cuda_result lives on `device` and equals cpu_result (dtype, shape, values; NaN == NaN)."""
    assert_same(cuda_result, cpu_result, rtol, atol, device=device)


def sample(shape, dtype, seed=0, low=-5, high=5):
    """A CPU tensor of `dtype` with reproducible values (numpy's RNG: independent of torch's)."""
    rng = np.random.default_rng(seed)
    if dtype == torch.bool:
        return torch.from_numpy(rng.integers(0, 2, size=shape).astype(np.bool_))
    if dtype in (torch.int32, torch.int64, torch.int16, torch.int8, torch.uint8):
        lo = 0 if dtype == torch.uint8 else low
        arr = rng.integers(lo, high, size=shape).astype(np.int64)
        return torch.from_numpy(arr).to(dtype)
    if dtype in (torch.complex64, torch.complex128):
        re = rng.uniform(low, high, size=shape)
        im = rng.uniform(low, high, size=shape)
        return torch.from_numpy((re + 1j * im).astype(np.complex128)).to(dtype)
    arr = rng.uniform(low, high, size=shape)
    return torch.from_numpy(arr).to(dtype)


def nonzero_sample(shape, dtype, seed=1):
    """Like sample(), with no element near zero (divisors)."""
    t = sample(shape, torch.float64, seed=seed, low=0.5, high=4.0)
    signs = torch.from_numpy(np.where(np.random.default_rng(seed + 100).integers(0, 2, size=shape) == 1, 1.0, -1.0))
    return (t * signs).to(dtype)


# ---------------------------------------------------------------------------------------
# Factories and moving tensors to the device
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.float16, torch.bool], ids=_id)
def test_empty_zeros_ones_on_cuda(dtype):
    e = torch.empty(2, 3, dtype=dtype, device="cuda")
    assert e.is_cuda and e.device == torch.device("cuda", 0) and e.dtype == dtype and tuple(e.shape) == (2, 3)
    assert_matches_cpu(torch.zeros(2, 3, dtype=dtype, device="cuda"), torch.zeros(2, 3, dtype=dtype))
    assert_matches_cpu(torch.ones(4, dtype=dtype, device="cuda"), torch.ones(4, dtype=dtype))
    # 0-d and empty shapes
    assert_matches_cpu(torch.ones((), dtype=dtype, device="cuda"), torch.ones((), dtype=dtype))
    assert_matches_cpu(torch.zeros(0, 5, dtype=dtype, device="cuda"), torch.zeros(0, 5, dtype=dtype))


def test_default_dtype_and_strides_of_cuda_factories():
    z = torch.zeros(2, 3, 4, device="cuda")
    assert z.dtype == torch.float32
    assert z.stride() == (12, 4, 1)
    assert z.is_contiguous()
    assert torch.empty(5, device=torch.device("cuda")).device == torch.device("cuda:0")


@pytest.mark.parametrize("fill,dtype", [(7, None), (2.5, None), (True, None), (-3, torch.int32),
                                        (1.0 / 3.0, torch.float16), (1.0 / 3.0, torch.bfloat16),
                                        (1.5 - 2j, torch.complex64)], ids=_id)
def test_full_on_cuda(fill, dtype):
    kwargs = {} if dtype is None else {"dtype": dtype}
    got = torch.full((3, 2), fill, device="cuda", **kwargs)
    assert_matches_cpu(got, torch.full((3, 2), fill, **kwargs))


def test_full_inferred_dtypes_match_cpu():
    assert torch.full((2,), 7, device="cuda").dtype == torch.int64
    assert torch.full((2,), 7.0, device="cuda").dtype == torch.float32
    assert torch.full((2,), True, device="cuda").dtype == torch.bool


def test_fill_out_of_range_value_raises_as_on_cpu():
    with pytest.raises(RuntimeError) as cpu_err:
        torch.zeros(2, dtype=torch.uint8).fill_(300)
    with pytest.raises(RuntimeError) as cuda_err:
        torch.zeros(2, dtype=torch.uint8, device="cuda").fill_(300)
    assert str(cuda_err.value) == str(cpu_err.value)


@pytest.mark.parametrize("args, dtype", [((2, 11, 3), None), ((0.5, 3.0, 0.25), None), ((10, 0, -3), torch.int32),
                                         ((0, 1, 0.1), torch.float16), ((5,), torch.float64), ((0, 100000), None)])
def test_arange_on_cuda(args, dtype):
    assert_matches_cpu(torch.arange(*args, dtype=dtype, device="cuda"), torch.arange(*args, dtype=dtype))


def test_arange_on_cuda_refuses_what_the_cpu_refuses():
    with pytest.raises(RuntimeError, match="^upper bound and lower bound inconsistent with step sign$"):
        torch.arange(0, 5, -1, device="cuda")
    with pytest.raises(RuntimeError, match="^step must be nonzero$"):
        torch.arange(0, 5, 0, device="cuda")


def test_resize_on_cuda_keeps_the_old_values_and_grows_the_storage():
    x = torch.arange(6.0, device="cuda")
    x.resize_(2, 3)
    assert x.shape == (2, 3) and x.cpu().tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    x.resize_(4, 4)  # 64 bytes: a new allocation, the first 24 bytes copied over
    assert x.shape == (4, 4) and x.is_cuda
    assert x.flatten()[:6].cpu().tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    out = torch.empty(0, device="cuda")
    torch.add(torch.ones(3, device="cuda"), 1, out=out)  # out= resizes an empty output
    assert out.cpu().tolist() == [2.0, 2.0, 2.0]


@pytest.mark.parametrize("like", ["empty_like", "zeros_like", "ones_like", "full_like"])
def test_like_factories_keep_the_device(like):
    src = torch.ones(2, 3, dtype=torch.float64, device="cuda")
    fn = getattr(torch, like)
    out = fn(src, 4.0) if like == "full_like" else fn(src)
    assert out.is_cuda and out.device == src.device and out.dtype == torch.float64 and out.shape == src.shape
    if like != "empty_like":
        cpu = fn(src.cpu(), 4.0) if like == "full_like" else fn(src.cpu())
        assert_matches_cpu(out, cpu)
    # device= moves a CPU tensor's *_like onto the device
    moved = fn(torch.ones(2), 4.0, device="cuda") if like == "full_like" else fn(torch.ones(2), device="cuda")
    assert moved.is_cuda and tuple(moved.shape) == (2,)


@requires_two_gpus
def test_like_factories_on_cuda1():
    src = torch.zeros(3, device="cuda:1")
    assert torch.ones_like(src).device == torch.device("cuda:1")
    assert torch.ones_like(src).cpu().tolist() == [1.0, 1.0, 1.0]


def test_torch_tensor_with_device_cuda():
    data = [[1.5, -2.0, 3.25], [0.0, 4.0, -0.5]]
    got = torch.tensor(data, device="cuda")
    assert_matches_cpu(got, torch.tensor(data))
    got_int = torch.tensor([1, 2, 3], dtype=torch.int32, device="cuda")
    assert_matches_cpu(got_int, torch.tensor([1, 2, 3], dtype=torch.int32))


def test_cuda_and_to_move_values():
    cpu = sample((4, 5), torch.float32)
    for moved in (cpu.cuda(), cpu.to("cuda"), cpu.to(torch.device("cuda")), cpu.to("cuda:0")):
        assert_matches_cpu(moved, cpu)
    # to(device, dtype) converts as well
    assert_matches_cpu(cpu.to("cuda", torch.float64), cpu.to(torch.float64))


def test_to_cuda_non_blocking():
    cpu = sample((1000,), torch.float32)
    moved = cpu.to("cuda", non_blocking=True)
    torch.cuda.synchronize()
    assert_matches_cpu(moved, cpu)
    back = moved.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    assert back.device.type == "cpu"
    np.testing.assert_array_equal(back.numpy(), cpu.numpy())


def test_cpu_and_cuda_return_self_when_nothing_moves():
    cpu = torch.ones(3)
    assert cpu.cpu() is cpu
    dev = cpu.cuda()
    assert dev is not cpu
    assert dev.cuda() is dev
    assert dev.to("cuda") is dev
    back = dev.cpu()
    assert back is not dev and back.device.type == "cpu"


def test_is_cuda_device_and_repr():
    cpu = torch.tensor([1.5, -2.0])
    dev = cpu.cuda()
    assert cpu.is_cuda is False and dev.is_cuda is True
    assert dev.device == torch.device("cuda:0")
    assert dev.device.type == "cuda" and dev.device.index == 0
    assert dev.get_device() == 0
    assert repr(dev) == "tensor([ 1.5000, -2.0000], device='cuda:0')"
    assert repr(torch.tensor([1, 2]).cuda()) == "tensor([1, 2], device='cuda:0')"
    assert repr(torch.tensor([1.5], dtype=torch.float16).cuda()) == \
        "tensor([1.5000], device='cuda:0', dtype=torch.float16)"


@requires_two_gpus
def test_second_device_factories_and_repr():
    t = torch.zeros(2, device="cuda:1")
    assert t.device == torch.device("cuda:1") and t.get_device() == 1
    assert repr(t) == "tensor([0., 0.], device='cuda:1')"
    with torch.cuda.device(1):
        assert torch.ones(2, device="cuda").device == torch.device("cuda:1")
    assert torch.ones(2, device="cuda").device == torch.device("cuda:0")
    # .cuda() with no index goes to the current device
    assert torch.ones(2, device="cuda:1").cuda().device == torch.device("cuda:0")
    assert torch.ones(2).cuda(1).device == torch.device("cuda:1")


# ---------------------------------------------------------------------------------------
# Random factories
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16], ids=_id)
def test_rand_is_uniform_in_zero_one(dtype):
    x = torch.rand(100_000, dtype=dtype, device="cuda")
    assert x.is_cuda and x.dtype == dtype and tuple(x.shape) == (100_000,)
    a = as_numpy(x).astype(np.float64)
    assert a.min() >= 0.0
    assert a.max() < 1.0, f"rand({dtype}) produced {int((a >= 1.0).sum())} values equal to 1.0"
    assert abs(a.mean() - 0.5) < 0.01
    assert abs(a.var() - 1.0 / 12.0) < 0.005
    counts, _ = np.histogram(a, bins=10, range=(0.0, 1.0))
    assert counts.min() > 9_000 and counts.max() < 11_000


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16], ids=_id)
def test_randn_statistics(dtype):
    x = torch.randn(100_000, dtype=dtype, device="cuda")
    assert x.is_cuda and x.dtype == dtype
    a = as_numpy(x).astype(np.float64)
    assert np.isfinite(a).all()
    assert abs(a.mean()) < 0.02
    assert abs(a.std() - 1.0) < 0.02
    assert abs((np.abs(a) < 1.0).mean() - 0.6827) < 0.01
    # every element is drawn afresh: no thread repeats another's numbers
    assert len(np.unique(as_numpy(x))) > (0.95 * x.numel() if dtype != torch.float16 else 1000)


def test_random_factories_shapes_and_noncontiguous_targets():
    for shape in [(7,), (3, 5), (2, 0, 4), ()]:
        r = torch.randn(shape, device="cuda")
        assert r.is_cuda and tuple(r.shape) == shape
    # normal_/uniform_ into a transposed view fill every element
    base = torch.full((40, 30), float("nan"), device="cuda")
    base.t().normal_()
    assert np.isfinite(as_numpy(base)).all()
    base.t().uniform_(2.0, 3.0)
    a = as_numpy(base)
    assert (a >= 2.0).all() and (a < 3.0).all()


def test_uniform_and_normal_arguments():
    u = torch.empty(50_000, device="cuda").uniform_(-3.0, 5.0)
    a = as_numpy(u).astype(np.float64)
    assert a.min() >= -3.0 and a.max() < 5.0 and abs(a.mean() - 1.0) < 0.1
    n = torch.empty(50_000, device="cuda").normal_(10.0, 0.5)
    b = as_numpy(n).astype(np.float64)
    assert abs(b.mean() - 10.0) < 0.02 and abs(b.std() - 0.5) < 0.02
    with pytest.raises(RuntimeError, match="normal expects std >= 0.0"):
        torch.empty(3, device="cuda").normal_(0.0, -1.0)


def test_rand_like_and_randn_like_on_cuda():
    src = torch.zeros(64, 32, dtype=torch.float64, device="cuda")
    for fn in (torch.rand_like, torch.randn_like):
        r = fn(src)
        assert r.is_cuda and r.dtype == torch.float64 and r.shape == src.shape
        assert len(np.unique(as_numpy(r))) > 2000


def test_consecutive_random_calls_differ():
    a = torch.randn(1000, device="cuda")
    b = torch.randn(1000, device="cuda")
    assert not np.array_equal(as_numpy(a), as_numpy(b))
    c = torch.rand(3, device="cuda")
    d = torch.rand(3, device="cuda")
    assert not np.array_equal(as_numpy(c), as_numpy(d))


def _cuda_seeded_draws(seed, device="cuda"):
    """(randn, rand) drawn after seeding the CUDA generator of `device` with torch.cuda.manual_seed."""
    with torch.cuda.device(torch.device(device).index or 0):
        torch.cuda.manual_seed(seed)
    return as_numpy(torch.randn(777, device=device)), as_numpy(torch.rand(777, device=device))


def test_cuda_generator_objects_draw_their_own_stream():
    g = torch.Generator(device="cuda")
    assert g.device.type == "cuda"
    g.manual_seed(7)
    a = as_numpy(torch.randn(100, device="cuda", generator=g))
    g.manual_seed(7)
    b = as_numpy(torch.randn(100, device="cuda", generator=g))
    np.testing.assert_array_equal(a, b)
    # get_state / set_state: seed and Philox offset, 16 bytes
    state = g.get_state()
    c = as_numpy(torch.randn(100, device="cuda", generator=g))
    g.set_state(state)
    np.testing.assert_array_equal(as_numpy(torch.randn(100, device="cuda", generator=g)), c)


def test_torch_manual_seed_also_seeds_the_cuda_generators():
    torch.manual_seed(5)
    a = as_numpy(torch.randn(50, device="cuda"))
    torch.manual_seed(5)
    b = as_numpy(torch.randn(50, device="cuda"))
    np.testing.assert_array_equal(a, b)
    assert torch.cuda.initial_seed() == 5


def test_cuda_rng_reproducible_after_seeding():
    n1, u1 = _cuda_seeded_draws(1234)
    n2, u2 = _cuda_seeded_draws(1234)
    np.testing.assert_array_equal(n1, n2)
    np.testing.assert_array_equal(u1, u2)
    n3, _ = _cuda_seeded_draws(1235)
    assert not np.array_equal(n1, n3)


def test_cuda_manual_seed_all_seeds_every_device():
    n = torch.cuda.device_count()
    torch.cuda.manual_seed_all(99)
    first = [as_numpy(torch.randn(100, device=f"cuda:{i}")) for i in range(n)]
    torch.cuda.manual_seed_all(99)
    second = [as_numpy(torch.randn(100, device=f"cuda:{i}")) for i in range(n)]
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------------------
# copy_
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32, torch.uint8,
                                   torch.float16, torch.bfloat16, torch.bool, torch.complex64], ids=_id)
def test_copy_host_device_round_trip(dtype):
    cpu = sample((6, 7), dtype)
    dev = torch.empty(6, 7, dtype=dtype, device="cuda")
    assert dev.copy_(cpu) is dev
    assert_matches_cpu(dev, cpu)                                         # host -> device
    back = torch.empty(6, 7, dtype=dtype)
    back.copy_(dev)                                                      # device -> host
    np.testing.assert_array_equal(as_numpy(back), as_numpy(cpu))
    other = torch.empty(6, 7, dtype=dtype, device="cuda")
    other.copy_(dev)                                                     # device -> device
    assert_matches_cpu(other, cpu)


@pytest.mark.parametrize("src_dtype,dst_dtype", [
    (torch.float32, torch.int64),     # truncation toward zero
    (torch.float64, torch.int32),
    (torch.int64, torch.float32),
    (torch.int32, torch.float64),
    (torch.float32, torch.float16),   # rounding, overflow to inf
    (torch.float16, torch.float32),
    (torch.float32, torch.bfloat16),
    (torch.float32, torch.bool),      # nonzero -> True
    (torch.bool, torch.float32),
    (torch.bool, torch.int64),
    (torch.int64, torch.int32),       # wraps as static_cast does
    (torch.float32, torch.complex64),
], ids=_id)
@pytest.mark.parametrize("direction", ["h2d", "d2h", "d2d"])
def test_copy_converts_dtype(src_dtype, dst_dtype, direction):
    if src_dtype == torch.bool:
        cpu_src = torch.tensor([True, False, True, True, False])
    elif src_dtype in (torch.int64, torch.int32):
        cpu_src = torch.tensor([0, -7, 123456, 2**31 + 5, -(2**31) - 9] if src_dtype == torch.int64
                               else [0, -7, 123456, 2**31 - 1, -(2**31)], dtype=src_dtype)
    else:
        cpu_src = torch.tensor([0.0, -1.7, 2.9, 1.0 / 3.0, 70000.0 if dst_dtype == torch.float16 else -0.0,
                                0.5, -3.5], dtype=src_dtype)
    want = cpu_src.to(dst_dtype)
    if direction == "h2d":
        got = torch.empty(cpu_src.shape, dtype=dst_dtype, device="cuda").copy_(cpu_src)
    elif direction == "d2h":
        got = torch.empty(cpu_src.shape, dtype=dst_dtype).copy_(cpu_src.cuda())
        assert not got.is_cuda
        got = got.cuda()
    else:
        got = torch.empty(cpu_src.shape, dtype=dst_dtype, device="cuda").copy_(cpu_src.cuda())
    assert_matches_cpu(got, want)


def _noncontiguous_views(t):
    """(name, view) pairs of a 2-D tensor: transposed, stepped slices."""
    return [("transposed", t.t()), ("stepped", t[::2, 1::3]), ("column", t[:, 2])]


@pytest.mark.parametrize("view", ["transposed", "stepped", "column"])
@pytest.mark.parametrize("dtype_pair", [(torch.float32, torch.float32), (torch.float64, torch.float32),
                                        (torch.int32, torch.float64)], ids=_id)
def test_copy_noncontiguous_sources(view, dtype_pair):
    src_dtype, dst_dtype = dtype_pair
    cpu_base = sample((8, 9), src_dtype, seed=3)
    dev_base = cpu_base.cuda()
    cpu_view = dict(_noncontiguous_views(cpu_base))[view]
    dev_view = dict(_noncontiguous_views(dev_base))[view]
    assert not dev_view.is_contiguous()
    want = cpu_view.to(dst_dtype)
    # host -> device from a strided CPU view
    got = torch.empty(tuple(cpu_view.shape), dtype=dst_dtype, device="cuda").copy_(cpu_view)
    assert_matches_cpu(got, want)
    # device -> device from a strided device view
    got = torch.empty(tuple(cpu_view.shape), dtype=dst_dtype, device="cuda").copy_(dev_view)
    assert_matches_cpu(got, want)
    # device -> host from a strided device view
    host = torch.empty(tuple(cpu_view.shape), dtype=dst_dtype).copy_(dev_view)
    np.testing.assert_array_equal(as_numpy(host), as_numpy(want))


@pytest.mark.parametrize("view", ["transposed", "stepped", "column"])
@pytest.mark.parametrize("src_side", ["host", "device"])
def test_copy_into_noncontiguous_destinations(view, src_side):
    # device destination: only the view's elements change
    dev_base = torch.full((8, 9), -1.0, device="cuda")
    cpu_base = torch.full((8, 9), -1.0)
    dev_dst = dict(_noncontiguous_views(dev_base))[view]
    cpu_dst = dict(_noncontiguous_views(cpu_base))[view]
    src = sample(tuple(cpu_dst.shape), torch.float64, seed=4)      # float64 -> float32 as well
    dev_dst.copy_(src if src_side == "host" else src.cuda())
    cpu_dst.copy_(src)
    assert_matches_cpu(dev_base, cpu_base)
    # host destination filled from the device
    if src_side == "device":
        host_base = torch.full((8, 9), -1.0)
        dict(_noncontiguous_views(host_base))[view].copy_(src.cuda())
        np.testing.assert_array_equal(host_base.numpy(), cpu_base.numpy())


@pytest.mark.parametrize("src_side", ["host", "device"])
def test_copy_broadcasts_expanded_sources(src_side):
    row = torch.tensor([1.0, -2.0, 3.5])
    src = row if src_side == "host" else row.cuda()
    dst = torch.zeros(4, 3, device="cuda")
    dst.copy_(src)                                      # (3,) broadcast into (4, 3)
    assert_matches_cpu(dst, row.expand(4, 3).contiguous())
    dst2 = torch.zeros(4, 3, dtype=torch.int64, device="cuda")
    dst2.copy_(src.expand(4, 3))                        # an explicitly expanded (stride 0) source
    assert_matches_cpu(dst2, row.expand(4, 3).to(torch.int64))
    col = torch.tensor([[1.0], [2.0]])
    dst3 = torch.zeros(2, 5, device="cuda").t()        # expanded column into a transposed view
    dst3.copy_((col if src_side == "host" else col.cuda()).expand(2, 5).t())
    np.testing.assert_array_equal(as_numpy(dst3), col.expand(2, 5).t().numpy())


def test_copy_expanded_device_source_to_host():
    src = torch.tensor([[5.0], [6.0], [7.0]]).cuda().expand(3, 4)
    host = torch.empty(3, 4)
    host.copy_(src)
    np.testing.assert_array_equal(host.numpy(), np.array([[5.0] * 4, [6.0] * 4, [7.0] * 4], dtype=np.float32))
    assert_matches_cpu(src.cpu().cuda(), torch.tensor([[5.0], [6.0], [7.0]]).expand(3, 4).contiguous())


def test_copy_empty_and_0d():
    e = torch.empty(0, 3, device="cuda").copy_(torch.empty(0, 3))
    assert tuple(e.shape) == (0, 3) and e.is_cuda
    z = torch.zeros((), device="cuda").copy_(torch.tensor(4.25))
    assert z.item() == 4.25
    assert torch.empty(()).copy_(z).item() == 4.25


def test_copy_large_tensor_round_trip():
    cpu = torch.from_numpy(np.random.default_rng(5).standard_normal(1_000_003).astype(np.float32))
    dev = cpu.cuda()
    np.testing.assert_array_equal(dev.cpu().numpy(), cpu.numpy())
    # strided device -> device over many blocks
    half = torch.empty(500_002, device="cuda").copy_(dev[::2])
    np.testing.assert_array_equal(half.cpu().numpy(), cpu.numpy()[::2])


@requires_two_gpus
@pytest.mark.parametrize("case", ["same_dtype", "convert", "noncontiguous_src", "noncontiguous_dst"])
def test_copy_between_devices(case):
    cpu = sample((6, 10), torch.float32, seed=6)
    src = cpu.to("cuda:0")
    if case == "same_dtype":
        dst = torch.empty(6, 10, device="cuda:1").copy_(src)
        want, base = cpu, dst
    elif case == "convert":
        dst = torch.empty(6, 10, dtype=torch.float64, device="cuda:1").copy_(src)
        want, base = cpu.to(torch.float64), dst
    elif case == "noncontiguous_src":
        dst = torch.empty(10, 6, device="cuda:1").copy_(src.t())
        want, base = cpu.t().contiguous(), dst
    else:
        base = torch.zeros(10, 6, device="cuda:1")
        base.t().copy_(src)
        want = cpu.t().contiguous()
    assert_matches_cpu(base, want, device="cuda:1")
    # the source is untouched and still on cuda:0
    assert_matches_cpu(src, cpu, device="cuda:0")


@requires_two_gpus
def test_to_other_device_and_back():
    cpu = sample((3, 4), torch.int64, seed=7)
    on1 = cpu.to("cuda:1")
    assert on1.device == torch.device("cuda:1")
    on0 = on1.to("cuda:0")
    assert_matches_cpu(on0, cpu)
    assert_matches_cpu(on1.to("cuda:0", torch.float32), cpu.float())
    # work queued on cuda:0 is finished before cuda:1 reads it
    big = torch.ones(300_000, device="cuda:0")
    big = big + big
    assert (big.to("cuda:1").sum().item()) == 600_000.0


@requires_two_gpus
@pytest.mark.skipif(not torch._C._has_cuda or not torch._C._cuda_isSimulated(), reason="simulated device only")
def test_peer_copy_keeps_the_source_block_until_the_copy_has_read_it():
    # The copy to cuda:1 is queued on a held stream, and its source is freed at once. The
    # caching allocator may hand the block to the next tensor on cuda:0, but only for work
    # ordered after the copy: cuda:0's stream must wait for it. (The wait used to be queued
    # with cuda:1 current, where stream handle 0 names cuda:1's default stream, so `c`
    # overwrote the block before the copy read it.)
    src = torch.arange(1000.0, device="cuda:0")
    dst = torch.empty(1000, device="cuda:1")
    s1 = torch.cuda.Stream(device=1)
    torch._C._cuda_simHoldStream(s1.cuda_stream)
    try:
        with torch.cuda.stream(s1):
            dst.copy_(src, non_blocking=True)
        ptr = src.data_ptr()
        del src
        c = torch.empty(1000, device="cuda:0")
        assert c.data_ptr() == ptr  # the same block, reused
        c.fill_(7.0)
    finally:
        torch._C._cuda_simReleaseStream(s1.cuda_stream)
    torch.cuda.synchronize(0)
    torch.cuda.synchronize(1)
    assert dst.cpu().tolist() == [float(i) for i in range(1000)]
    assert c.cpu().tolist() == [7.0] * 1000


# ---------------------------------------------------------------------------------------
# add / sub / mul / div
# ---------------------------------------------------------------------------------------

BINARY_OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
}
BINARY_DTYPES = [torch.float32, torch.float64, torch.int64, torch.int32, torch.float16, torch.bfloat16,
                 torch.bool, torch.complex64]


@pytest.mark.parametrize("dtype", BINARY_DTYPES, ids=_id)
@pytest.mark.parametrize("op", list(BINARY_OPS))
def test_binary_op_matches_cpu(op, dtype):
    fn = BINARY_OPS[op]
    a = sample((5, 6), dtype, seed=10)
    b = nonzero_sample((5, 6), dtype) if op == "div" and dtype != torch.bool else sample((5, 6), dtype, seed=11)
    if op == "sub" and dtype == torch.bool:
        with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors is not supported"):
            fn(a.cuda(), b.cuda())
        return
    want = fn(a, b)
    got = fn(a.cuda(), b.cuda())
    # CPU and CUDA both compute half/bfloat16 in float and round once: bit-identical results.
    # complex64 division may differ in the last bit (the two kernels may divide differently).
    tol = dict(rtol=1e-6, atol=0.0) if (dtype == torch.complex64 and op == "div") else {}
    assert_matches_cpu(got, want, **tol)


@pytest.mark.parametrize("op", list(BINARY_OPS))
def test_binary_op_broadcasting(op):
    fn = BINARY_OPS[op]
    cases = [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((5,), (2, 1, 5)), ((1,), (3, 3))]
    for i, (sa, sb) in enumerate(cases):
        a = sample(sa, torch.float32, seed=20 + i)
        b = nonzero_sample(sb, torch.float32, seed=30 + i)
        assert_matches_cpu(fn(a.cuda(), b.cuda()), fn(a, b))


@pytest.mark.parametrize("op", list(BINARY_OPS))
def test_binary_op_noncontiguous_inputs(op):
    fn = BINARY_OPS[op]
    a = sample((8, 9), torch.float32, seed=40)
    b = nonzero_sample((9, 8), torch.float32, seed=41)
    da, db = a.cuda(), b.cuda()
    assert_matches_cpu(fn(da, db.t()), fn(a, b.t()))                       # transposed
    assert_matches_cpu(fn(da[::2, 1::3], db.t()[::2, 1::3]), fn(a[::2, 1::3], b.t()[::2, 1::3]))  # stepped
    assert_matches_cpu(fn(da[:, 3], db[3, :]), fn(a[:, 3], b[3, :]))       # column vs row
    e = torch.tensor([1.0, 2.0, 4.0])
    assert_matches_cpu(fn(da[:3, :3], e.cuda().expand(3, 3)), fn(a[:3, :3], e.expand(3, 3)))  # expanded


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_binary_op_into_noncontiguous_out(op):
    torch_fn = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div}[op]
    a = sample((4, 6), torch.float32, seed=50)
    b = nonzero_sample((4, 6), torch.float32, seed=51)
    dev_base = torch.full((6, 4), -9.0, device="cuda")
    cpu_base = torch.full((6, 4), -9.0)
    r = torch_fn(a.cuda(), b.cuda(), out=dev_base.t())
    torch_fn(a, b, out=cpu_base.t())
    assert r.is_cuda and r.data_ptr() == dev_base.data_ptr()
    assert_matches_cpu(dev_base, cpu_base)
    # a stepped slice as out: the skipped elements keep their value
    dev_base2 = torch.full((8, 6), -9.0, device="cuda")
    cpu_base2 = torch.full((8, 6), -9.0)
    torch_fn(a.cuda(), b.cuda(), out=dev_base2[::2])
    torch_fn(a, b, out=cpu_base2[::2])
    assert_matches_cpu(dev_base2, cpu_base2)


INPLACE_OPS = {
    "add_": lambda x, y: x.add_(y, alpha=2),
    "sub_": lambda x, y: x.sub_(y),
    "mul_": lambda x, y: x.mul_(y),
    "div_": lambda x, y: x.div_(y),
}


@pytest.mark.parametrize("op", list(INPLACE_OPS))
def test_inplace_op_on_transposed_view(op):
    fn = INPLACE_OPS[op]
    cpu = sample((5, 7), torch.float32, seed=60)
    dev = cpu.cuda()
    other = nonzero_sample((7, 5), torch.float32, seed=61)
    r = fn(dev.t(), other.cuda())
    fn(cpu.t(), other)
    assert r.is_cuda and r.data_ptr() == dev.data_ptr() and r.stride() == (1, 7)
    assert_matches_cpu(dev, cpu)
    # a broadcast operand into a stepped slice; the other elements keep their values
    row = nonzero_sample((4,), torch.float32, seed=62)
    fn(dev[:, ::2], row.cuda())
    fn(cpu[:, ::2], row)
    assert_matches_cpu(dev, cpu)


@pytest.mark.parametrize("op", ["add_", "sub_", "mul_", "div_"])
def test_inplace_op_with_python_scalar(op):
    cpu = sample((3, 4), torch.float32, seed=63)
    dev = cpu.cuda()
    r = getattr(dev, op)(2.5)
    getattr(cpu, op)(2.5)
    assert r is dev
    assert_matches_cpu(dev, cpu)


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.float16, torch.complex64], ids=_id)
@pytest.mark.parametrize("alpha", [2, -3])
def test_add_sub_alpha(dtype, alpha):
    a = sample((4, 5), dtype, seed=70)
    b = sample((4, 5), dtype, seed=71)
    # a + alpha * b: the CPU kernel may fuse the multiply-add (one rounding instead of two), so
    # floating results may differ in the last bit; integers are exact.
    tol = {torch.float32: dict(rtol=2e-7, atol=1e-6), torch.complex64: dict(rtol=2e-7, atol=1e-6),
           torch.float16: dict(rtol=1e-3, atol=1e-3)}.get(dtype, {})
    assert_matches_cpu(torch.add(a.cuda(), b.cuda(), alpha=alpha), torch.add(a, b, alpha=alpha), **tol)
    assert_matches_cpu(torch.sub(a.cuda(), b.cuda(), alpha=alpha), torch.sub(a, b, alpha=alpha), **tol)


def test_add_float_alpha_with_int_tensors_raises_as_on_cpu():
    a = torch.tensor([1, 2])
    with pytest.raises(RuntimeError) as cpu_err:
        torch.add(a, a, alpha=0.5)
    with pytest.raises(RuntimeError) as cuda_err:
        torch.add(a.cuda(), a.cuda(), alpha=0.5)
    assert str(cuda_err.value) == str(cpu_err.value)


@pytest.mark.parametrize("expr,want_dtype", [
    pytest.param(lambda x: x * 2, torch.int64, id="x*2"),
    pytest.param(lambda x: 2 * x, torch.int64, id="2*x"),
    pytest.param(lambda x: x + 1.5, torch.float32, id="x+1.5"),   # int tensor + float -> default float dtype
    pytest.param(lambda x: 1.5 - x, torch.float32, id="1.5-x"),
    pytest.param(lambda x: x / 2, torch.float32, id="x/2"),       # true division of ints
    pytest.param(lambda x: 7 / x, torch.float32, id="7/x"),
    pytest.param(lambda x: x - 3, torch.int64, id="x-3"),
    pytest.param(lambda x: x + True, torch.int64, id="x+True"),
    pytest.param(lambda x: x * (1 + 2j), torch.complex64, id="x*(1+2j)"),
])
def test_python_scalar_operands_and_promotion(expr, want_dtype):
    cpu = torch.tensor([[1, -2, 3], [4, 5, -6]])
    got = expr(cpu.cuda())
    want = expr(cpu)
    assert want.dtype == want_dtype
    assert_matches_cpu(got, want)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.int32], ids=_id)
def test_python_scalar_keeps_tensor_dtype(dtype):
    cpu = sample((3, 4), dtype, seed=80, low=1, high=5)
    for expr in (lambda x: x * 3, lambda x: 3 + x, lambda x: x - 2, lambda x: x * 0.5 if dtype.is_floating_point
                 else x * 2):
        want = expr(cpu)
        assert want.dtype == dtype
        assert_matches_cpu(expr(cpu.cuda()), want)


@pytest.mark.parametrize("a_dtype,b_dtype", [
    (torch.int32, torch.int64), (torch.float16, torch.float32), (torch.bool, torch.int32),
    (torch.int64, torch.float16), (torch.bfloat16, torch.float16), (torch.float32, torch.complex64),
    (torch.uint8, torch.int8),
], ids=_id)
@pytest.mark.parametrize("op", ["add", "mul", "div"])
def test_mixed_dtype_promotion(a_dtype, b_dtype, op):
    fn = BINARY_OPS[op]
    a = sample((3, 4), a_dtype, seed=90, low=1, high=6)
    b = sample((3, 4), b_dtype, seed=91, low=1, high=6)
    if b_dtype == torch.bool:
        b = b | True
    want = fn(a, b)
    assert_matches_cpu(fn(a.cuda(), b.cuda()), want)
    assert_matches_cpu(fn(b.cuda(), a.cuda()), fn(b, a))


def test_zero_dim_tensors():
    a, b = torch.tensor(2.5), torch.tensor(-4.0)
    assert_matches_cpu(a.cuda() * b.cuda(), a * b)
    v = sample((3,), torch.float32, seed=95)
    assert_matches_cpu(a.cuda() + v.cuda(), a + v)
    assert_matches_cpu(v.cuda() / a.cuda(), v / a)
    # a 0-d CUDA int tensor does not promote a float16 tensor past its category
    h = sample((4,), torch.float16, seed=96)
    assert_matches_cpu(h.cuda() * torch.tensor(3).cuda(), h * torch.tensor(3))


def test_zero_dim_cpu_tensor_with_cuda_tensor_is_allowed():
    v = sample((2, 3), torch.float32, seed=97)
    s = torch.tensor(1.5)
    assert_matches_cpu(v.cuda() + s, v + s)
    assert_matches_cpu(s * v.cuda(), s * v)
    assert_matches_cpu(v.cuda() / torch.tensor(4), v / torch.tensor(4))
    assert_matches_cpu(torch.tensor(10.0) - v.cuda(), torch.tensor(10.0) - v)
    i = torch.tensor([1, 2, 3])
    assert_matches_cpu(i.cuda() + torch.tensor(2.5), i + torch.tensor(2.5))   # promotes to float32
    assert_matches_cpu(torch.add(v.cuda(), torch.tensor(2.0), alpha=3), torch.add(v, torch.tensor(2.0), alpha=3))


@pytest.mark.parametrize("op", list(BINARY_OPS))
def test_empty_tensors(op):
    fn = BINARY_OPS[op]
    a = torch.zeros(0, 3)
    b = torch.ones(1, 3)
    assert_matches_cpu(fn(a.cuda(), b.cuda()), fn(a, b))
    assert_matches_cpu(fn(a.cuda(), 2), fn(a, 2))
    assert_matches_cpu(fn(torch.zeros(2, 0).cuda(), torch.zeros(2, 0).cuda()), fn(torch.zeros(2, 0), torch.zeros(2, 0)))


def test_float_division_by_zero_and_special_values():
    a = torch.tensor([1.0, -1.0, 0.0, float("inf"), float("nan"), 3.0])
    b = torch.tensor([0.0, 0.0, 0.0, float("inf"), 2.0, -0.0])
    for fn in BINARY_OPS.values():
        assert_matches_cpu(fn(a.cuda(), b.cuda()), fn(a, b))
    ints = torch.tensor([1, 0, -3])
    assert_matches_cpu(ints.cuda() / torch.tensor([0, 0, 0]).cuda(), ints / torch.tensor([0, 0, 0]))


@pytest.mark.parametrize("dtype,big", [(torch.int64, 2**62), (torch.int32, 2**30), (torch.int16, 2**14),
                                       (torch.int8, 100), (torch.uint8, 200)], ids=_id)
def test_integer_overflow_wraps_as_on_cpu(dtype, big):
    cpu = torch.tensor([big, -big if dtype != torch.uint8 else 1, big - 1, 3], dtype=dtype)
    for fn in (lambda x: x * 4, lambda x: x + x + x, lambda x: x - (x * 3),
               lambda x: torch.add(x, x, alpha=5)):
        assert_matches_cpu(fn(cpu.cuda()), fn(cpu))
    bits = {torch.int64: 64, torch.int32: 32, torch.int16: 16, torch.int8: 8}.get(dtype)
    imax, imin = (2**(bits - 1) - 1, -2**(bits - 1)) if bits else (255, 0)
    top = torch.tensor([imax], dtype=dtype)
    wrapped = top.cuda() + 1
    assert_matches_cpu(wrapped, top + 1)
    assert wrapped.item() == imin


def test_large_binary_op_many_blocks():
    a = torch.from_numpy(np.random.default_rng(12).standard_normal(300_001).astype(np.float32))
    b = torch.from_numpy(np.random.default_rng(13).standard_normal(300_001).astype(np.float32))
    assert_matches_cpu(a.cuda() * b.cuda() + a.cuda(), a * b + a)


# ---------------------------------------------------------------------------------------
# sum
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dim,keepdim", [(None, False), (0, False), (1, False), (2, True), ((0, 2), False),
                                         ((0, 2), True), ((-1, 0, 1), False), (-2, True)])
def test_sum_dims(dim, keepdim):
    cpu = sample((4, 5, 6), torch.float32, seed=100)
    dev = cpu.cuda()
    if dim is None:
        got, want = dev.sum(), cpu.sum()
    else:
        got, want = dev.sum(dim=dim, keepdim=keepdim), cpu.sum(dim=dim, keepdim=keepdim)
    assert_matches_cpu(got, want, rtol=1e-6, atol=1e-5)


def test_sum_integer_valued_floats_exact():
    # integer values: every summation order gives the exact answer
    cpu = sample((7, 33, 5), torch.int64, seed=101, low=-50, high=50).to(torch.float32)
    dev = cpu.cuda()
    for dim in (None, 0, 1, 2, (0, 1), (1, 2)):
        got = dev.sum() if dim is None else dev.sum(dim)
        want = cpu.sum() if dim is None else cpu.sum(dim)
        assert_matches_cpu(got, want)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.uint8, torch.int8, torch.bool], ids=_id)
def test_sum_integer_and_bool_inputs_give_int64(dtype):
    cpu = sample((6, 70), dtype, seed=102, low=-100, high=100)
    dev = cpu.cuda()
    assert dev.sum().dtype == torch.int64
    assert_matches_cpu(dev.sum(), cpu.sum())
    assert_matches_cpu(dev.sum(1), cpu.sum(1))
    assert_matches_cpu(dev.sum(0, keepdim=True), cpu.sum(0, keepdim=True))


def test_sum_int32_accumulates_in_int64():
    cpu = torch.full((3000,), 2**30, dtype=torch.int32)
    got = cpu.cuda().sum()
    assert got.dtype == torch.int64 and got.item() == 3000 * 2**30
    assert_matches_cpu(got, cpu.sum())


@pytest.mark.parametrize("src_dtype,dtype", [(torch.float32, torch.float64), (torch.int32, torch.float32),
                                             (torch.float16, torch.float32), (torch.int64, torch.int32),
                                             (torch.bool, torch.int32)], ids=_id)
def test_sum_dtype_argument(src_dtype, dtype):
    cpu = sample((5, 40), src_dtype, seed=103)
    dev = cpu.cuda()
    got, want = dev.sum(dtype=dtype), cpu.sum(dtype=dtype)
    assert got.dtype == dtype
    tol = dict(rtol=1e-6, atol=1e-5) if dtype.is_floating_point else {}
    assert_matches_cpu(got, want, **tol)
    got1, want1 = dev.sum(1, dtype=dtype), cpu.sum(1, dtype=dtype)
    assert_matches_cpu(got1, want1, **tol)


def test_sum_float16_accumulates_in_float():
    # One thread of the block reduction strides over elements 0, 256, 512, ...: 2048 there, then
    # 63 halves. In float16 2048 + 0.5 rounds back to 2048; accumulated in float the sum is
    # 2079.5, whose nearest float16 is 2080.
    x = torch.zeros(256 * 64, dtype=torch.float16)
    x[::256] = 0.5
    x[0] = 2048.0
    got = x.cuda().sum()
    assert got.dtype == torch.float16
    assert got.item() == 2080.0
    assert_matches_cpu(got, x.sum())
    # bfloat16 as well
    y = torch.full((4096,), 1.0, dtype=torch.bfloat16)
    assert y.cuda().sum().item() == 4096.0


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float64, torch.complex64], ids=_id)
def test_sum_other_float_dtypes(dtype):
    cpu = sample((10, 300), dtype, seed=104, low=-1, high=1)
    dev = cpu.cuda()
    rtol = {torch.float16: 2e-3, torch.bfloat16: 1e-2}.get(dtype, 1e-6)
    assert_matches_cpu(dev.sum(), cpu.sum(), rtol=rtol, atol=rtol)
    assert_matches_cpu(dev.sum(1), cpu.sum(1), rtol=rtol, atol=rtol)


def _dirty_cached_blocks(nbytes=4096):
    """Leave freed, NaN-filled blocks in the device's cache: an output the kernel forgets to write shows NaN."""
    junk = [torch.full((nbytes // 4,), float("nan"), device="cuda") for _ in range(4)]
    junk += [torch.full((n,), float("nan"), device="cuda") for n in (1, 3, 64)]
    torch.cuda.synchronize()
    del junk


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.float16], ids=_id)
def test_sum_of_empty_tensors_is_zero(dtype):
    _dirty_cached_blocks()
    got = torch.zeros(0, dtype=dtype, device="cuda").sum()
    assert_matches_cpu(got, torch.zeros(0, dtype=dtype).sum())
    assert got.item() == 0
    _dirty_cached_blocks()
    e = torch.zeros(3, 0, 4, dtype=dtype)
    assert_matches_cpu(e.cuda().sum(1), e.sum(1))                  # reduced dim empty: zeros (3, 4)
    _dirty_cached_blocks()
    assert_matches_cpu(e.cuda().sum((0, 1), keepdim=True), e.sum((0, 1), keepdim=True))
    assert_matches_cpu(e.cuda().sum(0), e.sum(0))                  # result itself empty: (0, 4)


def test_sum_large_matches_cpu():
    cpu = torch.from_numpy(np.random.default_rng(105).uniform(0.0, 1.0, 1_000_000).astype(np.float32))
    dev = cpu.cuda()
    got = dev.sum()
    assert_matches_cpu(got, cpu.sum(), rtol=1e-5)
    np.testing.assert_allclose(got.item(), cpu.numpy().astype(np.float64).sum(), rtol=1e-5)
    m = cpu.reshape(1000, 1000)
    assert_matches_cpu(m.cuda().sum(0), m.sum(0), rtol=1e-5, atol=1e-4)
    assert_matches_cpu(m.cuda().sum(1), m.sum(1), rtol=1e-5, atol=1e-4)


def test_sum_noncontiguous_inputs():
    cpu = sample((12, 10, 8), torch.float32, seed=106)
    dev = cpu.cuda()
    views = [lambda t: t.transpose(0, 2), lambda t: t[::3, 1::2],
             lambda t: t[:, 4], lambda t: t[:, :, 0].expand(5, 12, 10), lambda t: t.permute(1, 2, 0)]
    for view in views:
        for dim in (None, 0, 1, (0, 2) if view(cpu).dim() == 3 else (0, 1)):
            got = view(dev).sum() if dim is None else view(dev).sum(dim)
            want = view(cpu).sum() if dim is None else view(cpu).sum(dim)
            assert_matches_cpu(got, want, rtol=1e-5, atol=1e-5)


def test_sum_out_and_zero_dim():
    cpu = sample((4, 5), torch.float32, seed=107)
    out = torch.full((5,), float("nan"), device="cuda")
    r = torch.sum(cpu.cuda(), 0, out=out)
    assert r.data_ptr() == out.data_ptr()
    assert_matches_cpu(out, cpu.sum(0), rtol=1e-6, atol=1e-6)
    s = torch.tensor(3.5).cuda()
    assert_matches_cpu(s.sum(), torch.tensor(3.5))
    assert s.sum(0).item() == 3.5


# ---------------------------------------------------------------------------------------
# item / tolist / Python numbers, memory accounting
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("value,dtype", [(2.5, torch.float32), (-7, torch.int64), (True, torch.bool),
                                         (1.5, torch.float16), (0.25, torch.bfloat16), (1.5 - 2j, torch.complex64),
                                         (2**40 + 3, torch.int64), (0.1, torch.float64)], ids=_id)
def test_item_and_python_conversions(value, dtype):
    cpu = torch.tensor([value], dtype=dtype)
    dev = cpu.cuda()
    assert dev.item() == cpu.item()
    assert type(dev.item()) is type(cpu.item())
    assert dev.tolist() == cpu.tolist()
    if not dtype.is_complex:
        assert float(dev) == float(cpu)
    if dtype in (torch.int64, torch.bool):
        assert int(dev) == int(cpu)
        assert bool(dev) == bool(cpu)


def test_item_waits_for_queued_kernels():
    x = torch.zeros(200_000, device="cuda")
    for _ in range(5):
        torch.add(x, 1, out=x)
    assert x[-1].item() == 5.0
    assert x.sum().item() == 1_000_000.0


def test_tolist_nested_and_noncontiguous():
    cpu = sample((3, 4), torch.int64, seed=110)
    assert cpu.cuda().tolist() == cpu.tolist()
    assert cpu.cuda().t().tolist() == cpu.t().tolist()
    assert cpu.cuda()[:, ::2].tolist() == cpu[:, ::2].tolist()
    assert torch.tensor(4.0).cuda().tolist() == 4.0
    assert torch.zeros(0, 2).cuda().tolist() == []


def test_item_on_multi_element_cuda_tensor_raises():
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"):
        torch.ones(2, device="cuda").item()


@pytest.mark.parametrize("numel,dtype,rounded", [(1, torch.float32, 512), (1000, torch.float32, 4096),
                                                 (250_000, torch.float32, 1_000_448), (129, torch.float64, 1536)], ids=_id)
def test_memory_allocated_follows_tensor_lifetime(numel, dtype, rounded):
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    x = torch.empty(numel, dtype=dtype, device="cuda")
    assert torch.cuda.memory_allocated() - before == rounded
    view = x[1:]                    # a view shares the storage: nothing more is allocated
    assert torch.cuda.memory_allocated() - before == rounded
    del x
    assert torch.cuda.memory_allocated() - before == rounded
    del view
    assert torch.cuda.memory_allocated() == before


def test_memory_allocated_of_op_results():
    a = torch.ones(1000, device="cuda")
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    b = a + a
    assert torch.cuda.memory_allocated() - before == 4096
    c = b.sum()
    assert torch.cuda.memory_allocated() - before == 4096 + 512
    del b, c
    assert torch.cuda.memory_allocated() == before


@requires_two_gpus
def test_memory_allocated_is_per_device():
    before0 = torch.cuda.memory_allocated(0)
    before1 = torch.cuda.memory_allocated(1)
    x = torch.empty(1000, device="cuda:1")
    assert torch.cuda.memory_allocated(1) - before1 == 4096
    assert torch.cuda.memory_allocated(0) == before0
    del x
    assert torch.cuda.memory_allocated(1) == before1


# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------

MIXED_DEVICE_MSG = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"


@pytest.mark.parametrize("expr", [
    pytest.param(lambda c, h: c + h, id="cuda+cpu"),
    pytest.param(lambda c, h: h + c, id="cpu+cuda"),
    pytest.param(lambda c, h: c * h, id="cuda*cpu"),
    pytest.param(lambda c, h: torch.sub(h, c), id="sub(cpu,cuda)"),
    pytest.param(lambda c, h: c / h, id="cuda/cpu"),
    pytest.param(lambda c, h: c.add_(h), id="cuda.add_(cpu)"),
    pytest.param(lambda c, h: torch.add(c, c, out=h), id="out=cpu"),
])
def test_mixing_cuda_and_cpu_tensors_raises(expr):
    c = torch.ones(3, device="cuda")
    h = torch.ones(3)
    with pytest.raises(RuntimeError) as err:
        expr(c, h)
    assert str(err.value) == MIXED_DEVICE_MSG


def test_mixing_cuda_and_one_element_cpu_tensor_raises():
    # only a 0-d CPU tensor is let through; a 1-element 1-d one is not
    with pytest.raises(RuntimeError) as err:
        torch.ones(3, device="cuda") + torch.ones(1)
    assert str(err.value) == MIXED_DEVICE_MSG


@requires_two_gpus
def test_mixing_two_cuda_devices_raises():
    with pytest.raises(RuntimeError) as err:
        torch.ones(3, device="cuda:0") + torch.ones(3, device="cuda:1")
    assert str(err.value) == \
        "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!"


def test_device_index_out_of_range_raises():
    bad = f"cuda:{torch.cuda.device_count() + 3}"
    for make in (lambda: torch.empty(2, device=bad), lambda: torch.zeros(2, device=bad),
                 lambda: torch.ones(2).to(bad)):
        with pytest.raises(RuntimeError, match="invalid device ordinal"):
            make()


def test_operator_without_cuda_kernel_raises_not_implemented():
    a = torch.eye(2, device="cuda")
    with pytest.raises(NotImplementedError,
                       match="Could not run 'aten::linalg_svdvals' with arguments from the 'CUDA' backend"):
        torch.linalg.svdvals(a)
    # the CPU twin works
    assert torch.linalg.svdvals(torch.eye(2)).tolist() == [1.0, 1.0]


def test_dtype_not_supported_by_kernel_raises():
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        torch.empty(3, dtype=torch.int64, device="cuda").uniform_()


# ---------------------------------------------------------------------------------------
# Autograd through CUDA operators
# ---------------------------------------------------------------------------------------

def test_autograd_through_cuda_ops():
    x = torch.ones(3, 4, device="cuda", requires_grad=True)
    y = (x * 2 + 1).sum()
    assert y.is_cuda and y.item() == 36.0
    y.backward()
    assert x.grad is not None and x.grad.is_cuda and x.grad.device == x.device
    assert x.grad.dtype == torch.float32 and tuple(x.grad.shape) == (3, 4)
    assert x.grad.cpu().tolist() == [[2.0] * 4] * 3


def _grads_on_cpu_and_cuda(expr):
    a_cpu = sample((3, 1), torch.float32, seed=120).requires_grad_()
    b_cpu = nonzero_sample((1, 4), torch.float32, seed=121).requires_grad_()
    a_dev = a_cpu.detach().cuda().requires_grad_()
    b_dev = b_cpu.detach().cuda().requires_grad_()
    for a, b in ((a_cpu, b_cpu), (a_dev, b_dev)):
        expr(a, b).sum().backward()
    assert a_dev.grad.is_cuda and b_dev.grad.is_cuda
    # broadcasting: the gradients are summed back (on the device) to each operand's shape
    assert_matches_cpu(a_dev.grad, a_cpu.grad, rtol=1e-6, atol=1e-6)
    assert_matches_cpu(b_dev.grad, b_cpu.grad, rtol=1e-6, atol=1e-6)


def test_autograd_mul_add_with_broadcasting_matches_cpu():
    _grads_on_cpu_and_cuda(lambda a, b: a * b + 3.0)


def test_autograd_gradient_accumulation_on_cuda():
    # b reaches the loss along two paths: autograd sums the two gradients (add_ on the device).
    _grads_on_cpu_and_cuda(lambda a, b: a * b + 3 * b + a * 0.5)


def test_autograd_sub_with_broadcasting_matches_cpu():
    _grads_on_cpu_and_cuda(lambda a, b: a - b)


def test_autograd_div_with_broadcasting_matches_cpu():
    _grads_on_cpu_and_cuda(lambda a, b: a / b)


def test_autograd_cpu_leaf_moved_to_cuda():
    x = torch.ones(5, requires_grad=True)
    (x.cuda() * 3).sum().backward()
    assert x.grad.device.type == "cpu"
    assert x.grad.tolist() == [3.0] * 5


# ---------------------------------------------------------------------------------------
# gather / scatter_ (ScatterGatherKernel.cu)
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.bool], ids=_id)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather_and_scatter_match_the_cpu(dtype, dim):
    g = torch.Generator().manual_seed(3)
    cpu = torch.randint(0, 2 if dtype == torch.bool else 50, (4, 6), generator=g).to(dtype)
    size = cpu.size(dim)
    index = torch.randint(0, size, (3, 5) if dim == 0 else (4, 3), generator=g)
    assert_matches_cpu(torch.gather(cpu.cuda(), dim, index.cuda()), torch.gather(cpu, dim, index))
    # scatter_ with distinct indices along dim (a permutation), so that no two writes race
    perm = torch.stack([torch.randperm(size, generator=g) for _ in range(cpu.size(1 - dim % 2))], 1 - dim % 2)
    src = torch.randint(0, 2 if dtype == torch.bool else 50, perm.shape, generator=g).to(dtype)
    want = cpu.clone().scatter_(dim, perm, src)
    got = cpu.cuda().scatter_(dim, perm.cuda(), src.cuda())
    assert_matches_cpu(got, want)
    assert_matches_cpu(cpu.cuda().scatter_(dim, perm.cuda(), 1), cpu.clone().scatter_(dim, perm, 1))
    # a non-contiguous self
    base = cpu.t().contiguous().t()
    assert_matches_cpu(torch.gather(base.cuda(), dim, index.cuda()), torch.gather(base, dim, index))


def test_gather_index_out_of_range_is_a_device_side_assert():
    # Checked on the device (CUDA_KERNEL_ASSERT), so it surfaces at the next synchronizing
    # call and leaves the device unusable: run it in a fresh process.
    program = """
import torch
x = torch.arange(6.0, device="cuda").view(2, 3)
index = torch.tensor([[0, 3]], device="cuda")
try:
    # The error is reported by whichever CUDA call comes after the kernel failed: the
    # synchronize, or already a call inside gather itself.
    y = torch.gather(x, 1, index)
    torch.cuda.synchronize()
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
"""
    import os
    import subprocess
    import sys
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=120)
    assert "RuntimeError CUDA error: device-side assert triggered" in out.stdout, out.stdout + out.stderr


# ---------------------------------------------------------------------------------------
# Tensor.record_stream: the hazard and its fix, made deterministic by holding a stream
# ---------------------------------------------------------------------------------------

def _use_on_held_stream_then_free(record):
    """x is made on the default stream, read by y = x * 2 on a side stream that is held, and
    freed before the side stream has run. The next allocation of the same size then either
    reuses x's block at once (and overwrites it before the side stream read it) or, after
    record_stream, gets another block."""
    x = torch.full((1000,), 3.0, device="cuda")
    ptr = x.data_ptr()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    torch._C._cuda_simHoldStream(s.cuda_stream)
    try:
        with torch.cuda.stream(s):
            y = x * 2
        if record:
            x.record_stream(s)
        del x
        z = torch.empty(1000, device="cuda")
        z.fill_(-1.0)
        reused = z.data_ptr() == ptr
        # The fill has run before the side stream starts: the order a busy GPU could give.
        torch.cuda.current_stream().synchronize()
    finally:
        torch._C._cuda_simReleaseStream(s.cuda_stream)
    torch.cuda.synchronize()
    return reused, y.cpu()


@pytest.mark.skipif(not torch._C._has_cuda or not torch._C._cuda_isSimulated(), reason="simulated device only")
def test_without_record_stream_a_freed_tensor_is_overwritten_before_another_stream_reads_it():
    torch.cuda.empty_cache()
    reused, y = _use_on_held_stream_then_free(record=False)
    assert reused
    assert y.tolist() == [-2.0] * 1000  # the side stream read z's -1s, not x's 3s


@pytest.mark.skipif(not torch._C._has_cuda or not torch._C._cuda_isSimulated(), reason="simulated device only")
def test_record_stream_keeps_the_block_until_the_stream_is_done():
    torch.cuda.empty_cache()
    reused, y = _use_on_held_stream_then_free(record=True)
    assert not reused
    assert y.tolist() == [6.0] * 1000


def test_record_stream_of_a_cpu_tensor_raises():
    with pytest.raises(NotImplementedError, match="Could not run 'aten::record_stream' with arguments from the 'CPU'"):
        torch.ones(2).record_stream(torch.cuda.current_stream())
