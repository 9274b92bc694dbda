"""torch/optim/rmsprop.py - RMSprop: divide the gradient by a running root mean square of recent gradients.

Mirrors PyTorch's torch/optim/rmsprop.py (the single-tensor path, ``_single_tensor_rmsprop``).
Guide: docs/source/internals/python_layer.rst
"""

import torch
from torch import Tensor

from .optimizer import (
    Optimizer,
    _get_scalar_dtype,
    _reject_foreach_and_fused,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["RMSprop", "rmsprop"]


class RMSprop(Optimizer):
    r"""Implements the RMSprop algorithm (Hinton's lecture notes; centered: Graves 2013).

    For each parameter, with :math:`g` its gradient (negated when ``maximize``)::

        g = g + weight_decay * p                        (if weight_decay != 0)
        v = alpha * v + (1 - alpha) * g * g             (square_avg)
        centered:  m = lerp(m, g, 1 - alpha)            (grad_avg);  avg = sqrt(v - m * m) + eps
        otherwise: avg = sqrt(v) + eps
        momentum > 0:  b = momentum * b + g / avg;  p = p - lr * b     (momentum_buffer)
        otherwise:     p = p - lr * g / avg

    State per parameter: ``step``, ``square_avg``, and ``momentum_buffer`` (momentum > 0)
    and ``grad_avg`` (centered).
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")

        defaults = {
            "lr": lr,
            "momentum": momentum,
            "alpha": alpha,
            "eps": eps,
            "centered": centered,
            "weight_decay": weight_decay,
            "capturable": capturable,
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
        }
        super().__init__(params, defaults)
        _reject_foreach_and_fused(foreach, None)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("momentum", 0)
            group.setdefault("centered", False)
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            group.setdefault("capturable", False)
            for p in group["params"]:
                p_state = self.state.get(p, [])
                if len(p_state) != 0 and not torch.is_tensor(p_state["step"]):
                    # a state saved when 'step' was a Python number
                    step_val = float(p_state["step"])
                    p_state["step"] = (
                        torch.tensor(step_val, dtype=_get_scalar_dtype(), device=p.device)
                        if group["capturable"]
                        else torch.tensor(step_val, dtype=_get_scalar_dtype()))

    def _init_group(self, group, params_with_grad, grads, square_avgs, momentum_buffer_list, grad_avgs,
                    state_steps):
        for p in group["params"]:
            if p.grad is None:
                continue
            if p.is_complex():
                # PyTorch runs complex parameters through torch.view_as_real, which this project lacks.
                raise RuntimeError("RMSprop: complex parameters are not supported in this project "
                                   "(PyTorch updates them through torch.view_as_real)")
            params_with_grad.append(p)

            if p.grad.is_sparse:
                raise RuntimeError("RMSprop does not support sparse gradients")
            grads.append(p.grad)

            state = self.state[p]

            # State initialization
            if len(state) == 0:
                state["step"] = (
                    torch.zeros((), dtype=_get_scalar_dtype(), device=p.device)
                    if group["capturable"]
                    else torch.zeros((), dtype=_get_scalar_dtype()))
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
            square_avgs: list[Tensor] = []
            grad_avgs: list[Tensor] = []
            momentum_buffer_list: list[Tensor] = []
            state_steps: list[Tensor] = []

            self._init_group(group, params_with_grad, grads, square_avgs, momentum_buffer_list, grad_avgs,
                             state_steps)

            rmsprop(params_with_grad, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps,
                    lr=group["lr"],
                    alpha=group["alpha"],
                    eps=group["eps"],
                    weight_decay=group["weight_decay"],
                    momentum=group["momentum"],
                    centered=group["centered"],
                    foreach=group["foreach"],
                    maximize=group["maximize"],
                    differentiable=group["differentiable"],
                    capturable=group["capturable"])

        return loss


def rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, foreach=None,
            maximize=False, differentiable=False, capturable=False, has_complex=False, *,
            lr, alpha, eps, weight_decay, momentum, centered):
    r"""Functional API that performs RMSprop algorithm computation.

    See :class:`~torch.optim.RMSprop` for details.
    """
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError("API has changed, `state_steps` argument must contain a list of singleton tensors")
    _reject_foreach_and_fused(foreach, None)
    _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps,
                           lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum,
                           centered=centered, maximize=maximize, capturable=capturable,
                           differentiable=differentiable)


# [marker: single_tensor_rmsprop]
def _single_tensor_rmsprop(params, grads, square_avgs, grad_avgs, momentum_buffer_list, state_steps, *,
                           lr, alpha, eps, weight_decay, momentum, centered, maximize, differentiable, capturable):
    lr = _to_scalar(lr)

    for i, param in enumerate(params):
        step = state_steps[i]

        if capturable:
            capturable_supported_devices = ["cuda"]
            if not (param.device.type == step.device.type and param.device.type in capturable_supported_devices):
                raise AssertionError("If capturable=True, params and state_steps must be on supported devices: "
                                     f"{capturable_supported_devices}.")

        grad = grads[i]
        grad = grad if not maximize else -grad
        square_avg = square_avgs[i]

        step += 1

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

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
# [end marker: single_tensor_rmsprop]
