"""benchmarks/nn.py - one training step of the small CNN of docs/examples/train_cnn, timed.

This project's own benchmark (PyTorch keeps its layer benchmarks in benchmarks/ too, under
other names). Run on demand (not part of `make test`): .venv/bin/python benchmarks/nn.py
Guide: docs/source/internals/python_layer.rst (a training step, layer by layer).

  small CNN step:  the example's network (Conv2d 1->8 3x3, BatchNorm2d, ReLU, MaxPool2d,
                   Conv2d 8->16 3x3, ReLU, MaxPool2d, Flatten, Linear 64->4) on a batch of 64
                   8x8 images: zero_grad, forward, cross-entropy, backward, SGD step (momentum 0.9)

Each line prints the best time per step over several rounds, and the share of it spent in
the forward pass alone (under no_grad) for comparison. torch's kernels run on all cores: on
a busy machine (a build beside it) OMP_NUM_THREADS=1 gives the steadier figures.
"""

import os
import sys
import time

import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "examples", "train_cnn"))
import train_cnn  # noqa: E402


def best_of(fn, repeat=7):
    """The best per-call time in seconds over `repeat` rounds (the least disturbed one)."""
    fn()  # warm up: first-touch page faults, lazy initialization
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


def small_cnn_step(batch_size=64):
    """A closure running one training step of the example's network, and one running its forward."""
    torch.manual_seed(0)
    images, labels = train_cnn.make_shapes(batch_size, torch.Generator().manual_seed(0))
    model = train_cnn.make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()

    def step():
        optimizer.zero_grad()
        loss = loss_fn(model(images), labels)
        loss.backward()
        optimizer.step()
        return loss

    def forward_only():
        with torch.no_grad():
            return model(images)

    return step, forward_only


def main():
    print(f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '(unset: all cores)')}, {os.cpu_count()} CPUs")
    print(f"{'':<34} {'per step':>12} {'forward only':>15} {'images/s':>10}")
    batch_size = 64
    step, forward_only = small_cnn_step(batch_size)
    t = best_of(step)
    f = best_of(forward_only)
    print(f"{'small CNN step (batch ' + str(batch_size) + ')':<34} {t * 1e6:>9.1f} us {f * 1e6:>12.1f} us "
          f"{batch_size / t:>10.0f}")


if __name__ == "__main__":
    main()
