"""tools/gdb/run.py - run gdb in batch mode on `python -c CODE` with the project's gdbinit.

The debugger guides' sessions are tests (test/c10/test_debugger.py,
test/th/test_finding_thstorage_gdb.py); both start gdb this way.
Guide: docs/source/internals/debugger.rst.
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GDBINIT = os.path.join(ROOT, "tools", "gdb", "gdbinit")


def run_gdb(python_code: str, *commands: str, timeout: int = 300) -> str:
    """gdb's whole output for: gdb -batch -x gdbinit -ex CMD... --args python -c python_code."""
    args = ["gdb", "-batch", "-nx", "-x", GDBINIT]
    for c in commands:
        args += ["-ex", c]
    args += ["--args", sys.executable, "-c", python_code]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    out = proc.stdout + proc.stderr
    if "ptrace: Operation not permitted" in out:
        raise RuntimeError("gdb cannot attach (ptrace is not permitted here): " + out[-500:])
    return out
