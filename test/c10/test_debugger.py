# test/c10/test_debugger.py - the debugger walkthrough is a tested feature: gdb, started on
# Python, stops in c10::alloc_cpu when a storage is allocated, and the stack shows the way
# from torch._C down through DefaultCPUAllocator::allocate.
# Guide: docs/source/internals/debugger.rst.
import shutil

import pytest
import torch

from tools.gdb.run import run_gdb

pytestmark = pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb is not installed")


def test_gdb_stops_in_alloc_cpu_when_a_storage_is_allocated():
    out = run_gdb("import torch; torch.UntypedStorage(100)", "break c10::alloc_cpu", "run", "bt 8")
    # The breakpoint was set before libc10.so was loaded: it must have been kept pending.
    assert "Breakpoint 1 (c10::alloc_cpu) pending." in out
    # With more than one thread (OpenBLAS starts its pool when libtorch_cpu loads) gdb says
    # 'Thread 1 "python" hit Breakpoint 1, ...' instead of 'Breakpoint 1, ...'.
    hits = [line for line in out.splitlines() if line.startswith("Breakpoint 1,") or " hit Breakpoint 1," in line]
    assert any("c10::alloc_cpu" in line for line in hits), out[-3000:]
    backtrace = [line for line in out.splitlines() if line.startswith("#")]
    assert "c10::alloc_cpu" in backtrace[0]
    assert any("c10::DefaultCPUAllocator::allocate" in line for line in backtrace[:3]), backtrace


@pytest.mark.skipif(not torch._C._debug_build, reason="file:line and arguments need a DEBUG=1 build (make debug)")
def test_debug_build_shows_source_lines_and_arguments():
    out = run_gdb("import torch; torch.UntypedStorage(100)", "break c10::alloc_cpu", "run", "bt 12")
    backtrace = "\n".join(line for line in out.splitlines() if line.startswith("#"))
    assert "nbytes=100" in backtrace
    assert "alloc_cpu.cpp:" in backtrace
    assert "CPUAllocator.cpp:" in backtrace
    assert "THPStorage_pynew" in backtrace
