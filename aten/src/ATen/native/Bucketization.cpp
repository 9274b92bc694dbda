// aten/src/ATen/native/Bucketization.cpp - searchsorted and bucketize: binary search of each
// value in a sorted sequence. Mirrors PyTorch's aten/src/ATen/native/Bucketization.cpp (and
// BucketizationUtils.h for the checks). Guide: docs/source/internals/programs/random_streams.rst.
//
// The boundaries are 1-D (shared by every value) or N-D whose leading dims match the values'
// (each row of values searches its own row of boundaries). left (default) gives the first
// index i with boundaries[i] >= value, right the first with boundaries[i] > value; written
// as !(b >= v) so a NaN value goes past every boundary, as in PyTorch.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/Resize.h>

#include <optional>
#include <string>

namespace at::native {
namespace {

void searchsorted_pre_check(const Tensor& boundaries, const Tensor& input, const Tensor& output, bool out_int32,
                            bool right, const std::optional<c10::string_view>& side_opt, const Tensor& sorter) {
  if (side_opt.has_value()) {
    const std::string side(side_opt->data(), side_opt->size());
    TORCH_CHECK(side == "left" || side == "right",
                "torch.searchsorted(): side can only be 'left' or 'right' but got ", side);
    TORCH_CHECK(!right || side == "right",
                "torch.searchsorted(): side and right can't be set to opposites, got side of ", side,
                " while right was True");
  }
  TORCH_CHECK(boundaries.device() == input.device(),
              "torch.searchsorted(): boundaries and input value tensors should have same device type, ",
              "but got boundaries tensor device type ", boundaries.device(), " and input value tensor device type ",
              input.device());
  if (sorter.defined()) {
    TORCH_CHECK(sorter.device() == boundaries.device(),
                "torch.searchsorted(): sorter and boundary tensors should have same device type, ",
                "but got sorter tensor device type ", sorter.device(), " and input value tensor device type ",
                boundaries.device());
    TORCH_CHECK(sorter.sizes() == boundaries.sizes(),
                "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor ",
                boundaries.sizes(), "and got sorter tensor ", sorter.sizes());
    TORCH_CHECK(sorter.scalar_type() == ScalarType::Long,
                "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype ", sorter.scalar_type());
    if (sorter.numel() > 0) {
      TORCH_CHECK(sorter.min().item().toLong() >= 0 && sorter.max().item().toLong() < sorter.size(-1),
                  "torch.searchsorted(): sorter index out of range");
    }
  }
  TORCH_CHECK(input.dim() > 0 || (input.dim() == 0 && input.numel() == 1 && boundaries.dim() == 1),
              "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, ",
              "but we got boundaries tensor dim(", boundaries.dim(), ") and input value's dim(", input.dim(),
              ") numel(", input.numel(), ")");
  TORCH_CHECK(boundaries.dim() != 0,
              "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension");
  TORCH_CHECK(boundaries.dim() == 1 || (boundaries.dim() == input.dim() &&
                                        boundaries.sizes().slice(0, boundaries.dim() - 1) ==
                                            input.sizes().slice(0, input.dim() - 1)),
              "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of ",
              "boundaries tensor and input value tensor must match, but we got boundaries tensor ",
              boundaries.sizes(), " and input value tensor ", input.sizes());
  const ScalarType output_dtype = output.scalar_type();
  TORCH_CHECK((output_dtype == ScalarType::Long && !out_int32) || (output_dtype == ScalarType::Int && out_int32),
              "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) ",
              "depending on whether out_int32 flag is True, but we got output tensor's dtype ", output_dtype,
              " and out_int32 flag is ", (out_int32 ? "True" : "False"));
  if (out_int32) {
    TORCH_CHECK(boundaries.size(-1) < INT32_MAX,
                "torch.searchsorted(): the size of boundaries' last dimension should be less than ", INT32_MAX,
                ", but we got ", boundaries.size(-1));
  }
}

template <typename input_t, typename output_t>
void searchsorted_kernel(Tensor& result, const Tensor& input, const Tensor& boundaries, bool right,
                         const Tensor& sorter) {
  if (input.numel() == 0) {
    return;
  }
  const input_t* in = input.const_data_ptr<input_t>();
  const input_t* bd = boundaries.const_data_ptr<input_t>();
  const int64_t* sort = sorter.defined() ? sorter.const_data_ptr<int64_t>() : nullptr;
  output_t* out = result.data_ptr<output_t>();
  const bool is_1d = boundaries.dim() == 1;
  const int64_t idim_in = is_1d ? 1 : input.size(-1);
  const int64_t idim_bd = boundaries.size(-1);
  const int64_t numel_in = input.numel();
  for (int64_t i = 0; i < numel_in; i++) {
    // Row i / idim_in of the boundaries, or the only row.
    const int64_t start_bd = is_1d ? 0 : i / idim_in * idim_bd;
    const input_t val = in[i];
    int64_t lo = start_bd, hi = start_bd + idim_bd;
    while (lo < hi) {
      const int64_t mid = lo + ((hi - lo) >> 1);
      const input_t mid_val = sort ? bd[sort[mid] + start_bd] : bd[mid];
      const bool go_right = right ? !(mid_val > val) : !(mid_val >= val);
      if (go_right) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    out[i] = static_cast<output_t>(lo - start_bd);
  }
}

}  // namespace

Tensor& searchsorted_out_cpu(const Tensor& sorted_sequence, const Tensor& self, bool out_int32, bool right,
                             const std::optional<c10::string_view> side_opt, const std::optional<Tensor>& sorter_opt,
                             Tensor& result) {
  const Tensor sorter = sorter_opt.has_value() ? *sorter_opt : Tensor();
  searchsorted_pre_check(sorted_sequence, self, result, out_int32, right, side_opt, sorter);
  at::native::resize_output(result, self.sizes());
  if (self.numel() == 0) {
    return result;
  }
  const bool is_right = right || (side_opt.has_value() && *side_opt == "right");
  // Values and boundaries are searched in their common dtype, both contiguous.
  const ScalarType common = at::result_type(sorted_sequence, self);
  const Tensor input = self.to(common).contiguous();
  const Tensor boundaries = sorted_sequence.to(common).contiguous();
  const Tensor sorter_c = sorter.defined() ? sorter.contiguous() : sorter;
  Tensor out = result.is_contiguous() ? result : at::empty(result.sizes(), result.options());
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, common, "searchsorted_out_cpu", [&] {
    if (out_int32) {
      searchsorted_kernel<scalar_t, int32_t>(out, input, boundaries, is_right, sorter_c);
    } else {
      searchsorted_kernel<scalar_t, int64_t>(out, input, boundaries, is_right, sorter_c);
    }
  });
  if (!out.is_same(result)) {
    result.copy_(out);
  }
  return result;
}

Tensor searchsorted_cpu(const Tensor& sorted_sequence, const Tensor& self, bool out_int32, bool right,
                        const std::optional<c10::string_view> side_opt, const std::optional<Tensor>& sorter_opt) {
  Tensor result = at::empty({0}, self.options().dtype(out_int32 ? kInt : kLong));
  return at::native::searchsorted_out_cpu(sorted_sequence, self, out_int32, right, side_opt, sorter_opt, result);
}

Tensor searchsorted_cpu(const Tensor& sorted_sequence, const Scalar& self, bool out_int32, bool right,
                        const std::optional<c10::string_view> side_opt, const std::optional<Tensor>& sorter_opt) {
  // A Scalar value searches as a 0-d tensor on the boundaries' device.
  const Tensor value = at::empty({}, sorted_sequence.options().dtype(self.type())).fill_(self);
  return at::native::searchsorted_cpu(sorted_sequence, value, out_int32, right, side_opt, sorter_opt);
}

// bucketize(input, boundaries) is searchsorted(boundaries, input) with 1-D boundaries.
Tensor& bucketize_out_cpu(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right, Tensor& result) {
  TORCH_CHECK(boundaries.dim() == 1, "boundaries tensor must be 1 dimension, but got dim(", boundaries.dim(), ")");
  return at::native::searchsorted_out_cpu(boundaries, self, out_int32, right, std::nullopt, std::nullopt, result);
}

Tensor bucketize_cpu(const Tensor& self, const Tensor& boundaries, bool out_int32, bool right) {
  TORCH_CHECK(boundaries.dim() == 1, "boundaries tensor must be 1 dimension, but got dim(", boundaries.dim(), ")");
  return at::native::searchsorted_cpu(boundaries, self, out_int32, right, std::nullopt, std::nullopt);
}

Tensor bucketize_cpu(const Scalar& self, const Tensor& boundaries, bool out_int32, bool right) {
  return at::native::bucketize_cpu(at::empty({}, boundaries.options().dtype(self.type())).fill_(self), boundaries,
                                   out_int32, right);
}

}  // namespace at::native
