// aten/src/ATen/native/cuda/Loss.cu - the losses' CUDA kernels: nll_loss and nll_loss2d forward
// and backward, binary_cross_entropy forward and backward. Mirrors PyTorch's
// aten/src/ATen/native/cuda/Loss.cu and NLLLoss2d.cu. Guide: docs/source/internals/cuda_training.rst.
//
// nll_loss reads one element per (sample, position): input[b][t][p] for the target t of that
// position. 'none' gives each position its own thread. 'mean' and 'sum' run one block that
// adds the terms and the weights in a fixed order (each thread a strided share, then a tree in
// shared memory), so the loss is the same on every run. The backward writes one element per
// position: no two threads touch the same element, no atomics. (C) and (N, C) inputs are one
// position per sample; (N, C, H, W) inputs have H * W positions, their classes H * W apart.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/OpMathType.h>
#include <ATen/TensorIterator.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/Loss.h>
#include <ATen/native/cuda/Loops.cuh>
#include <c10/cuda/CUDAGuard.h>

#include <algorithm>

namespace at::native {
namespace {

using at::cuda::detail::GET_BLOCKS;

constexpr int kNllThreads = 256;   // the block of the reducing forward
constexpr int kLoopThreads = 256;  // the elementwise kernels

// [marker: nll_loss_kernels]
template <typename scalar_t, typename target_t>
__global__ void nll_loss_forward_no_reduce_kernel(scalar_t* __restrict__ output, const scalar_t* __restrict__ input,
                                                  const target_t* __restrict__ target,
                                                  const scalar_t* __restrict__ weight, int64_t count,
                                                  int64_t n_classes, int64_t positions, int64_t ignore_index) {
  CUDA_KERNEL_LOOP_TYPE(i, count, int64_t) {
    const int64_t t = static_cast<int64_t>(target[i]);
    if (t == ignore_index) {
      output[i] = scalar_t(0);
      continue;
    }
    CUDA_KERNEL_ASSERT(t >= 0 && t < n_classes && "Target out of bounds");
    const scalar_t w = weight != nullptr ? weight[t] : scalar_t(1);
    output[i] = -input[nll_offset(i, t, n_classes, positions)] * w;
  }
}

// One block: thread j adds up positions j, j + blockDim, ...; then a tree halves the partial
// sums in shared memory until thread 0 holds the total.
template <typename scalar_t, typename target_t, typename acc_t>
__global__ void nll_loss_forward_reduce_kernel(scalar_t* __restrict__ output, scalar_t* __restrict__ total_weight,
                                               const scalar_t* __restrict__ input,
                                               const target_t* __restrict__ target,
                                               const scalar_t* __restrict__ weight, int64_t count,
                                               int64_t n_classes, int64_t positions, int64_t ignore_index,
                                               bool size_average) {
  __shared__ acc_t s_loss[kNllThreads];
  __shared__ acc_t s_weight[kNllThreads];
  acc_t loss = 0, wsum = 0;
  for (int64_t i = threadIdx.x; i < count; i += blockDim.x) {
    const int64_t t = static_cast<int64_t>(target[i]);
    if (t == ignore_index) {
      continue;
    }
    CUDA_KERNEL_ASSERT(t >= 0 && t < n_classes && "Target out of bounds");
    const acc_t w = weight != nullptr ? static_cast<acc_t>(weight[t]) : acc_t(1);
    loss -= static_cast<acc_t>(input[nll_offset(i, t, n_classes, positions)]) * w;
    wsum += w;
  }
  s_loss[threadIdx.x] = loss;
  s_weight[threadIdx.x] = wsum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      s_loss[threadIdx.x] += s_loss[threadIdx.x + stride];
      s_weight[threadIdx.x] += s_weight[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    // 'mean' of no counted target is 0 / 0 = NaN, as on the CPU.
    output[0] = static_cast<scalar_t>(size_average ? s_loss[0] / s_weight[0] : s_loss[0]);
    total_weight[0] = static_cast<scalar_t>(s_weight[0]);
  }
}

template <typename scalar_t, typename target_t>
__global__ void nll_loss_backward_kernel(scalar_t* __restrict__ grad_input, const scalar_t* __restrict__ grad_output,
                                         const target_t* __restrict__ target, const scalar_t* __restrict__ weight,
                                         const scalar_t* __restrict__ total_weight, int64_t count, int64_t n_classes,
                                         int64_t positions, int64_t ignore_index, bool per_element,
                                         bool size_average) {
  CUDA_KERNEL_LOOP_TYPE(i, count, int64_t) {
    const int64_t t = static_cast<int64_t>(target[i]);
    if (t == ignore_index) {
      continue;
    }
    CUDA_KERNEL_ASSERT(t >= 0 && t < n_classes && "Target out of bounds");
    scalar_t g;
    if (per_element) {
      g = -grad_output[i];
    } else if (size_average) {
      g = -(grad_output[0] / total_weight[0]);
    } else {
      g = -grad_output[0];
    }
    if (weight != nullptr) {
      g = g * weight[t];
    }
    grad_input[nll_offset(i, t, n_classes, positions)] = g;
  }
}
// [end marker: nll_loss_kernels]

// The forward of both, for one dtype; output is already sized (one loss per position for
// 'none' with a batch).
template <typename scalar_t>
void nll_loss_forward_cuda_impl(Tensor output, Tensor total_weight, const Tensor& self,
                                const Tensor& target, const Tensor& weight, int64_t reduction, int64_t ignore_index,
                                const NllLossShape& shape) {
  const int64_t n_classes = shape.n_classes, positions = shape.positions;
  using acc_t = at::opmath_type<scalar_t>;
  c10::cuda::CUDAGuard guard(self.device());
  const Tensor input = self.contiguous();
  const Tensor target_ = target.contiguous();
  const int64_t count = shape.batch_size * positions;
  const bool per_element = reduction == at::Reduction::None && output.dim() > 0;
  const scalar_t* w = weight.defined() ? weight.const_data_ptr<scalar_t>() : nullptr;
  auto stream = at::cuda::getCurrentCUDAStream();
  dispatch_target(target_, [&](auto tag) {
    using target_t = decltype(tag);
    if (per_element) {
      total_weight.zero_();
      if (count == 0) {
        return;
      }
      nll_loss_forward_no_reduce_kernel<scalar_t, target_t>
          <<<GET_BLOCKS(count, kLoopThreads), kLoopThreads, 0, stream>>>(
              output.mutable_data_ptr<scalar_t>(), input.const_data_ptr<scalar_t>(),
              target_.const_data_ptr<target_t>(), w, count, n_classes, positions, ignore_index);
    } else {
      nll_loss_forward_reduce_kernel<scalar_t, target_t, acc_t><<<1, kNllThreads, 0, stream>>>(
          output.mutable_data_ptr<scalar_t>(), total_weight.mutable_data_ptr<scalar_t>(),
          input.const_data_ptr<scalar_t>(), target_.const_data_ptr<target_t>(), w, count, n_classes, positions,
          ignore_index, reduction == at::Reduction::Mean);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

template <typename scalar_t>
void nll_loss_backward_cuda_impl(Tensor grad_input, const Tensor& grad_output, const Tensor& target,
                                 const Tensor& weight, int64_t reduction, int64_t ignore_index,
                                 const Tensor& total_weight, const NllLossShape& shape) {
  const int64_t n_classes = shape.n_classes, positions = shape.positions;
  c10::cuda::CUDAGuard guard(grad_input.device());
  const Tensor target_ = target.contiguous();
  const Tensor grad_out = grad_output.contiguous();
  const int64_t count = shape.batch_size * positions;
  if (count == 0) {
    return;
  }
  const bool per_element = reduction == at::Reduction::None && grad_output.dim() > 0;
  const scalar_t* w = weight.defined() ? weight.const_data_ptr<scalar_t>() : nullptr;
  dispatch_target(target_, [&](auto tag) {
    using target_t = decltype(tag);
    nll_loss_backward_kernel<scalar_t, target_t>
        <<<GET_BLOCKS(count, kLoopThreads), kLoopThreads, 0, at::cuda::getCurrentCUDAStream()>>>(
            grad_input.mutable_data_ptr<scalar_t>(), grad_out.const_data_ptr<scalar_t>(),
            target_.const_data_ptr<target_t>(), w, total_weight.const_data_ptr<scalar_t>(), count, n_classes,
            positions, ignore_index, per_element, reduction == at::Reduction::Mean);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

}  // namespace

std::tuple<Tensor, Tensor> nll_loss_forward_cuda(const Tensor& self, const Tensor& target,
                                                 const std::optional<Tensor>& weight_opt, int64_t reduction,
                                                 int64_t ignore_index) {
  const auto m = nll_loss_meta(self, target, weight_opt, reduction, /*spatial=*/false);
  Tensor output = empty_for(m.shape.output_sizes, self), total_weight = empty_for({}, self);
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, self.scalar_type(), "nll_loss_forward_out_cuda", [&] {
    nll_loss_forward_cuda_impl<scalar_t>(output, total_weight, self, target, m.weight, reduction, ignore_index,
                                         m.shape);
  });
  return {output, total_weight};
}

Tensor nll_loss_backward_cuda(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                              const std::optional<Tensor>& weight_opt, int64_t reduction, int64_t ignore_index,
                              const Tensor& total_weight) {
  const auto m = nll_loss_meta(self, target, weight_opt, reduction, /*spatial=*/false);
  Tensor grad_input = empty_for(self.sizes(), self).zero_();
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, self.scalar_type(), "nll_loss_backward_out_cuda", [&] {
    nll_loss_backward_cuda_impl<scalar_t>(grad_input, grad_output, target, m.weight, reduction, ignore_index,
                                          total_weight, m.shape);
  });
  return grad_input;
}

std::tuple<Tensor, Tensor> nll_loss2d_forward_cuda(const Tensor& self, const Tensor& target,
                                                   const std::optional<Tensor>& weight_opt, int64_t reduction,
                                                   int64_t ignore_index) {
  const auto m = nll_loss_meta(self, target, weight_opt, reduction, /*spatial=*/true);
  Tensor output = empty_for(m.shape.output_sizes, self), total_weight = empty_for({}, self);
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, self.scalar_type(), "nll_loss2d_forward_out_cuda", [&] {
    nll_loss_forward_cuda_impl<scalar_t>(output, total_weight, self, target, m.weight, reduction, ignore_index,
                                         m.shape);
  });
  return {output, total_weight};
}

Tensor nll_loss2d_backward_cuda(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                                const std::optional<Tensor>& weight_opt, int64_t reduction, int64_t ignore_index,
                                const Tensor& total_weight) {
  const auto m = nll_loss_meta(self, target, weight_opt, reduction, /*spatial=*/true);
  Tensor grad_input = empty_for(self.sizes(), self).zero_();
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, self.scalar_type(), "nll_loss2d_backward_out_cuda", [&] {
    nll_loss_backward_cuda_impl<scalar_t>(grad_input, grad_output, target, m.weight, reduction, ignore_index,
                                          total_weight, m.shape);
  });
  return grad_input;
}

// The CPU's formulas (native/Loss.h) in gpu_kernel; a value outside [0, 1] is a device-side
// assert, as in PyTorch (the host never sees the values).
Tensor binary_cross_entropy_cuda(const Tensor& input, const Tensor& target, const std::optional<Tensor>& weight_opt,
                                 int64_t reduction) {
  binary_cross_entropy_check(input, target);
  c10::cuda::CUDAGuard guard(input.device());
  Tensor loss = at::empty_like(input);
  auto iter = TensorIteratorConfig().add_output(loss).add_const_input(input).add_const_input(target).build();
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, loss.scalar_type(), "binary_cross_entropy_out_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t input_val, scalar_t target_val) -> scalar_t {
      CUDA_KERNEL_ASSERT(input_val >= 0 && input_val <= 1 && "all elements of input should be between 0 and 1");
      CUDA_KERNEL_ASSERT(target_val >= 0 && target_val <= 1 && "all elements of target should be between 0 and 1");
      return binary_cross_entropy_value(input_val, target_val);
    });
  });
  return binary_cross_entropy_weight_and_reduce(loss, weight_opt, reduction, /*backward=*/false);
}

Tensor binary_cross_entropy_backward_cuda(const Tensor& grad, const Tensor& input, const Tensor& target,
                                          const std::optional<Tensor>& weight_opt, int64_t reduction) {
  c10::cuda::CUDAGuard guard(input.device());
  Tensor grad_input = at::empty_like(input);
  auto iter = binary_cross_entropy_backward_iter(grad_input, grad, input, target);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, grad_input.scalar_type(), "binary_cross_entropy_backward_out_cuda",
                                  [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t grad_val, scalar_t input_val, scalar_t target_val) -> scalar_t {
      return binary_cross_entropy_grad(grad_val, input_val, target_val);
    });
  });
  return binary_cross_entropy_weight_and_reduce(grad_input, weight_opt, reduction, /*backward=*/true);
}

}  // namespace at::native
