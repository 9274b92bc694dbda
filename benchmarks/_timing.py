"""benchmarks/_timing.py - the timing loop and the table rows shared by the torch-vs-numpy benchmarks.

Imported by benchmarks/tensor_ops.py and benchmarks/autograd.py (run as scripts from the repo
root, so this folder is first on sys.path). Each row is one benchmark: torch's and numpy's best
per-call time and their ratio (below 1.0: torch is faster).
"""

import time

# What a call into an operator this build does not have yet raises.
MISSING = (AttributeError, RuntimeError, NotImplementedError, TypeError)


def best_of(fn, repeat=7, number=None):
    """The best per-call time in seconds over `repeat` rounds (the least disturbed one).

    Without `number`, each round calls `fn` as many times (a power of two) as fill 50 ms.
    """
    fn()  # warm up: first-touch page faults, lazy initialization
    if number is None:
        number = 1
        while _time_calls(fn, number) <= 0.05:
            number *= 2
    return min(_time_calls(fn, number) for _ in range(repeat)) / number


def _time_calls(fn, number):
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return time.perf_counter() - start


def print_header():
    print(f"{'benchmark':<34} {'torch':>15} {'numpy':>15} {'ratio':>9}")


def print_times(name, t, n, target, decimals=1):
    """One row from two per-call times in seconds."""
    print(f"{name:<34} {t * 1e6:>12.{decimals}f} us {n * 1e6:>12.{decimals}f} us {t / n:>8.2f}x   target {target}")


def print_missing(name, e):
    """The row of a benchmark whose torch side raised `e`."""
    print(f"{name:<34} missing: {type(e).__name__}: {str(e).splitlines()[0][:60]}")


def row(name, torch_fn, numpy_fn, target):
    """Time `torch_fn` and `numpy_fn` and print their row (or that torch lacks an operator)."""
    try:
        t = best_of(torch_fn)
    except MISSING as e:
        print_missing(name, e)
        return
    print_times(name, t, best_of(numpy_fn), target)
