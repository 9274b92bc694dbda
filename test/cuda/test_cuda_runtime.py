"""torch.cuda on top of c10/cuda: devices, streams, events and the CUDA caching allocator.

Mirrors PyTorch's test/test_cuda.py (TestCuda: memory, streams, events). Guide:
docs/source/internals/c10_cuda.rst and cuda_caching_allocator.rst.

Two kinds of tests:

* without a GPU (any machine, any build): PyTorch's answers and errors when CUDA is not
  built (AssertionError "Torch not compiled with CUDA enabled") or built but without a
  driver/GPU (RuntimeError "Found no NVIDIA driver ..."), and nothing touching CUDA at import;
* with a GPU (``requires_gpu``): the allocator's accounting through torch.cuda.memory,
  checked against memory_snapshot(), out-of-memory, the memory fraction, record_stream with
  two real streams, streams and events. Skipped where torch.cuda.is_available() is False.
"""

import os
import subprocess
import sys

import pytest

import torch

CUDA_BUILT = torch._C._has_cuda
requires_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")
no_gpu = pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
cuda_built_only = pytest.mark.skipif(not CUDA_BUILT, reason="torch was built without CUDA")

# What initialising CUDA raises here: an AssertionError without a CUDA build, else the
# driver's or device count's reason as a RuntimeError.
if CUDA_BUILT:
    INIT_ERROR = (RuntimeError, "Found no NVIDIA driver on your system|No CUDA GPUs are available")
else:
    INIT_ERROR = (AssertionError, "Torch not compiled with CUDA enabled")


# ---------------------------------------------------------------------------------------
# Any machine
# ---------------------------------------------------------------------------------------

def test_import_torch_touches_no_cuda():
    # Nothing in libc10_cuda runs at load time: no "CUDA initialization" warning, no error.
    out = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True, text=True,
                         env=dict(os.environ), check=True)
    assert out.stderr == ""


@no_gpu
def test_is_available_and_device_count_without_gpu():
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0
    assert torch.cuda.is_initialized() is False


@no_gpu
@pytest.mark.parametrize("call", [
    pytest.param(lambda: torch.cuda.init(), id="init"),
    pytest.param(lambda: torch.cuda.current_device(), id="current_device"),
    pytest.param(lambda: torch.cuda.set_device(0), id="set_device"),
    pytest.param(lambda: torch.cuda.synchronize(), id="synchronize"),
    pytest.param(lambda: torch.cuda.current_stream(), id="current_stream"),
    pytest.param(lambda: torch.cuda.default_stream(), id="default_stream"),
    pytest.param(lambda: torch.cuda.caching_allocator_alloc(10), id="caching_allocator_alloc"),
    pytest.param(lambda: torch.cuda.set_per_process_memory_fraction(0.5), id="set_per_process_memory_fraction"),
    pytest.param(lambda: torch.cuda.mem_get_info(), id="mem_get_info"),
    pytest.param(lambda: torch.cuda.memory_snapshot(), id="memory_snapshot"),
    pytest.param(lambda: torch.cuda.reset_peak_memory_stats(), id="reset_peak_memory_stats"),
    pytest.param(lambda: torch.cuda.get_device_name(), id="get_device_name"),
])
def test_using_cuda_without_gpu_raises_pytorchs_error(call):
    exc, match = INIT_ERROR
    with pytest.raises(exc, match=match):
        call()
    assert torch.cuda.is_initialized() is False


@no_gpu
def test_memory_queries_before_cuda_is_used_are_zero():
    assert torch.cuda.memory_allocated() == 0
    assert torch.cuda.memory_reserved() == 0
    assert torch.cuda.max_memory_allocated() == 0
    assert torch.cuda.memory_stats() == {}
    assert torch.cuda.empty_cache() is None


def test_memory_functions_are_reexported_by_torch_cuda():
    assert torch.cuda.memory_allocated is torch.cuda.memory.memory_allocated
    assert torch.cuda.caching_allocator_alloc is torch.cuda.memory.caching_allocator_alloc
    assert torch.cuda.OutOfMemoryError is torch.OutOfMemoryError
    assert issubclass(torch.cuda.CudaError, RuntimeError)


@no_gpu
def test_stream_without_gpu_raises_runtime_error():
    match = "requires CUDA support" if not CUDA_BUILT else INIT_ERROR[1]
    with pytest.raises(RuntimeError, match=match):
        torch.cuda.Stream()
    if not CUDA_BUILT:
        with pytest.raises(RuntimeError, match="torch.cuda.Stream requires CUDA support"):
            torch.cuda.Stream()


def test_event_without_cuda_build_is_a_dummy_class():
    if CUDA_BUILT:
        # Created lazily: constructing an event needs no GPU, and an unrecorded event is done.
        e = torch.cuda.Event()
        assert repr(e) == "<torch.cuda.Event uninitialized>"
        assert e.query() is True
        assert e.device is None
    else:
        with pytest.raises(RuntimeError, match="Tried to instantiate dummy base class Event"):
            torch.cuda.Event()


def test_no_op_context_managers_and_negative_devices():
    torch.cuda.set_device(-1)  # negative: a no-op, as in PyTorch
    with torch.cuda.device(None):
        pass
    with torch.cuda.device(-1):
        pass
    with torch.cuda.stream(None):
        pass


def test_device_context_manager_without_cuda_build():
    if CUDA_BUILT:
        pytest.skip("CUDA is built")
    with pytest.raises(RuntimeError, match="PyTorch was compiled without CUDA support"):
        with torch.cuda.device(0):
            pass


def test_check_error():
    torch.cuda.check_error(0)
    if CUDA_BUILT:
        # The runtime's own message, as PyTorch's test_check_error expects.
        with pytest.raises(torch.cuda.CudaError, match="out of memory"):
            torch.cuda.check_error(2)


def test_allocator_settings_are_checked_in_every_build():
    before = torch._C._accelerator_getAllocatorSettings()
    try:
        with pytest.raises(ValueError, match="Unrecognized key 'foo' in Accelerator allocator config."):
            torch.cuda.memory._set_allocator_settings("foo:1")
        assert torch._C._accelerator_getAllocatorSettings() == before  # unchanged
        with pytest.raises(ValueError, match="garbage_collect_threshold is invalid"):
            torch.cuda.memory._set_allocator_settings("garbage_collection_threshold:1.5")
        torch.cuda.memory._set_allocator_settings("max_split_size_mb:40,roundup_power2_divisions:4")
        assert torch._C._accelerator_getAllocatorSettings() == "max_split_size_mb:40,roundup_power2_divisions:4"
    finally:
        torch.cuda.memory._set_allocator_settings(before)


@cuda_built_only
def test_cuda_allocator_is_registered_for_cuda():
    assert torch._C._get_allocator_name("cuda") == "c10::cuda::CUDACachingAllocator::Native::NativeCachingAllocator"
    assert torch._C._cuda_cudaCachingAllocator_name() == "native"


@cuda_built_only
@no_gpu
def test_cuda_bindings_without_gpu_raise_instead_of_crashing():
    assert torch._C._cuda_getDeviceCount() == 0
    with pytest.raises(RuntimeError, match="Found no NVIDIA driver|No CUDA GPUs are available"):
        torch._C._cuda_init()
    with pytest.raises(RuntimeError, match="Invalid device argument 0: did you call init\\?"):
        torch._C._cuda_memoryStats(0)
    with pytest.raises(RuntimeError, match="CUDA error"):
        torch._C._cuda_cudaCachingAllocator_raw_alloc(16, 0)
    torch._C._cuda_cudaCachingAllocator_raw_delete(0)  # nullptr: nothing to free
    with pytest.raises(RuntimeError, match="invalid device pointer"):
        torch._C._cuda_cudaCachingAllocator_raw_delete(0x1234)
    # A CUDA storage asks torch.cuda._lazy_init() first, which explains.
    with pytest.raises(RuntimeError, match="Found no NVIDIA driver|No CUDA GPUs are available"):
        torch.UntypedStorage(3, device="cuda")


# ---------------------------------------------------------------------------------------
# GPU: PyTorch's test_cuda.py memory, stream and event tests
# ---------------------------------------------------------------------------------------

def _check_memory_stat_consistency():
    """PyTorch's TestCuda._check_memory_stat_consistency: stats recomputed from the snapshot."""
    import collections

    snapshot = torch.cuda.memory_snapshot()
    expected_each_device = collections.defaultdict(lambda: collections.defaultdict(int))
    for segment in snapshot:
        expandable = segment["is_expandable"]
        expected = expected_each_device[segment["device"]]
        pool_str = segment["segment_type"] + "_pool"
        if not expandable:
            expected["segment.all.current"] += 1
            expected["segment." + pool_str + ".current"] += 1
        expected["allocated_bytes.all.current"] += segment["allocated_size"]
        expected["allocated_bytes." + pool_str + ".current"] += segment["allocated_size"]
        expected["reserved_bytes.all.current"] += segment["total_size"]
        expected["reserved_bytes." + pool_str + ".current"] += segment["total_size"]
        expected["active_bytes.all.current"] += segment["active_size"]
        expected["active_bytes." + pool_str + ".current"] += segment["active_size"]
        expected["requested_bytes.all.current"] += segment["requested_size"]
        expected["requested_bytes." + pool_str + ".current"] += segment["requested_size"]
        sum_requested = 0
        is_split = len(segment["blocks"]) > 1
        for block in segment["blocks"]:
            if block["state"] == "active_allocated":
                expected["allocation.all.current"] += 1
                expected["allocation." + pool_str + ".current"] += 1
            if block["state"].startswith("active_"):
                sum_requested += block["requested_size"]
                expected["active.all.current"] += 1
                expected["active." + pool_str + ".current"] += 1
            if block["state"] == "inactive" and is_split and not expandable:
                expected["inactive_split.all.current"] += 1
                expected["inactive_split." + pool_str + ".current"] += 1
                expected["inactive_split_bytes.all.current"] += block["size"]
                expected["inactive_split_bytes." + pool_str + ".current"] += block["size"]
        assert sum_requested == segment["requested_size"]
    for device, expected in expected_each_device.items():
        stats = torch.cuda.memory_stats(device)
        for k, v in expected.items():
            assert v == stats[k], k


@pytest.fixture
def gpu():
    torch.cuda.empty_cache()
    yield torch.cuda.current_device()
    torch.cuda.set_per_process_memory_fraction(1.0)
    torch.cuda.empty_cache()


@requires_gpu
def test_device_properties():
    # The simulated device says what it is; a GPU gives its own name. Either way the
    # properties are cudaGetDeviceProperties' and agree with the other queries.
    prop = torch.cuda.get_device_properties(0)
    assert prop.name == torch.cuda.get_device_name(0) == torch.cuda.get_device_name()
    if torch._C._cuda_isSimulated():
        assert prop.name == "Simulated CUDA device (CPU)"
        assert torch.cuda.get_device_capability() == (8, 0)
        assert prop.total_memory == torch.cuda.mem_get_info(0)[1]
    assert prop.warp_size == 32
    assert prop.multi_processor_count >= 1
    assert repr(prop).startswith(f"_CudaDeviceProperties(name='{prop.name}', major={prop.major}, minor={prop.minor}, "
                                 f"total_memory={prop.total_memory // 2**20}MB")
    assert torch.cuda.get_device_properties(torch.device("cuda", 0)).name == prop.name
    with pytest.raises(AssertionError, match="^Invalid device id$"):
        torch.cuda.get_device_properties(torch.cuda.device_count())


@requires_gpu
def test_memory_allocation(gpu):
    # PyTorch's test_memory_allocation: exact accounting around one raw allocation.
    prev = torch.cuda.memory_allocated()
    mem = torch.cuda.caching_allocator_alloc(1)
    try:
        assert torch.cuda.memory_allocated() == prev + 512  # 1 byte -> a 512-byte block
        assert torch.cuda.memory_allocated() <= torch.cuda.max_memory_allocated()
    finally:
        torch.cuda.caching_allocator_delete(mem)
    assert torch.cuda.memory_allocated() == prev


@requires_gpu
def test_four_bytes_take_a_512_byte_block_of_a_2mib_segment(gpu):
    # On a stream of its own: blocks are cached per stream, so no segment another test left
    # in use can serve it, and it needs a new one.
    stream = torch.cuda.Stream()
    before = torch.cuda.memory_stats()
    p = torch.cuda.caching_allocator_alloc(4, stream=stream)
    after = torch.cuda.memory_stats()
    assert after["allocated_bytes.all.current"] - before["allocated_bytes.all.current"] == 512
    assert after["requested_bytes.all.current"] - before["requested_bytes.all.current"] == 4
    assert after["reserved_bytes.small_pool.current"] - before["reserved_bytes.small_pool.current"] == 2 * 1024 * 1024
    torch.cuda.caching_allocator_delete(p)
    # Freed, the block stays cached on its stream and is handed out again.
    q = torch.cuda.caching_allocator_alloc(4, stream=stream)
    assert q == p
    torch.cuda.caching_allocator_delete(q)


@requires_gpu
def test_memory_stats_consistent_with_snapshot(gpu):
    torch.cuda.reset_peak_memory_stats()
    torch.cuda.reset_accumulated_memory_stats()
    assert torch.cuda.memory_allocated() == torch.cuda.max_memory_allocated()
    assert torch.cuda.memory_reserved() == torch.cuda.max_memory_reserved()
    sizes = [4, 40 * 50 * 4, 200 * 300 * 2000 * 4, 1 << 20, (1 << 20) + 1, 10 << 20, (11 << 20) + 1, 0]
    sizes += [i * i * 4 * 4 for i in range(1, 40)]
    ptrs = []
    for size in sizes:
        ptrs.append(torch.cuda.caching_allocator_alloc(size))
        _check_memory_stat_consistency()
        assert torch.cuda.memory_allocated() <= torch.cuda.max_memory_allocated()
    for p in ptrs[::2] + ptrs[1::2]:
        reserved = torch.cuda.memory_reserved()
        torch.cuda.caching_allocator_delete(p)
        _check_memory_stat_consistency()
        assert torch.cuda.memory_reserved() == reserved  # freeing keeps the cache
    max_reserved = torch.cuda.max_memory_reserved()
    torch.cuda.empty_cache()
    _check_memory_stat_consistency()
    assert torch.cuda.memory_reserved() <= max_reserved
    assert torch.cuda.max_memory_reserved() == max_reserved
    torch.cuda.reset_peak_memory_stats()
    assert torch.cuda.max_memory_allocated() == torch.cuda.memory_allocated()
    assert torch.cuda.max_memory_reserved() == torch.cuda.memory_reserved()


@requires_gpu
def test_out_of_memory(gpu):
    with pytest.raises(torch.OutOfMemoryError, match="Tried to allocate 800000000.00 GiB. GPU 0 has a total capacity of"):
        torch.cuda.caching_allocator_alloc(1024**3 * 800000000)
    with pytest.raises(RuntimeError, match="Tried to allocate more than 1EB memory"):
        torch.cuda.caching_allocator_alloc(1024**3 * 8000000000)
    assert torch.cuda.memory_stats()["num_ooms"] >= 1
    # The device stays usable.
    p = torch.cuda.caching_allocator_alloc(1024)
    torch.cuda.caching_allocator_delete(p)


@requires_gpu
def test_out_of_memory_retry(gpu):
    total = torch.cuda.mem_get_info()[1]
    size = int(total * 0.5)
    a = torch.cuda.caching_allocator_alloc(size)
    try:
        with pytest.raises(torch.OutOfMemoryError, match="Tried to allocate"):
            torch.cuda.caching_allocator_alloc(size + int(total * 0.1))
    finally:
        torch.cuda.caching_allocator_delete(a)
    b = torch.cuda.caching_allocator_alloc(size)  # the cached segment serves it
    torch.cuda.caching_allocator_delete(b)


@requires_gpu
def test_set_per_process_memory_fraction(gpu):
    with pytest.raises(TypeError, match="Invalid type"):
        torch.cuda.set_per_process_memory_fraction(1)
    with pytest.raises(ValueError, match="Invalid fraction value"):
        torch.cuda.set_per_process_memory_fraction(-0.1)
    with pytest.raises(ValueError, match="Invalid fraction value"):
        torch.cuda.set_per_process_memory_fraction(2.0)
    # What earlier tests cached and peaked at would count against the fraction.
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    total = torch.cuda.mem_get_info()[1]
    torch.cuda.set_per_process_memory_fraction(0.5)
    assert torch.cuda.get_per_process_memory_fraction() == 0.5
    application = int(total * 0.499) - torch.cuda.max_memory_reserved()
    p = torch.cuda.caching_allocator_alloc(application)
    torch.cuda.caching_allocator_delete(p)
    torch.cuda.empty_cache()
    with pytest.raises(torch.OutOfMemoryError, match="out of memory"):
        torch.cuda.caching_allocator_alloc(int(total * 0.5) + 1)  # a byte past half
    torch.cuda.set_per_process_memory_fraction(1.0)
    p = torch.cuda.caching_allocator_alloc(1024)  # still usable
    torch.cuda.caching_allocator_delete(p)


@requires_gpu
def test_record_stream_defers_reuse_until_the_recorded_stream_is_done(gpu):
    # PyTorch's test_record_stream, with raw allocations instead of tensors.
    side = torch.cuda.Stream()
    main = torch.cuda.current_stream()
    with torch.cuda.stream(side):
        ptr = torch.cuda.caching_allocator_alloc(16)  # allocated on the side stream
    main.wait_stream(side)
    torch._C._cuda_cudaCachingAllocator_record_stream(ptr, main.cuda_stream)  # used on main too
    torch.cuda._sleep(100_000_000)  # main stays busy (~100 ms)
    torch.cuda.caching_allocator_delete(ptr)
    states = [b["state"] for s in torch.cuda.memory_snapshot() for b in s["blocks"] if b["address"] == ptr]
    assert states == ["active_pending_free"]
    with torch.cuda.stream(side):
        tmp2 = torch.cuda.caching_allocator_alloc(16)
    assert tmp2 != ptr, "allocation re-used too soon"
    main.synchronize()
    with torch.cuda.stream(side):
        tmp3 = torch.cuda.caching_allocator_alloc(16)
    assert tmp3 == ptr, "allocation not re-used"
    torch.cuda.caching_allocator_delete(tmp2)
    torch.cuda.caching_allocator_delete(tmp3)


@requires_gpu
def test_allocator_settings_roundup_power2_divisions(gpu):
    nbytes = 21 * 1024 * 1024 * 4  # 84 MiB
    before = torch._C._accelerator_getAllocatorSettings()
    try:
        torch.cuda.memory._set_allocator_settings("roundup_power2_divisions:4")
        start = torch.cuda.memory_stats()["active_bytes.all.allocated"]
        p = torch.cuda.caching_allocator_alloc(nbytes)
        assert torch.cuda.memory_stats()["active_bytes.all.allocated"] - start == 96 * 1024 * 1024
        torch.cuda.caching_allocator_delete(p)
        torch.cuda.memory._set_allocator_settings("")
        start = torch.cuda.memory_stats()["active_bytes.all.allocated"]
        p = torch.cuda.caching_allocator_alloc(nbytes)
        assert torch.cuda.memory_stats()["active_bytes.all.allocated"] - start == nbytes
        torch.cuda.caching_allocator_delete(p)
    finally:
        torch.cuda.memory._set_allocator_settings(before)


@requires_gpu
def test_memory_snapshot_history(gpu):
    torch.cuda.memory._record_memory_history(max_entries=1000)
    try:
        p = torch.cuda.caching_allocator_alloc(311 * 411 * 4)
        snapshot = torch.cuda.memory._snapshot()
        assert set(snapshot) >= {"segments", "device_traces", "allocator_settings"}
        trace = snapshot["device_traces"][torch.cuda.current_device()]
        assert any(e["action"] == "alloc" and e["addr"] == p for e in trace)
        blocks = [b for s in snapshot["segments"] for b in s["blocks"] if b["address"] == p]
        assert blocks and blocks[0]["requested_size"] == 311 * 411 * 4
        torch.cuda.caching_allocator_delete(p)
    finally:
        torch.cuda.memory._record_memory_history(enabled=None)


@requires_gpu
def test_streams(gpu):
    default = torch.cuda.default_stream()
    assert torch.cuda.current_stream() == default
    assert default.cuda_stream == 0 and default.stream_id == 0
    s = torch.cuda.Stream()
    assert s.cuda_stream != 0 and s != default
    assert s.device == torch.device("cuda", torch.cuda.current_device())
    with torch.cuda.stream(s):
        assert torch.cuda.current_stream() == s
    assert torch.cuda.current_stream() == default
    s.synchronize()
    assert s.query() is True
    least, greatest = torch.cuda.Stream.priority_range()
    assert least == 0 and greatest < 0
    high = torch.cuda.Stream(priority=-1)
    assert high.priority == -1
    with pytest.raises(RuntimeError, match="Expected cuda stream priority to be less than or equal to 0, got 1"):
        torch.cuda.Stream(priority=1)


@requires_gpu
def test_stream_pool_is_round_robin_over_32(gpu):
    first = torch.cuda.Stream()
    others = [torch.cuda.Stream() for _ in range(31)]
    assert len({s.cuda_stream for s in [first] + others}) == 32
    assert torch.cuda.Stream() == first


@requires_gpu
def test_events(gpu):
    s = torch.cuda.current_stream()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    torch.cuda._sleep(10_000_000)
    end.record()
    end.synchronize()
    assert start.query() and end.query()
    assert start.elapsed_time(end) > 0
    e = s.record_event()
    other = torch.cuda.Stream()
    other.wait_event(e)
    other.wait_stream(s)
    other.synchronize()
    with pytest.raises(ValueError, match="enable_timing=True"):
        e.elapsed_time(end)


@requires_gpu
def test_device_context_manager(gpu):
    with torch.cuda.device(0):
        assert torch.cuda.current_device() == 0
    torch.cuda.synchronize()
    free, total = torch.cuda.mem_get_info()
    assert 0 < free <= total


@cuda_built_only
def test_config_names_the_cuda_runtime_in_use():
    shown = torch.__config__.show()
    if torch._C._cuda_isSimulated():
        assert "  - CUDA runtime: the simulated CUDA device (TORCH_CUDA_SIMULATE=" in shown
    else:
        assert "  - CUDA runtime: NVIDIA's libcudart\n" in shown
