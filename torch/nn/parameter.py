"""torch/nn/parameter.py - Parameter: a tensor that a Module registers as one of its weights.

Mirrors PyTorch's torch/nn/parameter.py. Guide: docs/source/internals/python_layer.rst.

A Parameter is a Tensor subclass and nothing more: assigning one to a Module attribute is
what puts it in the module's _parameters (see Module.__setattr__), so that parameters(),
state_dict() and optimizers find it. It aliases the data it was made from (no copy), is a
leaf, and requires grad unless asked not to. Operations on it give plain Tensors.
"""

from collections import OrderedDict

import torch
from torch import _C

__all__ = ["Parameter"]


class Parameter(torch.Tensor):
    r"""A Tensor that is a module parameter.

    >>> p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    >>> p
    Parameter containing:
    tensor([1., 2.], requires_grad=True)
    >>> type(p * 2).__name__
    'Tensor'
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = torch.empty(0)
        # PyTorch calls torch.Tensor._make_subclass(cls, data, requires_grad): a new Python
        # object of class cls over an alias of data's storage, detached from data's history.
        param = data.detach().as_subclass(cls)
        param.requires_grad_(requires_grad)
        return param

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, proto):
        # torch._utils._rebuild_parameter, as PyTorch pickles a Parameter: a name torch.load's
        # weights_only unpickler allows, and the one files written by PyTorch use.
        return (torch._utils._rebuild_parameter, (self.data, self.requires_grad, OrderedDict()))

    # Results of operations on a Parameter are plain Tensors (PyTorch does the same).
    __torch_function__ = _C._disabled_torch_function_impl

