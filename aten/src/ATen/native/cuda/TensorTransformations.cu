// aten/src/ATen/native/cuda/TensorTransformations.cu - flip and roll of CUDA tensors: a gather
// per output element, from the input element it comes from. Mirrors PyTorch's
// aten/src/ATen/native/cuda/TensorTransformations.cu (flip_cuda_kernel, roll_cuda_kernel).
// Guide: docs/source/internals/cuda_training.rst.
//
// Each thread computes where its output element's value lies in the input and copies it, so
// every output element is written by exactly one thread and no two threads race. The argument
// checks, and roll over several dims or none, are the CPU's (TensorTransformations.h).
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/TensorTransformations.h>
#include <c10/cuda/CUDAGuard.h>

#include <vector>

namespace at::native {
namespace {

constexpr int kThreads = 256;

// A kernel argument is copied to the device by value, so the shape travels in a fixed-size
// array. 25 is PyTorch's limit for CUDA kernels that take a tensor's geometry (MAX_TENSORINFO_DIMS).
constexpr int kMaxFlipDims = 25;

// flip and roll only move elements: no arithmetic on them. So the kernels are instantiated per
// element size, not per dtype, as PyTorch's flip_kernel does (float and int32 share one kernel).
template <int N>
struct alignas(N) OpaqueType {
  char data[N];
};

struct FlipGeometry {
  int ndim;
  int64_t sizes[kMaxFlipDims];
  int64_t in_strides[kMaxFlipDims];   // negated in the flipped dims
  int64_t out_strides[kMaxFlipDims];
};

// out[i_0, ..., i_n] = self[j_0, ..., j_n] with j_d = size_d - 1 - i_d in the flipped dims. `in`
// points at the element where every flipped dim is at its last index, and the flipped dims'
// strides are negated, so one stride sum finds the source for any layout of self and out.
template <typename scalar_t>
__global__ void flip_cuda_kernel(const scalar_t* __restrict__ in, scalar_t* __restrict__ out, int64_t numel,
                                 FlipGeometry g) {
  CUDA_KERNEL_LOOP_TYPE(index, numel, int64_t) {
    int64_t rest = index, in_offset = 0, out_offset = 0;
    for (int d = g.ndim - 1; d >= 0; d--) {  // the last dim moves fastest, as in a contiguous tensor
      const int64_t i = rest % g.sizes[d];
      rest /= g.sizes[d];
      in_offset += i * g.in_strides[d];
      out_offset += i * g.out_strides[d];
    }
    out[out_offset] = in[in_offset];
  }
}

// self and out contiguous. Viewed along the rolled dim (size elements, stride elements apart),
// output position p holds input position (p + start) mod size: the last size - start output
// positions wrap around to the beginning of the input.
template <typename scalar_t>
__global__ void roll_cuda_kernel(const scalar_t* __restrict__ in, scalar_t* __restrict__ out, int64_t numel,
                                 int64_t start, int64_t size, int64_t stride) {
  CUDA_KERNEL_LOOP_TYPE(index, numel, int64_t) {
    const int64_t p = index / stride % size;  // this element's position along the rolled dim
    const int64_t source = p >= size - start ? index - (size - start) * stride : index + start * stride;
    out[index] = in[source];
  }
}

}  // namespace

Tensor flip_cuda(const Tensor& self, IntArrayRef dims) {
  const std::vector<bool> flip_dims = dim_list_to_bitset(dims, self.dim());
  // Same layout as self where self is dense, as the CPU's flip.
  Tensor result = at::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Preserve);
  const int64_t numel = self.numel();
  if (numel == 0) {
    return result;
  }
  const int64_t ndim = self.dim();
  TORCH_CHECK(ndim <= kMaxFlipDims, "flip_cuda: tensors with more than ", kMaxFlipDims,
              " dimensions are not supported, got ", ndim);
  FlipGeometry g{};
  g.ndim = static_cast<int>(ndim);
  int64_t in_offset = 0;  // in elements: where every flipped dim is at its last index
  for (int64_t d = 0; d < ndim; d++) {
    g.sizes[d] = self.size(d);
    g.in_strides[d] = flip_dims[d] ? -self.stride(d) : self.stride(d);
    g.out_strides[d] = result.stride(d);
    if (flip_dims[d]) {
      in_offset += (self.size(d) - 1) * self.stride(d);
    }
  }
  c10::cuda::CUDAGuard guard(self.device());
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t blocks = at::cuda::detail::GET_BLOCKS(numel, kThreads);
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(kBool, kHalf, kBFloat16, kComplexHalf, self.scalar_type(), "flip_cuda", [&] {
    using opaque_t = OpaqueType<sizeof(scalar_t)>;
    flip_cuda_kernel<opaque_t><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
        reinterpret_cast<const opaque_t*>(self.const_data_ptr<scalar_t>()) + in_offset,
        reinterpret_cast<opaque_t*>(result.mutable_data_ptr<scalar_t>()), numel, g);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return result;
}

Tensor roll_cuda(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  if (dims.size() != 1 || shifts.size() != 1) {
    return roll_common(self, shifts, dims);
  }
  if (self.numel() == 0) {
    return self.clone(MemoryFormat::Preserve);  // as the CPU's roll: no dim is checked
  }
  const RollDim r = roll_dim(self, shifts[0], dims[0]);
  // The kernel indexes self and out as contiguous, which is also the layout of the CPU's result
  // (a cat).
  const Tensor in = self.contiguous();
  Tensor out = at::empty(in.sizes(), in.scalar_type(), std::nullopt, in.device());
  const int64_t numel = in.numel();
  // Elements between neighbours along the dim, computed from the sizes: a contiguous tensor's
  // stride in a dim of size 1 can be anything, 0 included.
  int64_t stride = 1;
  for (int64_t d = r.dim + 1; d < in.dim(); d++) {
    stride *= in.size(d);
  }
  c10::cuda::CUDAGuard guard(in.device());
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t blocks = at::cuda::detail::GET_BLOCKS(numel, kThreads);
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(kBool, kHalf, kBFloat16, kComplexHalf, in.scalar_type(), "roll_cuda", [&] {
    using opaque_t = OpaqueType<sizeof(scalar_t)>;
    roll_cuda_kernel<opaque_t><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
        reinterpret_cast<const opaque_t*>(in.const_data_ptr<scalar_t>()),
        reinterpret_cast<opaque_t*>(out.mutable_data_ptr<scalar_t>()), numel, r.start, r.size, stride);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return out;
}

}  // namespace at::native
