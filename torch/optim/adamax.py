"""torch/optim/adamax.py - Adamax: Adam with the infinity norm in place of the root mean square.

Mirrors PyTorch's torch/optim/adamax.py (the single-tensor path, ``_single_tensor_adamax``).
Guide: docs/source/internals/python_layer.rst
"""

import torch

from .optimizer import Optimizer, _check_betas, _check_non_negative, _check_state_steps, _check_tensor_hyperparameter
from .optimizer import _count_step, _decayed_grad, _evaluate_closure, _get_value, _options, _setdefaults
from .optimizer import _single_tensor_only, _to_scalar, _use_grad_for_differentiable

__all__ = ["Adamax", "adamax"]


class Adamax(Optimizer):
    r"""Adamax (Kingma & Ba, section 7.1): Adam whose denominator is a decaying running
    maximum of ``|g|`` instead of a root mean square, so it needs no bias correction.

    For each parameter, with :math:`g` its gradient (negated when ``maximize``) and
    ``t`` its step count::

        g = g + weight_decay * p                  (if weight_decay != 0)
        m = lerp(m, g, 1 - beta1)                 (exp_avg)
        u = max(beta2 * u, |g| + eps)             (exp_inf)
        p = p - lr / (1 - beta1**t) * m / u

    State per parameter: ``step``, ``exp_avg``, ``exp_inf``. ``foreach`` is accepted as in
    PyTorch and runs this for-loop update (see ``optimizer._single_tensor_only``).
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_tensor_hyperparameter("lr", lr)
        _check_non_negative(lr=lr, eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay)

        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            _setdefaults(group, foreach=None, maximize=False, differentiable=False, capturable=False)
            self._steps_to_tensors(group, group["capturable"])

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_infs, state_steps):
        for p in self._dense_params_with_grad(group, params_with_grad, grads, "Adamax"):
            state = self._lazy_state(p, group["capturable"], "exp_avg", "exp_inf")  # m, u
            exp_avgs.append(state["exp_avg"])
            exp_infs.append(state["exp_inf"])
            state_steps.append(state["step"])

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One Adamax update of each parameter with a gradient (``closure``: see :meth:`Optimizer.step`)."""
        loss = _evaluate_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, exp_avgs, exp_infs, state_steps = [], [], [], [], []
            beta1, beta2 = group["betas"]

            self._init_group(group, params_with_grad, grads, exp_avgs, exp_infs, state_steps)

            adamax(params_with_grad, grads, exp_avgs, exp_infs, state_steps, beta1=beta1, beta2=beta2,
                   **_options(group, "eps", "lr", "weight_decay", "foreach", "maximize", "differentiable",
                              "capturable"))

        return loss


def adamax(params, grads, exp_avgs, exp_infs, state_steps, foreach=None, maximize=False, differentiable=False,
           capturable=False, has_complex=False, *, eps, beta1, beta2, lr, weight_decay):
    r"""The Adamax update on lists of tensors, with no optimizer object (:class:`~torch.optim.Adamax`
    calls it once per group). Any ``foreach`` runs the for-loop update."""
    _check_state_steps(state_steps)
    _single_tensor_only(foreach, differentiable)
    _single_tensor_adamax(params, grads, exp_avgs, exp_infs, state_steps, eps=eps, beta1=beta1, beta2=beta2,
                          lr=lr, weight_decay=weight_decay, maximize=maximize, differentiable=differentiable,
                          capturable=capturable)


def _single_tensor_adamax(params, grads, exp_avgs, exp_infs, state_steps, *, eps, beta1, beta2, lr,
                          weight_decay, maximize, differentiable, capturable):
    lr = _to_scalar(lr)

    for i, param in enumerate(params):
        grad = grads[i]
        grad = grad if not maximize else -grad
        exp_avg = exp_avgs[i]
        exp_inf = exp_infs[i]
        step_t = state_steps[i]

        _count_step(param, step_t, capturable)

        grad = _decayed_grad(param, grad, weight_decay)

        # m moves towards g
        exp_avg.lerp_(grad, 1 - beta1)
        # u = max(beta2 * u, |g| + eps)
        if not differentiable:
            torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        else:
            norm_buf = torch.cat([exp_inf.mul_(beta2).unsqueeze(0), grad.abs().add_(eps).unsqueeze_(0)], 0)
            exp_inf.copy_(torch.amax(norm_buf, 0, keepdim=False))

        if capturable:
            # the bias correction stays a tensor, negated so that addcdiv_ needs no value
            neg_bias_correction = beta1 ** step_t - 1
            neg_bias_correction.div_(lr)
            denom = exp_inf * neg_bias_correction
            param.addcdiv_(exp_avg, denom)
        else:
            bias_correction = 1 - beta1 ** _get_value(step_t)
            clr = lr / bias_correction

            param.addcdiv_(exp_avg, exp_inf, value=-clr)
