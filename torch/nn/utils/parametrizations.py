"""torch/nn/utils/parametrizations.py - weight_norm and spectral_norm as parametrizations.

Mirrors PyTorch's torch/nn/utils/parametrizations.py (weight_norm, spectral_norm; not
orthogonal, which needs matrix_exp, householder_product or QR, none of which this tree has).
Guide: docs/source/internals/programs/nn_utils.rst.
"""

from typing import Optional

import torch
from torch import Tensor
from torch.nn.modules.module import Module
from torch.utils.hooks import _add_hook

from . import parametrize
from .spectral_norm import _normalize
from .weight_norm import _weight_norm, norm_except_dim

__all__ = ["weight_norm", "spectral_norm"]


class _WeightNorm(Module):
    def __init__(self, dim: Optional[int] = 0) -> None:
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        # Two tensors: the parametrization stores original0 = g, original1 = v.
        weight_g = norm_except_dim(weight, 2, self.dim)
        weight_v = weight
        return weight_g, weight_v


def weight_norm(module: Module, name: str = "weight", dim: int = 0):
    r"""Reparametrize module.<name> as g * v / ||v||: module.parametrizations.<name>.original0
    is g (the norms, over every dimension but dim), original1 is v (the direction)."""
    _weight_norm_module = _WeightNorm(dim)
    parametrize.register_parametrization(module, name, _weight_norm_module, unsafe=True)

    def _weight_norm_compat_hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                 error_msgs) -> None:
        # A checkpoint saved with the older torch.nn.utils.weight_norm names g and v <name>_g, <name>_v.
        g_key = f"{prefix}{name}_g"
        v_key = f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            original0 = state_dict.pop(g_key)
            original1 = state_dict.pop(v_key)
            state_dict[f"{prefix}parametrizations.{name}.original0"] = original0
            state_dict[f"{prefix}parametrizations.{name}.original1"] = original1

    # What Module._register_load_state_dict_pre_hook does.
    _add_hook(module._load_state_dict_pre_hooks, _weight_norm_compat_hook)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight: torch.Tensor, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError(
                f"Expected n_power_iterations to be positive, but got n_power_iterations={n_power_iterations}"
            )
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            # A vector's spectral norm is its 2-norm: no iteration, no buffers.
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = torch.empty(h, dtype=weight.dtype, device=weight.device).normal_(0, 1)
            v = torch.empty(w, dtype=weight.dtype, device=weight.device).normal_(0, 1)
            self.register_buffer("_u", _normalize(u, self.eps))
            self.register_buffer("_v", _normalize(v, self.eps))
            # Start from a good estimate: 15 iterations on the initial weight.
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: torch.Tensor) -> torch.Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat: torch.Tensor, n_power_iterations: int) -> None:
        # u first, then v (the older hook form goes v then u).
        with torch.no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(_normalize(torch.mv(weight_mat, self._v), self.eps))
                self._v.copy_(_normalize(torch.mv(weight_mat.t(), self._u), self.eps))

    def forward(self, weight: torch.Tensor) -> torch.Tensor:
        if weight.ndim == 1:
            return _normalize(weight, self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        # Clones: autograd keeps u and v for backward; the buffers change in place next time.
        u = self._u.clone()
        v = self._v.clone()
        sigma = torch.dot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value: torch.Tensor) -> torch.Tensor:
        # Any weight W is W' / sigma' for W' = W * sigma'; storing W itself is the simplest choice.
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: Optional[int] = None) -> Module:
    r"""Reparametrize module.<name> as W / sigma(W), sigma by power iteration (buffers
    parametrizations.<name>[0]._u and _v). dim defaults to 0 (1 for transposed convolutions)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        transposed = tuple(c for c in (getattr(torch.nn, n, None) for n in
                                       ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")) if c is not None)
        dim = 1 if transposed and isinstance(module, transposed) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
