"""benchmarks/autograd.py - forward+backward through the autograd engine vs a hand-written numpy backward.

Run on demand (not part of `make test`): .venv/bin/python benchmarks/autograd.py
Guide: docs/source/internals/autograd.rst. Each line times torch and numpy in the same run
and prints torch/numpy (below 1.0: torch is faster). The numpy side computes the same
gradients by hand, with no graph: the ratio is what recording and running the graph costs
on top of the arithmetic. Operators this build does not have yet are reported as missing.
torch's elementwise kernels run on all cores and numpy's on one: on a busy machine (a build
beside it) the threads wait for each other, and OMP_NUM_THREADS=1 gives the steadier figures.

  relu chain:  y = ((x*2 + 1).relu()).sum() on 1e6 float32, then dy/dx
  MLP step:    784-256-10, batch 64: mm + bias + relu + mm + bias, a cross-entropy loss
               written with tensor ops (exp, sum, log, sub, mul, mean against a one-hot
               target), backward, SGD under no_grad
"""

import os
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


# ---- relu chain ---------------------------------------------------------------------------

def relu_chain_torch(x):
    x.grad = None
    y = ((x * 2 + 1).relu()).sum()
    y.backward()
    return x.grad


def relu_chain_numpy(x):
    h = x * np.float32(2) + np.float32(1)
    y = np.maximum(h, np.float32(0)).sum()
    grad_h = (h > 0).astype(np.float32)          # d sum / d relu = 1, relu' = [h > 0]
    return y, grad_h * np.float32(2)             # d h / d x = 2


# ---- MLP training step --------------------------------------------------------------------

def mlp_params(rng):
    w1 = (rng.standard_normal((784, 256)) * 0.05).astype(np.float32)
    b1 = np.zeros(256, dtype=np.float32)
    w2 = (rng.standard_normal((256, 10)) * 0.05).astype(np.float32)
    b2 = np.zeros(10, dtype=np.float32)
    return [w1, b1, w2, b2]


def mlp_step_torch(params, x, onehot, lr=0.01):
    """One SGD step; returns the loss. Cross-entropy from exp/log/sum/mean (no log_softmax op;
    the logits stay small with these weights, so log-sum-exp needs no max shift)."""
    w1, b1, w2, b2 = params
    h = (x.mm(w1) + b1).relu()
    logits = h.mm(w2) + b2
    log_probs = logits - logits.exp().sum(1, keepdim=True).log()
    loss = -(log_probs * onehot).sum(1).mean()
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad = None
    return loss


def mlp_step_numpy(params, x, onehot, lr=np.float32(0.01)):
    """The same step with its backward written by hand."""
    w1, b1, w2, b2 = params
    pre = x @ w1 + b1
    h = np.maximum(pre, np.float32(0))
    logits = h @ w2 + b2
    exp = np.exp(logits)
    sum_exp = exp.sum(1, keepdims=True)
    log_probs = logits - np.log(sum_exp)
    n = x.shape[0]
    loss = -(log_probs * onehot).sum(1).mean()
    grad_logits = (exp / sum_exp - onehot) / np.float32(n)    # softmax - onehot, over the batch
    grad_w2 = h.T @ grad_logits
    grad_b2 = grad_logits.sum(0)
    grad_pre = (grad_logits @ w2.T) * (pre > 0)
    grad_w1 = x.T @ grad_pre
    grad_b1 = grad_pre.sum(0)
    for p, g in zip(params, (grad_w1, grad_b1, grad_w2, grad_b2)):
        p -= lr * g
    return loss


def check_mlp_agrees():
    """Both steps from the same start: the losses and updated weights must match."""
    rng = np.random.default_rng(0)
    params_np = mlp_params(rng)
    params_t = [torch.from_numpy(p.copy()).requires_grad_() for p in params_np]
    x_np = rng.standard_normal((64, 784)).astype(np.float32)
    onehot_np = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 64)]
    x, onehot = torch.from_numpy(x_np), torch.from_numpy(onehot_np)
    for _ in range(3):
        loss_t = mlp_step_torch(params_t, x, onehot).item()
        loss_n = float(mlp_step_numpy(params_np, x_np, onehot_np))
    assert abs(loss_t - loss_n) < 1e-4, (loss_t, loss_n)
    for p_t, p_n in zip(params_t, params_np):
        assert np.allclose(p_t.detach().numpy(), p_n, atol=1e-5), "torch and numpy MLP steps disagree"


def main():
    threads = torch.get_num_threads() if hasattr(torch, "get_num_threads") else os.environ.get(
        "OMP_NUM_THREADS", os.cpu_count())
    print(f"torch {torch.__version__} ({threads} threads), numpy {np.__version__}, "
          f"python {sys.version.split()[0]}")
    print(f"{'benchmark':<34} {'torch':>15} {'numpy':>15} {'ratio':>9}")

    x_np = np.random.default_rng(0).standard_normal(10**6).astype(np.float32)
    x = torch.from_numpy(x_np.copy()).requires_grad_()
    assert np.array_equal(relu_chain_torch(x).numpy(), relu_chain_numpy(x_np)[1])
    row("relu chain fwd+bwd float32 n=1e6", lambda: relu_chain_torch(x), lambda: relu_chain_numpy(x_np), "<= 2.0x")

    try:
        check_mlp_agrees()
    except (AttributeError, RuntimeError, NotImplementedError, TypeError) as e:
        print(f"{'MLP step 784-256-10 batch 64':<34} missing: {type(e).__name__}: {str(e).splitlines()[0][:60]}")
        return
    rng = np.random.default_rng(1)
    params_np = mlp_params(rng)
    params_t = [torch.from_numpy(p.copy()).requires_grad_() for p in params_np]
    xb_np = rng.standard_normal((64, 784)).astype(np.float32)
    onehot_np = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 64)]
    xb, onehot = torch.from_numpy(xb_np), torch.from_numpy(onehot_np)
    row("MLP step 784-256-10 batch 64", lambda: mlp_step_torch(params_t, xb, onehot),
        lambda: mlp_step_numpy(params_np, xb_np, onehot_np), "<= 2.0x")


if __name__ == "__main__":
    main()
