"""torch/optim/sgd.py - SGD: stochastic gradient descent with momentum, dampening, Nesterov.

Mirrors PyTorch's torch/optim/sgd.py (the single-tensor path, ``_single_tensor_sgd``).
Guide: docs/source/internals/python_layer.rst
"""

from torch import Tensor

from .optimizer import Optimizer, _check_fused_flags, _check_tensor_hyperparameter, _device_dtype_check_for_fused
from .optimizer import _evaluate_closure, _options, _setdefaults, _to_scalar
from .optimizer import _use_grad_for_differentiable

__all__ = ["SGD", "sgd"]


class SGD(Optimizer):
    r"""Plain gradient descent on each parameter, with optional momentum, dampening,
    Nesterov momentum and L2 weight decay.

    For each parameter, with :math:`g` its gradient (negated when ``maximize``)::

        g = g + weight_decay * p                         (if weight_decay != 0)
        b = g  (first step),  b = momentum * b + (1 - dampening) * g  (later steps)
        g = g + momentum * b  (nesterov)   or   g = b     (if momentum != 0)
        p = p - lr * g

    State per parameter: ``momentum_buffer`` (only when momentum != 0).

    ``foreach`` and ``fused`` are accepted as in PyTorch; every setting runs the for-loop
    update above (see ``optimizer._single_tensor_only``).
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        _check_tensor_hyperparameter("lr", lr)
        # `< 0.0`, as PyTorch's SGD: a NaN passes (the other optimizers reject it)
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")

        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach, differentiable=differentiable,
                        fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        if fused:
            # checked on the first parameter that reaches step
            self._need_device_dtype_check_for_fused = True
        _check_fused_flags(fused, foreach, differentiable)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            _setdefaults(group, nesterov=False, maximize=False, foreach=None, differentiable=False, fused=False)

    def _init_group(self, group, params, grads, momentum_buffer_list):
        has_sparse_grad = False
        for p in self._params_with_grad(group, params, grads):
            if group["fused"] and getattr(self, "_need_device_dtype_check_for_fused", True):
                _device_dtype_check_for_fused(p)
                self._need_device_dtype_check_for_fused = False
            if p.grad.is_sparse:
                has_sparse_grad = True
            if group["momentum"] != 0:
                # None until the first step has made the buffer
                momentum_buffer_list.append(self.state[p].get("momentum_buffer"))
        return has_sparse_grad

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One SGD update of each parameter with a gradient (``closure``: see :meth:`Optimizer.step`)."""
        loss = _evaluate_closure(closure)

        for group in self.param_groups:
            params, grads, momentum_buffer_list = [], [], []

            has_sparse_grad = self._init_group(group, params, grads, momentum_buffer_list)

            sgd(params, grads, momentum_buffer_list, has_sparse_grad=has_sparse_grad,
                **_options(group, "weight_decay", "momentum", "lr", "dampening", "nesterov", "maximize",
                           "foreach", "fused"))

            if group["momentum"] != 0:
                # the first step made the buffers: keep them in the state
                for p, momentum_buffer in zip(params, momentum_buffer_list):
                    self.state[p]["momentum_buffer"] = momentum_buffer

        return loss


def sgd(params, d_p_list, momentum_buffer_list, has_sparse_grad=False, foreach=None, fused=None,
        grad_scale=None, found_inf=None, *, weight_decay, momentum, lr, dampening, nesterov, maximize):
    r"""The SGD update on lists of tensors, with no optimizer object (:class:`~torch.optim.SGD`
    calls it once per group; ``momentum_buffer_list`` entries that are None get filled).
    Any ``foreach``/``fused`` runs the for-loop update (``optimizer._single_tensor_only``)."""
    _single_tensor_sgd(params, d_p_list, momentum_buffer_list, grad_scale, found_inf,
                       weight_decay=weight_decay, momentum=momentum, lr=lr, dampening=dampening,
                       nesterov=nesterov, has_sparse_grad=has_sparse_grad, maximize=maximize)


# [marker: single_tensor_sgd]
def _single_tensor_sgd(params, grads, momentum_buffer_list, grad_scale, found_inf, *,
                       weight_decay, momentum, lr, dampening, nesterov, maximize, has_sparse_grad):
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")

    lr = _to_scalar(lr)

    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]

        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)

        if momentum != 0:
            buf = momentum_buffer_list[i]

            if buf is None:
                buf = grad.detach().clone()
                momentum_buffer_list[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)

            if nesterov:
                grad = grad.add(buf, alpha=momentum)
            else:
                grad = buf

        if isinstance(lr, Tensor) and lr.requires_grad:
            param.addcmul_(grad, lr, value=-1)
        else:
            param.add_(grad, alpha=-lr)
# [end marker: single_tensor_sgd]
