"""torch/optim/adadelta.py - Adadelta: steps sized by running averages of past steps and past gradients.

Mirrors PyTorch's torch/optim/adadelta.py (the single-tensor path, ``_single_tensor_adadelta``).
Guide: docs/source/internals/python_layer.rst
"""

from .optimizer import Optimizer, _check_capturable_devices, _check_non_negative, _check_state_steps
from .optimizer import _check_tensor_hyperparameter, _decayed_grad, _evaluate_closure, _options, _setdefaults
from .optimizer import _single_tensor_only, _to_scalar, _use_grad_for_differentiable

__all__ = ["Adadelta", "adadelta"]


class Adadelta(Optimizer):
    r"""Adadelta (Zeiler 2012): each element's step is its gradient times the ratio of the
    running RMS of past steps to the running RMS of past gradients, so the units of the
    step match those of the parameter; ``lr`` (default 1) only scales the result.

    For each parameter, with :math:`g` its gradient (negated when ``maximize``)::

        g = g + weight_decay * p                         (if weight_decay != 0)
        v = rho * v + (1 - rho) * g * g                  (square_avg)
        delta = sqrt(u + eps) / sqrt(v + eps) * g
        u = rho * u + (1 - rho) * delta * delta          (acc_delta)
        p = p - lr * delta

    State per parameter: ``step``, ``square_avg``, ``acc_delta``. ``foreach`` is accepted
    as in PyTorch and runs this for-loop update (see ``optimizer._single_tensor_only``).
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _check_tensor_hyperparameter("lr", lr)
        _check_non_negative(lr=lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _check_non_negative(eps=eps, weight_decay=weight_decay)

        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            _setdefaults(group, foreach=None, maximize=False, differentiable=False, capturable=False)
            self._steps_to_tensors(group, group["capturable"])

    def _init_group(self, group, params_with_grad, grads, square_avgs, acc_deltas, state_steps):
        for p in self._dense_params_with_grad(group, params_with_grad, grads, "Adadelta"):
            state = self._lazy_state(p, group["capturable"], "square_avg", "acc_delta")  # v, u
            square_avgs.append(state["square_avg"])
            acc_deltas.append(state["acc_delta"])
            state_steps.append(state["step"])

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One Adadelta update of each parameter with a gradient (``closure``: see :meth:`Optimizer.step`)."""
        loss = _evaluate_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, square_avgs, acc_deltas, state_steps = [], [], [], [], []

            self._init_group(group, params_with_grad, grads, square_avgs, acc_deltas, state_steps)

            adadelta(params_with_grad, grads, square_avgs, acc_deltas, state_steps,
                     **_options(group, "lr", "rho", "eps", "weight_decay", "foreach", "maximize",
                                "differentiable", "capturable"))

        return loss


def adadelta(params, grads, square_avgs, acc_deltas, state_steps, capturable=False, foreach=None,
             differentiable=False, has_complex=False, *, lr, rho, eps, weight_decay, maximize):
    r"""The Adadelta update on lists of tensors, with no optimizer object (:class:`~torch.optim.Adadelta`
    calls it once per group). Any ``foreach`` runs the for-loop update."""
    _check_state_steps(state_steps)
    _single_tensor_only(foreach, differentiable)
    _single_tensor_adadelta(params, grads, square_avgs, acc_deltas, state_steps, lr=lr, rho=rho, eps=eps,
                            weight_decay=weight_decay, maximize=maximize, differentiable=differentiable,
                            capturable=capturable)


def _single_tensor_adadelta(params, grads, square_avgs, acc_deltas, state_steps, *, lr, rho, eps, weight_decay,
                            maximize, differentiable, capturable):
    if capturable:
        for p, step in zip(params, state_steps, strict=True):
            _check_capturable_devices(p, step)

    lr = _to_scalar(lr)

    for param, grad, square_avg, acc_delta, step in zip(params, grads, square_avgs, acc_deltas, state_steps,
                                                        strict=True):
        step += 1
        grad = grad if not maximize else -grad

        grad = _decayed_grad(param, grad, weight_decay)

        # v: the running mean of g * g
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        # the step: RMS of past steps / RMS of gradients, times g
        delta = acc_delta.add(eps).sqrt_()
        if differentiable:
            delta = delta.clone()
        delta.div_(std).mul_(grad)
        # u: the running mean of delta * delta
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)

        param.add_(delta, alpha=-lr)
