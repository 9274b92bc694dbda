"""torch/nn/utils/spectral_norm.py - spectral_norm and remove_spectral_norm, the forward-pre-hook form.

Mirrors PyTorch's torch/nn/utils/spectral_norm.py. Guide: docs/source/internals/programs/nn_utils.rst.

weight = weight_orig / sigma, sigma the largest singular value of weight_orig (seen as a
matrix with `dim` as rows), estimated by power iteration: buffers weight_u and weight_v
hold the singular vectors' estimates and, in training mode, each forward refines them by
n_power_iterations steps  v = normalize(W^T u),  u = normalize(W v); then sigma = u . W v.
"""

from typing import Any, TypeVar

import torch
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter
from torch.utils.hooks import _add_hook

__all__ = ["SpectralNorm", "SpectralNormStateDictHook", "spectral_norm", "remove_spectral_norm"]


def _normalize(x: torch.Tensor, eps: float) -> torch.Tensor:
    # torch.nn.functional.normalize(x, dim=0, eps=eps) for a vector: x / max(||x||, eps).
    return x / torch.linalg.vector_norm(x).clamp_min(eps)


class SpectralNorm:
    r"""The forward pre-hook that recomputes module.<name> = <name>_orig / sigma."""

    # Version 1 stores weight_v as well as weight_u (in state_dict metadata).
    _version: int = 1

    name: str
    dim: int
    n_power_iterations: int
    eps: float

    def __init__(self, name: str = "weight", n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError(
                f"Expected n_power_iterations to be positive, but got n_power_iterations={n_power_iterations}"
            )
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: torch.Tensor) -> torch.Tensor:
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(self.dim, *[d for d in range(weight_mat.dim()) if d != self.dim])
        height = weight_mat.size(0)
        return weight_mat.reshape(height, -1)

    def compute_weight(self, module: Module, do_power_iteration: bool) -> torch.Tensor:
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)

        if do_power_iteration:
            with torch.no_grad():
                for _ in range(self.n_power_iterations):
                    # In place: the buffers carry the estimate from one forward to the next.
                    v.copy_(_normalize(torch.mv(weight_mat.t(), u), self.eps))
                    u.copy_(_normalize(torch.mv(weight_mat, v), self.eps))
                # Clones, so that a later in-place update of the buffers does not change
                # what autograd saved for this forward's backward.
                u = u.clone()
                v = v.clone()

        sigma = torch.dot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def remove(self, module: Module) -> None:
        with torch.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    @staticmethod
    def apply(module: Module, name: str, n_power_iterations: int, dim: int, eps: float) -> "SpectralNorm":
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")

        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")

        with torch.no_grad():
            weight_mat = fn.reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            # Random starting vectors, drawn u first, from the global generator.
            u = _normalize(torch.empty(h, dtype=weight.dtype, device=weight.device).normal_(0, 1), fn.eps)
            v = _normalize(torch.empty(w, dtype=weight.dtype, device=weight.device).normal_(0, 1), fn.eps)

        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        # A plain attribute until the first forward recomputes it; weight.data so that it is
        # not a second Parameter.
        setattr(module, fn.name, weight.data)
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)

        module.register_forward_pre_hook(fn)
        # What Module._register_state_dict_hook does: hook(module, state_dict, prefix, local_metadata).
        _add_hook(module._state_dict_hooks, SpectralNormStateDictHook(fn))
        return fn


class SpectralNormStateDictHook:
    r"""Records the layout version (spectral_norm: {"<name>.version": 1}) in state_dict metadata."""

    def __init__(self, fn) -> None:
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata) -> None:
        if "spectral_norm" not in local_metadata:
            local_metadata["spectral_norm"] = {}
        key = self.fn.name + ".version"
        if key in local_metadata["spectral_norm"]:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        local_metadata["spectral_norm"][key] = self.fn._version


T_module = TypeVar("T_module", bound=Module)


def spectral_norm(module: T_module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int = None) -> T_module:
    r"""Divide module.<name> by its spectral norm before every forward (deprecated form;
    see torch.nn.utils.parametrizations.spectral_norm). dim defaults to 0 (1 for
    transposed convolutions)."""
    if dim is None:
        transposed = tuple(c for c in (getattr(torch.nn, n, None) for n in
                                       ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d")) if c is not None)
        dim = 1 if transposed and isinstance(module, transposed) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: T_module, name: str = "weight") -> T_module:
    r"""Make module.<name> a Parameter again, holding weight_orig / sigma."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for k, hook in module._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[k]
            break
    return module
