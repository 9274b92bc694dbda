"""torch.autograd - automatic differentiation: backward(), grad(), Function, grad modes.

Mirrors PyTorch's torch/autograd/__init__.py. Guide: docs/source/internals/autograd.rst.

backward() and grad() check their arguments here, then hand the tensors to the C++ engine
(torch._C._ImperativeEngine -> torch/csrc/autograd/python_engine.cpp -> engine.cpp).
"""

from typing import Optional, Sequence, Tuple, Union

import torch
from torch import _C
from torch.autograd import forward_ad, graph  # noqa: F401
from torch.autograd.function import Function, once_differentiable  # noqa: F401
from torch.autograd.grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: F401
from torch.autograd.gradcheck import gradcheck, gradgradcheck  # noqa: F401
from torch.autograd.variable import Variable  # noqa: F401

__all__ = ["Variable", "Function", "backward", "grad", "grad_mode", "no_grad", "enable_grad", "set_grad_enabled",
           "inference_mode", "gradcheck", "gradgradcheck", "graph"]

_TensorOrTensors = Union[torch.Tensor, Sequence[torch.Tensor]]


def _tensor_or_tensors_to_tuple(tensors, length: int):
    if tensors is None:
        return (None,) * length
    if isinstance(tensors, torch.Tensor):
        return (tensors,)
    return tuple(tensors)


def _make_grads(outputs, grads):
    # The C++ side (autograd.cpp: _make_grads) creates ones for scalar outputs and checks
    # shapes; this only passes the Python objects on.
    return tuple(grads)


def backward(
    tensors: _TensorOrTensors,
    grad_tensors: Optional[_TensorOrTensors] = None,
    retain_graph: Optional[bool] = None,
    create_graph: bool = False,
    grad_variables=None,
    inputs: Optional[_TensorOrTensors] = None,
) -> None:
    r"""Accumulate the gradient of ``tensors`` w.r.t. the graph's leaves into their ``.grad``.

    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> torch.autograd.backward((x * x).sum())
    >>> x.grad
    tensor([2., 4.])
    """
    if grad_variables is not None:
        grad_tensors = grad_variables if grad_tensors is None else grad_tensors
    if inputs is not None and len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    tensors = (tensors,) if isinstance(tensors, torch.Tensor) else tuple(tensors)
    inputs = (inputs,) if isinstance(inputs, torch.Tensor) else tuple(inputs) if inputs is not None else tuple()
    grad_tensors_ = _tensor_or_tensors_to_tuple(grad_tensors, len(tensors))
    if grad_tensors is None:
        grad_tensors_ = ()
    if retain_graph is None:
        retain_graph = create_graph
    _C._ImperativeEngine().run_backward(
        tensors, grad_tensors_, retain_graph, create_graph, inputs, True, True
    )


def grad(
    outputs: _TensorOrTensors,
    inputs: _TensorOrTensors,
    grad_outputs: Optional[_TensorOrTensors] = None,
    retain_graph: Optional[bool] = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: Optional[bool] = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> Tuple[torch.Tensor, ...]:
    r"""The gradients of ``outputs`` w.r.t. ``inputs``, returned (``.grad`` is left alone).

    >>> x = torch.tensor(3.0, requires_grad=True)
    >>> (g,) = torch.autograd.grad(x ** 2, x, create_graph=True)
    >>> g
    tensor(6., grad_fn=<MulBackward0>)
    >>> torch.autograd.grad(g, x)
    (tensor(2.),)
    """
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False."
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    if is_grads_batched:
        raise NotImplementedError("is_grads_batched=True needs vmap, which this tree does not have")
    t_outputs = (outputs,) if isinstance(outputs, torch.Tensor) else tuple(outputs)
    t_inputs = (inputs,) if isinstance(inputs, torch.Tensor) else tuple(inputs)
    grad_outputs_ = _tensor_or_tensors_to_tuple(grad_outputs, len(t_outputs))
    if grad_outputs is None:
        grad_outputs_ = ()
    if retain_graph is None:
        retain_graph = create_graph
    result = _C._ImperativeEngine().run_backward(
        t_outputs, grad_outputs_, retain_graph, create_graph, t_inputs, allow_unused, False
    )
    if materialize_grads:
        result = tuple(
            r if r is not None else torch.zeros_like(i, requires_grad=create_graph) for r, i in zip(result, t_inputs)
        )
    return result
