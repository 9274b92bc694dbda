"""torch/optim/adagrad.py - Adagrad: per-element learning rates from the running sum of squared gradients.

Mirrors PyTorch's torch/optim/adagrad.py (the single-tensor path, ``_single_tensor_adagrad``).
Guide: docs/source/internals/python_layer.rst
"""

import torch
from torch import Tensor

from .optimizer import (
    Optimizer,
    _get_scalar_dtype,
    _get_value,
    _reject_foreach_and_fused,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["Adagrad", "adagrad"]


class Adagrad(Optimizer):
    r"""Implements the Adagrad algorithm.

    For each parameter, with :math:`g` its gradient (negated when ``maximize``) and
    ``t`` its step count::

        g = g + weight_decay * p                (if weight_decay != 0)
        clr = lr / (1 + (t - 1) * lr_decay)
        sum = sum + g * g
        p = p - clr * g / (sqrt(sum) + eps)

    Unlike the other optimizers, Adagrad creates its state (``step`` and ``sum``, filled
    with ``initial_accumulator_value``) in the constructor, for every parameter.
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")

        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)
        _reject_foreach_and_fused(foreach, fused, differentiable)

        for group in self.param_groups:
            for p in group["params"]:
                _reject_complex(p)
                state = self.state[p]
                state["step"] = torch.tensor(0.0, dtype=_get_scalar_dtype())
                state["sum"] = torch.full_like(p, initial_accumulator_value, memory_format=torch.preserve_format)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("fused", None)

        # a state saved when 'step' was a Python number
        state_values = list(self.state.values())
        step_is_tensor = (len(state_values) != 0) and torch.is_tensor(state_values[0]["step"])
        if not step_is_tensor:
            for s in state_values:
                s["step"] = torch.tensor(float(s["step"]), dtype=_get_scalar_dtype())

    def _init_group(self, group, params_with_grad, grads, state_sums, state_steps):
        has_sparse_grad = False
        for p in group["params"]:
            if p.grad is not None:
                has_sparse_grad |= p.grad.is_sparse
                params_with_grad.append(p)
                grads.append(p.grad)
                state = self.state[p]
                if len(state) == 0:
                    # a parameter added with add_param_group after construction
                    _reject_complex(p)
                    state["step"] = torch.tensor(0.0, dtype=_get_scalar_dtype())
                    # (PyTorch reads the optimizer's default here, not the group's)
                    initial_accumulator_value = self.defaults["initial_accumulator_value"]
                    state["sum"] = torch.full_like(p, initial_accumulator_value, memory_format=torch.preserve_format)
                state_sums.append(state["sum"])
                state_steps.append(state["step"])
        return has_sparse_grad

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """Perform a single optimization step.

        Args:
            closure (Callable, optional): A closure that reevaluates the model
                and returns the loss.
        """
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()

        for group in self.param_groups:
            params_with_grad: list[Tensor] = []
            grads: list[Tensor] = []
            state_sums: list[Tensor] = []
            state_steps: list[Tensor] = []

            has_sparse_grad = self._init_group(group, params_with_grad, grads, state_sums, state_steps)

            adagrad(params_with_grad, grads, state_sums, state_steps,
                    lr=group["lr"],
                    weight_decay=group["weight_decay"],
                    lr_decay=group["lr_decay"],
                    eps=group["eps"],
                    has_sparse_grad=has_sparse_grad,
                    foreach=group["foreach"],
                    maximize=group["maximize"],
                    differentiable=group["differentiable"],
                    fused=group["fused"])

        return loss


def _reject_complex(p):
    # PyTorch runs complex parameters through torch.view_as_real, which this project lacks.
    if p.is_complex():
        raise RuntimeError("Adagrad: complex parameters are not supported in this project "
                           "(PyTorch updates them through torch.view_as_real)")


def adagrad(params, grads, state_sums, state_steps, fused=None, grad_scale=None, found_inf=None,
            has_sparse_grad=False, foreach=None, differentiable=False, has_complex=False, *,
            lr, weight_decay, lr_decay, eps, maximize):
    r"""Functional API that performs Adagrad algorithm computation.

    See :class:`~torch.optim.Adagrad` for details.
    """
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    _reject_foreach_and_fused(foreach, fused)
    _single_tensor_adagrad(params, grads, state_sums, state_steps, grad_scale, found_inf,
                           lr=lr, weight_decay=weight_decay, lr_decay=lr_decay, eps=eps,
                           has_sparse_grad=has_sparse_grad, maximize=maximize, differentiable=differentiable)


# [marker: single_tensor_adagrad]
def _single_tensor_adagrad(params, grads, state_sums, state_steps, grad_scale, found_inf, *,
                           lr, weight_decay, lr_decay, eps, has_sparse_grad, maximize, differentiable):
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")

    lr = _to_scalar(lr)

    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps):
        # update step
        step_t += 1
        step = _get_value(step_t)
        grad = grad if not maximize else -grad

        if grad.is_sparse:
            raise RuntimeError("Adagrad: sparse gradients are not supported in this project")

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        clr = lr / (1 + (step - 1) * lr_decay)

        state_sum.addcmul_(grad, grad, value=1)
        if differentiable:
            std = state_sum.sqrt() + eps
        else:
            std = state_sum.sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-clr)
# [end marker: single_tensor_adagrad]
