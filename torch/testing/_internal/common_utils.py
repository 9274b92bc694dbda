"""torch/testing/_internal/common_utils.py - the helpers this tree's Python tests share: seeded
leaf tensors, a thread-count context, exact and close comparisons that check dtypes too, and
one set of memory layouts (permuted, sliced, expanded) with the same values, as a list and as
a Hypothesis strategy. Mirrors the role of PyTorch's torch/testing/_internal/common_utils.py
(which its test suites import for the same purposes). Guide: docs/source/internals/python_layer.rst.
"""
import contextlib

import numpy as np

import torch
from torch.testing import assert_close


def make_leaf(*shape, dtype=torch.float64, seed=0, low=None):
    """A leaf tensor that requires grad, drawn by numpy from `seed` (the same values in every
    run and in every library). With `low`, the values are |x| + low, away from the
    singularities of log, sqrt and 1/x."""
    values = np.random.default_rng(seed).standard_normal(shape)
    if low is not None:
        values = np.abs(values) + low
    return torch.tensor(values, dtype=dtype).requires_grad_()


@contextlib.contextmanager
def num_threads(n):
    """torch.set_num_threads(n) for the duration of a with-block, then the previous count."""
    old = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def assert_equal(actual, expected, **kwargs):
    """assert_close with no tolerance: same dtype, shape, device and every value."""
    assert_close(actual, expected, rtol=0, atol=0, **kwargs)


def layouts(t):
    """(name, tensor) pairs holding t's values in different memory layouts: contiguous, the
    last two dimensions stored transposed, every other element of a wider tensor (sliced),
    dimensions permuted in storage, and (where a dimension has size 1) expanded from it."""
    t = t.detach()
    out = [("contiguous", t.contiguous())]
    if t.dim() >= 2:
        out.append(("transposed", t.transpose(-1, -2).contiguous().transpose(-1, -2)))
        order = list(range(t.dim()))[::-1]
        inverse = [order.index(d) for d in range(t.dim())]
        out.append(("permuted", t.permute(order).contiguous().permute(inverse)))
    if t.dim() >= 1 and t.numel() > 0:
        wide = torch.repeat_interleave(t, 2, dim=-1)
        out.append(("sliced", wide[..., ::2]))
    for d in range(t.dim()):
        if t.size(d) > 1 and bool((t == t.select(d, 0).unsqueeze(d)).all()):
            out.append(("expanded", t.select(d, 0).unsqueeze(d).expand(t.shape)))
            break
    return out


def layout_strategy(shape, dtype=torch.float64):
    """A Hypothesis strategy of tensors of `shape` whose values come from numpy and whose
    memory layout is any of layouts(): the values test the kernel, the layout tests its
    stride handling."""
    from hypothesis import strategies as st

    def build(seed, index):
        values = torch.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=dtype)
        choices = layouts(values)
        return choices[index % len(choices)][1]

    return st.builds(build, st.integers(0, 2**32 - 1), st.integers(0, 16))
