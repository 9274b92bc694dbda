// c10/core/ScalarType.h - the element types of tensors (torch.float32, torch.int64, ...).
// Mirrors PyTorch's c10/core/ScalarType.h (torch/headeronly/core/ScalarType.h in 2.x).
// Guide: docs/source/internals/tensors.rst.
//
// The enum's numbering is PyTorch's. The X-macro AT_FORALL_SCALAR_TYPES_WITH_COMPLEX lists
// (C++ type, name) pairs once; element sizes, names, type traits and (in ATen) the
// AT_DISPATCH_* switch statements are all generated from it, so adding a dtype is one line.
// This is the modern ("templates") way of seed 000's "How to dispatch"; the legacy TH
// layer does the same job with per-type #include (aten/src/TH/THGenerateAllTypes.h).
#pragma once

#include <c10/util/BFloat16.h>
#include <c10/util/Exception.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>

namespace c10 {

// [marker: scalar_types]
// (C++ type, ScalarType name) for every dtype with a C++ element type here.
#define AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(_)   \
  _(uint8_t, Byte)                               \
  _(int8_t, Char)                                \
  _(int16_t, Short)                              \
  _(int, Int)                                    \
  _(int64_t, Long)                               \
  _(at::Half, Half)                              \
  _(float, Float)                                \
  _(double, Double)                              \
  _(c10::complex<c10::Half>, ComplexHalf)        \
  _(c10::complex<float>, ComplexFloat)           \
  _(c10::complex<double>, ComplexDouble)         \
  _(bool, Bool)                                  \
  _(at::BFloat16, BFloat16)
// [end marker: scalar_types]

enum class ScalarType : int8_t {
  Byte = 0,           // torch.uint8
  Char = 1,           // torch.int8
  Short = 2,          // torch.int16
  Int = 3,            // torch.int32
  Long = 4,           // torch.int64
  Half = 5,           // torch.float16
  Float = 6,          // torch.float32
  Double = 7,         // torch.float64
  ComplexHalf = 8,    // torch.complex32
  ComplexFloat = 9,   // torch.complex64
  ComplexDouble = 10, // torch.complex128
  Bool = 11,          // torch.bool
  // 12-14 are PyTorch's quantized types (QInt8, QUInt8, QInt32); this tree has no
  // quantization, but keeps the numbers so every value means what it means in PyTorch.
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,      // torch.bfloat16
  Undefined,
  NumOptions
};

constexpr int kNumScalarTypes = static_cast<int>(ScalarType::NumOptions);

// at::kFloat and friends: the short names C++ code uses for dtypes.
#define DEFINE_CONSTANT(_, name) constexpr ScalarType k##name = ScalarType::name;
AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(DEFINE_CONSTANT)
#undef DEFINE_CONSTANT

namespace impl {
// ScalarTypeToCPPType<ScalarType::Float>::type is float.
template <ScalarType N>
struct ScalarTypeToCPPType;
#define SPECIALIZE_ScalarTypeToCPPType(cpp_type, scalar_type) \
  template <>                                                 \
  struct ScalarTypeToCPPType<ScalarType::scalar_type> {       \
    using type = cpp_type;                                    \
  };
AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(SPECIALIZE_ScalarTypeToCPPType)
#undef SPECIALIZE_ScalarTypeToCPPType
}  // namespace impl

template <ScalarType N>
using ScalarTypeToCPPTypeT = typename impl::ScalarTypeToCPPType<N>::type;

// CppTypeToScalarType<float>::value is ScalarType::Float.
template <typename T>
struct CppTypeToScalarType;
#define SPECIALIZE_CppTypeToScalarType(cpp_type, scalar_type)           \
  template <>                                                           \
  struct CppTypeToScalarType<cpp_type> {                                \
    static constexpr ScalarType value = ScalarType::scalar_type;        \
  };
AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(SPECIALIZE_CppTypeToScalarType)
#undef SPECIALIZE_CppTypeToScalarType

// The C++ enum name: "Float", "Long", "BFloat16" (what PyTorch prints in C++ messages).
C10_API const char* toString(ScalarType t);
// Bytes per element.
C10_API size_t elementSize(ScalarType t);
// The Python names: {"float32", "float"}, {"int64", "long"}, {"uint8", ""}.
C10_API std::pair<std::string, std::string> getDtypeNames(ScalarType t);

constexpr bool isIntegralType(ScalarType t, bool includeBool) {
  return t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Short ||
         t == ScalarType::Int || t == ScalarType::Long || (includeBool && t == ScalarType::Bool);
}
constexpr bool isFloatingType(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::Float || t == ScalarType::Double ||
         t == ScalarType::BFloat16;
}
constexpr bool isComplexType(ScalarType t) {
  return t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat ||
         t == ScalarType::ComplexDouble;
}
constexpr bool isQIntType(ScalarType t) {
  return t == ScalarType::QInt8 || t == ScalarType::QUInt8 || t == ScalarType::QInt32;
}
constexpr bool isReducedFloatingType(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16;
}
// torch.dtype.is_signed: true for signed integers, floats and complex; false for uint8, bool.
constexpr bool isSignedType(ScalarType t) {
  return !(t == ScalarType::Byte || t == ScalarType::Bool || t == ScalarType::QUInt8);
}

// complex64 -> float32, float32 -> float32 (torch.dtype.to_real()).
C10_API ScalarType toRealValueType(ScalarType t);
// float32 -> complex64 (torch.dtype.to_complex()).
C10_API ScalarType toComplexType(ScalarType t);

// The type both operands are converted to before a binary operation (torch.promote_types).
// Category order bool < integral < floating < complex; within a category the wider type;
// uint8 with int8 gives int16; float16 with bfloat16 gives float32.
C10_API ScalarType promoteTypes(ScalarType a, ScalarType b);

// Whether a value of type `from` may be written to a tensor of type `to` by an operation that
// computes in `from` (torch.can_cast; TensorIterator's enforce_safe_casting_to_output). Not
// numpy's "safe": wider-to-narrower within a category is fine (float64 result into float32 out),
// but never down a category (complex -> real, floating -> integral, anything -> bool), so that
// int_tensor += 0.5 is an error rather than a silent truncation. Bool is its own category,
// consistent with promotion (bool_tensor + 5 is int64, so bool_tensor += 5 is refused).
constexpr bool canCast(ScalarType from, ScalarType to) {
  if (isComplexType(from) && !isComplexType(to)) {
    return false;
  }
  if (isFloatingType(from) && isIntegralType(to, /*includeBool=*/false)) {
    return false;
  }
  if (from != ScalarType::Bool && to == ScalarType::Bool) {
    return false;
  }
  return true;
}

C10_API std::ostream& operator<<(std::ostream& stream, ScalarType scalar_type);

}  // namespace c10

namespace at {
using c10::ScalarType;
using c10::kByte;
using c10::kChar;
using c10::kShort;
using c10::kInt;
using c10::kLong;
using c10::kHalf;
using c10::kFloat;
using c10::kDouble;
using c10::kComplexHalf;
using c10::kComplexFloat;
using c10::kComplexDouble;
using c10::kBool;
using c10::kBFloat16;
}  // namespace at
