"""allocator_figures: a Sphinx extension that draws the CUDA caching allocator chapter's pictures.

This tree's docs tooling (no PyTorch counterpart). Guide: docs/source/internals/cuda_caching_allocator.rst.
Each scenario below runs the allocator on the simulator (torch.cuda.memory.CachingAllocatorSimulator);
at every build, before any page is read, its snapshot is drawn with torch.cuda._memory_viz into
docs/source/_generated/ (ignored by git), so the pictures always show what the code does now.
The chapter quotes these functions, so the reader sees the exact calls behind each picture.
"""

import os

from figure_files import generate_at_build_start, write_if_changed

MiB = 1024 * 1024


def _simulator(total_memory=1024 * MiB):
    import torch.cuda.memory

    sim = torch.cuda.memory.CachingAllocatorSimulator(total_memory)
    sim._record_memory_history()
    return sim


def small_request():
    """A 4-byte request: a 512-byte block cut from a new 2 MiB segment of the small pool."""
    sim = _simulator()
    sim.malloc(4)
    return sim


def pools():
    """One small request and three large ones: which segment each gets."""
    sim = _simulator()
    sim.malloc(4)                   # small pool: 512 bytes of a new 2 MiB segment
    sim.malloc(10 * MiB)            # a segment of exactly 10 MiB, nothing left to split
    sim.malloc(11 * MiB + 1)        # a 12 MiB segment, kept whole: the 1 MiB left is too small to split
    sim.malloc(1 * MiB + 1)         # 1 MiB + 512 bytes of a new 20 MiB segment; the rest stays cached
    return sim


def split_and_merge():
    """Three blocks from one segment; freeing the middle one leaves a hole between allocated blocks."""
    sim = _simulator()
    sim.malloc(256 * 1024)          # stays allocated
    b = sim.malloc(512 * 1024)
    sim.malloc(128 * 1024)          # stays allocated
    sim.free(b)
    return sim


def record_stream():
    """A block used on stream 1, freed from stream 0: it waits for stream 1 before reuse."""
    sim = _simulator()
    p = sim.malloc(1000, stream=0)
    sim.record_stream(p, 1)
    sim.free(p)                     # active_pending_free until stream 1 passes this point
    sim.malloc(1000, stream=0)      # cannot reuse p yet: gets the next block
    return sim


def retry_after_free():
    """A 64 MiB device: a cached 40 MiB segment is given back so that 50 MiB fits."""
    sim = _simulator(64 * MiB)
    p = sim.malloc(40 * MiB)
    sim.free(p)                     # cached: reserved stays 40 MiB
    sim.malloc(50 * MiB)            # cudaMalloc fails, release the cache, retry
    return sim


SCENARIOS = {
    "small_request": (small_request, ["segments"]),
    "pools": (pools, ["segments"]),
    "split_and_merge": (split_and_merge, ["segments"]),
    "record_stream": (record_stream, ["segments"]),
    "retry_after_free": (retry_after_free, ["memory"]),
}


def generate(out_dir):
    """Run every scenario and write <name>_<view>.svg into out_dir."""
    from torch.cuda import _memory_viz

    os.makedirs(out_dir, exist_ok=True)
    draw = {"segments": _memory_viz.segments_svg, "memory": _memory_viz.memory_over_time_svg}
    written = []
    for name, (scenario, views) in SCENARIOS.items():
        snapshot = scenario()._snapshot()
        for view in views:
            path = os.path.join(out_dir, f"{name}_{view}.svg")
            svg = draw[view](snapshot)
            write_if_changed(path, svg)
            written.append(path)
    return written


def setup(app):
    return generate_at_build_start(app, generate)
