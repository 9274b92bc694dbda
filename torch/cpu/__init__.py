"""torch.cpu: the CPU as a device, in the shape of torch.cuda's API.

Mirrors PyTorch's torch/cpu/__init__.py. Guide: docs/source/internals/memory.rst.
The memory functions read the CPU allocator's reporter (c10/core/CPUAllocator.cpp).
"""

from torch.cpu.memory import (
    memory_stats,
    record_memory_stats,
    reset_accumulated_memory_stats,
    reset_peak_memory_stats,
)

__all__ = [
    "is_available",
    "device_count",
    "current_device",
    "synchronize",
    "memory_stats",
    "record_memory_stats",
    "reset_peak_memory_stats",
    "reset_accumulated_memory_stats",
]


def is_available():
    """The CPU is always available."""
    return True


def device_count():
    """One CPU device (all cores are one device to torch)."""
    return 1


def current_device():
    return "cpu"


def synchronize(device=None):
    """CPU work runs synchronously: nothing to wait for."""


# torch.cpu.amp (the deprecated CPU spellings of torch.amp), as PyTorch's torch.cpu imports it.
from torch.cpu import amp  # noqa: E402,F401
