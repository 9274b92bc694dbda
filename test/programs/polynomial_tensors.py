"""Fit y = sin(x) on [-pi, pi] with a cubic, the gradients written out by hand on tensors.

The "PyTorch: Tensors" step of PyTorch's "Learning PyTorch with Examples" tutorial.
Guide: docs/source/internals/programs/index.rst.
"""
import math

import torch

dtype = torch.float
device = torch.device("cpu")
torch.manual_seed(0)

x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)

# Random starting weights.
a = torch.randn((), device=device, dtype=dtype)
b = torch.randn((), device=device, dtype=dtype)
c = torch.randn((), device=device, dtype=dtype)
d = torch.randn((), device=device, dtype=dtype)
print(f"start: a={a.item():.6f} b={b.item():.6f} c={c.item():.6f} d={d.item():.6f}")

learning_rate = 1e-6
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3

    loss = (y_pred - y).pow(2).sum().item()
    if t % 100 == 99:
        print(t, loss)

    # Backward pass by hand: d(loss)/d(y_pred), then the chain rule for each weight.
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()

    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d

print(f"Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3")
