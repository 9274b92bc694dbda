"""torch/optim/adamw.py - AdamW: Adam with decoupled weight decay (Loshchilov & Hutter).

Mirrors PyTorch's torch/optim/adamw.py: an Adam with ``decoupled_weight_decay=True``.
Guide: docs/source/internals/python_layer.rst
"""

from .adam import Adam, adam

__all__ = ["AdamW", "adamw"]


class AdamW(Adam):
    r"""AdamW: Adam where weight decay shrinks the parameter
    directly (``p = p * (1 - lr * weight_decay)``, before the Adam update) instead of
    being added to the gradient, so it does not pass through the moment estimates.

    Same state as :class:`Adam`; the default ``weight_decay`` is 1e-2.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    # A state saved by an older AdamW has no decoupled_weight_decay; whatever was saved, an
    # AdamW's groups always decay the decoupled way.
    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True


def adamw(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, foreach=None, capturable=False,
          differentiable=False, fused=None, grad_scale=None, found_inf=None, *,
          amsgrad, beta1, beta2, lr, weight_decay, eps, maximize):
    r""":func:`adam` with ``decoupled_weight_decay=True``."""
    adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, foreach=foreach,
         capturable=capturable, differentiable=differentiable, fused=fused, grad_scale=grad_scale,
         found_inf=found_inf, amsgrad=amsgrad, beta1=beta1, beta2=beta2, lr=lr, weight_decay=weight_decay,
         eps=eps, maximize=maximize, decoupled_weight_decay=True)
