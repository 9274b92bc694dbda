"""benchmarks/caching_allocator.py - how fast a cached malloc/free pair is, on the simulator and on a GPU.

This tree's benchmark (PyTorch keeps its own under benchmarks/); run on demand, not by `make test`:
    .venv/bin/python benchmarks/caching_allocator.py
Guide: docs/source/internals/cuda_caching_allocator.rst.

On the simulator, every pair after the first is served from the cache (no device call):
the number measures the policy itself (lock, best-fit lookup, split/merge, statistics)
plus the Python binding. With a GPU, the same pairs go through
torch.cuda.caching_allocator_alloc/delete and are compared with raw cudaMalloc/cudaFree
called through ctypes on libcudart (skipped if the library cannot be loaded).
"""

import ctypes
import ctypes.util
import time

import torch
import torch.cuda.memory

SIZES = [("512 B", 512), ("64 KiB", 64 * 1024), ("4 MiB", 4 * 1024 * 1024)]


def pairs_per_second(alloc, free, size, seconds=0.5):
    """malloc/free pairs per second, timed with time.perf_counter over batches of 1000."""
    free(alloc(size))  # warm up: the first pair creates the segment
    batch, done, start = 1000, 0, time.perf_counter()
    while True:
        for _ in range(batch):
            free(alloc(size))
        done += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def load_cudart():
    """libcudart through ctypes, or None where it cannot be loaded."""
    for path in ("libcudart.so.13", ctypes.util.find_library("cudart"), "libcudart.so", "libcudart.so.12",
                 "libcudart.so.11.0"):
        if not path:
            continue
        try:
            return ctypes.CDLL(path)
        except OSError:
            continue
    return None


def table(title, rows):
    print(title)
    print(f"  {'size':>8}  {'pairs/s':>14}  {'ns/pair':>10}")
    for label, rate in rows:
        print(f"  {label:>8}  {rate:>14,.0f}  {1e9 / rate:>10,.0f}")
    print()


def main():
    sim = torch.cuda.memory.CachingAllocatorSimulator(1 << 30)
    table("Caching allocator on the simulated device (cached malloc/free pairs)",
          [(label, pairs_per_second(lambda n: sim.malloc(n), sim.free, size)) for label, size in SIZES])

    if not torch.cuda.is_available():
        print("torch.cuda.is_available() is False: no GPU numbers.")
        return
    table("torch.cuda.caching_allocator_alloc/delete (GPU)",
          [(label, pairs_per_second(lambda n: torch.cuda.caching_allocator_alloc(n),
                                    torch.cuda.caching_allocator_delete, size)) for label, size in SIZES])
    cudart = load_cudart()
    if cudart is None:
        print("libcudart not found through ctypes: no raw cudaMalloc/cudaFree numbers.")
        return

    def raw_alloc(n):
        ptr = ctypes.c_void_p()
        err = cudart.cudaMalloc(ctypes.byref(ptr), ctypes.c_size_t(n))
        if err != 0:
            raise RuntimeError(f"cudaMalloc failed with error {err}")
        return ptr

    def raw_free(ptr):
        cudart.cudaFree(ptr)

    table("raw cudaMalloc/cudaFree through ctypes (GPU)",
          [(label, pairs_per_second(raw_alloc, raw_free, size)) for label, size in SIZES])


if __name__ == "__main__":
    main()
