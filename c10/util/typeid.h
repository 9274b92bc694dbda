// c10/util/typeid.h - caffe2::TypeMeta, the run-time description of a tensor's element type.
// Mirrors PyTorch's c10/util/typeid.h. Guide: docs/source/internals/tensors.rst.
//
// TensorImpl stores its dtype as a TypeMeta (seed 000: the legacy storage was created
// "with caffe2::TypeMeta::Make<scalar_t>()"). In PyTorch a TypeMeta is a 16-bit index into
// a table of type descriptions whose first entries are exactly the ScalarTypes, so
// converting between the two is free; this tree keeps only those scalar entries.
#pragma once

#include <c10/core/ScalarType.h>

#include <cstdint>
#include <ostream>
#include <string>

namespace caffe2 {

class C10_API TypeMeta final {
 public:
  // Default: "no type yet" (an uninitialised tensor).
  TypeMeta() noexcept : index_(static_cast<uint16_t>(c10::ScalarType::Undefined)) {}

  template <typename T>
  static TypeMeta Make() {
    return TypeMeta(static_cast<uint16_t>(c10::CppTypeToScalarType<T>::value));
  }
  static TypeMeta fromScalarType(c10::ScalarType scalar_type) {
    return TypeMeta(static_cast<uint16_t>(scalar_type));
  }

  c10::ScalarType toScalarType() const { return static_cast<c10::ScalarType>(index_); }
  bool isScalarType() const { return index_ < static_cast<uint16_t>(c10::ScalarType::Undefined); }
  size_t itemsize() const { return isScalarType() ? c10::elementSize(toScalarType()) : 0; }
  // "float", "double", "c10::Half": the C++ element type's name, as PyTorch's TypeMeta says it.
  const char* name() const;
  uint16_t index() const { return index_; }

  template <typename T>
  bool Match() const {
    return *this == Make<T>();
  }

  friend bool operator==(TypeMeta a, TypeMeta b) noexcept { return a.index_ == b.index_; }
  friend bool operator!=(TypeMeta a, TypeMeta b) noexcept { return a.index_ != b.index_; }

 private:
  explicit TypeMeta(uint16_t index) : index_(index) {}
  uint16_t index_;
};

// PyTorch's names come from the compiler's spelling of the C++ type (c10/util/TypeIndex.h,
// __PRETTY_FUNCTION__ with GCC): int64_t is "long int", int16_t "short int", int8_t
// "signed char". They appear in messages such as "expected m1 and m2 to have the same
// dtype, but got: float != long int".
inline const char* TypeMeta::name() const {
  switch (toScalarType()) {
    case c10::ScalarType::Byte: return "unsigned char";
    case c10::ScalarType::Char: return "signed char";
    case c10::ScalarType::Short: return "short int";
    case c10::ScalarType::Int: return "int";
    case c10::ScalarType::Long: return "long int";
    case c10::ScalarType::Half: return "c10::Half";
    case c10::ScalarType::Float: return "float";
    case c10::ScalarType::Double: return "double";
    case c10::ScalarType::ComplexHalf: return "c10::complex<c10::Half>";
    case c10::ScalarType::ComplexFloat: return "c10::complex<float>";
    case c10::ScalarType::ComplexDouble: return "c10::complex<double>";
    case c10::ScalarType::Bool: return "bool";
    case c10::ScalarType::BFloat16: return "c10::BFloat16";
    default:
      return "nullptr (uninitialized)";
  }
}

inline std::ostream& operator<<(std::ostream& stream, TypeMeta meta) {
  return stream << meta.name();
}

}  // namespace caffe2

namespace c10 {
using caffe2::TypeMeta;
// ScalarType <-> TypeMeta, as PyTorch spells the conversions.
inline TypeMeta scalarTypeToTypeMeta(ScalarType scalar_type) {
  return TypeMeta::fromScalarType(scalar_type);
}
inline ScalarType typeMetaToScalarType(TypeMeta dtype) {
  return dtype.toScalarType();
}
}  // namespace c10
