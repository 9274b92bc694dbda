"""torch/nn/utils/weight_norm.py - weight_norm and remove_weight_norm, the forward-pre-hook form.

Mirrors PyTorch's torch/nn/utils/weight_norm.py; norm_except_dim and _weight_norm are
the operators PyTorch has in aten/src/ATen/native/WeightNorm.cpp, written here over norm.
Guide: docs/source/internals/programs/nn_utils.rst.

weight = g * v / ||v||, the norm over every dimension but `dim` (over all of them for
dim=None): the direction v and the length g are learned separately. The newer
torch.nn.utils.parametrizations.weight_norm does the same through register_parametrization.
"""

import warnings
from typing import Any, TypeVar

import torch
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


def norm_except_dim(v: torch.Tensor, pow: float = 2, dim: int = 0) -> torch.Tensor:
    """The pow-norm of v over every dimension except dim, shaped to broadcast against v
    (size 1 everywhere but dim). dim=-1 means over all dimensions: a 0-dim tensor."""
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        output_size = [v.size(0)] + [1] * (v.dim() - 1)
        return v.contiguous().view(v.size(0), -1).norm(pow, 1).view(output_size)
    if dim == v.dim() - 1:
        output_size = [1] * (v.dim() - 1) + [v.size(-1)]
        return v.contiguous().view(-1, v.size(-1)).norm(pow, 0).view(output_size)
    # Any other dimension: bring it to the front.
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def _weight_norm(v: torch.Tensor, g: torch.Tensor, dim: int = 0) -> torch.Tensor:
    """v * (g / ||v||), the norm taken as norm_except_dim(v, 2, dim)."""
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    r"""The forward pre-hook that recomputes module.<name> from <name>_g and <name>_v."""

    name: str
    dim: int

    def __init__(self, name: str, dim: int) -> None:
        if dim is None:
            dim = -1
        self.name = name
        self.dim = dim

    def compute_weight(self, module: Module) -> Any:
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module, name: str, dim: int) -> "WeightNorm":
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        # The Parameter is replaced by g and v; module.<name> becomes a plain tensor,
        # recomputed before every forward so that it carries the graph back to g and v.
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


T_module = TypeVar("T_module", bound=Module)


def weight_norm(module: T_module, name: str = "weight", dim: int = 0) -> T_module:
    r"""Reparametrize module.<name> as <name>_g * <name>_v / ||<name>_v|| (deprecated form)."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: T_module, name: str = "weight") -> T_module:
    r"""Fold <name>_g and <name>_v back into one Parameter <name>."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
