# test/test_tour.py - `python -m torch.tour` (what `make tour` runs) completes and shows real values.
# Guide: docs/source/index.rst.
import subprocess
import sys


def test_tour_runs_and_reports_each_stop():
    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    for n in range(1, 8):
        assert f"== Stop {n}:" in out
    assert "device(type='cuda', index=1)" in out
    assert "RuntimeError: Invalid device string: 'cuda:01'" in out
    assert "'c10::DefaultCPUAllocator'" in out
    assert "+64 bytes" in out and "-64 bytes" in out
    assert "[239, 190, 237, 127, 239, 190, 237, 127]" in out
    assert "c10::alloc_cpu(64)" in out


def test_tour_shows_the_caching_allocator_on_the_simulator():
    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    stop = out.split("== Stop 6: the CUDA caching allocator")[1].split("== Stop 7:")[0]
    assert "== Stop 7: watching it in a debugger" in out
    assert "(512, 2097152)" in stop            # a 512-byte block from a 2 MiB segment
    assert "(1, 1)" in stop                    # one segment, one free split block beside the block
    assert "(0, 2097152)" in stop              # freed: the segment stays cached
    assert "q == p\n   True" in stop           # reused at the same address
    assert "(1, 1)" in stop.split("q == p")[1]  # one cudaMalloc in all
    assert "0x7f0000000000" in stop            # the simulated device's first address
