"""torch/nn/__init__.py - torch.nn: Module, Parameter, the layers, functional and init.

Mirrors PyTorch's torch/nn/__init__.py. Guide: docs/source/internals/python_layer.rst.
"""

from torch.nn.parameter import Parameter
from torch.nn.modules import *  # noqa: F403
from torch.nn import functional, init, modules, parameter, utils  # noqa: F401
