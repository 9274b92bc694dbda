// aten/src/ATen/LegacyTHFunctionsCPU.cpp - ATen operators whose CPU kernel is a legacy TH
// function: torch._th_fill_ and torch._th_sum (native_functions.yaml, "legacy TH" section).
// PyTorch generated this file from the TH declarations until it deleted TH in 1.11; it
// mirrors aten/src/ATen/LegacyTHFunctionsCPU.cpp of PyTorch 1.10. Guide: docs/source/internals/th_storage.rst.
//
// A native kernel works on at::Tensor and picks the element type with AT_DISPATCH_*
// (templates). A legacy kernel switches on the dtype by hand and calls the TH function
// the macros generated for that type, on the TensorImpl (a THTensor).
#include <ATen/EmptyTensor.h>
#include <ATen/NativeFunctions.h>
#include <TH/TH.h>

namespace at::native {
namespace {

// Legacy TH saw dense CPU tensors only; name the argument the way the generated code did.
THTensor* checked_dense_tensor_unwrap(const Tensor& expr, const char* name, int pos, const char* api) {
  TORCH_CHECK(expr.is_cpu(), "Expected object of device type cpu but got device type ", expr.device().type(),
              " for argument #", pos, " '", name, "' in call to ", api);
  return expr.unsafeGetTensorImpl();
}

}  // namespace

// [marker: _th_fill_]
Tensor& _th_fill_(Tensor& self, const Scalar& value) {
  THTensor* self_ = checked_dense_tensor_unwrap(self, "self", 1, "_th_fill_");
  switch (self.scalar_type()) {
    case ScalarType::Byte: THByteTensor_fill(self_, value.to<uint8_t>()); break;
    case ScalarType::Char: THCharTensor_fill(self_, value.to<int8_t>()); break;
    case ScalarType::Short: THShortTensor_fill(self_, value.to<int16_t>()); break;
    case ScalarType::Int: THIntTensor_fill(self_, value.to<int32_t>()); break;
    case ScalarType::Long: THLongTensor_fill(self_, value.to<int64_t>()); break;
    case ScalarType::Float: THFloatTensor_fill(self_, value.to<float>()); break;
    case ScalarType::Double: THDoubleTensor_fill(self_, value.to<double>()); break;
    default:
      TORCH_CHECK(false, "_th_fill_ not supported on CPUType for ", self.scalar_type());
  }
  return self;
}
// [end marker: _th_fill_]

// The sum comes back in accreal (double for Float, int64_t for the integers), so the
// result is a 0-dim tensor of the input's floating type, or int64 for integers, as torch.sum.
Tensor _th_sum(const Tensor& self) {
  THTensor* self_ = checked_dense_tensor_unwrap(self, "self", 1, "_th_sum");
  auto result_of = [&](ScalarType dtype) { return Tensor(at::detail::empty_cpu({}, dtype, std::nullopt)); };
  switch (self.scalar_type()) {
#define TH_SUM_CASE(Real, ctype, RESULT)                                                  \
  case ScalarType::Real: {                                                                \
    Tensor result = result_of(ScalarType::RESULT);                                        \
    *static_cast<ctype*>(result.unsafeGetTensorImpl()->mutable_data()) =                  \
        static_cast<ctype>(TH##Real##Tensor_sumall(self_));                               \
    return result;                                                                        \
  }
    TH_SUM_CASE(Byte, int64_t, Long)
    TH_SUM_CASE(Char, int64_t, Long)
    TH_SUM_CASE(Short, int64_t, Long)
    TH_SUM_CASE(Int, int64_t, Long)
    TH_SUM_CASE(Long, int64_t, Long)
    TH_SUM_CASE(Float, float, Float)
    TH_SUM_CASE(Double, double, Double)
#undef TH_SUM_CASE
    default:
      TORCH_CHECK(false, "_th_sum not supported on CPUType for ", self.scalar_type());
  }
}

}  // namespace at::native
