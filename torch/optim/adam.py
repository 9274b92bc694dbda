"""torch/optim/adam.py - Adam: adaptive moment estimation (and, with decoupled weight decay, AdamW).

Mirrors PyTorch's torch/optim/adam.py (the single-tensor path, ``_single_tensor_adam``).
Guide: docs/source/internals/python_layer.rst
"""

import torch
from torch import Tensor

from .optimizer import Optimizer, _check_betas, _check_fused_flags, _check_non_negative, _check_state_steps
from .optimizer import _check_tensor_hyperparameter, _count_step, _decayed_grad, _device_dtype_check_for_fused
from .optimizer import _evaluate_closure, _get_value, _new_step, _options, _setdefaults, _single_tensor_only
from .optimizer import _to_scalar, _use_grad_for_differentiable

__all__ = ["Adam", "adam"]


class Adam(Optimizer):
    r"""Adam: a step along the running mean of the gradient, scaled per element by the
    running root mean square of the gradient, both bias-corrected for the first steps.

    For each parameter, with :math:`g` its gradient (negated when ``maximize``) and
    ``t`` the parameter's step count (``state["step"]``, a 0-dim tensor)::

        g = g + weight_decay * p              (Adam; AdamW instead: p = p * (1 - lr * weight_decay))
        m = lerp(m, g, 1 - beta1)             (exp_avg)
        v = beta2 * v + (1 - beta2) * g * g   (exp_avg_sq)
        v_max = max(v_max, v)                 (amsgrad: max_exp_avg_sq; used instead of v)
        p = p - lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)

    State per parameter: ``step``, ``exp_avg``, ``exp_avg_sq`` and, with amsgrad,
    ``max_exp_avg_sq``.

    ``foreach`` and ``fused`` are accepted as in PyTorch; every setting runs the for-loop
    update above (see ``optimizer._single_tensor_only``). With ``fused=True`` the state
    is laid out as PyTorch's fused path lays it out (``step`` a float32 on the parameter's
    device).
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check_tensor_hyperparameter("lr", lr, foreach, capturable)
        _check_non_negative(lr=lr, eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay)
        if not ((isinstance(betas[0], float) and isinstance(betas[1], float))
                or (isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor))):
            raise ValueError("betas must be either both floats or both Tensors")
        for i, beta in enumerate(betas):
            _check_tensor_hyperparameter(f"betas[{i}]", beta, foreach, capturable)
        betas = tuple(map(_to_scalar, betas))

        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)
        _check_fused_flags(fused, foreach, differentiable)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            _setdefaults(group, amsgrad=False, maximize=False, foreach=None, capturable=False,
                         differentiable=False, decoupled_weight_decay=False, fused=None)
            self._steps_to_tensors(group, group["capturable"] or group["fused"], is_fused=group["fused"])

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps):
        for p in self._dense_params_with_grad(group, params_with_grad, grads, "Adam",
                                              sparse_hint=", please consider SparseAdam instead"):
            state = self.state[p]
            if len(state) == 0:  # this parameter's first step
                if group["fused"]:
                    _device_dtype_check_for_fused(p)
                # 'step' stays on the CPU (a host-side counter) unless capturable or fused.
                state["step"] = _new_step(p, group["capturable"] or group["fused"], is_fused=group["fused"])
                state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)     # m
                state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)  # v
                if group["amsgrad"]:
                    # the largest v seen so far
                    state["max_exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)

            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])

            if group["amsgrad"]:
                max_exp_avg_sqs.append(state["max_exp_avg_sq"])
            if group["differentiable"] and state["step"].requires_grad:
                raise RuntimeError("`requires_grad` is not supported for `step` in differentiable mode")

            state_steps.append(state["step"])

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One Adam (or AdamW) update of each parameter with a gradient (``closure``: see
        :meth:`Optimizer.step`)."""
        loss = _evaluate_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps = [], [], [], [], [], []
            beta1, beta2 = group["betas"]

            self._init_group(group, params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps)

            adam(params_with_grad, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps,
                 beta1=beta1, beta2=beta2, **_options(group, "amsgrad", "lr", "weight_decay", "eps", "maximize",
                                                      "foreach", "capturable", "differentiable", "fused",
                                                      "decoupled_weight_decay"))

        return loss


def adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, foreach=None, capturable=False,
         differentiable=False, fused=None, grad_scale=None, found_inf=None, decoupled_weight_decay=False, *,
         amsgrad, beta1, beta2, lr, weight_decay, eps, maximize):
    r"""The Adam update on lists of tensors, with no optimizer object (:class:`~torch.optim.Adam`
    calls it once per group). Any ``foreach``/``fused`` runs the for-loop update."""
    _check_state_steps(state_steps)
    if not fused:
        _single_tensor_only(foreach, differentiable)
    _single_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, grad_scale, found_inf,
                        amsgrad=amsgrad, beta1=beta1, beta2=beta2, lr=lr, weight_decay=weight_decay, eps=eps,
                        maximize=maximize, capturable=capturable, differentiable=differentiable,
                        decoupled_weight_decay=decoupled_weight_decay)


def _single_tensor_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, grad_scale, found_inf,
                        *, amsgrad, beta1, beta2, lr, weight_decay, eps, maximize, capturable, differentiable,
                        decoupled_weight_decay):
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")

    lr = _to_scalar(lr)
    beta1 = _to_scalar(beta1)
    beta2 = _to_scalar(beta2)

    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]

        _count_step(param, step_t, capturable)

        # (AdamW: decoupled_weight_decay shrinks the parameter itself)
        grad = _decayed_grad(param, grad, weight_decay, lr, decoupled_weight_decay)

        # m and v move towards g and g * g
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)

        if capturable or differentiable:
            # everything stays a tensor: no .item() that would sync with (or leave) the device
            step = step_t
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step

            step_size = lr / bias_correction1
            step_size_neg = step_size.neg()

            bias_correction2_sqrt = bias_correction2.sqrt()

            if amsgrad:
                # v_max = max(v_max, v)
                if differentiable:
                    max_exp_avg_sq = max_exp_avg_sqs[i].clone()
                else:
                    max_exp_avg_sq = max_exp_avg_sqs[i]
                max_exp_avg_sqs[i].copy_(torch.maximum(max_exp_avg_sq, exp_avg_sq))
                # Folds the 1-element step_size into denom (addcdiv_'s value must be a number)
                denom = (max_exp_avg_sqs[i].sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(
                    eps / step_size_neg)
            else:
                denom = (exp_avg_sq.sqrt() / (bias_correction2_sqrt * step_size_neg)).add_(eps / step_size_neg)

            if differentiable:
                param.addcdiv_(exp_avg.clone(), denom)
            else:
                param.addcdiv_(exp_avg, denom)
        else:
            step = _get_value(step_t)

            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step

            step_size = lr / bias_correction1

            bias_correction2_sqrt = bias_correction2 ** 0.5

            if amsgrad:
                # v_max = max(v_max, v)
                torch.maximum(max_exp_avg_sqs[i], exp_avg_sq, out=max_exp_avg_sqs[i])

                # v_max, not v, in the denominator
                denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
            else:
                denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)

            param.addcdiv_(exp_avg, denom, value=-step_size)
