"""benchmarks/lltm.py - forward+backward of the write-ups' LLTM (docs/examples/lltm) in each form:
Python tensor operations, the C++ extension, the dispatcher operator torch.ops.lltm_ops.lltm,
and (under TORCH_CUDA_SIMULATE or on a GPU) the CUDA extension; against the same cell written
by hand in numpy, in one run. Also the time of a load() that finds its build up to date.

This project's own benchmark (PyTorch's extension tutorial times the same three LLTMs).
Run on demand (not part of `make test`), from the repository root after `make build`:

    .venv/bin/python benchmarks/lltm.py              # CPU forms
    TORCH_CUDA_SIMULATE=1 .venv/bin/python benchmarks/lltm.py   # and the CUDA extension

The first run builds the extensions (a minute or two); later runs load them.
Guide: docs/source/internals/cpp_extensions.rst.
"""

import os
import sys
import time

import numpy as np

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "examples", "lltm"))
from _timing import best_of  # noqa: E402
import lltm  # noqa: E402

BATCH, FEATURES, STATE = 16, 32, 128


def numpy_step(X, W, b, h, c, grad_h, grad_c):
    """The LLTM's forward and backward, by hand: the work any of the torch forms must do."""
    Xc = np.concatenate([h, X], axis=1)
    gw = Xc @ W.T + b
    g0, g1, g2 = np.split(gw, 3, axis=1)
    ig = 1 / (1 + np.exp(-g0))
    og = 1 / (1 + np.exp(-g1))
    cc = np.where(g2 > 0, g2, np.exp(g2) - 1)
    new_c = c + cc * ig
    t = np.tanh(new_c)
    new_h = t * og
    d_og = t * grad_h
    d_new_c = (1 - t * t) * og * grad_h + grad_c
    d_g = np.concatenate([cc * d_new_c * ig * (1 - ig), d_og * og * (1 - og),
                          ig * d_new_c * np.where(g2 > 0, 1.0, np.exp(g2))], axis=1)
    d_W = d_g.T @ Xc
    d_b = d_g.sum(0)
    d_X = d_g @ W
    return new_h, new_c, d_W, d_b, d_X


def torch_step(cell, X, h, c):
    cell.zero_grad()
    new_h, new_c = cell(X, (h, c))
    (new_h.sum() + new_c.sum()).backward()


def main():
    torch.manual_seed(0)
    X, h, c = torch.randn(BATCH, FEATURES), torch.randn(BATCH, STATE), torch.randn(BATCH, STATE)
    reference = lltm.LLTM(FEATURES, STATE, impl="python")
    Wn, bn = reference.weights.detach().numpy().copy(), reference.bias.detach().numpy().copy()
    ones = np.ones((BATCH, STATE), dtype=np.float32)
    numpy_time = best_of(lambda: numpy_step(X.numpy(), Wn, bn, h.numpy(), c.numpy(), ones, ones))

    print(f"LLTM forward+backward, batch {BATCH}, {FEATURES} features, state {STATE}, float32, "
          f"{torch.get_num_threads()} thread(s)")
    print(f"{'form':<28} {'time':>12} {'vs numpy':>10} {'vs python':>10}")
    print(f"{'numpy (by hand)':<28} {numpy_time * 1e6:>9.1f} us {1.0:>9.2f}x")
    python_time = None
    forms = [("python (tensor ops)", "python", "cpu"), ("C++ extension", "cpp", "cpu"),
             ("torch.ops.lltm_ops.lltm", "op", "cpu")]
    if torch.cuda.is_available():
        forms.append(("CUDA extension", "cuda", "cuda"))
    for label, impl, device in forms:
        cell = lltm.LLTM(FEATURES, STATE, impl=impl).to(device)
        cell.load_state_dict(reference.state_dict())
        args = [t.to(device) for t in (X, h, c)]

        def step():
            torch_step(cell, *args)
            if device == "cuda":
                torch.cuda.synchronize()

        t = best_of(step)
        python_time = python_time or t
        print(f"{label:<28} {t * 1e6:>9.1f} us {t / numpy_time:>9.2f}x {python_time / t:>9.2f}x")

    start = time.perf_counter()
    lltm.load_cpp()
    print(f"load() of the built, unchanged C++ extension: {(time.perf_counter() - start) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
