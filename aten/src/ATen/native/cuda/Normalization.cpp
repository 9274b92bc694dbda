// aten/src/ATen/native/cuda/Normalization.cpp - native_batch_norm and native_layer_norm (forward and
// backward) of CUDA tensors. They are the CPU's compositions of tensor operators (Normalization.cpp,
// layer_norm.cpp), which run here on the CUDA elementwise and reduction kernels: one kernel per
// operator, the statistics through Reduce.cuh. PyTorch's aten/src/ATen/native/cuda/Normalization.cu
// and layer_norm_kernel.cu fuse each into a few Welford kernels instead. Guide: docs/source/internals/cuda_training.rst.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <c10/cuda/CUDAGuard.h>

#include <tuple>

namespace at::native {

std::tuple<Tensor, Tensor, Tensor> batch_norm_cuda(const Tensor& input, const std::optional<Tensor>& weight,
                                                   const std::optional<Tensor>& bias,
                                                   const std::optional<Tensor>& running_mean,
                                                   const std::optional<Tensor>& running_var, bool training,
                                                   double momentum, double eps) {
  c10::cuda::CUDAGuard guard(input.device());
  return batch_norm_cpu(input, weight, bias, running_mean, running_var, training, momentum, eps);
}

std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_cuda(
    const Tensor& grad_out, const Tensor& input, const std::optional<Tensor>& weight,
    const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
    const std::optional<Tensor>& save_mean, const std::optional<Tensor>& save_invstd, bool train, double eps,
    std::array<bool, 3> output_mask) {
  c10::cuda::CUDAGuard guard(input.device());
  return batch_norm_backward_cpu(grad_out, input, weight, running_mean, running_var, save_mean, save_invstd, train,
                                 eps, output_mask);
}

std::tuple<Tensor, Tensor, Tensor> layer_norm_cuda(const Tensor& input, IntArrayRef normalized_shape,
                                                   const std::optional<Tensor>& weight,
                                                   const std::optional<Tensor>& bias, double eps) {
  c10::cuda::CUDAGuard guard(input.device());
  return layer_norm_cpu(input, normalized_shape, weight, bias, eps);
}

std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_cuda(const Tensor& grad_out, const Tensor& input,
                                                            IntArrayRef normalized_shape, const Tensor& mean,
                                                            const Tensor& rstd, const std::optional<Tensor>& weight,
                                                            const std::optional<Tensor>& bias,
                                                            std::array<bool, 3> output_mask) {
  c10::cuda::CUDAGuard guard(input.device());
  return layer_norm_backward_cpu(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask);
}

}  // namespace at::native
