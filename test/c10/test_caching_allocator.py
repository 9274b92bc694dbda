# test/c10/test_caching_allocator.py - the CUDA caching allocator's rules seen from Python, on the simulated device.
# Mirrors PyTorch's test/test_cuda.py TestCuda memory tests (test_memory_stats, _check_memory_stat_consistency, test_record_stream, test_out_of_memory*, test_set_per_process_memory_fraction, test_allocator_settings). Guide: docs/source/internals/cuda_caching_allocator.rst
import collections
import random
import re
import threading

import pytest
import torch
from hypothesis import event, given, settings
from hypothesis import strategies as st
from torch.cuda.memory import CachingAllocatorSimulator

KiB = 1024
MiB = 1024 * 1024
GiB = 1024 * MiB

OOM_SUFFIX = (
    " If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to "
    "avoid fragmentation.  See documentation for Memory Management  "
    "(https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)"
)

POOL_STATS = [
    "allocation",
    "segment",
    "active",
    "inactive_split",
    "allocated_bytes",
    "reserved_bytes",
    "active_bytes",
    "inactive_split_bytes",
    "requested_bytes",
]
POOLS = ["all", "small_pool", "large_pool"]


@pytest.fixture(autouse=True)
def no_allocator_env(monkeypatch):
    """The simulator reads these when it is built: every test starts without them."""
    for name in ("PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_NO_CUDA_MEMORY_CACHING"):
        monkeypatch.delenv(name, raising=False)


def current(sim, pool="all"):
    """The nine `<stat>.<pool>.current` values, by stat name."""
    stats = sim.memory_stats()
    return {name: stats[f"{name}.{pool}.current"] for name in POOL_STATS}


def pool_stats(allocation, segment, active, inactive_split, allocated, reserved, active_bytes, inactive_bytes,
               requested):
    return dict(zip(POOL_STATS, [allocation, segment, active, inactive_split, allocated, reserved, active_bytes,
                                 inactive_bytes, requested]))


ZERO = pool_stats(0, 0, 0, 0, 0, 0, 0, 0, 0)


def check_memory_stat_consistency(sim):
    """PyTorch's TestCuda._check_memory_stat_consistency: recompute every `.current` stat from
    memory_snapshot() and compare it with memory_stats(), for "all" and for each pool."""
    expected = collections.defaultdict(int)
    for segment in sim.memory_snapshot():
        blocks = segment["blocks"]
        is_split = len(blocks) > 1
        pool = segment["segment_type"] + "_pool"
        assert segment["address"] == blocks[0]["address"]
        assert segment["total_size"] == sum(b["size"] for b in blocks)
        for prev, nxt in zip(blocks, blocks[1:]):  # blocks tile the segment, in address order
            assert nxt["address"] == prev["address"] + prev["size"]
        sum_requested = 0
        for p in ("all", pool):
            expected[f"segment.{p}.current"] += 1
            expected[f"allocated_bytes.{p}.current"] += segment["allocated_size"]
            expected[f"reserved_bytes.{p}.current"] += segment["total_size"]
            expected[f"active_bytes.{p}.current"] += segment["active_size"]
            expected[f"requested_bytes.{p}.current"] += segment["requested_size"]
        for block in blocks:
            assert block["state"] in ("active_allocated", "active_pending_free", "inactive")
            for p in ("all", pool):
                if block["state"] == "active_allocated":
                    expected[f"allocation.{p}.current"] += 1
                if block["state"].startswith("active_"):
                    expected[f"active.{p}.current"] += 1
                if block["state"] == "inactive" and is_split and not segment["is_expandable"]:
                    expected[f"inactive_split.{p}.current"] += 1
                    expected[f"inactive_split_bytes.{p}.current"] += block["size"]
            if block["state"].startswith("active_"):
                sum_requested += block["requested_size"]
        assert sum_requested == segment["requested_size"]
        assert segment["allocated_size"] == sum(b["size"] for b in blocks if b["state"] == "active_allocated")
        assert segment["active_size"] == sum(b["size"] for b in blocks if b["state"].startswith("active_"))
    stats = sim.memory_stats()
    for name in POOL_STATS:
        for p in POOLS:
            key = f"{name}.{p}.current"
            assert stats[key] == expected[key], key  # zero where the snapshot has nothing too


# ---- size functions --------------------------------------------------------------------

def test_round_size_rounds_up_to_multiples_of_512():
    sim = CachingAllocatorSimulator(GiB)
    assert [sim.round_size(n) for n in (1, 511, 512, 513, 1200, 84 * MiB)] == [512, 512, 512, 1024, 1536, 84 * MiB]


def test_round_size_with_power2_divisions_applies_above_512_times_divisions():
    sim = CachingAllocatorSimulator(GiB)
    sim.set_allocator_settings("roundup_power2_divisions:4")
    assert sim.round_size(1200) == 1536  # 1200 <= 512 * 4: plain 512 rounding
    assert sim.round_size(4500) == 5120  # 4096 + one 1024 step
    assert sim.round_size(84 * MiB) == 96 * MiB  # 64 MiB + two 16 MiB steps


def test_get_allocation_size_picks_the_segment_size():
    sizes = [512, MiB, MiB + 1, 10 * MiB - 512, 10 * MiB, 11534848]
    assert [CachingAllocatorSimulator.get_allocation_size(n) for n in sizes] == [
        2 * MiB, 2 * MiB, 20 * MiB, 20 * MiB, 10 * MiB, 12 * MiB]


# ---- worked examples -------------------------------------------

@pytest.mark.parametrize(
    "request_size, block_size, segment_size, pool",
    [
        (4, 512, 2 * MiB, "small"),  # a 512-byte block from a new 2 MiB segment, split
        (MiB + 1, 1049088, 20 * MiB, "large"),  # 1-10 MiB requests share 20 MiB segments
        (10 * MiB, 10 * MiB, 10 * MiB, "large"),  # exact segment, no split
        (11 * MiB + 1, 12 * MiB, 12 * MiB, "large"),  # 1048064 B left over is <= 1 MiB: not split off
    ],
)
def test_worked_example(request_size, block_size, segment_size, pool):
    sim = CachingAllocatorSimulator(GiB)
    ptr = sim.malloc(request_size)
    rest = segment_size - block_size
    split = 1 if rest else 0
    expected = pool_stats(1, 1, 1, split, block_size, segment_size, block_size, rest, request_size)
    assert current(sim, "all") == expected
    assert current(sim, pool + "_pool") == expected
    assert current(sim, "large_pool" if pool == "small" else "small_pool") == ZERO
    (segment,) = sim.memory_snapshot()
    assert {k: v for k, v in segment.items() if k != "blocks"} == {
        "device": 0,
        "address": ptr,
        "total_size": segment_size,
        "allocated_size": block_size,
        "active_size": block_size,
        "requested_size": request_size,
        "stream": 0,
        "segment_type": pool,
        "segment_pool_id": (0, 0),
        "is_expandable": False,
        "frames": [],
    }
    blocks = [(b["address"] - ptr, b["size"], b["requested_size"], b["state"]) for b in segment["blocks"]]
    expected_blocks = [(0, block_size, request_size, "active_allocated")]
    if rest:
        expected_blocks.append((block_size, rest, 0, "inactive"))
    assert blocks == expected_blocks
    check_memory_stat_consistency(sim)


def test_scripted_sequence_of_stats():
    sim = CachingAllocatorSimulator(GiB)
    b_size = 1049088
    a = sim.malloc(4)
    c = sim.malloc(10 * MiB)
    b = sim.malloc(MiB + 1)
    assert current(sim, "large_pool") == pool_stats(2, 2, 2, 1, 10 * MiB + b_size, 30 * MiB, 10 * MiB + b_size,
                                                    20 * MiB - b_size, 11 * MiB + 1)
    sim.free(b)  # merges with its tail: a whole, cached 20 MiB segment
    assert current(sim, "large_pool") == pool_stats(1, 2, 1, 0, 10 * MiB, 30 * MiB, 10 * MiB, 0, 10 * MiB)
    d = sim.malloc(1000)
    assert d == a + 512
    assert current(sim, "small_pool") == pool_stats(2, 1, 2, 1, 1536, 2 * MiB, 1536, 2 * MiB - 1536, 1004)
    sim.empty_cache()
    assert current(sim, "all") == pool_stats(3, 2, 3, 1, 10 * MiB + 1536, 12 * MiB, 10 * MiB + 1536,
                                             2 * MiB - 1536, 10 * MiB + 1004)
    for p in (a, c, d):
        sim.free(p)
    sim.empty_cache()
    stats = sim.memory_stats()
    assert all(current(sim, p) == ZERO for p in POOLS)
    assert stats["allocated_bytes.all.peak"] == 512 + b_size + 10 * MiB
    assert stats["segment.large_pool.peak"] == 2
    assert stats["reserved_bytes.all.peak"] == 32 * MiB
    assert stats["inactive_split.small_pool.peak"] == 2  # a freed before d: two free pieces for a moment
    assert (stats["allocation.all.allocated"], stats["allocation.all.freed"]) == (4, 4)
    assert (stats["num_device_alloc"], stats["num_device_free"]) == (3, 3)


def test_memory_stats_keys_are_pytorchs_flattened_names():
    stats = CachingAllocatorSimulator(GiB).memory_stats()
    assert list(stats) == sorted(stats)
    for name in POOL_STATS:
        for pool in POOLS:
            for metric in ("current", "peak", "allocated", "freed"):
                assert stats[f"{name}.{pool}.{metric}"] == 0
    for key in ("num_alloc_retries", "num_ooms", "num_sync_all_streams", "num_device_alloc", "num_device_free",
                "oversize_allocations.current", "oversize_segments.peak"):
        assert stats[key] == 0
    assert stats["max_split_size"] == -1  # unlimited (SIZE_MAX) seen as int64
    assert "allocated.all.current" not in stats  # the docstring's name; the key is "allocation"


# ---- best fit, split, merge -------------------------------------------------------------

def test_best_fit_reuses_the_smallest_cached_block_that_fits():
    sim = CachingAllocatorSimulator(GiB)
    a, b, c = sim.malloc(12 * MiB), sim.malloc(16 * MiB), sim.malloc(14 * MiB)
    for p in (a, b, c):
        sim.free(p)
    assert sim.malloc(13 * MiB) == c
    assert sim.malloc(11 * MiB) == a
    assert sim.malloc(15 * MiB) == b
    stats = sim.memory_stats()
    assert stats["num_device_alloc"] == 3
    assert stats["allocated_bytes.large_pool.current"] == 42 * MiB  # whole blocks
    assert stats["requested_bytes.large_pool.current"] == 39 * MiB
    check_memory_stat_consistency(sim)


def test_freed_neighbours_merge_back_into_one_block():
    sim = CachingAllocatorSimulator(GiB)
    a, b, c = sim.malloc(512), sim.malloc(512), sim.malloc(512)
    assert (b - a, c - a) == (512, 1024)
    sim.free(b)
    assert sim.memory_stats()["inactive_split.small_pool.current"] == 2
    sim.free(a)
    assert sim.memory_stats()["inactive_split.small_pool.current"] == 2
    sim.free(c)
    stats = sim.memory_stats()
    assert stats["inactive_split.small_pool.current"] == 0
    assert stats["inactive_split_bytes.small_pool.current"] == 0
    (segment,) = sim.memory_snapshot()
    assert [(blk["address"], blk["size"], blk["state"]) for blk in segment["blocks"]] == [(a, 2 * MiB, "inactive")]
    check_memory_stat_consistency(sim)


# ---- streams ----------------------------------------------------------------------------

def test_block_freed_on_one_stream_is_not_reused_on_another():
    sim = CachingAllocatorSimulator(GiB)
    p = sim.malloc(512, stream=1)
    sim.free(p)
    q = sim.malloc(512, stream=2)
    assert q != p
    assert sim.memory_stats()["segment.small_pool.current"] == 2
    assert sim.malloc(512, stream=1) == p
    assert [s["stream"] for s in sim.memory_snapshot()] == [1, 2]


def test_record_stream_keeps_the_block_pending_until_that_stream_is_synchronized():
    # PyTorch's test_record_stream: another pointer while the stream is busy, the same one after.
    sim = CachingAllocatorSimulator(GiB)
    p = sim.malloc(4096)
    sim.record_stream(p, 1)
    sim.free(p)
    stats = sim.memory_stats()
    assert stats["allocated_bytes.all.current"] == 0
    assert stats["active_bytes.all.current"] == 4096
    assert stats["active.all.current"] == 1
    (segment,) = sim.memory_snapshot()
    assert segment["blocks"][0]["state"] == "active_pending_free"
    assert (segment["allocated_size"], segment["active_size"], segment["requested_size"]) == (0, 4096, 4096)
    check_memory_stat_consistency(sim)

    q = sim.malloc(4096)
    assert q != p
    sim.free(q)
    sim.synchronize(2)  # some other stream: no effect
    assert sim.malloc(4096) != p
    sim.synchronize(1)
    assert sim.malloc(4096) == p
    check_memory_stat_consistency(sim)


def test_empty_cache_waits_for_pending_frees():
    # test_caching_allocator_record_stream_oom: pending blocks are synchronized and freed.
    sim = CachingAllocatorSimulator(GiB)
    p = sim.malloc(4096)
    sim.record_stream(p, 1)
    sim.free(p)
    sim.empty_cache()
    stats = sim.memory_stats()
    assert stats["active.all.current"] == 0
    assert stats["reserved_bytes.all.current"] == 0
    assert stats["num_sync_all_streams"] == 1
    assert sim.mem_get_info() == (GiB, GiB)


def test_pending_frees_are_reclaimed_before_raising_out_of_memory():
    sim = CachingAllocatorSimulator(200 * MiB)
    for _ in range(20):  # each 160 MiB block is still in use on stream 1 when freed
        x = sim.malloc(160 * MiB)
        sim.record_stream(x, 1)
        sim.free(x)
    stats = sim.memory_stats()
    assert stats["num_ooms"] == 0
    assert stats["num_alloc_retries"] == 19


# ---- max_split_size_mb ------------------------------------------------------------------

def test_max_split_size_keeps_oversize_blocks_whole_and_away_from_small_requests():
    sim = CachingAllocatorSimulator(GiB)
    sim.set_allocator_settings("max_split_size_mb:20")
    assert sim.memory_stats()["max_split_size"] == 20 * MiB
    big = sim.malloc(30 * MiB)
    sim.free(big)
    small = sim.malloc(12 * MiB)  # < 20 MiB: may not take the oversize block
    assert small != big
    assert sim.malloc(25 * MiB) == big  # oversize: 30 < 25 + 20, taken whole
    stats = sim.memory_stats()
    assert stats["allocated_bytes.large_pool.current"] == 42 * MiB
    assert stats["inactive_split.large_pool.current"] == 0
    assert stats["oversize_allocations.current"] == 1
    assert stats["oversize_segments.current"] == 1
    check_memory_stat_consistency(sim)


def test_oversize_request_reuses_a_cached_block_only_within_max_non_split_rounding():
    sim = CachingAllocatorSimulator(GiB)
    sim.set_allocator_settings("max_split_size_mb:20")
    big = sim.malloc(60 * MiB)
    sim.free(big)
    assert sim.malloc(40 * MiB) != big  # 60 >= 40 + 20
    assert sim.malloc(41 * MiB) == big  # 60 < 41 + 20
    sim2 = CachingAllocatorSimulator(GiB)
    sim2.set_allocator_settings("max_split_size_mb:20,max_non_split_rounding_mb:40")
    big2 = sim2.malloc(60 * MiB)
    sim2.free(big2)
    assert sim2.malloc(30 * MiB) == big2  # 60 < 30 + 40


# ---- retry, OOM, memory fraction --------------------------------------------------------

def test_out_of_memory_retry():
    # PyTorch's test_out_of_memory_retry: the second half fails; after freeing, it fits.
    sim = CachingAllocatorSimulator(100 * MiB)
    a = sim.malloc(60 * MiB)
    with pytest.raises(torch.OutOfMemoryError, match="Tried to allocate"):
        sim.malloc(60 * MiB)
    sim.free(a)
    assert sim.malloc(60 * MiB) == a


def test_malloc_frees_the_cache_and_retries_before_giving_up():
    sim = CachingAllocatorSimulator(64 * MiB)
    a, b = sim.malloc(30 * MiB), sim.malloc(30 * MiB)
    sim.free(a)
    sim.free(b)
    sim.malloc(40 * MiB)  # no cached block fits and only 4 MiB are free on the device
    stats = sim.memory_stats()
    assert stats["num_alloc_retries"] == 1
    assert stats["num_device_free"] == 2
    assert stats["num_ooms"] == 0
    assert stats["reserved_bytes.all.current"] == 40 * MiB


def test_out_of_memory_message_and_recovery():
    sim = CachingAllocatorSimulator(64 * MiB)
    sim.malloc(4)
    with pytest.raises(torch.OutOfMemoryError) as info:
        sim.malloc(70 * MiB)
    assert isinstance(info.value, RuntimeError)
    assert str(info.value) == (
        "CUDA out of memory. Tried to allocate 70.00 MiB. GPU 0 has a total capacity of 64.00 MiB of which "
        "62.00 MiB is free. Of the allocated memory 512 bytes is allocated by PyTorch, and 2.00 MiB is reserved "
        "by PyTorch but unallocated." + OOM_SUFFIX)
    assert sim.memory_stats()["num_ooms"] == 1
    sim.malloc(30 * MiB)  # still usable
    assert sim.memory_allocated() == 30 * MiB + 512
    check_memory_stat_consistency(sim)


def test_out_of_memory_names_the_segment_it_needed():
    sim = CachingAllocatorSimulator(4 * MiB)
    with pytest.raises(torch.OutOfMemoryError, match=r"^CUDA out of memory\. Tried to allocate 20\.00 MiB\. "):
        sim.malloc(3 * MiB)  # a 1-10 MiB request asks for a 20 MiB segment


def test_out_of_memory_for_huge_requests():
    # PyTorch's test_out_of_memory.
    sim = CachingAllocatorSimulator(GiB)
    with pytest.raises(torch.OutOfMemoryError,
                       match=r"Tried to allocate 800000000\.00 GiB\. GPU 0 has a total capacity of 1024\.00 MiB"):
        sim.malloc(1024 ** 3 * 800000000)
    with pytest.raises(torch.OutOfMemoryError, match=r"^CUDA out of memory\. Tried to allocate more than 1EB memory\.$"):
        sim.malloc(1024 ** 3 * 8000000000)
    assert sim.memory_stats()["num_ooms"] == 1  # the 1EB check comes before the allocator
    sim.free(sim.malloc(1024))


def test_free_of_an_unknown_pointer_raises():
    sim = CachingAllocatorSimulator(GiB)
    p = sim.malloc(512)
    with pytest.raises(RuntimeError, match=f"^invalid device pointer: {hex(p + 512)}$"):
        sim.free(p + 512)
    sim.free(p)
    with pytest.raises(RuntimeError, match=f"^invalid device pointer: {hex(p)}$"):
        sim.free(p)


def test_set_memory_fraction_checks_its_argument():
    sim = CachingAllocatorSimulator(GiB)
    with pytest.raises(TypeError, match="^Invalid type for fraction argument, must be `float`$"):
        sim.set_memory_fraction(1)
    with pytest.raises(ValueError, match=r"^Invalid fraction value: 2\.0\. Allowed range: 0~1$"):
        sim.set_memory_fraction(2.0)
    with pytest.raises(ValueError, match=r"^Invalid fraction value: -0\.1\. Allowed range: 0~1$"):
        sim.set_memory_fraction(-0.1)
    for fraction in (1.0, 0.0, 0.25):
        sim.set_memory_fraction(fraction)
        assert sim.get_memory_fraction() == fraction


def test_memory_fraction_caps_reserved_memory():
    # PyTorch's test_set_per_process_memory_fraction, with worked numbers.
    sim = CachingAllocatorSimulator(100 * MiB)
    sim.set_memory_fraction(0.5)
    sim.malloc(30 * MiB)
    with pytest.raises(torch.OutOfMemoryError) as info:
        sim.malloc(30 * MiB)
    assert str(info.value) == (
        "CUDA out of memory. Tried to allocate 30.00 MiB. GPU 0 has a total capacity of 100.00 MiB of which "
        "70.00 MiB is free. 50.00 MiB allowed; Of the allocated memory 30.00 MiB is allocated by PyTorch, and "
        "0 bytes is reserved by PyTorch but unallocated." + OOM_SUFFIX)
    sim.malloc(20 * MiB)  # exactly up to the cap
    assert sim.memory_reserved() == 50 * MiB


def test_empty_cache_keeps_segments_that_are_in_use():
    sim = CachingAllocatorSimulator(GiB)
    a = sim.malloc(4)
    b, c = sim.malloc(12 * MiB), sim.malloc(14 * MiB)
    sim.free(b)
    sim.free(c)
    sim.empty_cache()
    assert sim.memory_reserved() == 2 * MiB
    assert sim.mem_get_info() == (GiB - 2 * MiB, GiB)
    sim.free(a)
    sim.empty_cache()
    assert sim.memory_reserved() == 0
    assert sim.max_memory_reserved() == 28 * MiB
    assert sim.memory_snapshot() == []


# ---- stats: PyTorch's test_memory_stats --------------------------------------------------

def test_memory_stats():
    sim = CachingAllocatorSimulator(GiB)
    keep = sim.malloc(12345)  # something already allocated, as in a real process
    sim.empty_cache()
    sim.reset_peak_memory_stats()
    sim.reset_accumulated_memory_stats()
    prev_allocated = sim.memory_allocated()
    prev_reserved = sim.memory_reserved()
    prev_max_allocated = sim.max_memory_allocated()
    prev_max_reserved = sim.max_memory_reserved()
    assert prev_allocated == prev_max_allocated
    assert prev_reserved == prev_max_reserved
    # torch.randn(256, device="cuda") is 1024 bytes
    before = sim.memory_stats()["active_bytes.all.current"]
    x = sim.malloc(256 * 4)
    stats = sim.memory_stats()
    assert stats["active_bytes.all.current"] - before == 1024
    assert stats["active_bytes.all.freed"] == 0
    sim.free(x)
    sim.empty_cache()
    stats = sim.memory_stats()
    assert stats["active_bytes.all.current"] == before
    assert stats["active_bytes.all.freed"] == 1024
    sim.reset_peak_memory_stats()
    assert sim.max_memory_allocated() == prev_max_allocated
    assert sim.max_memory_reserved() == prev_max_reserved
    sim.free(keep)


def test_reset_accumulated_memory_stats_zeroes_totals_and_counters():
    sim = CachingAllocatorSimulator(64 * MiB)
    a, b = sim.malloc(30 * MiB), sim.malloc(30 * MiB)
    sim.free(a)
    sim.free(b)
    sim.malloc(40 * MiB)
    with pytest.raises(torch.OutOfMemoryError):
        sim.malloc(40 * MiB)
    sim.reset_accumulated_memory_stats()
    stats = sim.memory_stats()
    for key in ("num_alloc_retries", "num_ooms", "num_sync_all_streams", "num_device_alloc", "num_device_free",
                "allocation.all.allocated", "allocation.all.freed", "reserved_bytes.large_pool.freed"):
        assert stats[key] == 0, key
    assert stats["allocated_bytes.all.current"] == 40 * MiB
    assert stats["reserved_bytes.all.peak"] == 60 * MiB


def test_memory_summary_is_pytorchs_table():
    sim = CachingAllocatorSimulator(4 * MiB)
    with pytest.raises(torch.OutOfMemoryError):
        sim.malloc(3 * MiB)
    text = sim.memory_summary()
    lines = text.splitlines()
    assert {len(line) for line in lines} == {77}
    assert "PyTorch CUDA memory summary, device ID 0" in lines[1]
    assert re.search(r"CUDA OOMs: 1 +\| +cudaMalloc retries: 1 ", lines[3])


# ---- settings (PyTorch's test_allocator_settings) ---------------------------------------

def power2_div(size, div_factor):
    """PyTorch's helper in test_allocator_settings."""
    pow2 = 1
    while pow2 < size:
        pow2 = pow2 * 2
    if pow2 == size:
        return pow2
    step = pow2 / 2 / div_factor
    ret = pow2 / 2
    while ret < size:
        ret = ret + step
    return ret


@pytest.mark.parametrize(
    "settings, expected",
    [
        ("", 84 * MiB),
        ("roundup_power2_divisions:4", 96 * MiB),
        ("roundup_power2_divisions:[64:8,256:2,1024:4,>:1]", 88 * MiB),  # 64 MiB interval: 8 MiB steps
    ],
)
def test_allocator_settings_round_an_84MiB_request(settings, expected):
    nbytes = 21 * 1024 * 1024 * 4  # torch.rand(21 * 1024 * 1024) floats
    sim = CachingAllocatorSimulator(GiB)
    sim.set_allocator_settings(settings)
    start = sim.memory_stats()["active_bytes.all.allocated"]
    sim.malloc(nbytes)
    assert sim.memory_stats()["active_bytes.all.allocated"] - start == expected
    if settings == "roundup_power2_divisions:4":
        assert expected == power2_div(nbytes, 4)
    assert sim._snapshot()["allocator_settings"] == {"PYTORCH_CUDA_ALLOC_CONF": settings}


# ---- PYTORCH_NO_CUDA_MEMORY_CACHING -----------------------------------------------------

def test_no_caching_makes_every_malloc_a_device_malloc(monkeypatch):
    monkeypatch.setenv("PYTORCH_NO_CUDA_MEMORY_CACHING", "1")
    sim = CachingAllocatorSimulator(GiB)
    a, b = sim.malloc(4), sim.malloc(4)
    assert sim.mem_get_info() == (GiB - 8, GiB)  # raw sizes, no 2 MiB segments
    assert sim.memory_stats()["allocation.all.current"] == 0
    sim.free(a)
    assert sim.mem_get_info() == (GiB - 4, GiB)  # back at once
    sim.free(b)
    assert sim.mem_get_info() == (GiB, GiB)


# ---- history ----------------------------------------------------------------------------

def test_record_memory_history_traces_actions_in_order():
    sim = CachingAllocatorSimulator(GiB)
    first = sim.malloc(4)  # before recording: not in the trace
    sim._record_memory_history()
    a = sim.malloc(12 * MiB)
    b = sim.malloc(100)  # from the small segment made before recording
    sim.free(a)
    sim.empty_cache()  # a's segment goes; the small one is still in use
    sim.free(first)
    sim.free(b)  # b merges into first's free block, which starts at first's address
    trace = sim._snapshot()["device_traces"][0]
    assert [(e["action"], e["addr"], e["size"], e["stream"]) for e in trace] == [
        ("segment_alloc", a, 12 * MiB, 0),
        ("alloc", a, 12 * MiB, 0),
        ("alloc", b, 100, 0),
        ("free_requested", a, 12 * MiB, 0),
        ("free_completed", a, 12 * MiB, 0),
        ("segment_free", a, 12 * MiB, 0),
        ("free_requested", first, 4, 0),
        ("free_completed", first, 4, 0),
        ("free_requested", b, 100, 0),
        ("free_completed", b, 100, 0),  # still b's address and requested size
    ]
    sim._record_memory_history(enabled=None)
    assert sim._snapshot()["device_traces"] == [[]]


def test_record_memory_history_keeps_the_last_max_entries():
    sim = CachingAllocatorSimulator(GiB)
    sim._record_memory_history(max_entries=3)
    for _ in range(5):
        sim.free(sim.malloc(512))
    trace = sim._snapshot()["device_traces"][0]
    assert [e["action"] for e in trace] == ["alloc", "free_requested", "free_completed"]


# ---- property test against a reference model --------------------------------------------

SETTINGS = ["", "max_split_size_mb:20", "roundup_power2_divisions:4",
            "max_split_size_mb:24,roundup_power2_divisions:[1:2,16:8,>:4]"]
sizes = st.one_of(
    st.just(0),
    st.integers(1, 4 * KiB),
    st.integers(4 * KiB, MiB),
    st.integers(MiB, 12 * MiB),
    st.integers(12 * MiB, 48 * MiB),
)
mallocs = st.tuples(st.just("malloc"), sizes, st.integers(0, 2))
ops = st.one_of(
    mallocs,
    mallocs,  # twice as likely: programs build up live memory and run into the device's limit
    st.tuples(st.just("free"), st.integers(0, 1000)),
    st.tuples(st.just("record_stream"), st.integers(0, 1000), st.integers(0, 2)),
    st.tuples(st.just("synchronize"), st.sampled_from([None, 0, 1, 2])),
    st.tuples(st.just("empty_cache")),
)


def check_live_allocations(sim, live):
    """Every live pointer is the start of an active_allocated block of its stream, and the
    blocks of live pointers never overlap."""
    blocks = {}
    for segment in sim.memory_snapshot():
        for block in segment["blocks"]:
            if block["state"] == "active_allocated":
                blocks[block["address"]] = (block, segment["stream"])
    assert set(blocks) == set(live)
    intervals = sorted((p, p + size) for p, (size, _) in live.items())
    for (_, end), (start, _) in zip(intervals, intervals[1:]):
        assert end <= start
    for p, (size, stream) in live.items():
        block, segment_stream = blocks[p]
        assert block["requested_size"] == size
        assert block["size"] >= size
        assert segment_stream == stream


@settings(max_examples=100, deadline=None)
@given(setting=st.sampled_from(SETTINGS), program=st.lists(ops, min_size=10, max_size=40))
def test_random_programs_keep_the_allocator_consistent(setting, program):
    total = 64 * MiB
    sim = CachingAllocatorSimulator(total)
    sim.set_allocator_settings(setting)
    live = {}  # the reference model: ptr -> (requested size, stream)
    for op in program:
        if op[0] == "malloc":
            _, size, stream = op
            before = sim.memory_stats()["allocation.all.current"]
            try:
                p = sim.malloc(size, stream)
            except torch.OutOfMemoryError as e:
                event("out of memory")
                assert "CUDA out of memory. Tried to allocate" in str(e)
                assert sim.memory_stats()["allocation.all.current"] == before
                continue
            if size == 0:
                assert p == 0
                continue
            assert p not in live
            live[p] = (size, stream)
        elif op[0] == "free" and live:
            p = sorted(live)[op[1] % len(live)]
            del live[p]
            sim.free(p)
        elif op[0] == "record_stream" and live:
            sim.record_stream(sorted(live)[op[1] % len(live)], op[2])
        elif op[0] == "synchronize":
            sim.synchronize(op[1])
        elif op[0] == "empty_cache":
            sim.empty_cache()
        check_memory_stat_consistency(sim)
        check_live_allocations(sim, live)
        stats = sim.memory_stats()
        if stats["active.all.current"] > stats["allocation.all.current"]:
            event("a free waits for another stream")
        assert stats["allocated_bytes.all.current"] <= stats["reserved_bytes.all.current"] <= total
        assert stats["allocated_bytes.all.current"] <= stats["allocated_bytes.all.peak"]
    for p in list(live):
        sim.free(p)
    sim.synchronize()
    sim.empty_cache()
    stats = sim.memory_stats()
    for name in ("allocated_bytes", "reserved_bytes", "active_bytes", "requested_bytes", "allocation", "segment",
                 "active", "inactive_split", "inactive_split_bytes"):
        assert stats[f"{name}.all.current"] == 0, name
    assert sim.mem_get_info() == (total, total)


# ---- threads ----------------------------------------------------------------------------

def test_threads_allocating_on_their_own_streams_leave_a_consistent_allocator():
    sim = CachingAllocatorSimulator(4 * GiB)
    errors = []

    def worker(stream):
        rng = random.Random(stream)
        mine = []
        try:
            for i in range(1500):
                if len(mine) < 12 and rng.random() < 0.6:
                    size = rng.choice([rng.randint(1, MiB), rng.randint(MiB, 10 * MiB), rng.randint(10 * MiB, 30 * MiB)])
                    mine.append(sim.malloc(size, stream))
                elif mine:
                    sim.free(mine.pop(rng.randrange(len(mine))))
                if i % 300 == 0:
                    sim.empty_cache()
            for p in mine:
                sim.free(p)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(1, 6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    check_memory_stat_consistency(sim)
    stats = sim.memory_stats()
    assert stats["allocation.all.current"] == 0
    assert stats["inactive_split.all.current"] == 0
    assert stats["num_ooms"] == 0
    sim.empty_cache()
    assert sim.memory_reserved() == 0
    assert sim.mem_get_info() == (4 * GiB, 4 * GiB)
