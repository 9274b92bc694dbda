"""torch/optim/nadam.py - NAdam: Adam with Nesterov momentum (Dozat 2016).

Mirrors PyTorch's torch/optim/nadam.py (the single-tensor path, ``_single_tensor_nadam``).
Guide: docs/source/internals/python_layer.rst
"""

import torch

from .optimizer import Optimizer, _check_betas, _check_capturable_devices, _check_non_negative, _check_state_steps
from .optimizer import _check_tensor_hyperparameter, _decayed_grad, _evaluate_closure, _get_scalar_dtype, _get_value
from .optimizer import _new_step, _options, _setdefaults, _single_tensor_only, _to_scalar
from .optimizer import _use_grad_for_differentiable

__all__ = ["NAdam", "nadam"]


class NAdam(Optimizer):
    r"""NAdam: Adam whose step looks one momentum step ahead, with a momentum coefficient
    that warms up over the first steps (``momentum_decay``).

    For each parameter, with :math:`g` its gradient (negated when ``maximize``) and
    ``t`` its step count::

        g = g + weight_decay * p       (decoupled_weight_decay: p = p * (1 - lr * weight_decay))
        mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))     (and mu_{t+1} likewise)
        prod = prod * mu_t                                          (mu_product)
        m = lerp(m, g, 1 - beta1)                                   (exp_avg)
        v = beta2 * v + (1 - beta2) * g * g                         (exp_avg_sq)
        denom = sqrt(v / (1 - beta2**t)) + eps
        p = p - lr * (1 - mu_t) / (1 - prod) * g / denom
              - lr * mu_{t+1} / (1 - prod * mu_{t+1}) * m / denom

    State per parameter: ``step``, ``mu_product`` (both 0-dim tensors), ``exp_avg``,
    ``exp_avg_sq``. ``foreach`` is accepted as in PyTorch and runs this for-loop update
    (see ``optimizer._single_tensor_only``).
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_tensor_hyperparameter("lr", lr)
        _check_non_negative(lr=lr, eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay, momentum_decay=momentum_decay)

        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            _setdefaults(group, maximize=False, foreach=None, capturable=False, differentiable=False,
                         decoupled_weight_decay=False)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0:
                    # a state saved when 'step' and 'mu_product' were Python numbers
                    for key in ("step", "mu_product"):
                        if not torch.is_tensor(p_state[key]):
                            value = float(p_state[key])
                            p_state[key] = (
                                torch.tensor(value, dtype=_get_scalar_dtype(), device=p.device)
                                if group["capturable"]
                                else torch.tensor(value, dtype=_get_scalar_dtype()))

    def _init_group(self, group, params_with_grad, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps):
        for p in self._dense_params_with_grad(group, params_with_grad, grads, "NAdam"):
            state = self.state[p]
            if len(state) == 0:  # this parameter's first step
                # 'step' and 'mu_product' stay on the CPU unless capturable
                state["step"] = _new_step(p, group["capturable"])
                state["mu_product"] = (
                    torch.ones((), dtype=_get_scalar_dtype(), device=p.device)
                    if group["capturable"]
                    else torch.tensor(1.0, dtype=_get_scalar_dtype()))
                state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)     # m
                state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)  # v

            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            mu_products.append(state["mu_product"])
            state_steps.append(state["step"])

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One NAdam update of each parameter with a gradient (``closure``: see :meth:`Optimizer.step`)."""
        loss = _evaluate_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps = [], [], [], [], [], []
            beta1, beta2 = group["betas"]

            self._init_group(group, params_with_grad, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps)

            nadam(params_with_grad, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps, beta1=beta1,
                  beta2=beta2, **_options(group, "lr", "weight_decay", "momentum_decay", "eps", "maximize",
                                          "decoupled_weight_decay", "foreach", "capturable", "differentiable"))

        return loss


def nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps, decoupled_weight_decay=False,
          foreach=None, capturable=False, differentiable=False, has_complex=False, maximize=False, *,
          beta1, beta2, lr, weight_decay, momentum_decay, eps):
    r"""The NAdam update on lists of tensors, with no optimizer object (:class:`~torch.optim.NAdam`
    calls it once per group). Any ``foreach`` runs the for-loop update."""
    _check_state_steps(state_steps)
    if not all(isinstance(t, torch.Tensor) for t in mu_products):
        raise RuntimeError("API has changed, `mu_products` argument must contain a list of singleton tensors")
    _single_tensor_only(foreach, differentiable)
    _single_tensor_nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps, beta1=beta1, beta2=beta2,
                         lr=lr, weight_decay=weight_decay, momentum_decay=momentum_decay, eps=eps,
                         decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, capturable=capturable,
                         differentiable=differentiable)


def _single_tensor_nadam(params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps, *, beta1, beta2, lr,
                         weight_decay, momentum_decay, eps, decoupled_weight_decay, maximize, capturable,
                         differentiable):
    lr = _to_scalar(lr)

    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg = exp_avgs[i]
        exp_avg_sq = exp_avg_sqs[i]
        mu_product = mu_products[i]
        step_t = state_steps[i]

        if capturable:
            _check_capturable_devices(param, mu_product, step_t,
                                      what="params, mu_products and state_steps")

        # update step
        step_t += 1

        if capturable:
            step = step_t
        else:
            step = _get_value(step_t)

        bias_correction2 = 1 - beta2 ** step

        grad = _decayed_grad(param, grad, weight_decay, lr, decoupled_weight_decay)

        # the momentum coefficients of this step and the next
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))

        # their running product (a 0-dim tensor, in the scalar dtype)
        mu_product *= mu

        # m and v move towards g and g * g
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(bias_correction2).sqrt()

        if differentiable or capturable:
            denom = denom.add(eps)
            # everything a tensor, no addcdiv_ value: autograd (or the graph) sees each product
            mu_product_next = mu_product * mu_next
            grad = grad * (-lr * (1.0 - mu) / (1.0 - mu_product))
            exp_avg = exp_avg * (-lr * mu_next / (1.0 - mu_product_next))
            param.addcdiv_(grad, denom)
            param.addcdiv_(exp_avg, denom)
        else:
            mu_product_next = _get_value(mu_product) * mu_next
            denom.add_(eps)
            # the gradient's share, then the (look-ahead) momentum's share
            param.addcdiv_(grad, denom, value=(-lr * (1.0 - mu) / (1.0 - _get_value(mu_product))))
            param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))
