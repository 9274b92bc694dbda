"""torch/optim/rmsprop.py - RMSprop: divide the gradient by a running root mean square of recent gradients.

Mirrors PyTorch's torch/optim/rmsprop.py (the single-tensor path, ``_single_tensor_rmsprop``).
Guide: docs/source/internals/python_layer.rst
"""

import torch

from .optimizer import Optimizer, _check_non_negative, _check_state_steps, _check_tensor_hyperparameter, _count_step
from .optimizer import _decayed_grad, _evaluate_closure, _new_step, _options, _setdefaults, _single_tensor_only
from .optimizer import _to_scalar, _use_grad_for_differentiable

__all__ = ["RMSprop", "rmsprop"]


class RMSprop(Optimizer):
    r"""RMSprop: each gradient divided by a running root mean square of the recent ones
    (Hinton's lecture notes; the centered variant: Graves 2013).

    For each parameter, with :math:`g` its gradient (negated when ``maximize``)::

        g = g + weight_decay * p                        (if weight_decay != 0)
        v = alpha * v + (1 - alpha) * g * g             (square_avg)
        centered:  m = lerp(m, g, 1 - alpha)            (grad_avg);  avg = sqrt(v - m * m) + eps
        otherwise: avg = sqrt(v) + eps
        momentum > 0:  b = momentum * b + g / avg;  p = p - lr * b     (momentum_buffer)
        otherwise:     p = p - lr * g / avg

    State per parameter: ``step``, ``square_avg``, and ``momentum_buffer`` (momentum > 0)
    and ``grad_avg`` (centered).

    ``foreach`` is accepted as in PyTorch (which has no fused RMSprop); every setting runs
    the for-loop update above (see ``optimizer._single_tensor_only``).
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_tensor_hyperparameter("lr", lr)
        _check_non_negative(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)

        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            _setdefaults(group, momentum=0, centered=False, foreach=None, maximize=False, differentiable=False,
                         capturable=False)
            self._steps_to_tensors(group, group["capturable"])

    def _init_group(self, group, params_with_grad, grads, square_avgs, momentum_buffer_list, grad_avgs,
                    state_steps):
        for p in self._dense_params_with_grad(group, params_with_grad, grads, "RMSprop"):
            state = self.state[p]
            if len(state) == 0:  # this parameter's first step
                state["step"] = _new_step(p, group["capturable"])
                state["square_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                if group["momentum"] > 0:
                    state["momentum_buffer"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                if group["centered"]:
                    state["grad_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
            square_avgs.append(state["square_avg"])
            state_steps.append(state["step"])

            if group["momentum"] > 0:
                momentum_buffer_list.append(state["momentum_buffer"])
            if group["centered"]:
                grad_avgs.append(state["grad_avg"])

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One RMSprop update of each parameter with a gradient (``closure``: see :meth:`Optimizer.step`)."""
        loss = _evaluate_closure(closure)

        for group in self.param_groups:
            params_with_grad, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps = [], [], [], [], [], []

            self._init_group(group, params_with_grad, grads, square_avgs, momentum_buffer_list, grad_avgs,
                             state_steps)

            rmsprop(params_with_grad, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps,
                    **_options(group, "lr", "alpha", "eps", "weight_decay", "momentum", "centered", "foreach",
                               "maximize", "differentiable", "capturable"))

        return loss


def rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, foreach=None,
            maximize=False, differentiable=False, capturable=False, has_complex=False, *,
            lr, alpha, eps, weight_decay, momentum, centered):
    r"""The RMSprop update on lists of tensors, with no optimizer object (:class:`~torch.optim.RMSprop`
    calls it once per group). Any ``foreach`` runs the for-loop update."""
    _check_state_steps(state_steps)
    _single_tensor_only(foreach, differentiable)
    _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps,
                           lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum,
                           centered=centered, maximize=maximize, capturable=capturable,
                           differentiable=differentiable)


def _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, *,
                           lr, alpha, eps, weight_decay, momentum, centered, maximize, differentiable, capturable):
    lr = _to_scalar(lr)

    for i, param in enumerate(params):
        grad = grads[i]
        grad = grad if not maximize else -grad
        square_avg = square_avgs[i]

        _count_step(param, state_steps[i], capturable)

        grad = _decayed_grad(param, grad, weight_decay)

        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)

        if centered:
            grad_avg = grad_avgs[i]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()

        if differentiable:
            avg = avg.add(eps)
        else:
            avg = avg.add_(eps)

        if momentum > 0:
            buf = momentum_buffer_list[i]
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)
