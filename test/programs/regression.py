"""Recover a random degree-4 polynomial from noise-free samples with one nn.Linear and smooth L1 loss.

Follows pytorch/examples regression/main.py: polynomial features built with torch.cat, F.smooth_l1_loss,
and a hand-written SGD step through param.data, until the loss falls under 1e-3 (or 300 batches).
Guide: docs/source/internals/programs/index.rst.
"""
from itertools import count

import torch
import torch.nn.functional as F

torch.manual_seed(0)

POLY_DEGREE = 4
W_target = torch.randn(POLY_DEGREE, 1) * 5
b_target = torch.randn(1) * 5


def make_features(x):
    """Builds features i.e. a matrix with columns [x, x^2, x^3, x^4]."""
    x = x.unsqueeze(1)
    return torch.cat([x ** i for i in range(1, POLY_DEGREE + 1)], 1)


def f(x):
    """Approximated function."""
    return x.mm(W_target) + b_target.item()


def poly_desc(W, b):
    """Creates a string description of a polynomial."""
    result = 'y = '
    for i, w in enumerate(W):
        result += '{:+.2f} x^{} '.format(w, i + 1)
    result += '{:+.2f}'.format(b[0])
    return result


def get_batch(batch_size=32):
    """Builds a batch i.e. (x, f(x)) pair."""
    random = torch.randn(batch_size)
    x = make_features(random)
    y = f(x)
    return x, y


# Define model
fc = torch.nn.Linear(W_target.size(0), 1)

for batch_idx in count(1):
    # Get data
    batch_x, batch_y = get_batch()

    # Reset gradients
    fc.zero_grad()

    # Forward pass
    output = F.smooth_l1_loss(fc(batch_x), batch_y)
    loss = output.item()

    # Backward pass
    output.backward()

    # Apply gradients
    for param in fc.parameters():
        param.data.add_(-0.1 * param.grad)

    if batch_idx % 25 == 0:
        print('batch {} loss {:.6f}'.format(batch_idx, loss))

    # Stop criterion
    if loss < 1e-3 or batch_idx == 300:
        break

print('Loss: {:.6f} after {} batches'.format(loss, batch_idx))
print('==> Learned function:\t' + poly_desc(fc.weight.view(-1), fc.bias))
print('==> Actual function:\t' + poly_desc(W_target.view(-1), b_target))
print('weights:', ' '.join('{:.6f}'.format(w) for w in fc.weight.view(-1).tolist()),
      'bias: {:.6f}'.format(fc.bias.item()))
