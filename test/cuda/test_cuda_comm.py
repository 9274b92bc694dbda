"""torch.cuda.comm: broadcast, broadcast_coalesced, reduce_add(_coalesced), scatter and gather.

Mirrors PyTorch's tests of torch.cuda.comm in test/test_cuda_multigpu.py (TestCudaComm): every
result is compared with the same computation on the CPU, its device checked, and every error
(type and message) provoked. Guide: docs/source/internals/cuda_comm.rst.

The functions move tensors between devices, so all but the argument checks need two CUDA
devices. On a machine without them run them on the simulated device:

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_comm.py

Without two devices the tests that need them are skipped.
"""

import re
import warnings

import numpy as np
import pytest

import torch
import torch.cuda.comm as comm
from cuda_testing import _id, as_numpy

requires_two_gpus = pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2,
                                       reason="needs two CUDA devices")

DTYPES = [torch.float32, torch.float64, torch.int64, torch.float16]


def sample(shape, dtype, seed=0):
    """A CPU tensor of `dtype` with reproducible values (small integers for the integer dtypes)."""
    rng = np.random.default_rng(seed)
    if dtype == torch.int64:
        return torch.from_numpy(rng.integers(-50, 50, size=shape).astype(np.int64))
    return torch.from_numpy(rng.uniform(-5, 5, size=shape)).to(dtype)


def assert_on(t, device, want):
    """t lives on `device` ("cuda:1", "cpu") and equals the CPU tensor `want` exactly."""
    assert str(t.device) == device
    assert t.dtype == want.dtype
    assert tuple(t.shape) == tuple(want.shape)
    np.testing.assert_array_equal(as_numpy(t), as_numpy(want))


def raises(exc, message):
    """pytest.raises matching the whole message literally."""
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


# ---------------------------------------------------------------------------------------
# The module and the checks that need no device
# ---------------------------------------------------------------------------------------

def test_module_is_registered():
    assert torch.cuda.comm is comm
    assert comm.__all__ == ["broadcast", "broadcast_coalesced", "reduce_add", "reduce_add_coalesced",
                            "scatter", "gather"]
    for name in comm.__all__:
        assert callable(getattr(torch.cuda.comm, name))


def test_argument_checks_before_any_device():
    with raises(RuntimeError, "Exactly one of 'devices' and 'out' must be specified, "
                              "but got devices=None and out=None"):
        comm.broadcast(torch.ones(2))
    with raises(RuntimeError, "Exactly one of 'devices' and 'out' must be specified, "
                              "but got devices=[0] and out=[]"):
        comm.broadcast(torch.ones(2), [0], out=[])
    with raises(RuntimeError, "'devices' must not be specified when 'out' is specified, but got devices=[0]"):
        comm.scatter(torch.ones(2), [0], out=[])
    with raises(RuntimeError, "'chunk_sizes' must not be specified when 'out' is specified, "
                              "but got chunk_sizes=[2]"):
        comm.scatter(torch.ones(2), chunk_sizes=[2], out=[])
    with raises(RuntimeError, "'destination' must not be specified when 'out' is specified, "
                              "but got destination=0"):
        comm.gather([torch.ones(2)], destination=0, out=torch.ones(2))
    with raises(ValueError, "Expected a non cpu device, but got: cpu"):
        comm.broadcast(torch.ones(2), ["cpu"])
    with raises(RuntimeError, "Expected at least one tensor to gather from"):
        comm.gather([], out=torch.ones(2))


def test_bucketing_closes_a_bucket_at_the_limit():
    # broadcast_coalesced (C++ take_tensors): one type per bucket, closed once it reaches the limit.
    f = [torch.ones(2) for _ in range(5)]          # 8 bytes each
    i = [torch.ones(3, dtype=torch.int64)]         # 24 bytes
    groups = comm._take_tensor_groups([f[0], i[0], f[1], f[2], f[3], f[4]], 16)
    assert [[id(t) for t in g] for g in groups] == [[id(i[0])], [id(f[0]), id(f[1])],
                                                    [id(f[2]), id(f[3])], [id(f[4])]]
    # reduce_add_coalesced (Python _take_tensors): a tensor that would overflow starts a new one.
    groups = list(comm._take_tensors([f[0], f[1], f[2], i[0]], 20))
    assert [[id(t) for t in g] for g in groups] == [[id(f[0]), id(f[1])], [id(f[2])], [id(i[0])]]


# ---------------------------------------------------------------------------------------
# broadcast
# ---------------------------------------------------------------------------------------

@requires_two_gpus
@pytest.mark.parametrize("dtype", DTYPES, ids=_id)
@pytest.mark.parametrize("source", ["cpu", "cuda:0", "cuda:1"])
def test_broadcast(dtype, source):
    cpu = sample((4, 5), dtype, seed=1)
    src = cpu.to(source)
    results = comm.broadcast(src, [0, 1])
    assert isinstance(results, list) and len(results) == 2
    for device, r in zip(["cuda:0", "cuda:1"], results):
        assert_on(r, device, cpu)
        # on the source's own device the source itself, elsewhere a new contiguous tensor
        assert (r is src) == (device == source)
        if r is not src:
            assert r.is_contiguous()


@requires_two_gpus
def test_broadcast_devices_as_strings_and_devices_and_repeated():
    cpu = sample((3,), torch.float32, seed=2)
    results = comm.broadcast(cpu.to("cuda:1"), ["cuda:0", torch.device("cuda", 1), 0])
    assert [str(r.device) for r in results] == ["cuda:0", "cuda:1", "cuda:0"]
    assert results[0] is not results[2]
    for r in results:
        np.testing.assert_array_equal(as_numpy(r), cpu.numpy())


@requires_two_gpus
def test_broadcast_noncontiguous_source():
    cpu = sample((6, 8), torch.float64, seed=3)
    src = cpu.to("cuda:0").t()[:, ::2]          # 8x3, strided
    assert not src.is_contiguous()
    results = comm.broadcast(src, [1, 0])
    assert_on(results[0], "cuda:1", cpu.t()[:, ::2].contiguous())
    assert results[0].is_contiguous()
    assert results[1] is src


@requires_two_gpus
def test_broadcast_out():
    cpu = sample((3, 4), torch.float32, seed=4)
    out = [torch.zeros(3, 4, device="cuda:0"),
           torch.zeros(4, 3, device="cuda:1").t(),                      # non-contiguous
           torch.zeros(3, 4, dtype=torch.float64, device="cuda:1")]     # copy_ converts
    results = comm.broadcast(cpu.to("cuda:0"), out=out)
    assert len(results) == 3 and all(r is o for r, o in zip(results, out))
    assert_on(out[0], "cuda:0", cpu)
    assert_on(out[1], "cuda:1", cpu)
    assert_on(out[2], "cuda:1", cpu.double())


@requires_two_gpus
def test_broadcast_errors():
    src = torch.ones(2, 3, device="cuda:0")
    with raises(RuntimeError, "Expected all output tensors to be CUDA tensors, but output tensor at index 1 "
                              "has device 'cpu'"):
        comm.broadcast(src, out=[torch.empty(2, 3, device="cuda:1"), torch.empty(2, 3)])
    with raises(RuntimeError, "Expected all output tensors to have same shape as the source tensor [2, 3], "
                              "but output tensor at index 0 has shape [3, 2]"):
        comm.broadcast(src, out=[torch.empty(3, 2, device="cuda:1")])
    with raises(RuntimeError, "Expected non-negative device index, but got -1"):
        comm.broadcast(src, [1, -1])


# ---------------------------------------------------------------------------------------
# broadcast_coalesced
# ---------------------------------------------------------------------------------------

def _mixed_tensors(device):
    cpu = [sample((5,), torch.float32, seed=10), sample((2, 3), torch.int64, seed=11),
           sample((4, 4), torch.float32, seed=12), sample((7,), torch.float64, seed=13),
           sample((3,), torch.int64, seed=14), sample((2, 2), torch.float16, seed=15),
           sample((6, 2), torch.float32, seed=16), sample((1,), torch.float64, seed=17)]
    on = [t.to(device) for t in cpu]
    on[2] = on[2].t()          # non-contiguous inputs are flattened like the others
    cpu[2] = cpu[2].t()
    return cpu, on


@requires_two_gpus
@pytest.mark.parametrize("buffer_size", [10485760, 40, 1])
def test_broadcast_coalesced(buffer_size):
    cpu, tensors = _mixed_tensors("cuda:0")
    if buffer_size < 100:      # several buckets per dtype
        assert len(comm._take_tensor_groups(tensors, buffer_size)) > 4
    outputs = comm.broadcast_coalesced(tensors, [0, 1], buffer_size=buffer_size)
    assert len(outputs) == 2
    # devices[0]: the inputs themselves
    assert len(outputs[0]) == len(tensors) and all(o is t for o, t in zip(outputs[0], tensors))
    # devices[1]: copies, in the order of the inputs
    assert len(outputs[1]) == len(tensors)
    for o, want in zip(outputs[1], cpu):
        assert_on(o, "cuda:1", want)
        assert not o.requires_grad


@requires_two_gpus
def test_broadcast_coalesced_from_cuda1_to_both_and_version_counters():
    cpu, tensors = _mixed_tensors("cuda:1")
    outputs = comm.broadcast_coalesced(tensors, [torch.device("cuda:1"), "cuda:0"], buffer_size=64)
    for o, want in zip(outputs[1], cpu):
        assert_on(o, "cuda:0", want)
    # The copies of a bucket are views of one buffer, but each has its own version counter.
    first, second = outputs[1][0], outputs[1][2]
    v = second._version
    first.add_(1)
    assert second._version == v


@requires_two_gpus
def test_broadcast_coalesced_empty_tensor():
    # As in PyTorch, an empty tensor is not a view of the buffer: a new 1-d empty tensor.
    tensors = [torch.ones(2, device="cuda:0"), torch.ones(0, 3, device="cuda:0"), torch.ones(3, device="cuda:0")]
    outputs = comm.broadcast_coalesced(tensors, [0, 1])
    assert [tuple(t.shape) for t in outputs[1]] == [(2,), (0,), (3,)]
    assert all(str(t.device) == "cuda:1" for t in outputs[1])


@requires_two_gpus
def test_broadcast_coalesced_errors():
    with raises(RuntimeError, "All tensors must be on devices[0]: 0"):
        comm.broadcast_coalesced([torch.ones(2, device="cuda:0"), torch.ones(2, device="cuda:1")], [0, 1])
    with raises(RuntimeError, "All tensors must be on devices[0]: 0"):
        comm.broadcast_coalesced([torch.ones(2)], [0, 1])


# ---------------------------------------------------------------------------------------
# reduce_add, reduce_add_coalesced
# ---------------------------------------------------------------------------------------

@requires_two_gpus
@pytest.mark.parametrize("dtype", DTYPES, ids=_id)
@pytest.mark.parametrize("destination", [0, 1, None])
def test_reduce_add(dtype, destination):
    a, b = sample((4, 3), dtype, seed=20), sample((4, 3), dtype, seed=21)
    inputs = [a.to("cuda:0"), b.to("cuda:1")]
    result = comm.reduce_add(inputs, destination)
    device = f"cuda:{0 if destination is None else destination}"    # default: the current device
    assert str(result.device) == device and result.dtype == dtype
    assert all(result is not t for t in inputs)
    # a + b, computed once: exact for every dtype here (one rounding, as on the CPU)
    assert_on(result, device, a + b)
    assert_on(inputs[0], "cuda:0", a)     # inputs untouched
    assert_on(inputs[1], "cuda:1", b)


@requires_two_gpus
def test_reduce_add_integers_exact_over_many_inputs():
    cpus = [sample((5, 6), torch.int64, seed=30 + i) * (10 ** 12) for i in range(4)]
    inputs = [t.to(f"cuda:{i % 2}") for i, t in enumerate(cpus)]
    inputs[1] = cpus[1].t().contiguous().to("cuda:1").t()      # non-contiguous
    want = cpus[0] + cpus[1] + cpus[2] + cpus[3]
    assert_on(comm.reduce_add(inputs, destination=1), "cuda:1", want)
    assert_on(comm.reduce_add(inputs, destination=torch.device("cuda:0")), "cuda:0", want)


@requires_two_gpus
def test_reduce_add_single_input_is_returned():
    t = torch.ones(3, device="cuda:1")
    assert comm.reduce_add([t], 1) is t


@requires_two_gpus
def test_reduce_add_errors():
    with raises(AssertionError, "reduce_add expects all inputs to be on GPUs, but input 1 is on CPU"):
        comm.reduce_add([torch.ones(2, device="cuda:0"), torch.ones(2)], 0)
    with raises(ValueError, "input 1 has invalid size: got 3x2, but expected 2x3"):
        comm.reduce_add([torch.ones(2, 3, device="cuda:0"), torch.ones(3, 2, device="cuda:1")], 0)
    with raises(RuntimeError, "reduce_add expects destination to be on the same GPU with one of the tensors"):
        comm.reduce_add([torch.ones(2, device="cuda:0"), torch.ones(2, device="cuda:0")], 1)
    with raises(ValueError, "Expected a non cpu device, but got: cpu"):
        comm.reduce_add([torch.ones(2, device="cuda:0")], "cpu")


@requires_two_gpus
@pytest.mark.parametrize("buffer_size", [10485760, 24])
def test_reduce_add_coalesced(buffer_size):
    cpu0, on0 = _mixed_tensors("cuda:0")
    cpu1 = [sample(tuple(t.shape), t.dtype, seed=40 + i) for i, t in enumerate(cpu0)]
    on1 = [t.to("cuda:1") for t in cpu1]
    results = comm.reduce_add_coalesced([on0, on1], destination=1, buffer_size=buffer_size)
    assert isinstance(results, tuple) and len(results) == len(cpu0)
    for r, a, b in zip(results, cpu0, cpu1):
        assert_on(r, "cuda:1", a + b)


# ---------------------------------------------------------------------------------------
# scatter
# ---------------------------------------------------------------------------------------

@requires_two_gpus
@pytest.mark.parametrize("dtype", DTYPES, ids=_id)
@pytest.mark.parametrize("source", ["cpu", "cuda:0", "cuda:1"])
def test_scatter_equal_chunks(dtype, source):
    cpu = sample((5, 4), dtype, seed=50)
    src = cpu.to(source)
    chunks = comm.scatter(src, [0, 1])
    assert isinstance(chunks, tuple) and len(chunks) == 2
    assert_on(chunks[0], "cuda:0", cpu[0:3])        # chunk(): 3 rows, then 2
    assert_on(chunks[1], "cuda:1", cpu[3:5])
    # the chunk that is already on its device is a view of the source, not a copy
    for device, c in zip(["cuda:0", "cuda:1"], chunks):
        if device == source:
            assert c.data_ptr() == src.data_ptr() + (0 if device == "cuda:0" else 3 * 4 * src.element_size())


@requires_two_gpus
def test_scatter_chunk_sizes_dim1_streams():
    cpu = sample((3, 7), torch.float32, seed=51)
    streams = [torch.cuda.Stream(device=1), None, torch.cuda.Stream(device=0)]
    chunks = comm.scatter(cpu.to("cuda:0"), [1, 1, 0], chunk_sizes=[2, 4, 1], dim=1, streams=streams)
    torch.cuda.synchronize(0)     # the copies ran on the given streams: wait for every stream
    torch.cuda.synchronize(1)
    assert_on(chunks[0], "cuda:1", cpu[:, 0:2])
    assert_on(chunks[1], "cuda:1", cpu[:, 2:6])
    assert_on(chunks[2], "cuda:0", cpu[:, 6:7])
    # dim=-1 is the same dim; a non-contiguous source
    src = cpu.to("cuda:1").t().contiguous().t()
    chunks = comm.scatter(src, [0, 1], chunk_sizes=[5, 2], dim=-1)
    assert_on(chunks[0], "cuda:0", cpu[:, 0:5])
    assert_on(chunks[1], "cuda:1", cpu[:, 5:7])


@requires_two_gpus
def test_scatter_fewer_chunks_than_devices():
    # chunk() makes as many chunks as it can: one row over two devices gives one chunk.
    chunks = comm.scatter(torch.ones(1, 3), [1, 0])
    assert len(chunks) == 1 and str(chunks[0].device) == "cuda:1"


@requires_two_gpus
@pytest.mark.skipif(not torch._C._has_cuda or not torch._C._cuda_isSimulated(), reason="simulated device only")
def test_scatter_copies_on_the_given_stream():
    # A held stream starts no new work: the copy to cuda:1 waits in it until it is released.
    cpu = sample((4, 3), torch.float32, seed=52)
    s = torch.cuda.Stream(device=1)
    torch._C._cuda_simHoldStream(s.cuda_stream)
    try:
        chunks = comm.scatter(cpu.to("cuda:0"), [0, 1], streams=[None, s])
        assert not s.query()
    finally:
        torch._C._cuda_simReleaseStream(s.cuda_stream)
    s.synchronize()
    assert_on(chunks[1], "cuda:1", cpu[2:4])

    out = [torch.zeros(1, 3, device="cuda:0"), torch.zeros(3, 3, device="cuda:1")]
    s0 = torch.cuda.Stream(device=0)
    torch._C._cuda_simHoldStream(s0.cuda_stream)
    try:
        comm.scatter(cpu.to("cuda:1"), streams=[s0], out=out)
        assert not s0.query()
    finally:
        torch._C._cuda_simReleaseStream(s0.cuda_stream)
    s0.synchronize()
    assert_on(out[0], "cuda:0", cpu[0:1])


@requires_two_gpus
def test_scatter_out():
    cpu = sample((4, 6), torch.int64, seed=53)
    out = [torch.zeros(4, 1, dtype=torch.int64, device="cuda:1"),
           torch.zeros(5, 4, dtype=torch.int64, device="cuda:0").t(),    # 4x5, non-contiguous
           torch.zeros(4, 0, dtype=torch.int64, device="cuda:1")]
    results = comm.scatter(cpu.to("cuda:0"), dim=1, out=out)
    assert isinstance(results, tuple) and all(r is o for r, o in zip(results, out))
    torch.cuda.synchronize(0)
    torch.cuda.synchronize(1)
    assert_on(out[0], "cuda:1", cpu[:, 0:1])
    assert_on(out[1], "cuda:0", cpu[:, 1:6])
    assert tuple(out[2].shape) == (4, 0)


@requires_two_gpus
def test_scatter_errors():
    src = torch.ones(4, 3, device="cuda:0")
    with raises(RuntimeError, "Expected at least one device to scatter to"):
        comm.scatter(src, [])
    with raises(RuntimeError, "Expected devices and chunk_sizes to be of same length, but got "
                              "len(devices) = 2 and len(chunk_sizes) = 3"):
        comm.scatter(src, [0, 1], chunk_sizes=[1, 1, 2])
    with raises(RuntimeError, "split_with_sizes expects split_sizes to sum exactly to 4 (input tensor's size "
                              "at dimension 0), but got split_sizes=[1, 2]"):
        comm.scatter(src, [0, 1], chunk_sizes=[1, 2])
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"):
        comm.scatter(src, [0, 1], dim=2)
    with raises(RuntimeError, "Expected the device associated with the stream at index 1 (was 0) "
                              "to match the device supplied at that index (expected 1)"):
        comm.scatter(src, [0, 1], streams=[None, torch.cuda.Stream(device=0)])
    with raises(RuntimeError, "Unknown data type found in stream list. Need torch.cuda.Stream or None"):
        comm.scatter(src, [0, 1], streams=[None, 1])
    with raises(RuntimeError, "Expected non-negative device index, but got -1"):
        comm.scatter(src, [0, -1])
    with raises(RuntimeError, "Expected at least one output tensor to scatter to"):
        comm.scatter(src, out=[])
    with raises(RuntimeError, "Expected all output tensors to be CUDA tensors, but output tensor at index 0 "
                              "has device 'cpu'"):
        comm.scatter(src, out=[torch.empty(4, 3)])
    with raises(RuntimeError, "Output tensor at index 1 has incorrect shape: [2, 2]. Expected same shape "
                              "except for scatter dim 0 as the source tensor: [4, 3]"):
        comm.scatter(src, out=[torch.empty(2, 3, device="cuda:1"), torch.empty(2, 2, device="cuda:0")])
    with raises(RuntimeError, "Output tensor at index 0 has incorrect shape: [12]. Expected same shape "
                              "except for scatter dim 0 as the source tensor: [4, 3]"):
        comm.scatter(src, out=[torch.empty(12, device="cuda:1")])
    with raises(RuntimeError, "Total size for output tensors along scatter dim 1 does not match the source "
                              "tensor size at dim 1. Expected 3, but got total size 4"):
        comm.scatter(src, dim=-1, out=[torch.empty(4, 2, device="cuda:1"), torch.empty(4, 2, device="cuda:0")])
    with raises(RuntimeError, "Expected the device associated with the stream at index 0 (was 0) "
                              "to match the device supplied at that index (expected 1)"):
        comm.scatter(src, out=[torch.empty(4, 3, device="cuda:1")], streams=[torch.cuda.Stream(device=0)])


# ---------------------------------------------------------------------------------------
# gather
# ---------------------------------------------------------------------------------------

@requires_two_gpus
@pytest.mark.parametrize("dtype", DTYPES, ids=_id)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather(dtype, dim):
    a, b, c = sample((2, 3), dtype, seed=60), sample((2, 3), dtype, seed=61), sample((2, 3), dtype, seed=62)
    if dim == 0:
        a, b = a[:1], sample((4, 3), dtype, seed=63)
    want = np.concatenate([a.numpy(), b.numpy(), c.numpy()], axis=dim)
    inputs = [a.to("cuda:1"), b.to("cuda:0"), c.to("cuda:1")]
    for destination, device in [(None, "cuda:0"), (1, "cuda:1"), ("cuda:0", "cuda:0"), ("cpu", "cpu"),
                                (torch.device("cpu"), "cpu")]:
        result = comm.gather(inputs, dim=dim, destination=destination)
        assert str(result.device) == device and result.dtype == dtype and result.is_contiguous()
        np.testing.assert_array_equal(as_numpy(result), want)


@requires_two_gpus
def test_gather_minus_one_is_cpu_with_a_warning():
    cpu = sample((2, 2), torch.float32, seed=64)
    with pytest.warns(FutureWarning, match="Using -1 to represent CPU tensor is deprecated"):
        result = comm.gather([cpu.to("cuda:0"), cpu.to("cuda:1")], destination=-1)
    assert_on(result, "cpu", torch.from_numpy(np.concatenate([cpu.numpy(), cpu.numpy()])))


@requires_two_gpus
def test_gather_noncontiguous_inputs_and_out():
    cpu = sample((4, 6), torch.float64, seed=65)
    inputs = [cpu.to("cuda:0").t()[:, :2], cpu.to("cuda:1").t()[:, 2:]]       # 6x2 and 6x2, strided
    assert not inputs[0].is_contiguous()
    want = cpu.t().contiguous()
    for out in [torch.zeros(6, 4, dtype=torch.float64), torch.zeros(6, 4, dtype=torch.float64, device="cuda:1"),
                torch.zeros(4, 6, dtype=torch.float64, device="cuda:0").t()]:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert comm.gather(inputs, dim=1, out=out) is out
        torch.cuda.synchronize(0)
        torch.cuda.synchronize(1)
        assert_on(out, str(out.device), want)


@requires_two_gpus
def test_scatter_then_gather_round_trip():
    cpu = sample((7, 5), torch.float16, seed=66)
    chunks = comm.scatter(cpu, [1, 0, 1], chunk_sizes=[3, 1, 3])
    assert [str(c.device) for c in chunks] == ["cuda:1", "cuda:0", "cuda:1"]
    assert_on(comm.gather(chunks, destination="cpu"), "cpu", cpu)


@requires_two_gpus
def test_gather_errors():
    a = torch.ones(2, 3, device="cuda:0")
    with raises(RuntimeError, "Expected at least one tensor to gather from"):
        comm.gather([])
    with raises(RuntimeError, "Expected all input tensors to be CUDA tensors, but tensor at index 1 "
                              "has device cpu"):
        comm.gather([a, torch.ones(2, 3)])
    with raises(RuntimeError, "Expected all input tensors to be CUDA tensors, but tensor at index 1 "
                              "has device 'cpu'"):
        comm.gather([a, torch.ones(2, 3)], out=torch.empty(4, 3))
    with raises(RuntimeError, "Expected all input tensors to have the same number of dimensions, but tensor "
                              "at index 1 has 1 dimensions, (expected 2)"):
        comm.gather([a, torch.ones(3, device="cuda:1")])
    with raises(RuntimeError, "Input tensor at index 1 has invalid shape [2, 4], but expected [2, 3]"):
        comm.gather([a, torch.ones(2, 4, device="cuda:1")])
    with raises(RuntimeError, "Input tensor at index 1 has invalid shape [3, 4], but expected [3, 3]"):
        comm.gather([a, torch.ones(3, 4, device="cuda:1")], dim=0)
    with raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got -3)"):
        comm.gather([a], dim=-3)
    with raises(RuntimeError, "Expected out tensor to have shape [4, 3], but got [3, 4]"):
        comm.gather([a, a], out=torch.empty(3, 4, device="cuda:1"))
