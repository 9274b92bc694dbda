"""Fit y = sin(x) with a cubic whose coefficients are leaf tensors, gradients from autograd.

The "Autograd" step of PyTorch's "Learning PyTorch with Examples" tutorial.
Guide: docs/source/internals/programs/index.rst.
"""
import math

import torch

dtype = torch.float
device = torch.device("cpu")
torch.manual_seed(0)

x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype, device=device)
y = torch.sin(x)

a = torch.randn((), dtype=dtype, device=device, requires_grad=True)
b = torch.randn((), dtype=dtype, device=device, requires_grad=True)
c = torch.randn((), dtype=dtype, device=device, requires_grad=True)
d = torch.randn((), dtype=dtype, device=device, requires_grad=True)

learning_rate = 1e-6
for t in range(2000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3

    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())

    loss.backward()

    # Update in place outside the graph, then clear the gradients for the next step.
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad

        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None

print(f"Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3")
print("requires_grad:", a.requires_grad, "grad:", a.grad)
