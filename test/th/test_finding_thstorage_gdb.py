# test/th/test_finding_thstorage_gdb.py - the gdb session of the "Finding THStorage" guide:
# gdb, started on Python, stops in THFloatStorage_newWithSize (the generic
# THStorage_(newWithSize) compiled for float) when torch.FloatStorage(4) runs.
# Guide: docs/source/internals/finding_thstorage.rst.
import shutil

import pytest
import torch

from tools.gdb.run import run_gdb

pytestmark = pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb is not installed")


def test_gdb_stops_in_the_float_instance_of_newWithSize():
    out = run_gdb("import torch; torch.DoubleStorage(2); torch.FloatStorage(4)",
                  "break THFloatStorage_newWithSize", "run", "bt 3")
    assert "Breakpoint 1 (THFloatStorage_newWithSize) pending." in out
    hits = [line for line in out.splitlines() if line.startswith("Breakpoint 1,") or " hit Breakpoint 1," in line]
    assert hits and "THFloatStorage_newWithSize" in hits[0], out[-3000:]
    backtrace = [line for line in out.splitlines() if line.startswith("#")]
    assert "THFloatStorage_newWithSize" in backtrace[0]
    # The DoubleStorage made first went through its own copy of the function: no stop there.
    assert "THDoubleStorage_newWithSize" not in "\n".join(backtrace)
    assert "libtorch_cpu.so" in backtrace[0] or "THStorage.cpp" in backtrace[0]


@pytest.mark.skipif(not torch._C._debug_build, reason="arguments and source lines need a DEBUG=1 build (make debug)")
def test_debug_build_shows_the_size_and_the_generic_file():
    out = run_gdb("import torch; torch.FloatStorage(4)", "break THFloatStorage_newWithSize", "run", "bt 3")
    backtrace = "\n".join(line for line in out.splitlines() if line.startswith("#"))
    assert "size=4" in backtrace
    assert "TH/generic/THStorage.cpp:" in backtrace
    assert "THPFloatStorage_pynew" in backtrace
