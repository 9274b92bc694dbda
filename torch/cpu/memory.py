"""CPU allocator statistics: the numbers c10's MemoryAllocationReporter keeps.

This project's learning aid, named after torch.cuda.memory (PyTorch has no CPU
equivalent). Guide: docs/source/internals/memory.rst.

Recording is off by default, because it costs a locked hash-table update per allocation
(c10/core/CPUAllocator.cpp). Turn it on with ``record_memory_stats()``; allocations made
while it was off are not counted, even when they are freed later.
"""

import contextlib

import torch


def memory_stats():
    """A dict of counters, keyed as ``torch.cuda.memory_stats()`` keys them.

    ``allocated_bytes.all.{current,peak,allocated,freed}``,
    ``allocation.all.{current,peak,allocated,freed}`` and ``num_ooms``.
    """
    return dict(sorted(torch._C._cpu_memory_stats().items()))


class record_memory_stats(contextlib.ContextDecorator):
    """Start recording CPU allocations; as a context manager, stop again on exit.

    >>> import torch
    >>> with torch.cpu.memory.record_memory_stats():
    ...     s = torch.UntypedStorage(1000)
    ...     torch.cpu.memory_stats()["allocated_bytes.all.current"] >= 1000
    True
    """

    def __init__(self, enabled=True):
        self.previous = torch._C._cpu_is_recording_memory_stats()
        torch._C._cpu_record_memory_stats(enabled)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        torch._C._cpu_record_memory_stats(self.previous)
        return False


def reset_peak_memory_stats():
    """Set the peaks to the current values."""
    torch._C._cpu_reset_peak_memory_stats()


def reset_accumulated_memory_stats():
    """Zero the accumulated counters (``.allocated``, ``.freed``, ``num_ooms``)."""
    torch._C._cpu_reset_accumulated_memory_stats()
