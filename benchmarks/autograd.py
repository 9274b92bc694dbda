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

import numpy as np

import torch
from _timing import MISSING, print_header, print_missing, row


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


def mlp_inputs(rng):
    """(params, x, onehot) in numpy and the same values as torch tensors (params requiring grad)."""
    params_np = mlp_params(rng)
    x_np = rng.standard_normal((64, 784)).astype(np.float32)
    onehot_np = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 64)]
    params_t = [torch.from_numpy(p.copy()).requires_grad_() for p in params_np]
    return (params_np, x_np, onehot_np), (params_t, torch.from_numpy(x_np), torch.from_numpy(onehot_np))


def check_mlp_agrees():
    """Both steps from the same start: the losses and updated weights must match."""
    (params_np, x_np, onehot_np), (params_t, x, onehot) = mlp_inputs(np.random.default_rng(0))
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
    print_header()

    x_np = np.random.default_rng(0).standard_normal(10**6).astype(np.float32)
    x = torch.from_numpy(x_np.copy()).requires_grad_()
    assert np.array_equal(relu_chain_torch(x).numpy(), relu_chain_numpy(x_np)[1])
    row("relu chain fwd+bwd float32 n=1e6", lambda: relu_chain_torch(x), lambda: relu_chain_numpy(x_np), "<= 2.0x")

    try:
        check_mlp_agrees()
    except MISSING as e:
        print_missing("MLP step 784-256-10 batch 64", e)
        return
    (params_np, xb_np, onehot_np), (params_t, xb, onehot) = mlp_inputs(np.random.default_rng(1))
    row("MLP step 784-256-10 batch 64", lambda: mlp_step_torch(params_t, xb, onehot),
        lambda: mlp_step_numpy(params_np, xb_np, onehot_np), "<= 2.0x")


if __name__ == "__main__":
    main()
