"""torch/optim/asgd.py - ASGD: averaged stochastic gradient descent (Polyak & Juditsky 1992).

Mirrors PyTorch's torch/optim/asgd.py (the single-tensor path, ``_single_tensor_asgd``).
Guide: docs/source/internals/python_layer.rst
"""

import torch

from .optimizer import Optimizer, _check_capturable_devices, _check_non_negative, _check_tensor_hyperparameter
from .optimizer import _decayed_grad, _evaluate_closure, _get_scalar_dtype, _get_value, _options, _setdefaults
from .optimizer import _single_tensor_only, _to_scalar, _use_grad_for_differentiable

__all__ = ["ASGD", "asgd"]


class ASGD(Optimizer):
    r"""ASGD: SGD with a decaying step size ``eta`` that also keeps ``ax``, a running
    average of the iterates, started once ``t0`` steps have passed. The parameters follow
    plain SGD; the average (``state["ax"]``) is the estimate to use at the end.

    For each parameter, with :math:`g` its gradient (negated when ``maximize``) and
    ``t`` its step count (after the increment)::

        g = g + weight_decay * p               (if weight_decay != 0)
        p = p * (1 - lambd * eta) - eta * g
        ax = ax + mu * (p - ax)                (ax = p while mu == 1)
        eta = lr / (1 + lambd * lr * t) ** alpha
        mu = 1 / max(1, t - t0)

    State per parameter: ``step``, ``eta``, ``mu`` (0-dim tensors on the parameter's
    device) and ``ax``. ``foreach`` is accepted as in PyTorch and runs this for-loop update
    (see ``optimizer._single_tensor_only``).
    """

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        _check_tensor_hyperparameter("lr", lr)
        _check_non_negative(lr=lr, weight_decay=weight_decay)

        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            _setdefaults(group, foreach=None, maximize=False, differentiable=False, capturable=False)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0:
                    # a state saved when these were Python numbers
                    for key in ("step", "eta", "mu"):
                        if not torch.is_tensor(p_state[key]):
                            p_state[key] = torch.tensor(float(p_state[key]), dtype=_get_scalar_dtype(),
                                                        device=p.device)

    def _init_group(self, group, params_with_grad, grads, mus, axs, etas, state_steps):
        for p in self._dense_params_with_grad(group, params_with_grad, grads, "ASGD"):
            state = self.state[p]
            if len(state) == 0:  # this parameter's first step
                state["step"] = torch.zeros((), device=p.device, dtype=_get_scalar_dtype())
                state["eta"] = torch.as_tensor(_to_scalar(group["lr"]), device=p.device,
                                               dtype=_get_scalar_dtype()).clone().detach()
                state["mu"] = torch.ones((), device=p.device, dtype=_get_scalar_dtype())
                state["ax"] = torch.zeros_like(p, memory_format=torch.preserve_format)

            mus.append(state["mu"])
            axs.append(state["ax"])
            etas.append(state["eta"])
            state_steps.append(state["step"])

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One ASGD update of each parameter with a gradient (``closure``: see :meth:`Optimizer.step`)."""
        loss = _evaluate_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, mus, axs, etas, state_steps = [], [], [], [], [], []

            self._init_group(group, params_with_grad, grads, mus, axs, etas, state_steps)

            asgd(params_with_grad, grads, axs, mus, etas, state_steps,
                 **_options(group, "lambd", "lr", "t0", "alpha", "weight_decay", "foreach", "maximize",
                            "differentiable", "capturable"))

        return loss


def asgd(params, grads, axs, mus, etas, state_steps, foreach=None, maximize=False, differentiable=False,
         capturable=False, has_complex=False, *, lambd, lr, t0, alpha, weight_decay):
    r"""The ASGD update on lists of tensors, with no optimizer object (:class:`~torch.optim.ASGD`
    calls it once per group). Any ``foreach`` runs the for-loop update."""
    _single_tensor_only(foreach, differentiable)
    _single_tensor_asgd(params, grads, axs, mus, etas, state_steps, lambd=lambd, lr=lr, t0=t0, alpha=alpha,
                        weight_decay=weight_decay, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)


def _single_tensor_asgd(params, grads, axs, mus, etas, state_steps, *, lambd, lr, t0, alpha, weight_decay,
                        maximize, differentiable, capturable):
    lr = _to_scalar(lr)

    for i, param in enumerate(params):
        grad = grads[i]
        grad = grad if not maximize else -grad
        mu = mus[i]
        ax = axs[i]
        eta = etas[i]
        step_t = state_steps[i]

        if capturable:
            _check_capturable_devices(param, mu, eta, step_t, what="params, mus, etas, and state_steps")

        # update step
        step_t += 1

        grad = _decayed_grad(param, grad, weight_decay)

        if capturable:
            param.mul_(1 - lambd * eta)
            param.addcmul_(grad, eta, value=-1)  # update parameter
        else:
            eta_value = _get_value(eta)
            param.mul_(1 - lambd * eta_value)  # decay term
            param.add_(grad, alpha=-eta_value)  # update parameter

        # averaging: ax follows p exactly until t0 steps have passed
        if capturable or mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)

        # the next step's eta and mu
        if capturable:
            eta.copy_(lr / ((1 + lambd * lr * step_t) ** alpha))
            mu.copy_(1 / torch.maximum(step_t - t0, torch.ones_like(step_t)))
        else:
            step = _get_value(step_t)
            new_eta = torch.as_tensor(lr / ((1 + lambd * lr * step) ** alpha))
            eta.copy_(new_eta)
            new_mu = torch.as_tensor(1 / max(1, step - t0))
            mu.copy_(new_mu)
