"""torch/optim/radam.py - RAdam: Adam with the variance of its adaptive learning rate rectified (Liu et al. 2019).

Mirrors PyTorch's torch/optim/radam.py (the single-tensor path, ``_single_tensor_radam``).
Guide: docs/source/internals/python_layer.rst
"""

import torch

from .optimizer import Optimizer, _check_betas, _check_non_negative, _check_state_steps, _check_tensor_hyperparameter
from .optimizer import _count_step, _decayed_grad, _evaluate_closure, _get_value, _options, _setdefaults
from .optimizer import _single_tensor_only, _to_scalar, _use_grad_for_differentiable

__all__ = ["RAdam", "radam"]


class RAdam(Optimizer):
    r"""RAdam: SGD with momentum while too few squared gradients have been averaged for
    Adam's denominator to be trusted, then Adam scaled by a rectification factor.

    For each parameter, with :math:`g` its gradient (negated when ``maximize``) and
    ``t`` its step count::

        g = g + weight_decay * p       (decoupled_weight_decay: p = p * (1 - lr * weight_decay))
        m = lerp(m, g, 1 - beta1)                           (exp_avg)
        v = beta2 * v + (1 - beta2) * g * g                 (exp_avg_sq)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * t * beta2**t / (1 - beta2**t)
        m_hat = m / (1 - beta1**t)
        rho_t > 5:  r = sqrt((rho_t - 4) (rho_t - 2) rho_inf / ((rho_inf - 4) (rho_inf - 2) rho_t))
                    p = p - lr * m_hat * sqrt(1 - beta2**t) / (sqrt(v) + eps) * r
        otherwise:  p = p - lr * m_hat

    With the default ``beta2=0.999``, ``rho_t`` first exceeds 5 at step 6.
    State per parameter: ``step``, ``exp_avg``, ``exp_avg_sq``. ``foreach`` is accepted as
    in PyTorch and runs this for-loop update (see ``optimizer._single_tensor_only``).
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        _check_tensor_hyperparameter("lr", lr)
        _check_non_negative(lr=lr, eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay)

        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            _setdefaults(group, foreach=None, maximize=False, differentiable=False, decoupled_weight_decay=False,
                         capturable=False)
            self._steps_to_tensors(group, group["capturable"])

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps):
        for p in self._dense_params_with_grad(group, params_with_grad, grads, "RAdam"):
            state = self._lazy_state(p, group["capturable"], "exp_avg", "exp_avg_sq")  # m, v
            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            state_steps.append(state["step"])

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One RAdam update of each parameter with a gradient (``closure``: see :meth:`Optimizer.step`)."""
        loss = _evaluate_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps = [], [], [], [], []
            beta1, beta2 = group["betas"]

            self._init_group(group, params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps)

            radam(params_with_grad, grads, exp_avgs, exp_avg_sqs, state_steps, beta1=beta1, beta2=beta2,
                  **_options(group, "lr", "weight_decay", "eps", "maximize", "foreach", "capturable",
                             "differentiable", "decoupled_weight_decay"))

        return loss


def radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, decoupled_weight_decay=False, foreach=None,
          differentiable=False, capturable=False, has_complex=False, maximize=False, *,
          beta1, beta2, lr, weight_decay, eps):
    r"""The RAdam update on lists of tensors, with no optimizer object (:class:`~torch.optim.RAdam`
    calls it once per group). Any ``foreach`` runs the for-loop update."""
    _check_state_steps(state_steps)
    _single_tensor_only(foreach, differentiable)
    _single_tensor_radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, beta1=beta1, beta2=beta2, lr=lr,
                         weight_decay=weight_decay, eps=eps, decoupled_weight_decay=decoupled_weight_decay,
                         differentiable=differentiable, maximize=maximize, capturable=capturable)


def _single_tensor_radam(params, grads, exp_avgs, exp_avg_sqs, state_steps, *, beta1, beta2, lr, weight_decay,
                         eps, decoupled_weight_decay, differentiable, maximize, capturable):
    lr = _to_scalar(lr)

    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        step_t = state_steps[i]

        _count_step(param, step_t, capturable)
        step = step_t if capturable else _get_value(step_t)

        grad = _decayed_grad(param, grad, weight_decay, lr, decoupled_weight_decay)

        # m and v move towards g and g * g
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)

        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step

        # the first moment, bias-corrected
        bias_corrected_exp_avg = exp_avg / bias_correction1

        # the length of the simple moving average that v approximates: its limit, and now
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2

        def _compute_rect():
            return ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5

        def _compute_adaptive_lr():
            exp_avg_sq_sqrt = exp_avg_sq.sqrt()
            if differentiable:
                exp_avg_sq_sqrt = exp_avg_sq_sqrt.add(eps)
            else:
                exp_avg_sq_sqrt = exp_avg_sq_sqrt.add_(eps)

            return (bias_correction2 ** 0.5) / exp_avg_sq_sqrt

        # rectified Adam step once the variance is tractable (rho_t > 5), else plain momentum
        if capturable:
            update = torch.where(rho_t > 5.0, _compute_rect() * _compute_adaptive_lr(), 1.0)
            param.add_(bias_corrected_exp_avg * lr * update, alpha=-1.0)
        else:
            if rho_t > 5.0:
                param.add_(bias_corrected_exp_avg * lr * _compute_adaptive_lr() * _compute_rect(), alpha=-1.0)
            else:
                param.add_(bias_corrected_exp_avg * lr, alpha=-1.0)
