"""torch/optim/adagrad.py - Adagrad: per-element learning rates from the running sum of squared gradients.

Mirrors PyTorch's torch/optim/adagrad.py (the single-tensor path, ``_single_tensor_adagrad``).
Guide: docs/source/internals/python_layer.rst
"""

import torch

from .optimizer import Optimizer, _check_fused_flags, _check_non_negative, _check_state_steps
from .optimizer import _check_tensor_hyperparameter, _device_dtype_check_for_fused, _evaluate_closure
from .optimizer import _get_scalar_dtype, _get_value, _options, _reject_complex, _setdefaults
from .optimizer import _single_tensor_only, _to_scalar, _use_grad_for_differentiable

__all__ = ["Adagrad", "adagrad"]


class Adagrad(Optimizer):
    r"""Adagrad: each element's step shrinks with the sum of its past squared gradients.

    For each parameter, with :math:`g` its gradient (negated when ``maximize``) and
    ``t`` its step count::

        g = g + weight_decay * p                (if weight_decay != 0)
        clr = lr / (1 + (t - 1) * lr_decay)
        sum = sum + g * g
        p = p - clr * g / (sqrt(sum) + eps)

    Unlike the other optimizers, Adagrad creates its state (``step`` and ``sum``, filled
    with ``initial_accumulator_value``) in the constructor, for every parameter.

    ``foreach`` and ``fused`` are accepted as in PyTorch; every setting runs the for-loop
    update above (see ``optimizer._single_tensor_only``). With ``fused=True`` ``step`` is a
    float32 on the parameter's device, as in PyTorch's fused path.
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_tensor_hyperparameter("lr", lr)
        _check_non_negative(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                            initial_accumulator_value=initial_accumulator_value, eps=eps)

        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        _check_fused_flags(fused, foreach, differentiable)
        if fused:
            # checked on the first parameter that reaches step
            self._need_device_dtype_check_for_fused = True

        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, initial_accumulator_value, group["fused"])

    def _init_state(self, p, initial_accumulator_value, fused):
        _reject_complex("Adagrad", p)
        state = self.state[p]
        state["step"] = (torch.zeros((), dtype=_get_scalar_dtype(is_fused=fused), device=p.device)
                         if fused else torch.tensor(0.0, dtype=_get_scalar_dtype()))
        state["sum"] = torch.full_like(p, initial_accumulator_value, memory_format=torch.preserve_format)

    def __setstate__(self, state):
        super().__setstate__(state)
        fused = None
        for group in self.param_groups:
            _setdefaults(group, foreach=None, maximize=False, differentiable=False, fused=None)
            fused = group["fused"]

        # a state saved when 'step' was a Python number
        state_values = list(self.state.values())
        step_is_tensor = (len(state_values) != 0) and torch.is_tensor(state_values[0]["step"])
        if not step_is_tensor:
            for s in state_values:
                s["step"] = torch.tensor(float(s["step"]), dtype=_get_scalar_dtype(is_fused=fused))

    def _init_group(self, group, params_with_grad, grads, state_sums, state_steps):
        has_sparse_grad = False
        for p in self._params_with_grad(group, params_with_grad, grads):
            if group["fused"] and getattr(self, "_need_device_dtype_check_for_fused", True):
                _device_dtype_check_for_fused(p)
                self._need_device_dtype_check_for_fused = False
            has_sparse_grad |= p.grad.is_sparse
            state = self.state[p]
            if len(state) == 0:
                # a parameter added with add_param_group after construction
                # (PyTorch reads the optimizer's default here, not the group's)
                if group["fused"]:
                    _device_dtype_check_for_fused(p)
                self._init_state(p, self.defaults["initial_accumulator_value"], group["fused"])
            state_sums.append(state["sum"])
            state_steps.append(state["step"])
        return has_sparse_grad

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One Adagrad update of each parameter with a gradient (``closure``: see :meth:`Optimizer.step`)."""
        loss = _evaluate_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, state_sums, state_steps = [], [], [], []

            has_sparse_grad = self._init_group(group, params_with_grad, grads, state_sums, state_steps)

            adagrad(params_with_grad, grads, state_sums, state_steps, has_sparse_grad=has_sparse_grad,
                    **_options(group, "lr", "weight_decay", "lr_decay", "eps", "foreach", "maximize",
                               "differentiable", "fused"))

        return loss


def adagrad(params, grads, state_sums, state_steps, fused=None, grad_scale=None, found_inf=None,
            has_sparse_grad=False, foreach=None, differentiable=False, has_complex=False, *,
            lr, weight_decay, lr_decay, eps, maximize):
    r"""The Adagrad update on lists of tensors, with no optimizer object (:class:`~torch.optim.Adagrad`
    calls it once per group). Any ``foreach``/``fused`` runs the for-loop update."""
    _check_state_steps(state_steps)
    if not fused:
        _single_tensor_only(foreach, differentiable)
    _single_tensor_adagrad(params, grads, state_sums, state_steps, grad_scale, found_inf,
                           lr=lr, weight_decay=weight_decay, lr_decay=lr_decay, eps=eps,
                           has_sparse_grad=has_sparse_grad, maximize=maximize, differentiable=differentiable)


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
