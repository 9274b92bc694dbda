"""torch/autograd/forward_ad.py - forward-mode AD (dual numbers).

Mirrors the name of PyTorch's torch/autograd/forward_ad.py. Guide: docs/source/internals/autograd.rst.
This tree implements reverse mode only; the module exists so that imports of it work, and
its entry points say so.
"""


def dual_level():
    raise NotImplementedError("forward-mode AD is not part of this tree: use torch.autograd.grad (reverse mode)")


def make_dual(tensor, tangent, *, level=None):
    raise NotImplementedError("forward-mode AD is not part of this tree: use torch.autograd.grad (reverse mode)")
