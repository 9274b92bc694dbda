"""docs/examples/lltm/lltm.py - the LLTM of the write-ups' "Integrating a C++/CUDA Operation with
PyTorch", in its four forms: Python tensor operations (the reference), the C++ extension, the
CUDA extension, and the dispatcher operator torch.ops.lltm_ops.lltm.

Each extension is built just in time with torch.utils.cpp_extension.load() (its setup.py in
cpp/ and cuda/ builds the same sources ahead of time). Guide: docs/source/internals/cpp_extensions.rst.

    import lltm
    cell = lltm.LLTM(input_features=32, state_size=128, impl="cpp")
    new_h, new_cell = cell(x, (h, c))
"""

import math
import os

import torch
import torch.nn.functional as F
from torch.utils.cpp_extension import load

HERE = os.path.dirname(os.path.abspath(__file__))


def lltm_reference(input, weights, bias, old_h, old_cell):
    """The LLTM cell in tensor operations: autograd derives its backward."""
    X = torch.cat([old_h, input], dim=1)
    gate_weights = F.linear(X, weights, bias)
    gates = gate_weights.chunk(3, dim=1)
    input_gate = torch.sigmoid(gates[0])
    output_gate = torch.sigmoid(gates[1])
    candidate_cell = F.elu(gates[2])
    new_cell = old_cell + candidate_cell * input_gate
    new_h = torch.tanh(new_cell) * output_gate
    return new_h, new_cell


def load_cpp(verbose=False, **kwargs):
    """The C++ extension (cpp/lltm.cpp), built and imported."""
    return load(name="lltm_cpp", sources=[os.path.join(HERE, "cpp", "lltm.cpp")], verbose=verbose, **kwargs)


def load_cuda(verbose=False, **kwargs):
    """The CUDA extension (cuda/*.cpp, *.cu): nvcc for a GPU, or translated for the simulated
    device when TORCH_CUDA_SIMULATE is set."""
    return load(name="lltm_cuda", sources=[os.path.join(HERE, "cuda", "lltm_cuda.cpp"),
                                           os.path.join(HERE, "cuda", "lltm_cuda_kernel.cu")],
                verbose=verbose, **kwargs)


def load_op(verbose=False, **kwargs):
    """The operator library (op/lltm_op.cpp, with cpp/lltm.cpp's kernels): loaded into the
    process, it adds torch.ops.lltm_ops.lltm; returns the library's path."""
    return load(name="lltm_ops", sources=[os.path.join(HERE, "op", "lltm_op.cpp"), os.path.join(HERE, "cpp", "lltm.cpp")],
                is_python_module=False, verbose=verbose, **kwargs)


def make_function(extension):
    """The tutorial's LLTMFunction around an extension's forward and backward."""

    class LLTMFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input, weights, bias, old_h, old_cell):
            outputs = extension.forward(input, weights, bias, old_h, old_cell)
            new_h, new_cell = outputs[:2]
            variables = outputs[1:] + [weights]
            ctx.save_for_backward(*variables)
            return new_h, new_cell

        @staticmethod
        def backward(ctx, grad_h, grad_cell):
            outputs = extension.backward(grad_h.contiguous(), grad_cell.contiguous(), *ctx.saved_tensors)
            d_old_h, d_input, d_weights, d_bias, d_old_cell = outputs[:5]
            return d_input, d_weights, d_bias, d_old_h, d_old_cell

    return LLTMFunction


class LLTM(torch.nn.Module):
    """The LLTM cell as a module, computed by impl: "python", "cpp", "cuda" or "op"."""

    def __init__(self, input_features, state_size, impl="python"):
        super().__init__()
        self.input_features = input_features
        self.state_size = state_size
        self.impl = impl
        self.weights = torch.nn.Parameter(torch.empty(3 * state_size, input_features + state_size))
        self.bias = torch.nn.Parameter(torch.empty(3 * state_size))
        self.reset_parameters()
        if impl == "cpp":
            self._function = make_function(load_cpp())
        elif impl == "cuda":
            self._function = make_function(load_cuda())
        elif impl == "op":
            load_op()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.state_size)
        for weight in self.parameters():
            weight.data.uniform_(-stdv, +stdv)

    def forward(self, input, state):
        old_h, old_cell = state
        if self.impl == "python":
            return lltm_reference(input, self.weights, self.bias, old_h, old_cell)
        if self.impl == "op":
            new_h, new_cell = torch.ops.lltm_ops.lltm(input, self.weights, self.bias, old_h, old_cell)
            return new_h, new_cell
        return self._function.apply(input, self.weights, self.bias, old_h, old_cell)
