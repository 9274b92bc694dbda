"""benchmarks/tensor_ops.py - elementwise, reduction, matmul, copy and per-call overhead vs numpy.

Run on demand (not part of `make test`): .venv/bin/python benchmarks/tensor_ops.py
Guide: docs/source/internals/one_call.rst. Each line times torch and numpy in the same run
and prints torch/numpy (below 1.0: torch is faster). Operators this build does not have yet
are reported as missing rather than skipped silently.
"""

import sys

import numpy as np

import torch
from _timing import best_of, print_header, print_missing, print_times, row


def main():
    print(f"torch {torch.__version__}, numpy {np.__version__}, python {sys.version.split()[0]}")
    print_header()
    for n in (10**6, 10**7):
        a_np = np.random.rand(n).astype(np.float32)
        b_np = np.random.rand(n).astype(np.float32)
        try:
            a, b = torch.from_numpy(a_np), torch.from_numpy(b_np)
        except AttributeError:
            print("torch.from_numpy is missing: no tensor benchmarks")
            return
        row(f"add float32 n={n:.0e}", lambda: torch.add(a, b), lambda: np.add(a_np, b_np), "<= 1.0x")
    x_np = np.random.rand(10**7).astype(np.float32)
    x = torch.from_numpy(x_np)
    row("sum float32 n=1e7", lambda: torch.sum(x), lambda: np.sum(x_np), "<= 1.0x")
    for n in (256, 512, 1024):
        m_np = np.random.rand(n, n).astype(np.float32)
        m = torch.from_numpy(m_np)
        row(f"matmul float32 {n}x{n}", lambda: torch.matmul(m, m), lambda: np.matmul(m_np, m_np), "<= 1.2x")
    big_np = np.random.rand(2048, 2048).astype(np.float32)
    big = torch.from_numpy(big_np)
    row("transpose+contiguous 2048x2048", lambda: big.t().contiguous(),
        lambda: np.ascontiguousarray(big_np.T), "<= 1.0x")
    s_np, s2_np = np.ones(4, dtype=np.float32), np.ones(4, dtype=np.float32)
    s, s2 = torch.from_numpy(s_np), torch.from_numpy(s2_np)

    def loop_torch():
        for _ in range(20000):
            s + s2

    def loop_numpy():
        for _ in range(20000):
            s_np + s2_np

    try:
        t = best_of(loop_torch, repeat=3, number=1) / 20000
        n = best_of(loop_numpy, repeat=3, number=1) / 20000
        print_times("small a + b (per op)", t, n, "< 5 us", decimals=2)
    except (TypeError, RuntimeError, NotImplementedError) as e:
        print_missing("small a + b (per op)", e)


if __name__ == "__main__":
    main()
