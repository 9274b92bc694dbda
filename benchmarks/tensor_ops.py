"""benchmarks/tensor_ops.py - elementwise, reduction, matmul, copy and per-call overhead vs numpy.

Run on demand (not part of `make test`): .venv/bin/python benchmarks/tensor_ops.py
Guide: docs/source/internals/one_call.rst. Each line times torch and numpy in the same run
and prints torch/numpy (below 1.0: torch is faster). Operators this build does not have yet
are reported as missing rather than skipped silently.
"""

import sys
import time

import numpy as np

import torch


def best_of(fn, repeat=7, number=None):
    """The best per-call time in seconds over `repeat` rounds (the least disturbed one)."""
    fn()  # warm up: first-touch page faults, lazy initialization
    if number is None:
        number = 1
        while True:
            start = time.perf_counter()
            for _ in range(number):
                fn()
            if time.perf_counter() - start > 0.05:
                break
            number *= 2
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def row(name, torch_fn, numpy_fn, target):
    try:
        t = best_of(torch_fn)
    except (AttributeError, RuntimeError, NotImplementedError, TypeError) as e:
        print(f"{name:<34} {'missing: ' + type(e).__name__ + ': ' + str(e).splitlines()[0][:60]}")
        return
    n = best_of(numpy_fn)
    print(f"{name:<34} {t * 1e6:>12.1f} us {n * 1e6:>12.1f} us {t / n:>8.2f}x   target {target}")


def main():
    print(f"torch {torch.__version__}, numpy {np.__version__}, python {sys.version.split()[0]}")
    print(f"{'benchmark':<34} {'torch':>15} {'numpy':>15} {'ratio':>9}")
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
        print(f"{'small a + b (per op)':<34} {t * 1e6:>12.2f} us {n * 1e6:>12.2f} us {t / n:>8.2f}x   target < 5 us")
    except (TypeError, RuntimeError, NotImplementedError) as e:
        print(f"{'small a + b (per op)':<34} missing: {type(e).__name__}: {str(e).splitlines()[0][:60]}")


if __name__ == "__main__":
    main()
