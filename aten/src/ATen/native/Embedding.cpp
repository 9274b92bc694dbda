// aten/src/ATen/native/Embedding.cpp - embedding: a lookup of weight rows, and its backward.
// Mirrors PyTorch's aten/src/ATen/native/Embedding.cpp (embedding, embedding_backward,
// embedding_dense_backward_cpu). Guide: docs/source/internals/python_layer.rst.
//
// embedding(weight, indices) is weight[indices]: shape indices.shape + (embedding_dim,).
// Its backward adds each row of the gradient into the row of the weight it was read from
// (a scatter-add: an index used twice collects both rows). padding_idx's row gets no
// gradient; scale_grad_by_freq divides each row's gradient by how often its index occurs.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>

#include <vector>

namespace at::native {

namespace {

void check_indices(const Tensor& indices, const char* fn) {
  TORCH_CHECK(indices.scalar_type() == kLong || indices.scalar_type() == kInt,
              "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got ",
              "torch.", indices.is_cuda() ? "cuda." : "", c10::toString(indices.scalar_type()), "Tensor instead (while checking arguments for ", fn, ")");
}

}  // namespace

Tensor embedding_symint(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                        bool sparse) {
  TORCH_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  check_indices(indices, "embedding");
  const Tensor flat = indices.reshape({-1}).to(kLong);
  const int64_t rows = weight.size(0);
  if (flat.numel() > 0) {
    const int64_t lo = flat.min().item().toLong(), hi = flat.max().item().toLong();
    TORCH_CHECK_INDEX(lo >= 0 && hi < rows, "index out of range in self");
  }
  std::vector<int64_t> shape = indices.sizes().vec();
  shape.push_back(weight.size(1));
  return weight.index_select(0, flat).view(shape);
}

Tensor embedding_backward_symint(const Tensor& grad, const Tensor& indices, int64_t num_weights, int64_t padding_idx,
                                 bool scale_grad_by_freq, bool sparse) {
  TORCH_CHECK(!sparse, "embedding_backward: sparse gradients (sparse=True) are not implemented in this tree");
  return at::embedding_dense_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq);
}

Tensor embedding_dense_backward_cpu(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                    int64_t padding_idx, bool scale_grad_by_freq) {
  check_indices(indices, "embedding_backward");
  const Tensor idx = indices.reshape({-1}).to(kLong).contiguous();
  const int64_t k = idx.numel();
  const int64_t dim = grad_output.size(-1);
  const Tensor go = grad_output.reshape({k, dim}).contiguous();
  Tensor grad_weight = at::zeros({num_weights, dim}, grad_output.scalar_type(), std::nullopt, grad_output.device(), std::nullopt);
  const int64_t* ix = idx.data_ptr<int64_t>();
  std::vector<int64_t> counts;
  if (scale_grad_by_freq) {
    counts.assign(num_weights, 0);
    for (int64_t i = 0; i < k; i++) counts[ix[i]]++;
  }
  AT_DISPATCH_FLOATING_TYPES(grad_output.scalar_type(), "embedding_dense_backward", [&] {
    const scalar_t* g = go.data_ptr<scalar_t>();
    scalar_t* gw = grad_weight.data_ptr<scalar_t>();
    for (int64_t i = 0; i < k; i++) {
      const int64_t row = ix[i];
      if (row == padding_idx) continue;
      const scalar_t scale = scale_grad_by_freq ? scalar_t(1) / static_cast<scalar_t>(counts[row]) : scalar_t(1);
      for (int64_t d = 0; d < dim; d++) gw[row * dim + d] += g[i * dim + d] * scale;
    }
  });
  return grad_weight;
}

}  // namespace at::native
