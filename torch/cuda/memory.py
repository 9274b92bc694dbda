"""torch.cuda.memory: the CUDA caching allocator seen from Python, and its simulator.

Mirrors PyTorch's torch/cuda/memory.py. Guide: docs/source/internals/cuda_caching_allocator.rst.

Two faces of the same C++ policy (c10/cuda/CUDACachingAllocator.cpp):

* the module functions (``memory_allocated``, ``memory_stats``, ``empty_cache`` ...) ask the
  allocator behind CUDA tensors; they need a CUDA build and a GPU, and raise PyTorch's errors
  without them;
* ``CachingAllocatorSimulator(total_memory)`` runs the same allocator on a simulated device
  with the capacity you choose: every rule can be watched on any machine.
"""

import collections
import pickle

import torch

__all__ = [
    "CachingAllocatorSimulator",
    "caching_allocator_alloc",
    "caching_allocator_delete",
    "empty_cache",
    "get_per_process_memory_fraction",
    "max_memory_allocated",
    "max_memory_reserved",
    "mem_get_info",
    "memory_allocated",
    "memory_reserved",
    "memory_snapshot",
    "memory_stats",
    "memory_stats_as_nested_dict",
    "memory_summary",
    "reset_accumulated_memory_stats",
    "reset_peak_memory_stats",
    "set_per_process_memory_fraction",
]


# ---------------------------------------------------------------------------------------
# Shared by the real allocator and the simulator
# ---------------------------------------------------------------------------------------

def _flatten_stats(nested):
    """{"allocation": {"all": {"current": 1}}} -> {"allocation.all.current": 1}, sorted."""
    result = []

    def _recurse(prefix, obj):
        if isinstance(obj, dict):
            if prefix:
                prefix += "."
            for k, v in obj.items():
                _recurse(prefix + k, v)
        else:
            result.append((prefix, obj))

    _recurse("", nested)
    result.sort()
    return collections.OrderedDict(result)


def _check_fraction(fraction):
    if not isinstance(fraction, float):
        raise TypeError("Invalid type for fraction argument, must be `float`")
    if fraction < 0 or fraction > 1:
        raise ValueError(f"Invalid fraction value: {fraction}. Allowed range: 0~1")


def _format_size(sz, pref_sz):
    prefixes = ["B  ", "KiB", "MiB", "GiB", "TiB", "PiB"]
    prefix = prefixes[0]
    for new_prefix in prefixes[1:]:
        if pref_sz < 768 * 1024:
            break
        prefix = new_prefix
        sz //= 1024
        pref_sz /= 1024
    return f"{sz:6d} {prefix}"


def _format_count(cnt, pref_cnt):
    prefixes = [" ", "K", "M"]
    prefix = prefixes[0]
    for new_prefix in prefixes[1:]:
        if pref_cnt < 750 * 1000:
            break
        prefix = new_prefix
        cnt //= 1000
        pref_cnt /= 1000
    return f"{cnt:7d} {prefix} "


def _summary_text(stats, device, abbreviated=False):
    """The table torch.cuda.memory_summary() prints, from flattened stats."""
    metrics_to_display = [
        ("allocated_bytes", "Allocated memory", _format_size),
        ("active_bytes", "Active memory", _format_size),
        ("requested_bytes", "Requested memory", _format_size),
        ("reserved_bytes", "GPU reserved memory", _format_size),
        ("inactive_split_bytes", "Non-releasable memory", _format_size),
        ("allocation", "Allocations", _format_count),
        ("active", "Active allocs", _format_count),
        ("segment", "GPU reserved segments", _format_count),
        ("inactive_split", "Non-releasable allocs", _format_count),
    ]
    lines = []
    lines.append("=" * 75)
    lines.append(" {_:16} PyTorch CUDA memory summary, device ID {device:<17d} ")
    lines.append("-" * 75)
    lines.append("  {_:9} CUDA OOMs: {num_ooms:<12d} | {_:6} cudaMalloc retries: {num_alloc_retries:<8d}  ")
    lines.append("=" * 75)
    lines.append("        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ")
    for metric_key, metric_name, formatter in metrics_to_display:
        lines.append("-" * 75)
        submetrics = [("all", metric_name)]
        if not abbreviated:
            submetrics.append(("large_pool", "      from large pool"))
            submetrics.append(("small_pool", "      from small pool"))
        current_prefval, peak_prefval, allocated_prefval, freed_prefval = None, None, None, None
        for submetric_key, submetric_name in submetrics:
            prefix = metric_key + "." + submetric_key + "."
            current = stats[prefix + "current"]
            peak = stats[prefix + "peak"]
            allocated = stats[prefix + "allocated"]
            freed = stats[prefix + "freed"]
            if current_prefval is None:
                current_prefval, peak_prefval, allocated_prefval, freed_prefval = current, peak, allocated, freed
            lines.append(
                f" {submetric_name:<21} | {formatter(current, current_prefval)} | {formatter(peak, peak_prefval)} | "
                f"{formatter(allocated, allocated_prefval)} | {formatter(freed, freed_prefval)} "
            )
    metrics_to_display = [
        ("oversize_allocations", "Oversize allocations", _format_count),
        ("oversize_segments", "Oversize GPU segments", _format_count),
    ]
    lines.append("-" * 75)
    for metric_key, metric_name, formatter in metrics_to_display:
        prefix = metric_key + "."
        current = stats[prefix + "current"]
        peak = stats[prefix + "peak"]
        allocated = stats[prefix + "allocated"]
        freed = stats[prefix + "freed"]
        lines.append(
            f" {metric_name:<21} | {formatter(current, current)} | {formatter(peak, peak)} | "
            f"{formatter(allocated, allocated)} | {formatter(freed, freed)} "
        )
    lines.append("=" * 75)
    fmt_dict = {"_": "", "device": device}
    for k, v in stats.items():
        fmt_dict[k.replace(".", "-")] = v
    fmt_dict["num_ooms"] = stats.get("num_ooms", 0)
    fmt_dict["num_alloc_retries"] = stats.get("num_alloc_retries", 0)
    return "|" + "|\n|".join(lines).format(**fmt_dict) + "|\n"


# ---------------------------------------------------------------------------------------
# The simulator
# ---------------------------------------------------------------------------------------

class CachingAllocatorSimulator:
    """The CUDA caching allocator on a simulated device of ``total_memory`` bytes.

    The C++ policy is the one CUDA tensors use; only the device is simulated. Addresses are
    ints; streams are small ints (0 is the default stream). A free on a stream that another
    stream used (``record_stream``) completes when that stream is ``synchronize``-d.

    >>> sim = torch.cuda.memory.CachingAllocatorSimulator(1024**3)
    >>> p = sim.malloc(4)                      # a 4-byte request ...
    >>> sim.memory_stats()["allocated_bytes.all.current"]   # ... takes a 512-byte block
    512
    >>> sim.memory_stats()["reserved_bytes.all.current"]    # from a new 2 MiB segment
    2097152
    """

    def __init__(self, total_memory):
        if not isinstance(total_memory, int) or isinstance(total_memory, bool) or total_memory <= 0:
            raise ValueError(f"total_memory must be a positive int (bytes), got {total_memory!r}")
        self._sim = torch._C._CachingAllocatorSimulator(total_memory)
        self.total_memory = total_memory

    def malloc(self, size, stream=0):
        """Allocate ``size`` bytes for use on ``stream``; returns the address (0 for size 0)."""
        if size < 0:
            raise ValueError(f"size must be non-negative, got {size}")
        return self._sim.malloc(size, self._stream(stream))

    def free(self, ptr):
        """Free an address returned by malloc. Unknown addresses raise RuntimeError."""
        self._sim.free(ptr)

    def record_stream(self, ptr, stream):
        """Mark ``ptr`` as used on ``stream``: once freed, it is reused only after that stream's work."""
        self._sim.record_stream(ptr, self._stream(stream))

    def synchronize(self, stream=None):
        """Finish the work of ``stream`` (or of every stream): its pending events complete."""
        if stream is None:
            self._sim.synchronize_device()
        else:
            self._sim.synchronize_stream(self._stream(stream))

    def memory_stats(self):
        """PyTorch's flattened statistics: ``allocated_bytes.all.current`` and the rest."""
        return _flatten_stats(self._sim.memory_stats())

    def memory_stats_as_nested_dict(self):
        return self._sim.memory_stats()

    def memory_snapshot(self):
        """The segments and their blocks, as ``torch.cuda.memory_snapshot()`` returns them."""
        return self._sim.memory_snapshot()

    def _snapshot(self):
        """Segments plus the recorded history, as ``torch.cuda.memory._snapshot()`` returns them."""
        return {
            "segments": self._sim.memory_snapshot(),
            "device_traces": [self._sim.trace()],
            "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": self._sim.get_allocator_settings()},
        }

    def dump_snapshot(self, filename):
        """Pickle ``_snapshot()`` for ``python -m torch.cuda._memory_viz``."""
        with open(filename, "wb") as f:
            pickle.dump(self._snapshot(), f)

    def _record_memory_history(self, enabled="all", max_entries=100000):
        """Record allocator events (``enabled=None`` stops and clears)."""
        self._sim.record_history(enabled is not None, max_entries)

    def empty_cache(self):
        """Return every cached, unsplit segment to the device."""
        self._sim.empty_cache()

    def reset_peak_memory_stats(self):
        self._sim.reset_peak_memory_stats()

    def reset_accumulated_memory_stats(self):
        self._sim.reset_accumulated_memory_stats()

    def set_memory_fraction(self, fraction):
        """Cap what the allocator may hold at ``fraction * total_memory``."""
        _check_fraction(fraction)
        self._sim.set_memory_fraction(fraction)

    def get_memory_fraction(self):
        return self._sim.get_memory_fraction()

    def set_allocator_settings(self, settings):
        """Apply a ``PYTORCH_CUDA_ALLOC_CONF``-style string, e.g. ``"max_split_size_mb:64"``."""
        self._sim.set_allocator_settings(settings)

    def memory_allocated(self):
        return self.memory_stats()["allocated_bytes.all.current"]

    def max_memory_allocated(self):
        return self.memory_stats()["allocated_bytes.all.peak"]

    def memory_reserved(self):
        return self.memory_stats()["reserved_bytes.all.current"]

    def max_memory_reserved(self):
        return self.memory_stats()["reserved_bytes.all.peak"]

    def mem_get_info(self):
        """(free, total) bytes of the simulated device, as ``torch.cuda.mem_get_info``."""
        return self._sim.mem_get_info()

    def memory_summary(self, abbreviated=False):
        return _summary_text(self.memory_stats(), 0, abbreviated)

    def round_size(self, size):
        """The block size a request of ``size`` bytes is rounded to."""
        return self._sim.round_size(size)

    @staticmethod
    def get_allocation_size(size):
        """The segment size asked from the device for a (rounded) request of ``size`` bytes."""
        return torch._C._CachingAllocatorSimulator.get_allocation_size(size)

    @staticmethod
    def _stream(stream):
        if not isinstance(stream, int) or isinstance(stream, bool) or stream < 0:
            raise ValueError(f"streams are non-negative ints here, got {stream!r}")
        return stream


# ---------------------------------------------------------------------------------------
# The allocator behind CUDA tensors
# ---------------------------------------------------------------------------------------

def _device_index(device, optional=True):
    if device is None:
        return torch.cuda.current_device()
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if device.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {device}")
        return torch.cuda.current_device() if device.index is None else device.index
    return int(device)


def caching_allocator_alloc(size, device=None, stream=None):
    """Allocate ``size`` bytes with the CUDA caching allocator; returns the address."""
    torch.cuda._lazy_init()
    device = _device_index(device)
    if stream is None:
        stream = torch.cuda.current_stream(device)
    if isinstance(stream, torch.cuda.Stream):
        stream = stream.cuda_stream
    if not isinstance(stream, int):
        raise TypeError("Invalid type for stream argument, must be `torch.cuda.Stream` or `int` representing a pointer to a existing stream")
    with torch.cuda.device(device):
        return torch._C._cuda_cudaCachingAllocator_raw_alloc(size, stream)


def caching_allocator_delete(mem_ptr):
    """Free an address from ``caching_allocator_alloc``."""
    torch.cuda._lazy_init()
    torch._C._cuda_cudaCachingAllocator_raw_delete(mem_ptr)


def set_per_process_memory_fraction(fraction, device=None):
    """Cap the caching allocator of ``device`` at ``fraction`` of the GPU's memory."""
    torch.cuda._lazy_init()
    device = _device_index(device)
    _check_fraction(fraction)
    torch._C._cuda_setMemoryFraction(fraction, device)


def get_per_process_memory_fraction(device=None):
    torch.cuda._lazy_init()
    return torch._C._cuda_getMemoryFraction(_device_index(device))


def empty_cache():
    """Return the cached, unused segments of every device to CUDA."""
    if torch.cuda.is_initialized():
        torch._C._cuda_emptyCache()


def memory_stats_as_nested_dict(device=None):
    if not torch.cuda.is_initialized():
        return {}
    return torch._C._cuda_memoryStats(_device_index(device))


def memory_stats(device=None):
    """The caching allocator's statistics for ``device``, flattened (``{}`` before CUDA is used)."""
    return _flatten_stats(memory_stats_as_nested_dict(device))


def reset_accumulated_memory_stats(device=None):
    torch.cuda._lazy_init()
    torch._C._cuda_resetAccumulatedMemoryStats(_device_index(device))


def reset_peak_memory_stats(device=None):
    torch.cuda._lazy_init()
    torch._C._cuda_resetPeakMemoryStats(_device_index(device))


def memory_allocated(device=None):
    """Bytes in blocks handed out and not yet freed (rounded sizes)."""
    return memory_stats(device).get("allocated_bytes.all.current", 0)


def max_memory_allocated(device=None):
    return memory_stats(device).get("allocated_bytes.all.peak", 0)


def memory_reserved(device=None):
    """Bytes held from CUDA in segments, free or not."""
    return memory_stats(device).get("reserved_bytes.all.current", 0)


def max_memory_reserved(device=None):
    return memory_stats(device).get("reserved_bytes.all.peak", 0)


def mem_get_info(device=None):
    """(free, total) bytes of the GPU, from cudaMemGetInfo."""
    torch.cuda._lazy_init()
    return torch._C._cuda_memGetInfo(_device_index(device))


def memory_snapshot():
    """Every segment of every device with its blocks."""
    torch.cuda._lazy_init()
    return torch._C._cuda_memorySnapshot()["segments"]


def _snapshot(device=None):
    torch.cuda._lazy_init()
    return torch._C._cuda_memorySnapshot()


def _record_memory_history(enabled="all", max_entries=100000, device=None):
    """Record allocator events for ``_snapshot()["device_traces"]`` (``enabled=None`` stops)."""
    torch.cuda._lazy_init()
    torch._C._cuda_record_memory_history(enabled is not None, max_entries)


def _dump_snapshot(filename="dump_snapshot.pickle"):
    with open(filename, "wb") as f:
        pickle.dump(_snapshot(), f)


def _set_allocator_settings(env):
    torch._C._accelerator_setAllocatorSettings(env)


def memory_summary(device=None, abbreviated=False):
    """A table of the caching allocator's statistics, as PyTorch prints it."""
    stats = memory_stats(device)
    if not stats:
        return "CUDA memory summary: the CUDA allocator has not been used yet.\n"
    return _summary_text(stats, _device_index(device), abbreviated)
