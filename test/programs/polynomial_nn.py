"""Fit y = sin(x) with nn.Sequential(nn.Linear(3, 1), nn.Flatten(0, 1)) on the features x, x^2, x^3.

The "nn module" step of PyTorch's "Learning PyTorch with Examples" tutorial: MSELoss(reduction='sum'),
model.zero_grad() and a plain gradient step over model.parameters().
Guide: docs/source/internals/programs/index.rst.
"""
import math

import torch

torch.manual_seed(0)

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

# (2000,) -> (2000, 3): the columns are x, x^2, x^3 (broadcasting against p).
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)

model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)
print(model)

loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-6
for t in range(2000):
    y_pred = model(xx)

    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, loss.item())

    model.zero_grad()
    loss.backward()

    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad

linear_layer = model[0]
print(f"Result: y = {linear_layer.bias.item()} + {linear_layer.weight[:, 0].item()} x + "
      f"{linear_layer.weight[:, 1].item()} x^2 + {linear_layer.weight[:, 2].item()} x^3")
