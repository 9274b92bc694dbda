"""torch/autograd/gradcheck.py - gradcheck and gradgradcheck: autograd against finite differences.

Mirrors PyTorch's torch/autograd/gradcheck.py (its "slow mode"). Guide: docs/source/internals/autograd.rst.

For a function f of tensors, gradcheck builds two Jacobians of every (input, output) pair:
  - numerical: perturb each input element by +-eps, central differences of the outputs;
  - analytical: one backward pass per output element (a one-hot grad_output) through the
    autograd graph;
and compares them with rtol/atol. Inputs should be float64: in float32 the finite
differences themselves are too coarse to compare with.
"""

import warnings
from typing import Callable, Optional

import torch

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "get_numerical_jacobian", "get_analytical_jacobian"]


class GradcheckError(RuntimeError):
    r"""Error raised by gradcheck and gradgradcheck."""


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,) if not isinstance(x, list) else tuple(x)


def _differentiable_outputs(x):
    return tuple(o for o in _as_tuple(x) if isinstance(o, torch.Tensor) and o.requires_grad)


def _inputs_requiring_grad(inputs):
    return [(i, t) for i, t in enumerate(inputs) if isinstance(t, torch.Tensor) and t.requires_grad]


# [marker: numerical jacobian]
def get_numerical_jacobian(fn, inputs, outputs=None, eps: float = 1e-3):
    r"""Per input requiring grad and per output: a (input.numel(), output.numel()) matrix of
    central differences (f(x + eps) - f(x - eps)) / 2eps, one input element at a time."""
    inputs = _as_tuple(inputs)
    if outputs is None:
        outputs = _as_tuple(fn(*inputs))
    jacobians = []
    for _, inp in _inputs_requiring_grad(inputs):
        # Perturb through .data: the same memory, invisible to autograd (and any layout,
        # non-contiguous inputs included, since we index element by element).
        x = inp.data
        per_output = [torch.zeros(x.numel(), o.numel(), dtype=o.dtype) for o in outputs]
        flat_indices = [tuple(idx) for idx in torch.nonzero(torch.ones(x.shape, dtype=torch.bool)).tolist()] \
            if x.dim() > 0 else [()]
        for k, idx in enumerate(flat_indices):
            orig = x[idx].item()
            # fn runs as the user wrote it (grad mode on): gradgradcheck's fn computes
            # gradients itself.
            x[idx] = orig - eps
            minus = [o.detach().clone() for o in _as_tuple(fn(*inputs)) if isinstance(o, torch.Tensor)]
            x[idx] = orig + eps
            plus = [o.detach().clone() for o in _as_tuple(fn(*inputs)) if isinstance(o, torch.Tensor)]
            x[idx] = orig
            for j, (a, b) in enumerate(zip(plus, minus)):
                if isinstance(a, torch.Tensor) and a.is_floating_point():
                    per_output[j][k] = ((a - b) / (2 * eps)).reshape(-1).cpu()
        jacobians.append(per_output)
    return jacobians
# [end marker: numerical jacobian]


def get_analytical_jacobian(inputs, outputs):
    r"""The same matrices from autograd: row k of output o's Jacobian is the gradient of
    o.reshape(-1)[k] with respect to each input (a one-hot grad_output per backward pass)."""
    diff_inputs = [t for _, t in _inputs_requiring_grad(inputs)]
    jacobians = [[torch.zeros(t.numel(), o.numel(), dtype=o.dtype) for o in outputs] for t in diff_inputs]
    for j, out in enumerate(outputs):
        flat = torch.zeros(out.numel(), dtype=out.dtype, device=out.device)
        for k in range(out.numel()):
            flat.zero_()
            flat[k] = 1
            grads = torch.autograd.grad(out, diff_inputs, flat.reshape(out.shape), retain_graph=True,
                                        allow_unused=True)
            for i, g in enumerate(grads):
                if g is not None:
                    if g.shape != diff_inputs[i].shape:
                        raise GradcheckError(
                            f"Gradient has incorrect size: got {list(g.shape)}, expected {list(diff_inputs[i].shape)}")
                    jacobians[i][j][:, k] = g.reshape(-1).cpu()
    return jacobians


def gradcheck(
    func: Callable,
    inputs,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_batched_forward_grad: bool = False,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked: Optional[bool] = None,
) -> bool:
    r"""Check the gradients computed by autograd against finite differences.

    >>> x = torch.rand(3, dtype=torch.float64, requires_grad=True)
    >>> torch.autograd.gradcheck(lambda t: (t * t).sum(), (x,))
    True
    """
    tupled_inputs = _as_tuple(inputs)
    if not any(isinstance(t, torch.Tensor) and t.requires_grad for t in tupled_inputs):
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, but none of them have "
            "requires_grad=True."
        )
    for idx, t in enumerate(tupled_inputs):
        if isinstance(t, torch.Tensor) and t.requires_grad and t.dtype != torch.float64:
            warnings.warn(
                f"Input #{idx} requires gradient and is not a double precision floating point or complex. "
                "This check will likely fail if all the inputs are not of double precision floating point or "
                "complex. "
            )
    outputs = _differentiable_outputs(func(*tupled_inputs))
    if not outputs:
        # Nothing differentiable came out: the analytical gradient must be zero, as the numerical one.
        numerical = get_numerical_jacobian(func, tupled_inputs, eps=eps)
        for i, per_output in enumerate(numerical):
            for j, n in enumerate(per_output):
                if n.numel() and not torch.allclose(n, torch.zeros_like(n), rtol=rtol, atol=atol):
                    return _fail("Numerical gradient for function expected to be zero", raise_exception)
        return True
    numerical = get_numerical_jacobian(func, tupled_inputs, outputs, eps=eps)
    analytical = get_analytical_jacobian(tupled_inputs, outputs)
    for i, (num_i, ana_i) in enumerate(zip(numerical, analytical)):
        for j, (n, a) in enumerate(zip(num_i, ana_i)):
            if not torch.allclose(a, n, rtol=rtol, atol=atol):
                return _fail(
                    f"Jacobian mismatch for output {j} with respect to input {i},\n"
                    f"numerical:{n}\nanalytical:{a}\n",
                    raise_exception,
                )
    return True


def _fail(msg: str, raise_exception: bool) -> bool:
    if raise_exception:
        raise GradcheckError(msg)
    return False


def gradgradcheck(
    func: Callable,
    inputs,
    grad_outputs=None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
) -> bool:
    r"""Check second derivatives: gradcheck of the function that computes the first ones
    (with create_graph=True) for fixed random grad_outputs.

    >>> x = torch.rand(3, dtype=torch.float64, requires_grad=True)
    >>> torch.autograd.gradgradcheck(lambda t: (t * t * t).sum(), (x,))
    True
    """
    tupled_inputs = _as_tuple(inputs)
    outputs = _differentiable_outputs(func(*tupled_inputs))
    if grad_outputs is None:
        gen = torch.Generator().manual_seed(0)
        grad_outputs = tuple(
            torch.randn(o.shape, dtype=o.dtype, generator=gen).to(o.device).requires_grad_() for o in outputs)
    tupled_grad_outputs = _as_tuple(grad_outputs)
    num_outputs = len(tupled_grad_outputs)
    diff_input_args_indices = [i for i, t in _inputs_requiring_grad(tupled_inputs)]

    def new_func(*args):
        input_args = args[:-num_outputs]
        grad_outs = args[-num_outputs:]
        outs = _differentiable_outputs(func(*input_args))
        diff_inputs = tuple(input_args[i] for i in diff_input_args_indices)
        grads = torch.autograd.grad(outs, diff_inputs, grad_outs, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, tupled_inputs + tupled_grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
