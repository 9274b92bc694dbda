// aten/src/ATen/native/cpu/IndexKernel.cpp - the CPU loops of masked_fill, index (t[idx]),
// index_put_ (t[idx] = v, accumulate) and take: loops written directly against
// TensorIterator's 2-D interface (cpu_kernel is for "out = f(inputs)"; these read or write
// at a computed offset). Mirrors PyTorch's aten/src/ATen/native/cpu/IndexKernel.cpp.
// Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/IndexKernel.h>
#include <ATen/native/cpu/Loops.h>

#include <cstring>
#include <vector>

namespace at::native {
namespace {

void masked_fill_kernel(TensorIterator& iter, const Scalar& value) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(kBool, kHalf, kBFloat16, kComplexHalf, iter.dtype(), "masked_fill", [&] {
    const auto value_ = value.to<scalar_t>();
    auto loop = [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
      char* dst = data[0];
      char* mask = data[1];
      for (int64_t j = 0; j < n1; j++) {
        for (int64_t i = 0; i < n0; i++) {
          if (*reinterpret_cast<const bool*>(mask + i * strides[1])) {
            *reinterpret_cast<scalar_t*>(dst + i * strides[0]) = value_;
          }
        }
        dst += strides[2];
        mask += strides[3];
      }
    };
    iter.for_each(loop);
  });
}

// The loop shared by index and index_put_. Operand 0 is the output, operand 1 the other
// tensor (src of index, values of index_put_), operands 2.. the int64 index tensors. One of
// the first two is the "restrided" tensor whose indexed dimensions have stride 0 (see
// make_info in TensorAdvancedIndexing.cpp); the loop adds sum(index_k * indexed_stride_k)
// to its pointer and calls f(dst, src, offset). PyTorch's Indexer does the same.
template <typename F>
void cpu_index_kernel(TensorIterator& iter, IntArrayRef index_size, IntArrayRef index_stride, const F& f,
                      bool serial_execution = false) {
  const int ntensor = iter.ntensors();
  const int64_t nindices = static_cast<int64_t>(index_size.size());
  auto loop = [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    std::vector<char*> ptrs(data, data + ntensor);
    for (int64_t j = 0; j < n1; j++) {
      for (int64_t i = 0; i < n0; i++) {
        int64_t offset = 0;
        for (int64_t k = 0; k < nindices; k++) {
          int64_t idx = *reinterpret_cast<const int64_t*>(ptrs[2 + k] + i * strides[2 + k]);
          const int64_t size = index_size[k];
          TORCH_CHECK_INDEX(idx >= -size && idx < size, "index ", idx, " is out of bounds for dimension ", k,
                            " with size ", size);
          if (idx < 0) idx += size;
          offset += idx * index_stride[k];
        }
        f(ptrs[0] + i * strides[0], ptrs[1] + i * strides[1], offset);
      }
      for (int t = 0; t < ntensor; t++) ptrs[t] += strides[ntensor + t];
    }
  };
  if (serial_execution) {
    // index_put_ with accumulate: two index entries may name the same element.
    iter.serial_for_each(loop, {0, iter.numel()});
  } else {
    iter.for_each(loop);
  }
}

void index_kernel(TensorIterator& iter, IntArrayRef index_size, IntArrayRef index_stride) {
  // A copy of one element moves bytes; the dtype only matters through its size.
  const int64_t itemsize = c10::elementSize(iter.dtype());
  cpu_index_kernel(iter, index_size, index_stride, [itemsize](char* dst, char* src, int64_t offset) {
    std::memcpy(dst, src + offset, itemsize);
  });
}

void index_put_kernel(TensorIterator& iter, IntArrayRef index_size, IntArrayRef index_stride, bool accumulate) {
  if (!accumulate) {
    const int64_t itemsize = c10::elementSize(iter.dtype());
    cpu_index_kernel(iter, index_size, index_stride, [itemsize](char* dst, char* src, int64_t offset) {
      std::memcpy(dst + offset, src, itemsize);
    });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "index_put_accumulate", [&] {
    cpu_index_kernel(
        iter, index_size, index_stride,
        [](char* dst, char* src, int64_t offset) {
          auto* out = reinterpret_cast<scalar_t*>(dst + offset);
          *out = static_cast<scalar_t>(*out + *reinterpret_cast<scalar_t*>(src));
        },
        /*serial_execution=*/true);
  });
}

// out[i] = src.flatten()[index[i]], negative indices counting from the end.
void take_kernel(TensorIterator& iter, const Tensor& src) {
  const int64_t numel = src.numel();
  const int64_t itemsize = src.element_size();
  const char* base = static_cast<const char*>(src.data_ptr());
  auto loop = [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    char* dst = data[0];
    char* idx_ptr = data[1];
    for (int64_t j = 0; j < n1; j++) {
      for (int64_t i = 0; i < n0; i++) {
        int64_t idx = *reinterpret_cast<const int64_t*>(idx_ptr + i * strides[1]);
        TORCH_CHECK_INDEX(idx < numel && idx >= -numel, "out of range: tried to access index ", idx,
                          " on a tensor of ", numel, " elements.");
        if (idx < 0) idx += numel;
        std::memcpy(dst + i * strides[0], base + idx * itemsize, itemsize);
      }
      dst += strides[2];
      idx_ptr += strides[3];
    }
  };
  iter.for_each(loop);
}

}  // namespace

REGISTER_DISPATCH(masked_fill_stub, &masked_fill_kernel);
REGISTER_DISPATCH(index_stub, &index_kernel);
REGISTER_DISPATCH(index_put_stub, &index_put_kernel);
REGISTER_DISPATCH(take_stub, &take_kernel);

}  // namespace at::native
