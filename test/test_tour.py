# test/test_tour.py - `python -m torch.tour` (what `make tour` runs) completes and shows real values.
# Guide: docs/source/index.rst.
import subprocess
import sys


def test_tour_runs_and_reports_each_stop():
    out = subprocess.run([sys.executable, "-m", "torch.tour"], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    for n in range(1, 7):
        assert f"== Stop {n}:" in out
    assert "device(type='cuda', index=1)" in out
    assert "RuntimeError: Invalid device string: 'cuda:01'" in out
    assert "'c10::DefaultCPUAllocator'" in out
    assert "+64 bytes" in out and "-64 bytes" in out
    assert "[239, 190, 237, 127, 239, 190, 237, 127]" in out
    assert "c10::alloc_cpu(64)" in out
