// aten/src/ATen/native/cpu/SoftmaxKernel.h - the stubs of softmax and log_softmax's CPU loops,
// forward and backward, along the last dim (rows) or any other (columns of an [outer, dim, inner]
// block). Mirrors PyTorch's aten/src/ATen/native/cpu/SoftmaxKernel.h.
// Guide: docs/source/internals/performance.rst.
//
// The operators (SoftMax.cpp) check the arguments, make the tensors contiguous and allocate the
// result; the loops (cpu/SoftMaxKernel.cpp) fill it.
#pragma once

#include <ATen/native/DispatchStub.h>

#include <cstdint>

namespace at {
class Tensor;
}

namespace at::native {

// (result, self): result = softmax(self) along self's last dim; both contiguous, same shape.
using forward_fn = void (*)(const Tensor&, const Tensor&);
// (grad_input, grad, output): grad_input from grad_output and the forward's output.
using backward_fn = void (*)(const Tensor&, const Tensor&, const Tensor&);

DECLARE_DISPATCH(forward_fn, softmax_lastdim_kernel);
DECLARE_DISPATCH(forward_fn, log_softmax_lastdim_kernel);
DECLARE_DISPATCH(backward_fn, softmax_backward_lastdim_kernel);
DECLARE_DISPATCH(backward_fn, log_softmax_backward_lastdim_kernel);

// The same along dim, which is not the last one.
using forward_fn_with_dim = void (*)(const Tensor&, const Tensor&, const int64_t);
using backward_fn_with_dim = void (*)(const Tensor&, const Tensor&, const Tensor&, const int64_t);

DECLARE_DISPATCH(forward_fn_with_dim, softmax_kernel);
DECLARE_DISPATCH(forward_fn_with_dim, log_softmax_kernel);
DECLARE_DISPATCH(backward_fn_with_dim, softmax_backward_kernel);
DECLARE_DISPATCH(backward_fn_with_dim, log_softmax_backward_kernel);

}  // namespace at::native
