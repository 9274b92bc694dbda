"""Fit y = sin(x) with nn.Sequential and let optim.RMSprop take the steps (1000 of them, where
RMSprop is still descending; near the minimum its steps turn on rounding noise).

The "optim" step of PyTorch's "Learning PyTorch with Examples" tutorial.
Guide: docs/source/internals/programs/index.rst.
"""
import math

import torch

torch.manual_seed(0)

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)

p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)

model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)
loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-3
optimizer = torch.optim.RMSprop(model.parameters(), lr=learning_rate)
for t in range(1000):
    y_pred = model(xx)

    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, loss.item())

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

linear_layer = model[0]
print(f"Result: y = {linear_layer.bias.item()} + {linear_layer.weight[:, 0].item()} x + "
      f"{linear_layer.weight[:, 1].item()} x^2 + {linear_layer.weight[:, 2].item()} x^3")
state = optimizer.state_dict()
print("optimizer state:", sorted(state["state"][0].keys()), "step", float(state["state"][0]["step"]))
print("param_groups lr:", state["param_groups"][0]["lr"], "alpha:", state["param_groups"][0]["alpha"])
