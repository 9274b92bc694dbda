"""torch/autograd/variable.py - Variable, the name tensors had before PyTorch 0.4.

Mirrors PyTorch's torch/autograd/variable.py. Guide: docs/source/internals/autograd.rst.
Variable(t) returns t: variables and tensors have been one type since 0.4.
"""

import torch


class VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, torch.Tensor)


class Variable(torch._C.TensorBase, metaclass=VariableMeta):
    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if data is None:
            data = torch.empty(0)
        if requires_grad:
            data.requires_grad_(True)
        return data
