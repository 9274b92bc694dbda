# test/leak_check.py - the one measurement the leak tests share: run a pattern many times and
# assert that nothing it leaves behind grows with the repetitions.
# Mirrors the leak checks of PyTorch's test/test_autograd.py, test/test_dataloader.py and
# test/test_serialization.py (torch/testing/_internal/common_utils.py keeps its helpers).
# Guide: docs/source/internals/hardening.rst ("How it is checked").
#
# Counted after a warm-up (first calls fill caches) and after gc.collect(), so that only what
# is still referenced, or unreachable but uncollectable, counts:
# - the CPU allocator's live allocations and bytes (torch.cpu.memory_stats(), recorded only
#   while record_memory_stats() is on): memory only C++ still holds, such as a tensor kept by
#   a cycle inside the autograd graph, which has no Python object at all;
# - the live torch.Tensor objects (gc.get_objects()): views included, which own no
#   allocation of their own;
# - whatever else a caller counts (open fds, mappings, worker processes).
# A growth within the slack is not a leak (a cache may grow once after the warm-up); a leak
# grows with the repetitions.
import gc
import os

import torch


def live_tensors():
    return sum(1 for o in gc.get_objects() if isinstance(o, torch.Tensor))


def process_resources():
    """Open file descriptors and file mappings of this process (Linux's /proc).

    Only mappings of files count (a mapped checkpoint, a shared-memory segment: lines of
    /proc/self/maps that name a path): anonymous mappings come and go with the malloc in use
    (glibc's arenas, or AddressSanitizer's allocator regions under `make test-asan`).
    """
    with open("/proc/self/maps") as f:
        mappings = sum(1 for line in f if len(line.split(None, 5)) == 6 and line.split(None, 5)[5].startswith("/"))
    return {"open fds": len(os.listdir("/proc/self/fd")), "mappings": mappings}


def snapshot(extra=None):
    gc.collect()
    stats = torch.cpu.memory_stats()
    counts = {"allocations": stats["allocation.all.current"],
              "allocated bytes": stats["allocated_bytes.all.current"],
              "tensors": live_tensors()}
    if extra is not None:
        counts.update(extra())
    return counts


def assert_no_leak(pattern, repetitions, slack, warmup, extra=None, unit="iterations"):
    """Run pattern warmup times, then repetitions times; fail if any count grew past slack."""
    with torch.cpu.memory.record_memory_stats():
        for _ in range(warmup):
            pattern()
        before = snapshot(extra)
        for _ in range(repetitions):
            pattern()
        after = snapshot(extra)
    growth = {key: after[key] - before[key] for key in before}
    assert all(growth[key] <= slack[key] for key in growth), (
        f"{pattern.__name__} grew {growth} over {repetitions} {unit} (slack {slack})")
